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

  @rule:INHERIT-EXTRA-FIELDS @requires:security @type:AUTH @type:ACCOUNTCHECK
  Scenario: Extra fields may be added to the child that the parent lacked: an account check on a payment checks the postcode it adds
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <omit>    |
    And the merchant sends "Account check" with the parent the AUTH and:
      | billingpostcode | <matched> |
    Then the ACCOUNTCHECK succeeded
    And the ACCOUNTCHECK's securityresponsepostcode is "2"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @requires:security @type:AUTH
  Scenario: A grandchild inherits through its parent what its parent inherited: the billing data of the first request
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the second AUTH
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the second AUTH as the third AUTH
    Then the third AUTH succeeded
    And the third AUTH's securityresponseaddress is "2"
    And the third AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @rule:3DS-STORED-CARD @rule:3DS-AUTH-NOT-ENROLLED @requires:cardstore @requires:security @requires:card:notEnrolled @type:STORE @type:THREEDQUERY @type:AUTH
  Scenario: The AUTH after 3-D Secure on a stored card inherits the STORE's billing data through the THREEDQUERY
    When the merchant sends "Card store" with the "not enrolled" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "3-D Secure enrolment check" with the parent the STORE
    And the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's securityresponseaddress is "2"
    And the AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @rule:RISKDEC-AFTER-PAYMENT @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario: A risk decision after a payment inherits the payment's card
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the RISKDEC succeeded
    And the RISKDEC's parenttransactionreference is the AUTH's transactionreference

  # "A later request inherits details ... from an earlier one": an earlier request the bank declined is one too. A
  # child with a card of its own is taken on it, names it, and inherits its billing.
  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:INHERIT-PARENT-ECHO @requires:card:declined @requires:card:notEnrolled @requires:security @type:AUTH
  Scenario: A child of a payment the bank declined (70000) is taken on it with a card of its own, and inherits its billing
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "declined" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    Then the AUTH has errorcode "70000"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH and the "not enrolled" card as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's parenttransactionreference is the AUTH's transactionreference
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  # "Echoed from the request": what the child request sent, where it sent a value of its own over its parent's.
  @rule:FIELD-ECHO @rule:INHERIT-CHILD @type:AUTH
  Scenario Outline: A child that sends its own <field> over its parent's is answered with its own
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | <field> | <parent's> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the child AUTH and:
      | <field> | <child's> |
    Then the child AUTH succeeded
    And the child AUTH echoes `<field>`

    Examples:
      | field                  | parent's | child's |
      | baseamount             | 1050     | 2000    |
      | accounttypedescription | ECOM     | MOTO    |

  @rule:FIELD-ECHO @rule:INHERIT-CHILD @type:AUTH
  Scenario: A child that sends its own currencyiso3a over its parent's other currency is answered with its own
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card in a currency other than the profile's
    Then the AUTH succeeded, unless the target does not take that currency
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH in the profile's currency as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH echoes `currencyiso3a`

  # ---- generated inheritance-by-parent: written by `npm run scenarios` from schemas/operations.ts and schemas/errors.ts (60025) (src/suite/generated); do not edit by hand
  # A payment on a parent of each type that takes the card itself, for each group of inherited fields its row carries,
  # and a child whose own values differ from its parent's.

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:INHERIT-PARENT-ECHO @rule:FIELD-PARENT @rule:FIELD-TRANSACTIONREFERENCE @rule:AUTH-AUTHORISE @type:AUTH
  Scenario: A payment inherits the card of its parent, a "Ordinary AUTH without 3-D Secure"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's parenttransactionreference is the AUTH's transactionreference
    And the child AUTH was made with the "authorised" card

  @rule:INHERIT-CHILD @requires:card:notEnrolled @type:AUTH
  Scenario: A payment with a card of its own on a parent, a "Ordinary AUTH without 3-D Secure", is made with its own card
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH and the "not enrolled" card as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH was made with the "not enrolled" card

  @rule:INHERIT-CHILD @requires:security @type:AUTH
  Scenario: A payment inherits the billing details of its parent, a "Ordinary AUTH without 3-D Secure"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @requires:security @type:AUTH
  Scenario: A payment whose own billing details differ from its parent's, a "Ordinary AUTH without 3-D Secure", is checked with its own
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the child AUTH and:
      | billingpremise  | <not matched> |
      | billingpostcode | <not matched> |
    Then the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "4"
    And the child AUTH's securityresponsepostcode is "4"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @requires:security @type:AUTH
  Scenario: A payment on a "Ordinary AUTH without 3-D Secure" made on a "Ordinary AUTH without 3-D Secure" inherits the billing details of the "Ordinary AUTH without 3-D Secure"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the middle AUTH
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the middle AUTH as the child AUTH
    Then the middle AUTH succeeded
    And the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:STORE-STATE-ENABLED @requires:cardstore @requires:security @type:AUTH @type:STORE
  Scenario: A payment on a "Card store" made on a "Ordinary AUTH without 3-D Secure" inherits the billing details of the "Ordinary AUTH without 3-D Secure"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Card store" with the parent the AUTH as the middle STORE
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the middle STORE as the child AUTH
    Then the middle STORE succeeded
    And the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @rule:ERR-60025 @requires:mcc6012 @type:AUTH
  Scenario: A payment inherits the customer fields of its parent, a "Ordinary AUTH without 3-D Secure": the fields category 6012 mandates were sent
    Given the merchant's site has the merchant category code 6012
    And the merchant adds the fields mandated for category 6012 to each request
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant no longer adds the fields mandated for category 6012
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the child AUTH
    Then the child AUTH succeeded

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:INHERIT-PARENT-ECHO @rule:FIELD-PARENT @rule:FIELD-TRANSACTIONREFERENCE @rule:AUTH-AUTHORISE @rule:AC-INHERITED @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment inherits the card of its parent, a "Account check"
    When the merchant sends "Account check" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's parenttransactionreference is the ACCOUNTCHECK's transactionreference
    And the child AUTH was made with the "authorised" card

  @rule:INHERIT-CHILD @rule:AC-INHERITED @requires:card:notEnrolled @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment with a card of its own on a parent, a "Account check", is made with its own card
    When the merchant sends "Account check" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK and the "not enrolled" card as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH was made with the "not enrolled" card

  @rule:INHERIT-CHILD @rule:AC-INHERITED @requires:security @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment inherits the billing details of its parent, a "Account check"
    When the merchant sends "Account check" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @rule:AC-INHERITED @requires:security @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment whose own billing details differ from its parent's, a "Account check", is checked with its own
    When the merchant sends "Account check" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK as the child AUTH and:
      | billingpremise  | <not matched> |
      | billingpostcode | <not matched> |
    Then the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "4"
    And the child AUTH's securityresponsepostcode is "4"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:AC-INHERITED @requires:security @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment on a "Ordinary AUTH without 3-D Secure" made on a "Account check" inherits the billing details of the "Account check"
    When the merchant sends "Account check" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK as the middle AUTH
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the middle AUTH as the child AUTH
    Then the middle AUTH succeeded
    And the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:AC-INHERITED @rule:STORE-STATE-ENABLED @requires:cardstore @requires:security @type:ACCOUNTCHECK @type:STORE @type:AUTH
  Scenario: A payment on a "Card store" made on a "Account check" inherits the billing details of the "Account check"
    When the merchant sends "Account check" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Card store" with the parent the ACCOUNTCHECK as the middle STORE
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the middle STORE as the child AUTH
    Then the middle STORE succeeded
    And the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @rule:ERR-60025 @rule:AC-INHERITED @requires:mcc6012 @type:ACCOUNTCHECK @type:AUTH
  Scenario: A payment inherits the customer fields of its parent, a "Account check": the fields category 6012 mandates were sent
    Given the merchant's site has the merchant category code 6012
    And the merchant adds the fields mandated for category 6012 to each request
    When the merchant sends "Account check" with the "authorised" card
    And the merchant no longer adds the fields mandated for category 6012
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the ACCOUNTCHECK as the child AUTH
    Then the child AUTH succeeded

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:INHERIT-PARENT-ECHO @rule:FIELD-PARENT @rule:FIELD-TRANSACTIONREFERENCE @rule:AUTH-AUTHORISE @requires:cardstore @type:STORE @type:AUTH
  Scenario: A payment inherits the card of its parent, a "Card store"
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's parenttransactionreference is the STORE's transactionreference
    And the child AUTH was made with the "authorised" card

  @rule:INHERIT-CHILD @requires:cardstore @requires:card:notEnrolled @type:STORE @type:AUTH
  Scenario: A payment with a card of its own on a parent, a "Card store", is made with its own card
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE and the "not enrolled" card as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH was made with the "not enrolled" card

  @rule:INHERIT-CHILD @requires:cardstore @requires:security @type:STORE @type:AUTH
  Scenario: A payment inherits the billing details of its parent, a "Card store"
    When the merchant sends "Card store" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-CHILD @requires:cardstore @requires:security @type:STORE @type:AUTH
  Scenario: A payment whose own billing details differ from its parent's, a "Card store", is checked with its own
    When the merchant sends "Card store" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE as the child AUTH and:
      | billingpremise  | <not matched> |
      | billingpostcode | <not matched> |
    Then the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "4"
    And the child AUTH's securityresponsepostcode is "4"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @requires:cardstore @requires:security @type:STORE @type:AUTH
  Scenario: A payment on a "Ordinary AUTH without 3-D Secure" made on a "Card store" inherits the billing details of the "Card store"
    When the merchant sends "Card store" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE as the middle AUTH
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the middle AUTH as the child AUTH
    Then the middle AUTH succeeded
    And the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:STORE-STATE-ENABLED @requires:cardstore @requires:security @type:STORE @type:AUTH
  Scenario: A payment on a "Card store" made on a "Card store" inherits the billing details of the "Card store"
    When the merchant sends "Card store" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Card store" with the parent the STORE as the middle STORE
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the middle STORE as the child AUTH
    Then the middle STORE succeeded
    And the child AUTH succeeded
    And the child AUTH's securityresponseaddress is "2"
    And the child AUTH's securityresponsepostcode is "2"

  @rule:INHERIT-PARENT @rule:INHERIT-CHILD @rule:INHERIT-PARENT-ECHO @rule:FIELD-PARENT @rule:FIELD-TRANSACTIONREFERENCE @rule:AUTH-AUTHORISE @requires:fraudcontrol @type:RISKDEC @type:AUTH
  Scenario: A payment inherits the card of its parent, a "Risk decision on card data"
    When the merchant sends "Risk decision on card data" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the RISKDEC as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH's parenttransactionreference is the RISKDEC's transactionreference
    And the child AUTH was made with the "authorised" card

  @rule:INHERIT-CHILD @requires:fraudcontrol @requires:card:notEnrolled @type:RISKDEC @type:AUTH
  Scenario: A payment with a card of its own on a parent, a "Risk decision on card data", is made with its own card
    When the merchant sends "Risk decision on card data" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the RISKDEC and the "not enrolled" card as the child AUTH
    Then the child AUTH succeeded
    And the child AUTH was made with the "not enrolled" card
  # ---- end of generated inheritance-by-parent
