# Endpoints > Customer redirect to the issuer's ACS (browser, not JSON).
@requires:acsForm @requires:cachetokens
Feature: The ACS browser round trip
  The customer's browser sends an HTTPS POST to acsurl with form fields PaReq (from pareq), TermUrl (the
  merchant's termurl) and MD (from md); these names are case sensitive. The browser is returned by HTTPS POST to
  the termurl; the form holds PaRes and MD.

  @rule:ACS-MERCHANT-TO-ACS @rule:ACS-TO-MERCHANT @type:THREEDQUERY
  Scenario: The browser posts PaReq, TermUrl and MD to acsurl and is returned to the termurl with PaRes and MD
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    Then the acsurl of the THREEDQUERY is an HTTPS address, or the plain HTTP target's own scheme
    When the customer's browser posts PaReq, TermUrl and MD to the acsurl of the THREEDQUERY
    Then the ACS returns the browser to the termurl with PaRes and MD

  # "The browser is returned by HTTPS POST to the `termurl`": the merchant's address as sent, whatever it holds; a
  # merchant's termurl often carries its own session or order in a query string.
  @rule:ACS-TO-MERCHANT @type:THREEDQUERY
  Scenario: The browser is returned to the termurl as the merchant sent it, its query string included
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card and:
      | termurl | https://merchant.example/3ds/return?session=cardspec-1&step=acs |
    And the customer's browser posts PaReq, TermUrl and MD to the acsurl of the THREEDQUERY
    Then the ACS returns the browser to the termurl with PaRes and MD

  @rule:ACS-MERCHANT-TO-ACS @type:THREEDQUERY
  Scenario: The form field names are case sensitive
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer's browser posts pareq, termurl and md, in lower case, to the acsurl of the THREEDQUERY
    Then the ACS does not return the browser to the termurl with PaRes

  @rule:ACS-TO-MERCHANT @rule:3DS-MD-PARES-UNMODIFIED @type:THREEDQUERY @type:AUTH
  Scenario: md and pares returned by the ACS, submitted in full and unmodified, authenticate the AUTH
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer's browser posts PaReq, TermUrl and MD to the acsurl of the THREEDQUERY
    And the ACS returns the browser to the termurl with PaRes and MD
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's status is "Y"

  # "Submitted in full and unmodified": a value cut, with a surrounding space or in another letter case is another
  # value, in the AUTH after 3-D Secure and in the AUTH part of a subscription alike.
  @rule:3DS-MD-PARES-UNMODIFIED @type:THREEDQUERY @type:AUTH
  Scenario Outline: md and pares not submitted in full and unmodified: "<operation>" with the <field> <change> is not authenticated
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "<operation>" with the md and pares of the THREEDQUERY, the <field> <change>
    Then the AUTH was not answered as authenticated

    Examples: AUTH after 3-D Secure
      | operation                            | field | change                    |
      | AUTH after 3-D Secure, enrolled card | pares | cut by its last character |
      | AUTH after 3-D Secure, enrolled card | pares | with a leading space      |
      | AUTH after 3-D Secure, enrolled card | pares | with a trailing space     |
      | AUTH after 3-D Secure, enrolled card | pares | in another letter case    |
      | AUTH after 3-D Secure, enrolled card | md    | cut by its last character |
      | AUTH after 3-D Secure, enrolled card | md    | with a leading space      |
      | AUTH after 3-D Secure, enrolled card | md    | with a trailing space     |
      | AUTH after 3-D Secure, enrolled card | md    | in another letter case    |

    @type:SUBSCRIPTION
    Examples: the AUTH part of a subscription
      | operation                   | field | change                    |
      | Subscription, enrolled card | pares | cut by its last character |
      | Subscription, enrolled card | pares | with a trailing space     |
      | Subscription, enrolled card | md    | with a leading space      |
      | Subscription, enrolled card | md    | in another letter case    |
