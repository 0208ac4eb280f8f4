# What the service does (STORE); Resources and their fields > STORE response fields; States and transitions >
# Card store; Endpoints > Request types (Card store, Query of stored details).
@requires:cardstore
Feature: Card store
  STORE stores card and billing details for later use. The acquiring bank is not contacted. The security code is
  never stored. The stored card is enabled (1) or disabled (0) for future requests by TRANSACTIONUPDATE.

  @rule:STORE-SHAPE @rule:STORE-RESPONSE-FIELDS @rule:STORE-STATE-ENABLED @rule:STORE-NO-BANK @type:STORE
  Scenario: A STORE answers one STORE part, enabled, with the card masked, without contacting the bank
    When the merchant sends "Card store" with the "authorised" card
    Then the STORE succeeded
    And the response has 1 part: STORE
    And the STORE holds `transactionreference`, `transactionactive`, `requesttypedescription`, `orderreference`, `accounttypedescription`, `maskedpan`, `paymenttypedescription`, `issuer`, `issuercountryiso2a`, `merchantname`, `operatorname`, `livestatus`, `transactionstartedtimestamp`, `errorcode` and `errormessage`
    And the STORE's transactionactive is "1"
    And the STORE's accounttypedescription is "CARDSTORE"
    And the STORE's maskedpan masks the "authorised" card
    And the STORE does not hold `authcode` or `acquirerresponsecode`

  @rule:STORE-KEEPS-CARD @rule:INHERIT-CHILD @rule:STORE-STATE-ENABLED @type:STORE @type:AUTH
  Scenario: The stored card number and expiry date are kept: a payment inherits them
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE
    Then the AUTH succeeded
    And the AUTH's maskedpan is the STORE's maskedpan

  @rule:STORE-DETAILS @rule:INHERIT-CHILD @requires:security @type:STORE @type:AUTH
  Scenario: STORE keeps the billing details: a payment on the stored card inherits them
    When the merchant sends "Card store" with the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE
    Then the AUTH succeeded
    And the AUTH's securityresponseaddress is "2"
    And the AUTH's securityresponsepostcode is "2"

  @rule:STORE-KEEPS-CARD @rule:STORE-NO-BANK @rule:SEC-RESULT-0 @type:STORE @type:AUTH
  Scenario: The security code is not kept: a payment on the stored card gives the bank no security code
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE
    Then the AUTH's securityresponsesecuritycode is "0"

  @rule:STORE-QUERY-MASKED @rule:STORE-KEEPS-CARD @rule:FIELD-MASKEDPAN @requires:transactionquery @type:STORE @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the STORE returns the card number masked, and no security code
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the STORE
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the STORE
    And the queried STORE's maskedpan masks the "authorised" card
    And the queried STORE does not hold `pan` or `securitycode`

  @rule:STORE-QUERY-MASKED @rule:FIELD-MASKEDPAN @requires:transactionquery @type:STORE @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY that identifies the STORE by its orderreference returns the card number masked too
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the STORE by its orderreference
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the STORE
    And the queried STORE's maskedpan masks the "authorised" card

  # The payments on a stored card read back by the public filter `parenttransactionreference` (how a query identifies
  # what it returns is not shown): "Responses return a masked form in `maskedpan`, with the middle digits replaced by
  # `#`", the records of any query included.
  @rule:FIELD-MASKEDPAN @requires:transactionquery @type:STORE @type:AUTH @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the payments on the stored card, by their parenttransactionreference, returns their card numbers masked
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE
    And the merchant sends a TRANSACTIONQUERY of the children of the STORE
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the AUTH
    And the queried AUTH's maskedpan masks the "authorised" card

  @rule:STORE-STATE-DISABLE @rule:STORE-STATE-REENABLE @requires:transactionupdate @type:STORE @type:TRANSACTIONUPDATE @type:AUTH @type:ACCOUNTCHECK
  Scenario: TRANSACTIONUPDATE disables the stored card for future requests (0) and enables it again (1)
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONUPDATE of the STORE and:
      | transactionactive | 0 |
    Then the TRANSACTIONUPDATE succeeded
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE
    Then the AUTH failed
    When the merchant sends "Account check" with the parent the STORE
    Then the ACCOUNTCHECK failed
    When the merchant sends a TRANSACTIONUPDATE of the STORE and:
      | transactionactive | 1 |
    Then the TRANSACTIONUPDATE succeeded
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE
    Then the AUTH succeeded

  @rule:STORE-STATE-DISABLE @rule:STORE-STATE-REENABLE @requires:transactionupdate @requires:transactionquery @type:STORE @type:TRANSACTIONUPDATE @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY after each update shows the stored card disabled (0), then enabled again (1)
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONUPDATE of the STORE and:
      | transactionactive | 0 |
    And the merchant sends a TRANSACTIONQUERY of the STORE
    Then the TRANSACTIONQUERY found the STORE
    And the queried STORE's transactionactive is "0"
    When the merchant sends a TRANSACTIONUPDATE of the STORE and:
      | transactionactive | 1 |
    And the merchant sends a TRANSACTIONQUERY of the STORE
    Then the TRANSACTIONQUERY found the STORE
    And the queried STORE's transactionactive is "1"

  @rule:STORE-STATE-ENABLED @rule:INHERIT-PARENT @rule:INHERIT-PARENT-ECHO @type:AUTH @type:STORE
  Scenario: A STORE may take its card from an earlier request: it names its parent and is enabled for later payments
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Card store" with the parent the AUTH
    Then the STORE succeeded
    And the STORE's parenttransactionreference is the AUTH's transactionreference
    And the STORE's transactionactive is "1"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the STORE as the child AUTH
    Then the child AUTH succeeded

  @rule:SEC-FEATURES-ENABLED @requires:featuresOff @type:STORE
  Scenario: Card store must be enabled on the account by the provider
    Given the merchant's site does not have card store and fraud control enabled
    When the merchant sends "Card store" with the "authorised" card
    Then the STORE failed
