# A bank-specific amount limit, checked with the kit's steps and one step of the bank's own.
Feature: Example Bank amount limit
  Example Bank, as acquirer, declines payments above 5000.00. The first scenario uses the kit's steps only; the
  second ends with a check of the bank's own (steps/amount-limit.steps.ts).

  @rule:BANK-AMOUNT-AT-LIMIT @type:AUTH
  Scenario: An AUTH of exactly the bank's maximum amount is authorised
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | baseamount | 500000 |
    Then the AUTH succeeded

  @rule:BANK-AMOUNT-OVER-LIMIT @type:AUTH
  Scenario: An AUTH above the bank's maximum amount is declined
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and:
      | baseamount | 500001 |
    Then the AUTH is declined by the bank's amount limit of 500000
