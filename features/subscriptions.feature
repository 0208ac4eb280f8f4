# What the service does (SUBSCRIPTION); Resources and their fields > Subscription fields; States and transitions >
# Subscription; Endpoints > Request types (the three subscription rows, Amount change); Rules tied to the
# operations, 2 and 3; Limits, 4. Time moves through the target's test-control clock, never by waiting; the
# payments the engine takes are read from the test-control ledger. Begin dates lie a week ahead, so that no count
# below depends on how a month is added at a month's end.
Feature: Subscriptions
  SUBSCRIPTION schedules recurring payments in a subscription engine. It is submitted combined with AUTH as
  ["AUTH","SUBSCRIPTION"]. The first payment is taken at once, and later payments are taken automatically.

  @rule:SUB-COMBINED @rule:SUB-REQUIRES-AUTH @rule:SUB-NO-3DS @rule:SUB-OWN-REFERENCE @rule:SUB-RECUR @rule:SUB-AUTH-FIRST-PAYMENT @rule:SUB-STATE-PENDING @rule:SUB-TRANSACTIONACTIVE-VALUES @type:AUTH @type:SUBSCRIPTION
  Scenario: Subscription without 3-D Secure: 2 parts, AUTH then SUBSCRIPTION, each with its own reference
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card
    Then the response has 2 parts: AUTH, then SUBSCRIPTION
    And the AUTH succeeded
    And the SUBSCRIPTION succeeded
    And the SUBSCRIPTION's transactionreference differs from the AUTH's
    And the SUBSCRIPTION's accounttypedescription is "RECUR"
    And the SUBSCRIPTION's transactionactive is "2"
    And the SUBSCRIPTION holds `transactionactive`, `subscriptionbegindate`, `subscriptionunit`, `subscriptionfrequency`, `subscriptionfinalnumber` and `baseamount`
    And the SUBSCRIPTION echoes `baseamount`, `subscriptionbegindate`, `subscriptionunit`, `subscriptionfrequency` and `subscriptionfinalnumber`
    And the AUTH echoes `baseamount`

  @rule:ENV-ORDER @type:AUTH @type:SUBSCRIPTION
  Scenario: AUTH+SUBSCRIPTION is run in the listed order: the AUTH part, then the SUBSCRIPTION part
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card
    Then the response has 2 parts: AUTH, then SUBSCRIPTION

  @rule:SUB-REQUIRES-AUTH @type:SUBSCRIPTION
  Scenario: A SUBSCRIPTION sent without AUTH is not taken
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card, naming only SUBSCRIPTION
    Then the call was not successful

  # "`cavv`, `eci`: Returned if enrolled and authenticated": the AUTH part of the subscription as a lone AUTH.
  @rule:SUB-ENROLLED @rule:3DS-NEXT-Y @rule:3DS-STATUS @rule:3DS-CAVV-ECI @requires:cachetokens @requires:acsForm @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Subscription, enrolled card: md and pares after the ACS
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "Subscription, enrolled card" with the md and pares of the THREEDQUERY
    Then the response has 2 parts: AUTH, then SUBSCRIPTION
    And the AUTH succeeded
    And the AUTH's status is "Y"
    And the AUTH holds `cavv` and `eci`
    And the SUBSCRIPTION succeeded

  # "`md`, `pares` only; all other data is inherited from the THREEDQUERY": in the subscription's AUTH part too, the
  # billing the THREEDQUERY was sent reaches the bank's address and postcode checks.
  @rule:SUB-ENROLLED @rule:INHERIT-CHILD @requires:cachetokens @requires:acsForm @requires:security @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Subscription, enrolled card: the AUTH part inherits the billing details of the THREEDQUERY
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card and:
      | billingpremise  | <matched> |
      | billingpostcode | <matched> |
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "Subscription, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH succeeded
    And the AUTH's securityresponseaddress is "2"
    And the AUTH's securityresponsepostcode is "2"

  @rule:3DS-60022-SETTLE @rule:ERR-60022 @rule:3DS-STATUS @errorcode:60022 @requires:cachetokens @requires:acsForm @requires:card:notAuthenticated @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Subscription, enrolled card, customer not authenticated: the AUTH part has 60022, status N, settlestatus 3
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not authenticated" card
    And the customer completes 3-D Secure at the ACS for the THREEDQUERY
    And the merchant sends "Subscription, enrolled card" with the md and pares of the THREEDQUERY
    Then the AUTH has errorcode "60022"
    And the AUTH's status is "N"
    And the AUTH's settlestatus is "3"
    And the AUTH does not hold `authcode` or `acquirerresponsecode`

  @rule:SUB-NOT-ENROLLED @rule:3DS-NEXT-N @requires:cachetokens @type:THREEDQUERY @type:AUTH @type:SUBSCRIPTION
  Scenario: Subscription, card not enrolled: the THREEDQUERY as parent
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "not enrolled" card
    And the merchant sends "Subscription, card not enrolled" with the parent the THREEDQUERY
    Then the response has 2 parts: AUTH, then SUBSCRIPTION
    And the AUTH succeeded
    And the SUBSCRIPTION succeeded

  @rule:FIELD-CREDENTIALSONFILE @rule:FIELD-ECHO @requires:cardstore @type:STORE @type:AUTH @type:SUBSCRIPTION
  Scenario: A new subscription on previously stored credentials sends credentialsonfile 1
    When the merchant sends "Card store" with the "authorised" card
    And the merchant sends "Subscription, card not enrolled" with the parent the STORE and:
      | credentialsonfile | 1 |
    Then the AUTH succeeded
    And the SUBSCRIPTION succeeded
    And the AUTH echoes `credentialsonfile`

  @rule:SUB-FIRST-PAYMENT-AT-ONCE @rule:SUB-STATE-PENDING @rule:SUB-STATE-PENDING-TO-ACTIVE @rule:SUB-BEGINDATE @rule:SUB-NUMBER-START @rule:SUB-NUMBER-INCREMENT @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: Pending, then active once the AUTH is settled: payments start at subscriptionbegindate, numbered from 2
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | subscriptionnumber    | 1                |
    Then the AUTH succeeded
    And the SUBSCRIPTION's transactionactive is "2"
    When the target's clock moves on by 6 days
    Then the SUBSCRIPTION has taken 0 automatic payments
    When the target's clock moves on by 1 day
    Then the automatic payments of the SUBSCRIPTION are numbered "2"
    When the target's clock moves on by 1 month
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3"
    And every automatic payment of the SUBSCRIPTION succeeded

  @rule:SUB-STATE-PENDING @rule:SUB-STATE-ACTIVE @requires:clock @requires:ledger @requires:transactionupdate @type:SUBSCRIPTION @type:TRANSACTIONUPDATE
  Scenario Outline: transactionactive <shown>: payments are scheduled <when>
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | transactionactive     | <sent>           |
    Then the SUBSCRIPTION's transactionactive is "<state>"
    When the merchant sends a TRANSACTIONUPDATE of the AUTH and:
      | settlestatus | 2 |
    And the target's clock moves on by 2 months
    Then the SUBSCRIPTION has taken <payments> automatic payments

    Examples:
      | shown            | sent   | state | when                                           | payments |
      | omitted          | <omit> | 2     | after the AUTH is settled: never, if it is not | 0        |
      | sent as 1        | 1      | 1     | at once, whether the AUTH is settled or not    | 2        |

  # "Pending | AUTH settled | settlestatus `100` | Active": a first payment suspended (settle status 2) is not settled,
  # so the subscription waits, whatever else happened to its AUTH.
  @rule:SUB-STATE-PENDING-TO-ACTIVE @requires:clock @requires:ledger @requires:transactionupdate @requires:transactionquery @type:AUTH @type:SUBSCRIPTION @type:TRANSACTIONUPDATE @type:TRANSACTIONQUERY
  Scenario: Pending until the AUTH is settled: a subscription whose AUTH is suspended (settlestatus 2) stays pending and takes no payment
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
    Then the SUBSCRIPTION's transactionactive is "2"
    When the merchant sends a TRANSACTIONUPDATE of the AUTH and:
      | settlestatus | 2 |
    Then the TRANSACTIONUPDATE succeeded
    When the target's clock moves on by 2 months
    And the merchant sends a TRANSACTIONQUERY of the SUBSCRIPTION
    Then the TRANSACTIONQUERY found the SUBSCRIPTION
    And the queried SUBSCRIPTION's transactionactive is "2"
    And the SUBSCRIPTION has taken 0 automatic payments

  @rule:SUB-STATE-INACTIVE @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: transactionactive 0: future payments are suspended
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | transactionactive     | 0                |
    Then the SUBSCRIPTION's transactionactive is "0"
    When the target's clock moves on by 2 months
    Then the SUBSCRIPTION has taken 0 automatic payments

  @rule:SUB-FINALNUMBER-ZERO @rule:SUB-STATE-DEACTIVATE @requires:clock @requires:ledger @requires:transactionupdate @type:SUBSCRIPTION @type:TRANSACTIONUPDATE
  Scenario: subscriptionfinalnumber 0: payments continue until a TRANSACTIONUPDATE sets transactionactive to 0
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate   | <today + 7 days> |
      | subscriptionfinalnumber | 0                |
      | transactionactive       | 1                |
    And the target's clock moves on by 3 months
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4"
    When the merchant sends a TRANSACTIONUPDATE of the SUBSCRIPTION and:
      | transactionactive | 0 |
    Then the TRANSACTIONUPDATE succeeded
    When the target's clock moves on by 3 months
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4"

  # "`0` means payments continue until deactivated": no count stops them, not even a year's (a count of twelve, a
  # common default, would stop them there).
  @rule:SUB-FINALNUMBER-ZERO @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: subscriptionfinalnumber 0: payments go on past a year of monthly payments
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate   | <today + 7 days> |
      | subscriptionfinalnumber | 0                |
      | transactionactive       | 1                |
    And the target's clock moves on by 7 days
    Then the automatic payments of the SUBSCRIPTION are numbered "2"
    When the target's clock moves on by 12 months
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14"

  # "The SUBSCRIPTION reference is needed for later queries and updates of the subscription": the query by it finds
  # the SUBSCRIPTION itself, not the AUTH of the same request.
  @rule:SUB-STATE-DEACTIVATE @rule:SUB-OWN-REFERENCE @requires:transactionupdate @requires:transactionquery @type:AUTH @type:SUBSCRIPTION @type:TRANSACTIONUPDATE @type:TRANSACTIONQUERY
  Scenario: A TRANSACTIONQUERY after the update shows the subscription inactive (0)
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | transactionactive | 1 |
    Then the SUBSCRIPTION's transactionactive is "1"
    When the merchant sends a TRANSACTIONUPDATE of the SUBSCRIPTION and:
      | transactionactive | 0 |
    Then the TRANSACTIONUPDATE succeeded
    When the merchant sends a TRANSACTIONQUERY of the SUBSCRIPTION
    Then the TRANSACTIONQUERY found the SUBSCRIPTION
    And the queried SUBSCRIPTION's transactionactive is "0"

  @rule:SUB-STATE-FINAL @rule:SUB-STATE-RESUME @rule:LIMIT-CATCH-UP @rule:SUB-NUMBER-INCREMENT @requires:clock @requires:ledger @requires:transactionupdate @type:SUBSCRIPTION @type:TRANSACTIONUPDATE
  Scenario: Payments stop after subscriptionfinalnumber; a greater final number resumes them, missed ones within 24 hours
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate   | <today + 7 days> |
      | subscriptionfinalnumber | 3                |
      | transactionactive       | 1                |
    And the target's clock moves on by 3 months
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3"
    When the target's clock moves on by 2 months
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3"
    When the merchant sends a TRANSACTIONUPDATE of the SUBSCRIPTION and:
      | subscriptionfinalnumber | 8 |
    Then the TRANSACTIONUPDATE succeeded
    When the target's clock moves on by 24 hours
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4, 5, 6"
    When the target's clock moves on by 2 days
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4, 5, 6"
    When the target's clock moves on by 1 month
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4, 5, 6, 7"

  # "A subscription amount that differs from the first payment": the update sets the later payments' amount; the
  # first payment, taken at once, keeps the initial one, as the merchant reads it back.
  @rule:SUB-AMOUNT-UPDATE @requires:transactionupdate @requires:transactionquery @type:AUTH @type:SUBSCRIPTION @type:TRANSACTIONUPDATE @type:TRANSACTIONQUERY
  Scenario: After the TRANSACTIONUPDATE of the SUBSCRIPTION's amount, a TRANSACTIONQUERY of the first payment shows the initial amount
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | baseamount            | 1050             |
    And the merchant sends a TRANSACTIONUPDATE of the SUBSCRIPTION and:
      | baseamount | 2000 |
    Then the TRANSACTIONUPDATE succeeded
    When the merchant sends a TRANSACTIONQUERY of the AUTH
    Then the TRANSACTIONQUERY found the AUTH
    And the queried AUTH's baseamount, where its record shows one, is "1050"

  @rule:SUB-AMOUNT-UPDATE @requires:clock @requires:ledger @requires:transactionupdate @type:SUBSCRIPTION @type:TRANSACTIONUPDATE
  Scenario: A later amount that differs from the first payment is set by a TRANSACTIONUPDATE of the SUBSCRIPTION
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | baseamount            | 1050             |
    And the merchant sends a TRANSACTIONUPDATE of the SUBSCRIPTION and:
      | baseamount | 2000 |
    Then the TRANSACTIONUPDATE succeeded
    And the AUTH's baseamount is "1050"
    When the target's clock moves on by 1 month
    Then the SUBSCRIPTION has taken 1 automatic payment
    And the latest automatic payment of the SUBSCRIPTION has baseamount "2000"

  @rule:FIELD-BASEAMOUNT-POSITIVE @requires:clock @requires:ledger @requires:transactionupdate @type:SUBSCRIPTION @type:TRANSACTIONUPDATE
  Scenario: A TRANSACTIONUPDATE of the SUBSCRIPTION to baseamount 0 is not taken: baseamount must be greater than zero
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | baseamount            | 1050             |
    And the merchant sends a TRANSACTIONUPDATE of the SUBSCRIPTION and:
      | baseamount | 0 |
    Then the TRANSACTIONUPDATE failed
    When the target's clock moves on by 1 month
    Then the SUBSCRIPTION has taken 1 automatic payment
    And the latest automatic payment of the SUBSCRIPTION has baseamount "1050"

  @rule:SUB-OWN-REFERENCE @requires:clock @requires:ledger @requires:transactionupdate @type:SUBSCRIPTION @type:TRANSACTIONUPDATE
  Scenario: An update of the subscription needs the SUBSCRIPTION reference: one naming the AUTH leaves the subscription's amount
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | baseamount            | 1050             |
    And the merchant sends a TRANSACTIONUPDATE of the AUTH and:
      | baseamount | 2000 |
    And the target's clock moves on by 1 month
    Then the SUBSCRIPTION has taken 1 automatic payment
    And the latest automatic payment of the SUBSCRIPTION has baseamount "1050"

  @rule:SUB-FIRST-PAYMENT-AT-ONCE @rule:FIELD-TIMESTAMP @requires:clock @requires:ledger @requires:transactionquery @type:SUBSCRIPTION @type:TRANSACTIONQUERY
  Scenario: A later payment, taken automatically, is a transaction the merchant can query like any other
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | transactionactive     | 1                |
    And the target's clock moves on by 7 days
    Then the automatic payments of the SUBSCRIPTION are numbered "2"
    When the merchant sends a TRANSACTIONQUERY of the latest automatic payment of the SUBSCRIPTION
    Then the TRANSACTIONQUERY succeeded
    And the TRANSACTIONQUERY found the latest automatic payment of the SUBSCRIPTION

  @rule:SUB-NUMBER-RESUME @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: To resume a former subscription after 3 payments, the merchant sends subscriptionnumber 4
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | subscriptionnumber    | 4                |
    Then the SUBSCRIPTION succeeded
    When the target's clock moves on by 1 month
    Then the automatic payments of the SUBSCRIPTION are numbered "5"

  # "To resume a former subscription, send the next number"; "It is incremented with each subscription payment";
  # "subscriptionnumber exceeds subscriptionfinalnumber: payments stop": the count of a resumed subscription too.
  @rule:SUB-NUMBER-RESUME @rule:SUB-NUMBER-INCREMENT @rule:SUB-STATE-FINAL @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: A subscription resumed at 4 with subscriptionfinalnumber 6 takes payments 5 and 6, then stops
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate   | <today + 7 days> |
      | subscriptionnumber      | 4                |
      | subscriptionfinalnumber | 6                |
      | transactionactive       | 1                |
    And the target's clock moves on by 7 days
    Then the automatic payments of the SUBSCRIPTION are numbered "5"
    When the target's clock moves on by 3 months
    Then the automatic payments of the SUBSCRIPTION are numbered "5, 6"

  # "Date of the scheduled payments' start", at a clock edge: a begin date that is the day of the request itself.
  @rule:SUB-BEGINDATE @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: subscriptionbegindate today: the scheduled payments start that day, so the next one is taken within a day
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today> |
      | transactionactive     | 1       |
    Then the SUBSCRIPTION succeeded
    When the target's clock moves on by 1 day
    Then the automatic payments of the SUBSCRIPTION are numbered "2"

  @rule:SUB-FREQUENCY @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario Outline: subscriptionfrequency <frequency>: <frequency> unit(s) between payments
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | subscriptionunit      | MONTH            |
      | subscriptionfrequency | <frequency>      |
      | transactionactive     | 1                |
    And the target's clock moves on by 7 days
    Then the automatic payments of the SUBSCRIPTION are numbered "2"
    When the target's clock moves on by 1 month
    Then the automatic payments of the SUBSCRIPTION are numbered "<after one month>"
    When the target's clock moves on by 1 month
    Then the automatic payments of the SUBSCRIPTION are numbered "<after two months>"

    Examples:
      | frequency | after one month | after two months |
      | 1         | 2, 3            | 2, 3, 4          |
      | 2         | 2               | 2, 3             |

  # "Allowed values of `subscriptiontype` and `subscriptionunit` other than those in the examples: not shown": a
  # target that takes the unit DAY counts its frequency in days as in months; one that refuses it skips this scenario.
  @rule:SUB-FREQUENCY @requires:clock @requires:ledger @type:SUBSCRIPTION
  Scenario: subscriptionunit DAY, where the target takes it: subscriptionfrequency 3 is three days between payments
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card and:
      | subscriptionbegindate | <today + 7 days> |
      | subscriptionunit      | DAY              |
      | subscriptionfrequency | 3                |
      | transactionactive     | 1                |
    Then the SUBSCRIPTION succeeded, unless the target does not take a subscriptionunit the document does not show
    When the target's clock moves on by 7 days
    Then the automatic payments of the SUBSCRIPTION are numbered "2"
    When the target's clock moves on by 6 days
    Then the automatic payments of the SUBSCRIPTION are numbered "2, 3, 4"
