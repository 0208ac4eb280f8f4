# What the service does (ACCOUNTCHECK); Endpoints > Request types; Rules tied to the operations, 4; Errors.
Feature: ACCOUNTCHECK
  ACCOUNTCHECK validates address, postcode and security code without reserving funds. baseamount may be 0. The
  answer is one part shaped as an AUTH part, with requesttypedescription ACCOUNTCHECK. Fields sent in an
  ACCOUNTCHECK are inherited by its child requests.

  @rule:AC-SHAPE @rule:AC-VALIDATES @rule:ERR-0 @requires:security @type:ACCOUNTCHECK
  Scenario: An account check of amount 0 validates address, postcode and security code
    When the merchant sends "Account check" with the "authorised" card and:
      | baseamount      | 0          |
      | billingpremise  | <matched>  |
      | billingpostcode | <matched>  |
      | securitycode    | <matched>  |
    Then the ACCOUNTCHECK succeeded
    And the response has 1 part: ACCOUNTCHECK
    And the ACCOUNTCHECK's requesttypedescription is "ACCOUNTCHECK"
    And the ACCOUNTCHECK holds `transactionreference`, `maskedpan`, `securityresponseaddress`, `securityresponsepostcode` and `securityresponsesecuritycode`
    And the ACCOUNTCHECK's securityresponseaddress is "2"
    And the ACCOUNTCHECK's securityresponsepostcode is "2"
    And the ACCOUNTCHECK's securityresponsesecuritycode is "2"

  @rule:FIELD-ECHO @type:ACCOUNTCHECK
  Scenario: An account check of amount 0 echoes its baseamount 0 as sent
    When the merchant sends "Account check" with the "authorised" card and:
      | baseamount | 0 |
    Then the ACCOUNTCHECK succeeded
    And the ACCOUNTCHECK echoes `baseamount`, `currencyiso3a`, `orderreference` and `accounttypedescription`

  @rule:AC-INHERITED @rule:INHERIT-CHILD @rule:FIELD-PARENT @requires:security @type:ACCOUNTCHECK @type:AUTH
  Scenario: Fields sent in an ACCOUNTCHECK are inherited by its child requests
    When the merchant sends "Account check" with the "authorised" card and:
      | baseamount      | 0         |
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK
    Then the AUTH succeeded
    And the AUTH's parenttransactionreference is the ACCOUNTCHECK's transactionreference
    And the AUTH's maskedpan is the ACCOUNTCHECK's maskedpan
    And the AUTH's securityresponseaddress is "2"
    And the AUTH's securityresponsepostcode is "2"

  @rule:AC-INHERITED @rule:INHERIT-CHILD @type:ACCOUNTCHECK @type:THREEDQUERY
  Scenario: A THREEDQUERY on an account check inherits the currency, the amount and the card the check sent
    When the merchant sends "Account check" with the "authorised" card and:
      | baseamount | 1050 |
    And the merchant sends "3-D Secure enrolment check" with the parent the ACCOUNTCHECK and:
      | currencyiso3a | <omit> |
      | baseamount    | <omit> |
    Then the THREEDQUERY succeeded
    And the THREEDQUERY's parenttransactionreference is the ACCOUNTCHECK's transactionreference

  @rule:FIELD-BASEAMOUNT-POSITIVE @rule:AC-INHERITED @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment on an account check of amount 0 inherits the 0, which only ACCOUNTCHECK allows: the AUTH fails
    When the merchant sends "Account check" with the "authorised" card and:
      | baseamount | 0 |
    Then the ACCOUNTCHECK succeeded
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK and:
      | baseamount | <omit> |
    Then the AUTH failed

  @rule:AUTH-BANK-CONTACTED @rule:AC-VALIDATES @requires:card:declined @type:ACCOUNTCHECK
  Scenario: An account check the bank declines fails, and carries the bank's response code
    When the merchant sends "Account check" with the "declined" card
    Then the ACCOUNTCHECK failed
    And the ACCOUNTCHECK holds `acquirerresponsecode`

  @rule:ERR-60025 @requires:mcc6012 @type:ACCOUNTCHECK @type:AUTH
  Scenario Outline: <operation> on a category 6012 site with the additional fields is not refused with 60025
    Given the merchant's site has the merchant category code 6012
    And the merchant adds the fields mandated for category 6012 to each request
    When the merchant sends "<operation>" with the "authorised" card
    Then the <type> succeeded

    Examples:
      | operation                        | type         |
      | Account check                    | ACCOUNTCHECK |
      | Ordinary AUTH without 3-D Secure | AUTH         |

  @rule:AC-SHAPE @type:AUTH @type:ACCOUNTCHECK
  Scenario Outline: An account check of amount <amount> is shaped as an AUTH part: it holds every field an AUTH on the same card holds
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Account check" with the "authorised" card and:
      | baseamount | <amount> |
    Then the AUTH succeeded
    And the ACCOUNTCHECK succeeded
    And the ACCOUNTCHECK holds every field the AUTH holds

    Examples:
      | amount |
      | 0      |
      | 1050   |
