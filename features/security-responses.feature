# Resources and their fields > Security check results.
@requires:security
Feature: Security check results
  securityresponseaddress, securityresponsepostcode and securityresponsesecuritycode are each one digit: 0 not
  given, 1 not checked, 2 matched, 4 not matched.

  @rule:SEC-RESULT-DIGIT @type:ACCOUNTCHECK
  Scenario Outline: The bank's result for the <field>: <result> gives <digit>
    When the merchant sends "Account check" with the "authorised" card and:
      | <field> | <<result>> |
    Then the ACCOUNTCHECK's <response> is "<digit>"

    @rule:SEC-RESULT-2
    Examples: matched
      | field           | result  | response                     | digit |
      | billingpremise  | matched | securityresponseaddress      | 2     |
      | billingpostcode | matched | securityresponsepostcode     | 2     |
      | securitycode    | matched | securityresponsesecuritycode | 2     |

    @rule:SEC-RESULT-4
    Examples: not matched
      | field           | result      | response                     | digit |
      | billingpremise  | not matched | securityresponseaddress      | 4     |
      | billingpostcode | not matched | securityresponsepostcode     | 4     |
      | securitycode    | not matched | securityresponsesecuritycode | 4     |

    @rule:SEC-RESULT-1
    Examples: not checked
      | field           | result      | response                     | digit |
      | billingpremise  | not checked | securityresponseaddress      | 1     |
      | billingpostcode | not checked | securityresponsepostcode     | 1     |
      | securitycode    | not checked | securityresponsesecuritycode | 1     |

    @rule:SEC-RESULT-0 @rule:FIELD-SECURITYCODE-OPTIONAL
    Examples: not given
      | field           | result    | response                     | digit |
      | billingpremise  | not given | securityresponseaddress      | 0     |
      | billingpostcode | not given | securityresponsepostcode     | 0     |
      | securitycode    | not given | securityresponsesecuritycode | 0     |
