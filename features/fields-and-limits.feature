# Resources and their fields (types and lengths; Common response fields: the echoes); Limits.
Feature: Fields and limits
  Types follow the notation Alpha, Numeric, Alphanumeric and Char; the number is the maximum length, unless a
  range is given. Where the document names no error code for a refused field, the kit checks only that the part
  failed.

  @rule:FIELD-BASEAMOUNT-POSITIVE @type:AUTH @type:ACCOUNTCHECK
  Scenario: baseamount must be greater than zero, except that ACCOUNTCHECK allows 0
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | baseamount | 0 |
    Then the AUTH failed
    When the merchant sends "Account check" with the "authorised" card and:
      | baseamount | 0 |
    Then the ACCOUNTCHECK succeeded

  @rule:FIELD-BASEAMOUNT-MINOR-UNITS @type:AUTH
  Scenario Outline: baseamount is in minor units, with no commas or decimal points (<amount>)
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | baseamount | <amount> |
    Then the AUTH failed

    Examples:
      | amount |
      | 10.50  |
      | 1,050  |

  @rule:LIMIT-BASEAMOUNT @type:AUTH
  Scenario: baseamount has at most 13 digits
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | baseamount | 10000000000000 |
    Then the AUTH failed

  @rule:LIMIT-FIELD-LENGTHS @rule:FIELD-LENGTHS @type:AUTH
  Scenario: A field longer than its length limit is refused, one at the limit is taken
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | orderreference | <256 x A> |
    Then the AUTH failed
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | orderreference | <255 x A> |
    Then the AUTH succeeded

  @rule:FIELD-POSTCODE-VALIDATION @type:AUTH
  Scenario Outline: billingpostcode is validated only when the country is the United States, Great Britain or Canada (<country>)
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingcountryiso2a | <country>  |
      | billingpostcode     | <postcode> |
    Then the AUTH <outcome>

    Examples: validated
      | country | postcode | outcome |
      | GB      | TE1#1ST  | failed  |
      | US      | 90210-#1 | failed  |
      | CA      | K1A#0B1  | failed  |

    Examples: not validated
      | country | postcode | outcome   |
      | FR      | 75#001   | succeeded |
      | DE      | D-10115# | succeeded |
      | <omit>  | TE1#1ST  | succeeded |

  @rule:FIELD-SETTLEDUEDATE @requires:clock @type:AUTH
  Scenario Outline: A payment made on the last day of its <edge> has a settleduedate that is a date
    When the target's clock moves on to the last day of its <edge>
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH succeeded
    And the AUTH holds `settleduedate`

    Examples:
      | edge  |
      | month |
      | year  |

  @rule:FIELD-POSTCODE-VALIDATION @type:STORE
  Scenario Outline: A STORE's billingpostcode too is validated only when the country is the United States, Great Britain or Canada (<country>)
    When the merchant sends "Card store" with the "authorised" card and:
      | billingcountryiso2a | <country>  |
      | billingpostcode     | <postcode> |
    Then the STORE <outcome>

    Examples: validated
      | country | postcode | outcome |
      | GB      | TE1#1ST  | failed  |

    Examples: not validated
      | country | postcode | outcome   |
      | FR      | 75#001   | succeeded |
      | <omit>  | TE1-1ST  | succeeded |

  @rule:FIELD-LENGTHS:pan @type:AUTH @type:ACCOUNTCHECK @type:RISKDEC
  Scenario Outline: A card number of <length> digits, at an end of the range 12-19, that an AUTH takes, "<operation>" takes too
    When the merchant sends "Ordinary AUTH without 3-D Secure" with a card number of <length> digits
    And the merchant sends "<operation>" with a card number of <length> digits
    Then the <type> takes the card number the AUTH took

    Examples:
      | operation     | type         | length |
      | Account check | ACCOUNTCHECK | 12     |
      | Account check | ACCOUNTCHECK | 19     |

    @requires:fraudcontrol
    Examples:
      | operation                  | type    | length |
      | Risk decision on card data | RISKDEC | 12     |
      | Risk decision on card data | RISKDEC | 19     |

  # The formats are checked on every answer, by the document's schemas (steps/world.ts): this scenario is where a
  # wrong one is reported under its rule. Whether a part carries these fields is not fixed by the document.
  @rule:FIELD-TIMESTAMP @rule:FIELD-SETTLEDUEDATE @type:AUTH
  Scenario: transactionstartedtimestamp is written YYYY-MM-DD HH:MM:SS and settleduedate YYYY-MM-DD
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH succeeded
    And the AUTH holds `transactionstartedtimestamp` and `settleduedate`

  @rule:FIELD-US-STATE @type:AUTH
  Scenario Outline: For US addresses, the state is taken as a two-character code or as the full name (<county>)
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | billingcountryiso2a | US         |
      | billingpostcode     | 90210      |
      | billingcounty       | <county>   |
    Then the AUTH succeeded

    Examples:
      | county     |
      | CA         |
      | California |

  @rule:FIELD-ECHO @type:ACCOUNTCHECK @type:STORE @type:RISKDEC @type:THREEDQUERY
  Scenario Outline: The <type> part echoes baseamount, currencyiso3a, orderreference and accounttypedescription as sent
    When the merchant sends "<operation>" with <card>
    Then the <type> succeeded
    And the <type> echoes <fields>
    Examples:
      | operation     | card                  | type         | fields                                                                       |
      | Account check | the "authorised" card | ACCOUNTCHECK | `baseamount`, `currencyiso3a`, `orderreference` and `accounttypedescription` |
    @requires:cardstore
    Examples: card store
      | operation  | card                  | type  | fields                                        |
      | Card store | the "authorised" card | STORE | `orderreference` and `accounttypedescription` |
    @requires:fraudcontrol
    Examples: risk decision
      | operation                  | card                  | type    | fields                                                                       |
      | Risk decision on card data | the "authorised" card | RISKDEC | `baseamount`, `currencyiso3a`, `orderreference` and `accounttypedescription` |
    @requires:cachetokens
    Examples: 3-D Secure
      | operation                  | card                                    | type        | fields                                                     |
      | 3-D Secure enrolment check | a cache token for the "authorised" card | THREEDQUERY | `baseamount`, `currencyiso3a` and `accounttypedescription` |

  # ---- generated maskedpan-by-length: written by `npm run scenarios` from schemas/fields.ts (pan) and schemas/operations.ts (src/suite/generated); do not edit by hand
  # Every length the field table allows a card number (pan: Numeric, 12-19), in every part about the card of each
  # row that takes the card itself: the answer returns it masked, the middle digits replaced by #.

  @rule:FIELD-MASKEDPAN @type:AUTH @type:SUBSCRIPTION
  Scenario Outline: "Subscription without 3-D Secure" with a card number of <length> digits: the AUTH part returns it masked
    When the merchant sends "Subscription without 3-D Secure" with a card number of <length> digits
    Then the AUTH's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |

  @rule:FIELD-MASKEDPAN @type:AUTH
  Scenario Outline: "Ordinary AUTH without 3-D Secure" with a card number of <length> digits: the AUTH part returns it masked
    When the merchant sends "Ordinary AUTH without 3-D Secure" with a card number of <length> digits
    Then the AUTH's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |

  @rule:FIELD-MASKEDPAN @type:ACCOUNTCHECK
  Scenario Outline: "Account check" with a card number of <length> digits: the ACCOUNTCHECK part returns it masked
    When the merchant sends "Account check" with a card number of <length> digits
    Then the ACCOUNTCHECK's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |

  @rule:FIELD-MASKEDPAN @requires:cardstore @type:STORE
  Scenario Outline: "Card store" with a card number of <length> digits: the STORE part returns it masked
    When the merchant sends "Card store" with a card number of <length> digits
    Then the STORE's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |

  @rule:FIELD-MASKEDPAN @requires:fraudcontrol @type:RISKDEC
  Scenario Outline: "Risk decision on card data" with a card number of <length> digits: the RISKDEC part returns it masked
    When the merchant sends "Risk decision on card data" with a card number of <length> digits
    Then the RISKDEC's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |

  @rule:FIELD-MASKEDPAN @requires:fraudcontrol @type:RISKDEC @type:AUTH
  Scenario Outline: "Combined, risk decision first" with a card number of <length> digits: the RISKDEC and AUTH parts return it masked
    When the merchant sends "Combined, risk decision first" with a card number of <length> digits
    Then the RISKDEC's maskedpan masks the card number sent
    And the AUTH's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |

  @rule:FIELD-MASKEDPAN @requires:fraudcontrol @type:AUTH @type:RISKDEC
  Scenario Outline: "Combined, risk decision last" with a card number of <length> digits: the AUTH and RISKDEC parts return it masked
    When the merchant sends "Combined, risk decision last" with a card number of <length> digits
    Then the AUTH's maskedpan masks the card number sent
    And the RISKDEC's maskedpan masks the card number sent

    Examples:
      | length |
      | 12     |
      | 13     |
      | 14     |
      | 15     |
      | 16     |
      | 17     |
      | 18     |
      | 19     |
  # ---- end of generated maskedpan-by-length

  # ---- generated maskedpan-in-queries: written by `npm run scenarios` from schemas/operations.ts (src/suite/generated); do not edit by hand
  # A TRANSACTIONQUERY of a transaction of every row of one request type whose part is about a card: the record
  # returns the card masked, and neither the card number nor the security code.

  @rule:FIELD-MASKEDPAN @requires:cachetokens @requires:transactionquery @type:THREEDQUERY @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the THREEDQUERY of "3-D Secure enrolment check" returns the card masked
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the THREEDQUERY
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the THREEDQUERY
    And the queried THREEDQUERY's maskedpan masks the "authorised" card
    And the queried THREEDQUERY does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:cachetokens @requires:acsForm @requires:transactionquery @type:THREEDQUERY @type:AUTH @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the AUTH of "AUTH after 3-D Secure, enrolled card" returns the card masked
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "AUTH after 3-D Secure, enrolled card" with the md and pares of the THREEDQUERY
    And the merchant sends a TRANSACTIONQUERY of the AUTH
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the AUTH
    And the queried AUTH's maskedpan masks the "authorised" card
    And the queried AUTH does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:card:notEnrolled @requires:cachetokens @requires:transactionquery @type:THREEDQUERY @type:AUTH @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the AUTH of "AUTH after 3-D Secure, card not enrolled or unknown" returns the card masked
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    And the merchant sends "AUTH after 3-D Secure, card not enrolled or unknown" with the parent the THREEDQUERY
    And the merchant sends a TRANSACTIONQUERY of the AUTH
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the AUTH
    And the queried AUTH's maskedpan masks the "not enrolled" card
    And the queried AUTH does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:transactionquery @type:AUTH @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the AUTH of "Ordinary AUTH without 3-D Secure" returns the card masked
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the AUTH
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the AUTH
    And the queried AUTH's maskedpan masks the "authorised" card
    And the queried AUTH does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:transactionquery @type:ACCOUNTCHECK @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the ACCOUNTCHECK of "Account check" returns the card masked
    When the merchant sends "Account check" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the ACCOUNTCHECK
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the ACCOUNTCHECK
    And the queried ACCOUNTCHECK's maskedpan masks the "authorised" card
    And the queried ACCOUNTCHECK does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:cardstore @requires:transactionquery @type:STORE @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the STORE of "Card store" returns the card masked
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the STORE
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the STORE
    And the queried STORE's maskedpan masks the "authorised" card
    And the queried STORE does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:fraudcontrol @requires:transactionquery @type:RISKDEC @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the RISKDEC of "Risk decision on card data" returns the card masked
    When the merchant sends "Risk decision on card data" with the "authorised" card
    And the merchant sends a TRANSACTIONQUERY of the RISKDEC
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the RISKDEC
    And the queried RISKDEC's maskedpan masks the "authorised" card
    And the queried RISKDEC does not hold `pan` or `securitycode`

  @rule:FIELD-MASKEDPAN @requires:fraudcontrol @requires:transactionquery @type:AUTH @type:RISKDEC @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY of the RISKDEC of "Risk decision after a payment" returns the card masked
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Risk decision after a payment" with the parent the AUTH
    And the merchant sends a TRANSACTIONQUERY of the RISKDEC
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the RISKDEC
    And the queried RISKDEC's maskedpan masks the "authorised" card
    And the queried RISKDEC does not hold `pan` or `securitycode`
  # ---- end of generated maskedpan-in-queries
