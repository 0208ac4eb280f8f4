# Errors. Each code of the Errors table has scenarios tagged @errorcode:<N>: below, generated from the table, one
# for every part type its "Where" cell names on every row of the Request types table that answers such a part;
# the flows check more of some (30000, 60031, 60022, 70000 in three-d-secure.feature; 60107 in
# risk-decision.feature). test/conformance/catalogue.test.ts and test/suite/generated.test.ts keep it so.
Feature: Errors
  Every response part has errorcode (string) and errormessage. A non-zero code in a part means that part failed.

  @rule:ERR-PART-FIELDS @rule:ERR-0 @errorcode:0 @requires:fraudcontrol @type:RISKDEC @type:AUTH
  Scenario: Every response part has errorcode and errormessage; 0 means successful, with errormessage Ok
    When the merchant sends "Combined, risk decision first" with the "authorised" card
    Then the RISKDEC holds `errorcode` and `errormessage`
    And the AUTH holds `errorcode` and `errormessage`
    And the RISKDEC's errorcode is "0"
    And the RISKDEC's errormessage is "Ok"
    And the AUTH's errorcode is "0"
    And the AUTH's errormessage is "Ok"

  @rule:ERR-PART-FIELDS @rule:ERR-NONZERO-FAILED @type:AUTH
  Scenario: A failed part has a non-zero errorcode and an errormessage
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "declined" card
    Then the AUTH failed
    And the AUTH holds `errorcode` and `errormessage`

  @rule:ERR-NONZERO-FAILED @requires:clock @requires:ledger @type:AUTH
  Scenario: A failed AUTH part is a payment that failed: it never settles
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "declined" card
    Then the AUTH failed
    When the target's clock moves on by 2 days
    Then the AUTH has not been settled

  # "Every response part has errorcode": the follow-ups' parts too, though the rest of their shape is not shown.
  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:cardstore @requires:transactionupdate @type:STORE @type:TRANSACTIONUPDATE
  Scenario: Errors table, 0 (Successful), any part: the TRANSACTIONUPDATE part that disables a stored card
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONUPDATE of the STORE and:
      | transactionactive | 0 |
    Then the TRANSACTIONUPDATE has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:cardstore @requires:transactionquery @type:STORE @type:TRANSACTIONQUERY
  Scenario: Errors table, 0 (Successful), any part: the TRANSACTIONQUERY part of a query of stored details
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the STORE
    Then the TRANSACTIONQUERY has errorcode "0", with an errormessage as the Errors table says

  # ---- generated errors-by-part: written by `npm run scenarios` from schemas/errors.ts and schemas/operations.ts (src/suite/generated); do not edit by hand
  # Each code of the Errors table in every part type its "Where" cell names, on every row of the Request types
  # table whose answer holds such a part: "Every response part has errorcode (string) and errormessage".

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:cachetokens @type:THREEDQUERY
  Scenario: Errors table, 0 (Successful), any part: the THREEDQUERY part of "3-D Secure enrolment check"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    Then the THREEDQUERY has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH
  Scenario: Errors table, 0 (Successful), any part: the AUTH part of "AUTH after 3-D Secure, enrolled card"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:card:notEnrolled @requires:cachetokens @type:THREEDQUERY @type:AUTH
  Scenario: Errors table, 0 (Successful), any part: the AUTH part of "AUTH after 3-D Secure, card not enrolled or unknown"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    And the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 0 (Successful), any part: the AUTH and SUBSCRIPTION parts of "Subscription, enrolled card"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "Subscription, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says
    And the SUBSCRIPTION has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:card:notEnrolled @requires:cachetokens @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 0 (Successful), any part: the AUTH and SUBSCRIPTION parts of "Subscription, card not enrolled"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    And the merchant sends "Subscription, card not enrolled" with the parent the THREEDQUERY
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says
    And the SUBSCRIPTION has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 0 (Successful), any part: the AUTH and SUBSCRIPTION parts of "Subscription without 3-D Secure"
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says
    And the SUBSCRIPTION has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @type:AUTH
  Scenario: Errors table, 0 (Successful), any part: the AUTH part of "Ordinary AUTH without 3-D Secure"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @type:ACCOUNTCHECK
  Scenario: Errors table, 0 (Successful), any part: the ACCOUNTCHECK part of "Account check"
    When the merchant sends "Account check" with the "authorised" card
    Then the ACCOUNTCHECK has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:cardstore @type:STORE
  Scenario: Errors table, 0 (Successful), any part: the STORE part of "Card store"
    When the merchant sends "Card store" with the "authorised" card
    Then the STORE has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:fraudcontrol @type:RISKDEC
  Scenario: Errors table, 0 (Successful), any part: the RISKDEC part of "Risk decision on card data"
    When the merchant sends "Risk decision on card data" with the "authorised" card
    Then the RISKDEC has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario: Errors table, 0 (Successful), any part: the RISKDEC part of "Risk decision after a payment"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the RISKDEC has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:fraudcontrol @type:RISKDEC @type:AUTH
  Scenario: Errors table, 0 (Successful), any part: the RISKDEC and AUTH parts of "Combined, risk decision first"
    When the merchant sends "Combined, risk decision first" with the "authorised" card
    Then the RISKDEC has errorcode "0", with an errormessage as the Errors table says
    And the AUTH has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-0 @rule:ERR-PART-FIELDS @errorcode:0 @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario: Errors table, 0 (Successful), any part: the AUTH and RISKDEC parts of "Combined, risk decision last"
    When the merchant sends "Combined, risk decision last" with the "authorised" card
    Then the AUTH has errorcode "0", with an errormessage as the Errors table says
    And the RISKDEC has errorcode "0", with an errormessage as the Errors table says

  @rule:ERR-30000 @rule:ERR-PART-FIELDS @errorcode:30000 @requires:cachetokens @type:THREEDQUERY
  Scenario: Errors table, 30000 (Invalid field), where: THREEDQUERY: the THREEDQUERY part of "3-D Secure enrolment check"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card and:
      | accounttypedescription | MOTO |
    Then the THREEDQUERY has errorcode "30000", with an errormessage as the Errors table says

  @rule:ERR-60031 @rule:ERR-PART-FIELDS @errorcode:60031 @requires:card:no3ds @requires:cachetokens @type:THREEDQUERY
  Scenario: Errors table, 60031 (The payment type is not supported for 3-D Secure), where: THREEDQUERY: the THREEDQUERY part of "3-D Secure enrolment check"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not supported for 3-D Secure" card
    Then the THREEDQUERY has errorcode "60031", with an errormessage as the Errors table says

  @rule:ERR-60022 @rule:ERR-PART-FIELDS @errorcode:60022 @requires:card:notAuthenticated @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH
  Scenario: Errors table, 60022 (Customer not authenticated), where: AUTH: the AUTH part of "AUTH after 3-D Secure, enrolled card"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not authenticated" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "60022", with an errormessage as the Errors table says

  @rule:ERR-60022 @rule:ERR-PART-FIELDS @errorcode:60022 @requires:card:notAuthenticated @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 60022 (Customer not authenticated), where: AUTH: the AUTH part of "Subscription, enrolled card"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not authenticated" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "Subscription, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "60022", with an errormessage as the Errors table says

  @rule:ERR-70000 @rule:ERR-PART-FIELDS @errorcode:70000 @requires:card:declined @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH
  Scenario: Errors table, 70000 (Customer authenticated but the bank declined), where: AUTH: the AUTH part of "AUTH after 3-D Secure, enrolled card"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "declined" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "70000", with an errormessage as the Errors table says

  @rule:ERR-70000 @rule:ERR-PART-FIELDS @errorcode:70000 @requires:card:declined @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 70000 (Customer authenticated but the bank declined), where: AUTH: the AUTH part of "Subscription, enrolled card"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "declined" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "Subscription, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "70000", with an errormessage as the Errors table says

  @rule:ERR-60025 @rule:ERR-PART-FIELDS @errorcode:60025 @requires:mcc6012 @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 60025 (Additional fields mandated for merchants with category code 6012 were not sent), where: AUTH and ACCOUNTCHECK: the AUTH part of "Subscription without 3-D Secure"
    Given the merchant's site has the merchant category code 6012
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card
    Then the AUTH has errorcode "60025", with an errormessage as the Errors table says

  @rule:ERR-60025 @rule:ERR-PART-FIELDS @errorcode:60025 @requires:mcc6012 @type:AUTH
  Scenario: Errors table, 60025 (Additional fields mandated for merchants with category code 6012 were not sent), where: AUTH and ACCOUNTCHECK: the AUTH part of "Ordinary AUTH without 3-D Secure"
    Given the merchant's site has the merchant category code 6012
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH has errorcode "60025", with an errormessage as the Errors table says

  @rule:ERR-60025 @rule:ERR-PART-FIELDS @errorcode:60025 @requires:mcc6012 @type:ACCOUNTCHECK
  Scenario: Errors table, 60025 (Additional fields mandated for merchants with category code 6012 were not sent), where: AUTH and ACCOUNTCHECK: the ACCOUNTCHECK part of "Account check"
    Given the merchant's site has the merchant category code 6012
    When the merchant sends "Account check" with the "authorised" card
    Then the ACCOUNTCHECK has errorcode "60025", with an errormessage as the Errors table says

  @rule:ERR-60025 @rule:ERR-PART-FIELDS @errorcode:60025 @requires:mcc6012 @requires:fraudcontrol @type:RISKDEC @type:AUTH
  Scenario: Errors table, 60025 (Additional fields mandated for merchants with category code 6012 were not sent), where: AUTH and ACCOUNTCHECK: the AUTH part of "Combined, risk decision first"
    Given the merchant's site has the merchant category code 6012
    When the merchant sends "Combined, risk decision first" with the "authorised" card
    Then the AUTH has errorcode "60025", with an errormessage as the Errors table says

  @rule:ERR-60025 @rule:ERR-PART-FIELDS @errorcode:60025 @requires:mcc6012 @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario: Errors table, 60025 (Additional fields mandated for merchants with category code 6012 were not sent), where: AUTH and ACCOUNTCHECK: the AUTH part of "Combined, risk decision last"
    Given the merchant's site has the merchant category code 6012
    When the merchant sends "Combined, risk decision last" with the "authorised" card
    Then the AUTH has errorcode "60025", with an errormessage as the Errors table says

  @rule:ERR-60107 @rule:ERR-PART-FIELDS @errorcode:60107 @requires:fraudcontrol @requires:card:shieldChallenge @type:RISKDEC @type:THREEDQUERY
  Scenario: Errors table, 60107 (The parent RISKDEC gave CHALLENGE or DENY), where: THREEDQUERY: the THREEDQUERY part of "3-D Secure enrolment check" after CHALLENGE
    When the merchant sends "Risk decision on card data" with the "CHALLENGE" card
    And the merchant sends "3-D Secure enrolment check" with the parent the RISKDEC
    Then the THREEDQUERY has errorcode "60107", with an errormessage as the Errors table says

  @rule:ERR-60107 @rule:ERR-PART-FIELDS @errorcode:60107 @requires:fraudcontrol @requires:card:shieldDeny @type:RISKDEC @type:THREEDQUERY
  Scenario: Errors table, 60107 (The parent RISKDEC gave CHALLENGE or DENY), where: THREEDQUERY: the THREEDQUERY part of "3-D Secure enrolment check" after DENY
    When the merchant sends "Risk decision on card data" with the "DENY" card
    And the merchant sends "3-D Secure enrolment check" with the parent the RISKDEC
    Then the THREEDQUERY has errorcode "60107", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:card:unknownError @requires:cachetokens @type:THREEDQUERY
  Scenario: Errors table, 99999 (Unknown error), any part: the THREEDQUERY part of "3-D Secure enrolment check"
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "unknown error" card
    Then the THREEDQUERY has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:card:unknownError @type:AUTH @type:SUBSCRIPTION
  Scenario: Errors table, 99999 (Unknown error), any part: the AUTH and SUBSCRIPTION parts of "Subscription without 3-D Secure"
    When the merchant sends "Subscription without 3-D Secure" with the "unknown error" card
    Then the AUTH has errorcode "99999", with an errormessage as the Errors table says
    And the SUBSCRIPTION has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:card:unknownError @type:AUTH
  Scenario: Errors table, 99999 (Unknown error), any part: the AUTH part of "Ordinary AUTH without 3-D Secure"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "unknown error" card
    Then the AUTH has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:card:unknownError @type:ACCOUNTCHECK
  Scenario: Errors table, 99999 (Unknown error), any part: the ACCOUNTCHECK part of "Account check"
    When the merchant sends "Account check" with the "unknown error" card
    Then the ACCOUNTCHECK has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:cardstore @requires:card:unknownError @type:STORE
  Scenario: Errors table, 99999 (Unknown error), any part: the STORE part of "Card store"
    When the merchant sends "Card store" with the "unknown error" card
    Then the STORE has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:fraudcontrol @requires:card:unknownError @type:RISKDEC
  Scenario: Errors table, 99999 (Unknown error), any part: the RISKDEC part of "Risk decision on card data"
    When the merchant sends "Risk decision on card data" with the "unknown error" card
    Then the RISKDEC has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:fraudcontrol @requires:card:unknownError @type:RISKDEC @type:AUTH
  Scenario: Errors table, 99999 (Unknown error), any part: the RISKDEC and AUTH parts of "Combined, risk decision first"
    When the merchant sends "Combined, risk decision first" with the "unknown error" card
    Then the RISKDEC has errorcode "99999", with an errormessage as the Errors table says
    And the AUTH has errorcode "99999", with an errormessage as the Errors table says

  @rule:ERR-99999 @rule:ERR-PART-FIELDS @errorcode:99999 @requires:fraudcontrol @requires:card:unknownError @type:AUTH @type:RISKDEC
  Scenario: Errors table, 99999 (Unknown error), any part: the AUTH and RISKDEC parts of "Combined, risk decision last"
    When the merchant sends "Combined, risk decision last" with the "unknown error" card
    Then the AUTH has errorcode "99999", with an errormessage as the Errors table says
    And the RISKDEC has errorcode "99999", with an errormessage as the Errors table says
  # ---- end of generated errors-by-part

  # "`status` is `N` and settlestatus is `3`" for a 60022, however the AUTH after 3-D Secure came to fail: an md and a
  # pares that no ACS issued (not only one of them changed) are the same row, "AUTH after 3-D Secure, enrolled card".
  @rule:3DS-MD-PARES-UNMODIFIED @rule:3DS-60022-SETTLE @type:AUTH
  Scenario: An AUTH after 3-D Secure with an md and a pares no ACS issued is not answered as authenticated; a 60022 states status N and settlestatus 3
    When the merchant sends "AUTH after 3-D Secure, enrolled card" with an md and a pares no ACS issued
    Then the AUTH was not answered as authenticated
