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
