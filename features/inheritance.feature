# What the service does, 4; Endpoints > Rules tied to the operations, 4; Common request and response fields.
Feature: Inheritance
  A later request inherits details (card, billing, delivery, other submitted fields) from an earlier one when it
  carries that earlier request's transactionreference in parenttransactionreference. Extra fields may be added
  to the child that the parent lacked.

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:INHERIT-PARENT-ECHO @rule:FIELD-PARENT @rule:FIELD-TRANSACTIONREFERENCE @requires:security @type:AUTH
  Scenario: A child request inherits the card and the billing data of its parent
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the second AUTH
    Then the second AUTH succeeded
    And the second AUTH's parenttransactionreference is the AUTH's transactionreference
    And the second AUTH's maskedpan is the AUTH's maskedpan
    And the second AUTH's securityresponseaddress is "2"
    And the second AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-EXTRA-FIELDS @requires:security @type:AUTH
  Scenario: Extra fields may be added to the child that the parent lacked
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <omit>    |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the second AUTH and:
      | billingpostcode | <matched> |
    Then the second AUTH succeeded
    And the second AUTH's securityresponseaddress is "2"
    And the second AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @rule:RISKDEC-AFTER-PAYMENT @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario: A risk decision after a payment inherits the payment's card
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the RISKDEC succeeded
    And the RISKDEC's parenttransactionreference is the AUTH's transactionreference
