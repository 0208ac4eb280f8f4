# What the service does (THREEDQUERY); Resources and their fields > 3-D Secure fields; States and transitions >
# 3-D Secure enrolment; Settlement and fraud-control effects; Endpoints > Request types; Rules tied to the
# operations, 1 and 7; Errors.
Feature: 3-D Secure
  THREEDQUERY checks whether a card is enrolled in the card issuer's 3-D Secure version 1 scheme. Enrolled (Y):
  send the customer's browser to acsurl, then AUTH with md and pares. Not enrolled (N): AUTH with
  parenttransactionreference. Unable to determine (U): the same THREEDQUERY may be resubmitted; if it keeps
  failing, AUTH with parenttransactionreference.

  @rule:3DS-ENROLMENT-CHECK @rule:3DS-QUERY-RESPONSE @requires:cachetokens @type:THREEDQUERY
  Scenario: THREEDQUERY for an enrolled card (Y): enrolled, xid, acsurl, md and pareq
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    Then the THREEDQUERY succeeded
    And the THREEDQUERY's enrolled is "Y"
    And the THREEDQUERY holds `xid`, `acsurl`, `md` and `pareq`

  @rule:3DS-ONLY-ENROLLED @rule:3DS-ACSURL-ONLY-ENROLLED @rule:3DS-PAREQ-ONLY-ENROLLED @rule:3DS-QUERY-RESPONSE @requires:cachetokens @type:THREEDQUERY
  Scenario: THREEDQUERY for a card not enrolled (N): no acsurl, md or pareq
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    Then the THREEDQUERY succeeded
    And the THREEDQUERY's enrolled is "N"
    And the THREEDQUERY holds `xid`
    And the THREEDQUERY does not hold `acsurl`, `md` or `pareq`

  @rule:3DS-NEXT-N @rule:3DS-AUTH-NOT-ENROLLED @rule:INHERIT-PARENT-ECHO @requires:cachetokens @type:THREEDQUERY @type:AUTH
  Scenario: Not enrolled (N): AUTH with the THREEDQUERY as parent
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    And the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's enrolled is "N"
    And the AUTH's parenttransactionreference is the THREEDQUERY's transactionreference

  @rule:3DS-STATUS @rule:3DS-CAVV-ECI @requires:cachetokens @type:THREEDQUERY @type:AUTH
  Scenario Outline: A card <state> (<enrolled>): the AUTH holds no status, cavv or eci, which are returned if enrolled
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "<card>" card
    And the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH's enrolled is "<enrolled>"
    And the AUTH does not hold `status`, `cavv` or `eci`

    Examples:
      | card              | state                    | enrolled |
      | not enrolled      | not enrolled             | N        |
      | enrolment unknown | of unknown enrolment     | U        |

  @rule:3DS-NEXT-U @rule:3DS-AUTH-NOT-ENROLLED @requires:cachetokens @type:THREEDQUERY @type:AUTH
  Scenario: Unable to determine (U): the same THREEDQUERY is resubmitted, then AUTH with the THREEDQUERY as parent
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "enrolment unknown" card
    Then the THREEDQUERY's enrolled is "U"
    When the merchant sends the same request again
    Then the THREEDQUERY's enrolled is "U"
    When the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's enrolled is "U"

  @rule:3DS-NEXT-Y @rule:3DS-AUTH-ENROLLED @rule:3DS-STATUS @rule:3DS-CAVV-ECI @rule:3DS-MD-PARES-UNMODIFIED @rule:ERR-0 @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH
  Scenario: Enrolled (Y): the customer authenticates at the ACS, then AUTH with md and pares only
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's errormessage is "Ok"
    And the AUTH's enrolled is "Y"
    And the AUTH's status is "Y"
    And the AUTH holds `xid`, `cavv` and `eci`
    And the AUTH's maskedpan is the THREEDQUERY's maskedpan
    And the AUTH's baseamount is the THREEDQUERY's baseamount
    And the AUTH's currencyiso3a is the THREEDQUERY's currencyiso3a

  @rule:3DS-60022-SETTLE @rule:ERR-60022 @rule:AUTH-BANK-CONTACTED @errorcode:60022 @requires:cachetokens @requires:acsForm @requires:card:notAuthenticated @type:AUTH
  Scenario: AUTH after 3-D Secure, customer not authenticated: 60022, status N, settlestatus 3, acquirer not contacted
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not authenticated" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "60022"
    And the AUTH's errormessage is "Unauthenticated"
    And the AUTH's status is "N"
    And the AUTH's settlestatus is "3"
    And the AUTH does not hold `authcode` or `acquirerresponsecode`

  @rule:ERR-60022 @requires:clock @requires:ledger @requires:cachetokens @requires:acsForm @requires:card:notAuthenticated @type:AUTH
  Scenario: AUTH after 3-D Secure, customer not authenticated (60022): no funds are transferred, the payment never settles
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not authenticated" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "60022"
    When the target's clock moves on by 2 days
    Then the AUTH has not been settled

  @rule:3DS-CAVV-ECI @requires:cachetokens @requires:acsForm @requires:card:notAuthenticated @type:AUTH
  Scenario: Enrolled but not authenticated: the AUTH holds no cavv or eci, which are returned if enrolled and authenticated
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not authenticated" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH's status is "N"
    And the AUTH does not hold `cavv` or `eci`

  @rule:ERR-70000 @rule:3DS-STATUS @errorcode:70000 @requires:cachetokens @requires:acsForm @requires:card:declined @type:AUTH
  Scenario: AUTH after 3-D Secure, customer authenticated but the bank declined: 70000
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "declined" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "70000"
    And the AUTH's status is "Y"

  @rule:ERR-70000 @requires:clock @requires:ledger @requires:cachetokens @requires:acsForm @requires:card:declined @type:AUTH
  Scenario: AUTH after 3-D Secure, authenticated but declined by the bank (70000): no funds are transferred, the payment never settles
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "declined" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "70000"
    When the target's clock moves on by 2 days
    Then the AUTH has not been settled

  @rule:3DS-STATUS @requires:cachetokens @requires:acsForm @type:AUTH
  Scenario Outline: AUTH after 3-D Secure reports the ACS's status <status>
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "<card>" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH's enrolled is "Y"
    And the AUTH's status is "<status>"

    @requires:card:attempted
    Examples: attempt made but not completed
      | card         | status |
      | attempt made | A      |

    @requires:card:unableToAuthenticate
    Examples: unable to authenticate
      | card                   | status |
      | unable to authenticate | U      |

  @rule:ERR-60031 @rule:3DS-FALLBACK-AUTH @errorcode:60031 @requires:cachetokens @requires:card:no3ds @type:THREEDQUERY @type:AUTH
  Scenario: The payment type is not supported for 3-D Secure (60031); the merchant may run an ordinary AUTH
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not supported for 3-D Secure" card
    Then the THREEDQUERY has errorcode "60031"
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "not supported for 3-D Secure" card
    Then the AUTH succeeded

  @rule:ERR-30000 @rule:FIELD-ACCOUNTTYPE-THREEDQUERY @errorcode:30000 @requires:cachetokens @type:THREEDQUERY
  Scenario: THREEDQUERY takes ECOM only: MOTO is an invalid field (30000)
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card and:
      | accounttypedescription | MOTO |
    Then the THREEDQUERY has errorcode "30000"

  @rule:ERR-30000 @rule:FIELD-BASEAMOUNT-MINOR-UNITS @rule:LIMIT-FIELD-LENGTHS @errorcode:30000 @requires:cachetokens @type:THREEDQUERY
  Scenario Outline: THREEDQUERY with an invalid <field> (30000)
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card and:
      | <field> | <value> |
    Then the THREEDQUERY has errorcode "30000"

    Examples:
      | field      | value      |
      | baseamount | 10.50      |
      | termurl    | not a url  |
      | accept     | <1025 x a> |

  @rule:3DS-STORED-CARD @rule:INHERIT-PARENT-ECHO @requires:cardstore @type:STORE @type:THREEDQUERY
  Scenario: A stored card (STORE) is referenced in a THREEDQUERY
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "3-D Secure enrolment check" with the parent the STORE
    Then the THREEDQUERY succeeded
    And the THREEDQUERY's enrolled is "Y"
    And the THREEDQUERY's parenttransactionreference is the STORE's transactionreference

  # ---- generated enrolment-by-card-source: written by `npm run scenarios` from the 3-D Secure enrolment states and schemas/operations.ts (src/suite/generated); do not edit by hand
  # Each enrolment value (Y, N, U) and, for an enrolled card, each ACS status (Y, N, A, U), with the card reaching
  # the THREEDQUERY by each source: a cache token, the card data, a stored card.

  @rule:3DS-ENROLMENT-CHECK @rule:3DS-NEXT-Y @rule:3DS-QUERY-RESPONSE @rule:3DS-AUTH-ENROLLED @rule:3DS-STATUS @rule:FIELD-MASKEDPAN @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH
  Scenario Outline: The card reaches the THREEDQUERY as a cache token, enrolled (Y), the ACS answers <status>: AUTH with md and pares
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "<card>" card
    Then the THREEDQUERY's enrolled is "Y"
    And the THREEDQUERY holds `xid`, `acsurl`, `md` and `pareq`
    And the THREEDQUERY's maskedpan masks the "<card>" card
    When the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH's enrolled is "Y"
    And the AUTH's status is "<status>"

    @rule:ERR-0
    Examples:
      | card | status |
      | authorised | Y |

    @requires:card:notAuthenticated @rule:ERR-60022
    Examples:
      | card | status |
      | not authenticated | N |

    @requires:card:attempted
    Examples:
      | card | status |
      | attempt made | A |

    @requires:card:unableToAuthenticate
    Examples:
      | card | status |
      | unable to authenticate | U |

  @rule:3DS-ENROLMENT-CHECK @rule:3DS-QUERY-RESPONSE @rule:3DS-ONLY-ENROLLED @rule:3DS-ACSURL-ONLY-ENROLLED @rule:3DS-PAREQ-ONLY-ENROLLED @rule:3DS-AUTH-NOT-ENROLLED @rule:3DS-STATUS @rule:3DS-CAVV-ECI @rule:FIELD-MASKEDPAN @requires:cachetokens @type:THREEDQUERY @type:AUTH
  Scenario Outline: The card reaches the THREEDQUERY as a cache token, enrolled <enrolled>: AUTH with the THREEDQUERY as parent
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "<card>" card
    Then the THREEDQUERY's enrolled is "<enrolled>"
    And the THREEDQUERY holds `xid`
    And the THREEDQUERY does not hold `acsurl`, `md` or `pareq`
    When the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's enrolled is "<enrolled>"
    And the AUTH does not hold `status`, `cavv` or `eci`
    And the AUTH's maskedpan masks the "<card>" card

    @rule:3DS-NEXT-N @requires:card:notEnrolled
    Examples:
      | card | enrolled |
      | not enrolled | N |

    @rule:3DS-NEXT-U @requires:card:enrolmentUnknown
    Examples:
      | card | enrolled |
      | enrolment unknown | U |

  @rule:3DS-ENROLMENT-CHECK @rule:3DS-NEXT-Y @rule:3DS-QUERY-RESPONSE @rule:3DS-AUTH-ENROLLED @rule:3DS-STATUS @rule:FIELD-MASKEDPAN @requires:acsForm @type:THREEDQUERY @type:AUTH
  Scenario Outline: The card reaches the THREEDQUERY as the card data, enrolled (Y), the ACS answers <status>: AUTH with md and pares
    When the merchant sends "3-D Secure enrolment check" with the card data of the "<card>" card
    Then the THREEDQUERY's enrolled is "Y"
    And the THREEDQUERY holds `xid`, `acsurl`, `md` and `pareq`
    And the THREEDQUERY's maskedpan masks the "<card>" card
    When the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH's enrolled is "Y"
    And the AUTH's status is "<status>"

    @rule:ERR-0
    Examples:
      | card | status |
      | authorised | Y |

    @requires:card:notAuthenticated @rule:ERR-60022
    Examples:
      | card | status |
      | not authenticated | N |

    @requires:card:attempted
    Examples:
      | card | status |
      | attempt made | A |

    @requires:card:unableToAuthenticate
    Examples:
      | card | status |
      | unable to authenticate | U |

  @rule:3DS-ENROLMENT-CHECK @rule:3DS-QUERY-RESPONSE @rule:3DS-ONLY-ENROLLED @rule:3DS-ACSURL-ONLY-ENROLLED @rule:3DS-PAREQ-ONLY-ENROLLED @rule:3DS-AUTH-NOT-ENROLLED @rule:3DS-STATUS @rule:3DS-CAVV-ECI @rule:FIELD-MASKEDPAN  @type:THREEDQUERY @type:AUTH
  Scenario Outline: The card reaches the THREEDQUERY as the card data, enrolled <enrolled>: AUTH with the THREEDQUERY as parent
    When the merchant sends "3-D Secure enrolment check" with the card data of the "<card>" card
    Then the THREEDQUERY's enrolled is "<enrolled>"
    And the THREEDQUERY holds `xid`
    And the THREEDQUERY does not hold `acsurl`, `md` or `pareq`
    When the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's enrolled is "<enrolled>"
    And the AUTH does not hold `status`, `cavv` or `eci`
    And the AUTH's maskedpan masks the "<card>" card

    @rule:3DS-NEXT-N @requires:card:notEnrolled
    Examples:
      | card | enrolled |
      | not enrolled | N |

    @rule:3DS-NEXT-U @requires:card:enrolmentUnknown
    Examples:
      | card | enrolled |
      | enrolment unknown | U |

  @rule:3DS-STORED-CARD @rule:3DS-ENROLMENT-CHECK @rule:3DS-NEXT-Y @rule:3DS-QUERY-RESPONSE @rule:3DS-AUTH-ENROLLED @rule:3DS-STATUS @rule:FIELD-MASKEDPAN @requires:cardstore @requires:acsForm @type:STORE @type:THREEDQUERY @type:AUTH
  Scenario Outline: The card reaches the THREEDQUERY as a stored card, enrolled (Y), the ACS answers <status>: AUTH with md and pares
    When the merchant sends "Card store" with the "<card>" card
    And the merchant sends "3-D Secure enrolment check" with the parent the STORE
    Then the THREEDQUERY's enrolled is "Y"
    And the THREEDQUERY holds `xid`, `acsurl`, `md` and `pareq`
    And the THREEDQUERY's maskedpan masks the "<card>" card
    When the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH's enrolled is "Y"
    And the AUTH's status is "<status>"

    @rule:ERR-0
    Examples:
      | card | status |
      | authorised | Y |

    @requires:card:notAuthenticated @rule:ERR-60022
    Examples:
      | card | status |
      | not authenticated | N |

    @requires:card:attempted
    Examples:
      | card | status |
      | attempt made | A |

    @requires:card:unableToAuthenticate
    Examples:
      | card | status |
      | unable to authenticate | U |

  @rule:3DS-STORED-CARD @rule:3DS-ENROLMENT-CHECK @rule:3DS-QUERY-RESPONSE @rule:3DS-ONLY-ENROLLED @rule:3DS-ACSURL-ONLY-ENROLLED @rule:3DS-PAREQ-ONLY-ENROLLED @rule:3DS-AUTH-NOT-ENROLLED @rule:3DS-STATUS @rule:3DS-CAVV-ECI @rule:FIELD-MASKEDPAN @requires:cardstore @type:STORE @type:THREEDQUERY @type:AUTH
  Scenario Outline: The card reaches the THREEDQUERY as a stored card, enrolled <enrolled>: AUTH with the THREEDQUERY as parent
    When the merchant sends "Card store" with the "<card>" card
    And the merchant sends "3-D Secure enrolment check" with the parent the STORE
    Then the THREEDQUERY's enrolled is "<enrolled>"
    And the THREEDQUERY holds `xid`
    And the THREEDQUERY does not hold `acsurl`, `md` or `pareq`
    When the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's enrolled is "<enrolled>"
    And the AUTH does not hold `status`, `cavv` or `eci`
    And the AUTH's maskedpan masks the "<card>" card

    @rule:3DS-NEXT-N @requires:card:notEnrolled
    Examples:
      | card | enrolled |
      | not enrolled | N |

    @rule:3DS-NEXT-U @requires:card:enrolmentUnknown
    Examples:
      | card | enrolled |
      | enrolment unknown | U |
  # ---- end of generated enrolment-by-card-source
