# Errors. Each code of the Errors table has a scenario tagged @errorcode:<N>: 0 and 99999 here, the others in
# the flow they belong to (30000, 60031, 60022, 70000 in three-d-secure.feature; 60025 in account-check.feature;
# 60107 in risk-decision.feature). test/conformance/catalogue.test.ts keeps it so.
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

  @rule:ERR-99999 @errorcode:99999 @requires:card:unknownError @type:AUTH
  Scenario: Unknown error (99999), in an AUTH
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "unknown error" card
    Then the AUTH has errorcode "99999"

  @rule:ERR-99999 @errorcode:99999 @requires:card:unknownError @requires:cardstore @type:STORE
  Scenario: Unknown error (99999), in a STORE
    When the merchant sends "Card store" with the "unknown error" card
    Then the STORE has errorcode "99999"
