# What the service does (AUTH); Resources and their fields > Common request fields, Common response fields;
# Endpoints > Rules tied to the operations, 1 (the ordinary AUTH without 3-D Secure).
Feature: AUTH
  AUTH asks the acquiring bank to authorise a payment. Funds are reserved when the response is successful.

  @rule:AUTH-AUTHORISE @rule:ERR-0 @rule:AUTH-BANK-CONTACTED @errorcode:0 @type:AUTH
  Scenario: The acquiring bank authorises a payment
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH succeeded
    And the AUTH's errormessage is "Ok"
    And the AUTH holds `authcode` and `acquirerresponsecode`

  @rule:FIELD-ECHO @type:AUTH
  Scenario: baseamount, currencyiso3a, orderreference and accounttypedescription are echoed from the request
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | orderreference | cardspec echo test |
    Then the AUTH echoes `baseamount`, `currencyiso3a`, `orderreference` and `accounttypedescription`

  @rule:FIELD-MASKEDPAN @type:AUTH
  Scenario: The response returns the card number masked, the middle digits replaced by #
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH's maskedpan masks the "authorised" card

  @rule:FIELD-ACCOUNTTYPE-PAYMENTS @type:AUTH
  Scenario Outline: accounttypedescription <account> is taken for payments
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | accounttypedescription | <account> |
    Then the AUTH succeeded
    And the AUTH's accounttypedescription is "<account>"

    Examples:
      | account |
      | ECOM    |
      | MOTO    |

  @rule:ERR-NONZERO-FAILED @type:AUTH
  Scenario: A payment the bank declines is a failed part
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "declined" card
    Then the AUTH failed
    And the AUTH's errormessage is not "Ok"
