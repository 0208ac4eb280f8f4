# Endpoints > Transport (the XML request block); Versioning, 2; the XML locations of Security check results and
# RISKDEC response fields. These scenarios run in the XML run only; every other feature runs over XML too.
@format:xml
Feature: The XML envelope
  The same operations are also offered as an XML request block: root requestblock with a version attribute,
  alias, request with a type attribute, and sub-blocks merchant, billing and operation. The response root is
  responseblock. Both blocks carry the version 3.67.

  @rule:XML-REQUEST-BLOCK @rule:XML-RESPONSE-ROOT @rule:VER-XML @requires:security @type:ACCOUNTCHECK
  Scenario: An XML request block is answered with a responseblock, both version 3.67
    When the merchant sends "Account check" with the "authorised" card and:
      | orderreference | cardspec xml |
    Then the ACCOUNTCHECK succeeded
    And the XML request's root was "requestblock" with the version "3.67"
    And the XML request held `/alias`, `/request/@type`, `/request/merchant/orderreference`, `/request/billing/amount/@currencycode`, `/request/billing/payment`, `/request/billing/postcode`, `/request/billing/premise`, `/request/operation/accounttypedescription` and `/request/operation/sitereference`
    And the XML answer's root is "responseblock" with the version "3.67"

  @rule:XML-REQUEST-BLOCK @requires:security @type:ACCOUNTCHECK
  Scenario: The target reads the request block's merchant, billing (amount and currencycode, payment, postcode, premise) and operation
    When the merchant sends "Account check" with the "authorised" card and:
      | orderreference  | cardspec xml read |
      | billingpremise  | <matched>         |
      | billingpostcode | <matched>         |
    Then the ACCOUNTCHECK succeeded
    And the ACCOUNTCHECK echoes `orderreference`, `baseamount`, `currencyiso3a` and `accounttypedescription` as the XML request block carried them
    And the ACCOUNTCHECK's securityresponseaddress is "2"
    And the ACCOUNTCHECK's securityresponsepostcode is "2"

  @rule:XML-REQUEST-BLOCK @requires:cardstore @type:STORE
  Scenario: The target reads the request block's merchant orderreference, which the STORE response holds
    When the merchant sends "Card store" with the "authorised" card and:
      | orderreference | cardspec xml store |
    Then the STORE succeeded
    And the STORE echoes `orderreference` as the XML request block carried them

  @rule:XML-SECURITY-PATHS @requires:security @type:ACCOUNTCHECK
  Scenario: The security check results sit at /security/address, /security/postcode and /security/securitycode
    When the merchant sends "Account check" with the "authorised" card
    Then the XML answer's ACCOUNTCHECK response holds `/security/address`, `/security/postcode` and `/security/securitycode`

  @rule:XML-FRAUDCONTROL-PATHS @requires:fraudcontrol @requires:card:shieldDeny @type:RISKDEC
  Scenario: The RISKDEC fields sit under /fraudcontrol, and requesttypedescription is the attribute /@type
    When the merchant sends "Risk decision on card data" with the "DENY" card
    Then the RISKDEC's fraudcontrolshieldstatuscode is "DENY"
    And the XML answer's RISKDEC response holds `/@type`, `/fraudcontrol/shieldstatuscode`, `/fraudcontrol/recommendedaction`, `/fraudcontrol/reference`, `/fraudcontrol/responsecode`, `/fraudcontrol/categoryflag` and `/fraudcontrol/categorymessage`

  @rule:XML-FRAUDCONTROL-PATHS @requires:fraudcontrol @requires:card:shieldDeny @type:AUTH @type:RISKDEC
  Scenario: The RISKDEC part of AUTH+RISKDEC has its fields under /fraudcontrol too
    When the merchant sends "Combined, risk decision last" with the "DENY" card
    Then the response has 2 parts: AUTH, then RISKDEC
    And the RISKDEC's fraudcontrolshieldstatuscode is "DENY"
    And the XML answer's RISKDEC response holds `/@type`, `/fraudcontrol/shieldstatuscode`, `/fraudcontrol/recommendedaction`, `/fraudcontrol/reference`, `/fraudcontrol/responsecode`, `/fraudcontrol/categoryflag` and `/fraudcontrol/categorymessage`

  @rule:XML-REQUEST-BLOCK @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario Outline: Every part of "<operation>" reads the currencycode attribute of billing/amount, in a currency other than the profile's
    When the merchant sends "<operation>" with the "authorised" card in a currency other than the profile's
    Then the AUTH succeeded, unless the target does not take that currency
    And the AUTH echoes `baseamount` and `currencyiso3a` as the XML request block carried them
    And the RISKDEC echoes `baseamount` and `currencyiso3a` as the XML request block carried them

    Examples:
      | operation                     |
      | Combined, risk decision first |
      | Combined, risk decision last  |

  @rule:XML-REQUEST-BLOCK @type:AUTH @type:SUBSCRIPTION
  Scenario: The AUTH of a subscription reads the currencycode attribute of billing/amount, in a currency other than the profile's
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card in a currency other than the profile's
    Then the AUTH succeeded, unless the target does not take that currency
    And the AUTH echoes `baseamount` and `currencyiso3a` as the XML request block carried them

  @rule:XML-REQUEST-BLOCK @rule:INHERIT-PARENT @type:AUTH
  Scenario: An XML request block carries parenttransactionreference in operation
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the AUTH as the second AUTH
    Then the second AUTH succeeded
    And the XML request held `/request/operation/parenttransactionreference`

  @rule:XML-REQUEST-BLOCK @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario: A RISKDEC after a payment carries the payment's reference in operation/parenttransactionreference, and the target reads it there
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the XML request held `/request/operation/parenttransactionreference`
    And the RISKDEC succeeded
    And the RISKDEC's parenttransactionreference is the AUTH's transactionreference

  @rule:XML-SECURITY-PATHS @requires:security @type:ACCOUNTCHECK @type:AUTH
  Scenario Outline: Three different security results of "<operation>" each sit at their own place: /security/address, /security/postcode, /security/securitycode
    When the merchant sends "<operation>" with the "authorised" card and:
      | billingpremise  | <not matched> |
      | billingpostcode | <not checked> |
      | securitycode    | <matched>     |
    Then the XML answer's <type> response holds each security result at its own place:
      | /security/address      | 4 |
      | /security/postcode     | 1 |
      | /security/securitycode | 2 |

    Examples:
      | operation                        | type         |
      | Account check                    | ACCOUNTCHECK |
      | Ordinary AUTH without 3-D Secure | AUTH         |
