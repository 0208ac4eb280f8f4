# What the service does (RISKDEC); Resources and their fields > RISKDEC response fields; Endpoints > Request
# types; Rules tied to the operations, 5 and 6; States and transitions > Settlement and fraud-control effects.
@requires:fraudcontrol
Feature: Risk decision (RISKDEC)
  RISKDEC returns a shield status code that recommends accepting (ACCEPT), investigating (CHALLENGE) or refusing
  (DENY) a transaction; NOSCORE when the parent AUTH was declined before checks ran.

  @rule:RISKDEC-CARD @rule:RISKDEC-SHIELD @rule:RISKDEC-SHIELD-VALUES @type:RISKDEC
  Scenario Outline: Risk decision on card data: <status>
    When the merchant sends "Risk decision on card data" with the "<card>" card
    Then the RISKDEC succeeded
    And the response has 1 part: RISKDEC
    And the RISKDEC's fraudcontrolshieldstatuscode is "<status>"

    Examples:
      | card       | status |
      | authorised | ACCEPT |

    @requires:card:shieldChallenge
    Examples: further investigation recommended
      | card      | status    |
      | CHALLENGE | CHALLENGE |

    @requires:card:shieldDeny
    Examples: suspicious, do not transact
      | card | status |
      | DENY | DENY   |

  @rule:RISKDEC-AFTER-PAYMENT @rule:INHERIT-PARENT-ECHO @type:AUTH @type:RISKDEC
  Scenario: Risk decision after a payment carries the payment's reference
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the RISKDEC succeeded
    And the RISKDEC's parenttransactionreference is the AUTH's transactionreference
    And the RISKDEC's fraudcontrolshieldstatuscode is "ACCEPT"

  @rule:RISKDEC-FIRST @rule:ENV-ORDER @type:RISKDEC @type:AUTH
  Scenario: Combined, risk decision first: the AUTH part's parent is the RISKDEC
    When the merchant sends "Combined, risk decision first" with a cache token for the "authorised" card
    Then the response has 2 parts: RISKDEC, then AUTH
    And the AUTH succeeded
    And the AUTH's parenttransactionreference is the RISKDEC's transactionreference

  @rule:RISKDEC-LAST @rule:ENV-ORDER @type:AUTH @type:RISKDEC
  Scenario: Combined, risk decision last: the RISKDEC part carries the AUTH's reference
    When the merchant sends "Combined, risk decision last" with a cache token for the "authorised" card
    Then the response has 2 parts: AUTH, then RISKDEC
    And the RISKDEC's parenttransactionreference is the AUTH's transactionreference
    And the RISKDEC's fraudcontrolshieldstatuscode is "ACCEPT"

  @rule:RISKDEC-SHIELD-VALUES @requires:card:declined @type:AUTH @type:RISKDEC
  Scenario: NOSCORE: the parent AUTH was declined before checks ran
    When the merchant sends "Combined, risk decision last" with the "declined" card
    Then the response has 2 parts: AUTH, then RISKDEC
    And the AUTH failed
    And the RISKDEC's fraudcontrolshieldstatuscode is "NOSCORE"

  @rule:RISKDEC-SHIELD-VALUES @requires:card:declined @type:AUTH @type:RISKDEC
  Scenario: NOSCORE after a payment: a separate RISKDEC whose parent AUTH was declined
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "declined" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the AUTH failed
    And the RISKDEC succeeded
    And the RISKDEC's fraudcontrolshieldstatuscode is "NOSCORE"

  @rule:RISKDEC-BEFORE-3DS @rule:INHERIT-PARENT-ECHO @requires:cachetokens @type:RISKDEC @type:THREEDQUERY
  Scenario: Risk decision then 3-D Secure: the THREEDQUERY's parent is the RISKDEC
    When the merchant sends "Risk decision on card data" with the "authorised" card
    And the merchant sends "3-D Secure enrolment check" with the parent the RISKDEC
    Then the THREEDQUERY succeeded
    And the THREEDQUERY's parenttransactionreference is the RISKDEC's transactionreference

  @rule:RISKDEC-BEFORE-3DS @rule:ERR-60107 @errorcode:60107 @type:RISKDEC @type:THREEDQUERY
  Scenario Outline: Risk decision then 3-D Secure: after <status>, the THREEDQUERY fails with 60107
    When the merchant sends "Risk decision on card data" with the "<status>" card
    And the merchant sends "3-D Secure enrolment check" with the parent the RISKDEC
    Then the RISKDEC's fraudcontrolshieldstatuscode is "<status>"
    And the THREEDQUERY has errorcode "60107"

    @requires:card:shieldChallenge
    Examples: challenge
      | status    |
      | CHALLENGE |

    @requires:card:shieldDeny
    Examples: deny
      | status |
      | DENY   |

  @rule:RISKDEC-AFTER-3DS-AUTH @rule:RISKDEC-SHIELD-VALUES @requires:cachetokens @type:THREEDQUERY @type:AUTH @type:RISKDEC
  Scenario: THREEDQUERY then AUTH then RISKDEC, with the AUTH as the RISKDEC's parent: a score, the AUTH was not declined
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    And the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the AUTH succeeded
    And the RISKDEC succeeded
    And the RISKDEC's parenttransactionreference is the AUTH's transactionreference
    And the RISKDEC's fraudcontrolshieldstatuscode is "ACCEPT"

  @rule:RISKDEC-SUSPEND-BEFORE-AUTH @requires:riskdecSuspends @type:RISKDEC @type:AUTH
  Scenario Outline: RISKDEC before AUTH gives <status>: the authorised transaction is suspended (settle status 2)
    When the merchant sends "Combined, risk decision first" with the "<status>" card
    Then the RISKDEC's fraudcontrolshieldstatuscode is "<status>"
    And the AUTH succeeded
    And the AUTH's settlestatus is "2"

    @requires:card:shieldChallenge
    Examples: challenge
      | status    |
      | CHALLENGE |

    @requires:card:shieldDeny
    Examples: deny
      | status |
      | DENY   |

  @rule:RISKDEC-SUSPEND-BEFORE-AUTH @requires:riskdecSuspends @type:RISKDEC @type:AUTH
  Scenario Outline: A payment sent on its own after a RISKDEC of <status>, naming it as parent, is suspended (settle status 2)
    When the merchant sends "Risk decision on card data" with the "<status>" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the parent the RISKDEC
    Then the RISKDEC's fraudcontrolshieldstatuscode is "<status>"
    And the AUTH succeeded
    And the AUTH's settlestatus is "2"

    @requires:card:shieldChallenge
    Examples: challenge
      | status    |
      | CHALLENGE |

    @requires:card:shieldDeny
    Examples: deny
      | status |
      | DENY   |

  @rule:RISKDEC-SUSPEND-AFTER-AUTH @requires:transactionupdate @requires:transactionquery @requires:card:shieldChallenge @type:AUTH @type:RISKDEC @type:TRANSACTIONUPDATE
  Scenario: RISKDEC after AUTH gives CHALLENGE: the merchant suspends the transaction by updating it to settle status 2
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "CHALLENGE" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the RISKDEC's fraudcontrolshieldstatuscode is "CHALLENGE"
    When the merchant sends a TRANSACTIONUPDATE of the AUTH and:
      | settlestatus | 2 |
    Then the TRANSACTIONUPDATE succeeded
    When the merchant sends a TRANSACTIONQUERY of the AUTH
    Then the TRANSACTIONQUERY found the AUTH
    And the queried AUTH's settlestatus is "2"

  @rule:SEC-FEATURES-ENABLED @requires:featuresOff @type:RISKDEC
  Scenario: Fraud control must be enabled on the account by the provider
    Given the merchant's site does not have card store and fraud control enabled
    When the merchant sends "Risk decision on card data" with the "authorised" card
    Then the RISKDEC failed

  @rule:RISKDEC-REFERENCE-UNIQUE @type:RISKDEC
  Scenario: Each check has its own fraudcontrolreference
    When the merchant sends "Risk decision on card data" with the "authorised" card as the first RISKDEC
    And the merchant sends "Risk decision on card data" with the "authorised" card as the second RISKDEC
    Then the first RISKDEC and the second RISKDEC have different fraudcontrolreference values

  @rule:RISKDEC-REFERENCE-UNIQUE @type:RISKDEC
  Scenario: A second check of the same order has its own fraudcontrolreference too
    When the merchant sends "Risk decision on card data" with the "authorised" card as the first RISKDEC
    And the merchant sends the same request again
    Then the first RISKDEC and the RISKDEC have different fraudcontrolreference values

  @rule:RISKDEC-CATEGORYFLAG @type:RISKDEC
  Scenario Outline: <status>: rulecategoryflag identifies the condition that caused it
    When the merchant sends "Risk decision on card data" with the "<status>" card
    Then the RISKDEC's fraudcontrolshieldstatuscode is "<status>"
    And the RISKDEC holds `rulecategoryflag`

    @requires:card:shieldChallenge
    Examples: challenge
      | status    |
      | CHALLENGE |

    @requires:card:shieldDeny
    Examples: deny
      | status |
      | DENY   |

  @rule:RISKDEC-REFERENCE-UNIQUE @type:AUTH @type:RISKDEC
  Scenario: Two risk decisions after one payment each have their own fraudcontrolreference
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH as the first RISKDEC
    And the merchant sends "Risk decision after a payment" with the parent the AUTH as the second RISKDEC
    Then the first RISKDEC and the second RISKDEC have different fraudcontrolreference values

  @rule:FIELD-ECHO @rule:RISKDEC-AFTER-PAYMENT @type:AUTH @type:RISKDEC
  Scenario: Risk decision after a payment echoes its own orderreference, not the one its payment sent
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | orderreference | cardspec order of the payment |
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    Then the RISKDEC succeeded
    And the RISKDEC echoes `orderreference`, `baseamount` and `currencyiso3a`

  @rule:SEC-FEATURES-ENABLED @requires:featuresOff @type:RISKDEC @type:AUTH
  Scenario Outline: Fraud control must be enabled on the account: the RISKDEC of "<operation>" fails on a site without it
    Given the merchant's site does not have card store and fraud control enabled
    When the merchant sends "<operation>" with the "authorised" card
    Then the RISKDEC failed

    Examples:
      | operation                     |
      | Combined, risk decision first |
      | Combined, risk decision last  |
