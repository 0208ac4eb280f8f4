# Written by `npm run boundaries` from schemas/fields.ts and schemas/operations.ts (src/boundary): do not edit.
# Resources and their fields (types, lengths, value lists, formats); Limits, 1; Endpoints > Request types.
@phase:boundary
Feature: Field boundaries
  "The number is the maximum length, unless a range is given." For every request field each operation carries:
  the longest value is taken and one longer refused, a value with a character outside its type class refused,
  each listed value taken and an unlisted one refused, a malformed date, URL or email refused; a required field
  left out refused, a recommended one taken. Where the document names no error code the kit checks only that
  the part failed (THREEDQUERY: 30000, "Invalid field").

  @type:AUTH
  Scenario Outline: Ordinary AUTH without 3-D Secure: <field> <case>
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card, <field> "<case>"
    Then <field> "<case>" is <outcome>

    @rule:FIELD-LENGTHS:sitereference @rule:LIMIT-FIELD-LENGTHS:sitereference
    Examples:
      | field         | case              | outcome  |
      | sitereference | one longer (51)   | refused  |

    @rule:FIELD-TYPES:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | with a space (' ')    | refused  |
      | sitereference | with a hyphen ('-')   | refused  |
      | sitereference | with a symbol ('#')   | refused  |

    @rule:FIELD-LENGTHS:accounttypedescription @rule:LIMIT-FIELD-LENGTHS:accounttypedescription
    Examples:
      | field                  | case              | outcome  |
      | accounttypedescription | one longer (21)   | refused  |

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | field                  | case                                   | outcome  |
      | accounttypedescription | listed 'ECOM'                          | taken    |
      | accounttypedescription | listed 'MOTO'                          | taken    |
      | accounttypedescription | 'CARDSTORE', not listed for this row   | refused  |
      | accounttypedescription | unlisted 'XXXX'                        | refused  |
      | accounttypedescription | listed 'ECOM' in another letter case   | refused  |
      | accounttypedescription | listed 'ECOM' with a leading space     | refused  |
      | accounttypedescription | listed 'ECOM' with a trailing space    | refused  |

    @rule:FIELD-LENGTHS:currencyiso3a @rule:LIMIT-FIELD-LENGTHS:currencyiso3a
    Examples:
      | field         | case              | outcome  |
      | currencyiso3a | one longer (4)    | refused  |
      | currencyiso3a | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | field         | case                       | outcome  |
      | currencyiso3a | with a digit ('0')         | refused  |
      | currencyiso3a | with a space (' ')         | refused  |
      | currencyiso3a | with an underscore ('_')   | refused  |
      | currencyiso3a | with a hyphen ('-')        | refused  |
      | currencyiso3a | with a symbol ('#')        | refused  |

    @rule:FIELD-LENGTHS:baseamount @rule:LIMIT-FIELD-LENGTHS:baseamount @rule:LIMIT-BASEAMOUNT
    Examples:
      | field      | case              | outcome  |
      | baseamount | one longer (14)   | refused  |

    @rule:FIELD-TYPES:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | with a letter ('A')   | refused  |
      | baseamount | with a space (' ')    | refused  |
      | baseamount | with a symbol ('.')   | refused  |
      | baseamount | with a hyphen ('-')   | refused  |

    @rule:FIELD-BASEAMOUNT-POSITIVE:baseamount
    Examples:
      | field      | case   | outcome  |
      | baseamount | of 0   | refused  |

    @rule:FIELD-LENGTHS:securitycode @rule:LIMIT-FIELD-LENGTHS:securitycode
    Examples:
      | field        | case              | outcome  |
      | securitycode | one longer (5)    | refused  |
      | securitycode | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:securitycode
    Examples:
      | field        | case                  | outcome  |
      | securitycode | with a letter ('A')   | refused  |
      | securitycode | with a space (' ')    | refused  |
      | securitycode | with a symbol ('.')   | refused  |
      | securitycode | with a hyphen ('-')   | refused  |

    @rule:FIELD-SECURITYCODE-OPTIONAL:securitycode
    Examples:
      | field        | case                     | outcome  |
      | securitycode | left out (recommended)   | taken    |

    @rule:FIELD-LENGTHS:orderreference @rule:LIMIT-FIELD-LENGTHS:orderreference
    Examples:
      | field          | case               | outcome  |
      | orderreference | longest (255)      | taken    |
      | orderreference | one longer (256)   | refused  |

    @rule:FIELD-TYPES:orderreference @format:json
    Examples:
      | field          | case                                | outcome  |
      | orderreference | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingpremise @rule:LIMIT-FIELD-LENGTHS:billingpremise
    Examples:
      | field          | case              | outcome  |
      | billingpremise | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingpremise @format:json
    Examples:
      | field          | case                                | outcome  |
      | billingpremise | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingstreet @rule:LIMIT-FIELD-LENGTHS:billingstreet
    Examples:
      | field         | case               | outcome  |
      | billingstreet | longest (127)      | taken    |
      | billingstreet | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingstreet @format:json
    Examples:
      | field         | case                                | outcome  |
      | billingstreet | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingtown @rule:LIMIT-FIELD-LENGTHS:billingtown
    Examples:
      | field       | case               | outcome  |
      | billingtown | longest (127)      | taken    |
      | billingtown | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingtown @format:json
    Examples:
      | field       | case                                | outcome  |
      | billingtown | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingcounty @rule:LIMIT-FIELD-LENGTHS:billingcounty
    Examples:
      | field         | case               | outcome  |
      | billingcounty | longest (127)      | taken    |
      | billingcounty | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingcounty @format:json
    Examples:
      | field         | case                                | outcome  |
      | billingcounty | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingcountryiso2a @rule:LIMIT-FIELD-LENGTHS:billingcountryiso2a
    Examples:
      | field               | case              | outcome  |
      | billingcountryiso2a | one longer (3)    | refused  |
      | billingcountryiso2a | one shorter (1)   | refused  |

    @rule:FIELD-TYPES:billingcountryiso2a
    Examples:
      | field               | case                       | outcome  |
      | billingcountryiso2a | with a digit ('0')         | refused  |
      | billingcountryiso2a | with a space (' ')         | refused  |
      | billingcountryiso2a | with an underscore ('_')   | refused  |
      | billingcountryiso2a | with a hyphen ('-')        | refused  |
      | billingcountryiso2a | with a symbol ('#')        | refused  |

    @rule:FIELD-LENGTHS:billingpostcode @rule:LIMIT-FIELD-LENGTHS:billingpostcode
    Examples:
      | field           | case              | outcome  |
      | billingpostcode | one longer (26)   | refused  |

    @rule:FIELD-POSTCODE-VALIDATION:billingpostcode
    Examples:
      | field           | case                                 | outcome  |
      | billingpostcode | with a symbol ('#') for US           | refused  |
      | billingpostcode | with an underscore ('_') for US      | refused  |
      | billingpostcode | with a symbol ('#') for FR           | taken    |
      | billingpostcode | with a symbol ('#') and no country   | taken    |

    @rule:FIELD-LENGTHS:billingemail @rule:LIMIT-FIELD-LENGTHS:billingemail
    Examples:
      | field        | case               | outcome  |
      | billingemail | longest (255)      | taken    |
      | billingemail | one longer (256)   | refused  |

    @rule:FIELD-EMAIL-LOCALPART:billingemail
    Examples:
      | field        | case                              | outcome  |
      | billingemail | with 64 characters before the @   | taken    |
      | billingemail | with 65 characters before the @   | refused  |

    @rule:FIELD-TYPES:billingemail
    Examples:
      | field        | case           | outcome  |
      | billingemail | without an @   | refused  |

    @rule:FIELD-LENGTHS:billingtelephonetype @rule:LIMIT-FIELD-LENGTHS:billingtelephonetype
    Examples:
      | field                | case             | outcome  |
      | billingtelephonetype | one longer (2)   | refused  |

    @rule:FIELD-TELEPHONETYPE:billingtelephonetype
    Examples:
      | field                | case                                | outcome  |
      | billingtelephonetype | listed 'H'                          | taken    |
      | billingtelephonetype | listed 'M'                          | taken    |
      | billingtelephonetype | listed 'W'                          | taken    |
      | billingtelephonetype | unlisted 'X'                        | refused  |
      | billingtelephonetype | listed 'H' in another letter case   | refused  |
      | billingtelephonetype | listed 'H' with a leading space     | refused  |
      | billingtelephonetype | listed 'H' with a trailing space    | refused  |

    @rule:FIELD-LENGTHS:billingtelephone @rule:LIMIT-FIELD-LENGTHS:billingtelephone
    Examples:
      | field            | case              | outcome  |
      | billingtelephone | longest (20)      | taken    |
      | billingtelephone | one longer (21)   | refused  |

    @rule:FIELD-TELEPHONE-ALPHABET:billingtelephone
    Examples:
      | field            | case                         | outcome  |
      | billingtelephone | with a letter ('A')          | refused  |
      | billingtelephone | with a symbol ('#')          | refused  |
      | billingtelephone | of every allowed character   | taken    |

    @rule:FIELD-LENGTHS:billingprefixname @rule:LIMIT-FIELD-LENGTHS:billingprefixname
    Examples:
      | field             | case              | outcome  |
      | billingprefixname | longest (25)      | taken    |
      | billingprefixname | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingprefixname @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingprefixname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingfirstname @rule:LIMIT-FIELD-LENGTHS:billingfirstname
    Examples:
      | field            | case               | outcome  |
      | billingfirstname | longest (127)      | taken    |
      | billingfirstname | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingfirstname @format:json
    Examples:
      | field            | case                                | outcome  |
      | billingfirstname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingmiddlename @rule:LIMIT-FIELD-LENGTHS:billingmiddlename
    Examples:
      | field             | case               | outcome  |
      | billingmiddlename | longest (127)      | taken    |
      | billingmiddlename | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingmiddlename @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingmiddlename | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billinglastname @rule:LIMIT-FIELD-LENGTHS:billinglastname
    Examples:
      | field           | case               | outcome  |
      | billinglastname | longest (127)      | taken    |
      | billinglastname | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billinglastname @format:json
    Examples:
      | field           | case                                | outcome  |
      | billinglastname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingsuffixname @rule:LIMIT-FIELD-LENGTHS:billingsuffixname
    Examples:
      | field             | case              | outcome  |
      | billingsuffixname | longest (25)      | taken    |
      | billingsuffixname | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingsuffixname @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingsuffixname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:pan @rule:LIMIT-FIELD-LENGTHS:pan
    Examples:
      | field | case               | outcome  |
      | pan   | one longer (20)    | refused  |
      | pan   | one shorter (11)   | refused  |

    @rule:FIELD-TYPES:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | with a letter ('A')   | refused  |
      | pan   | with a space (' ')    | refused  |
      | pan   | with a symbol ('.')   | refused  |
      | pan   | with a hyphen ('-')   | refused  |

    @rule:FIELD-LENGTHS:expirydate @rule:LIMIT-FIELD-LENGTHS:expirydate
    Examples:
      | field      | case              | outcome  |
      | expirydate | one longer (8)    | refused  |
      | expirydate | one shorter (6)   | refused  |

    @rule:FIELD-TYPES:expirydate
    Examples:
      | field      | case            | outcome  |
      | expirydate | with month 13   | refused  |

  @type:ACCOUNTCHECK
  Scenario Outline: Account check: <field> <case>
    When the merchant sends "Account check" with the "authorised" card, <field> "<case>"
    Then <field> "<case>" is <outcome>

    @rule:FIELD-LENGTHS:sitereference @rule:LIMIT-FIELD-LENGTHS:sitereference
    Examples:
      | field         | case              | outcome  |
      | sitereference | one longer (51)   | refused  |

    @rule:FIELD-TYPES:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | with a space (' ')    | refused  |
      | sitereference | with a hyphen ('-')   | refused  |
      | sitereference | with a symbol ('#')   | refused  |

    @rule:FIELD-LENGTHS:accounttypedescription @rule:LIMIT-FIELD-LENGTHS:accounttypedescription
    Examples:
      | field                  | case              | outcome  |
      | accounttypedescription | one longer (21)   | refused  |

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | field                  | case                                   | outcome  |
      | accounttypedescription | listed 'ECOM'                          | taken    |
      | accounttypedescription | listed 'MOTO'                          | taken    |
      | accounttypedescription | 'CARDSTORE', not listed for this row   | refused  |
      | accounttypedescription | unlisted 'XXXX'                        | refused  |
      | accounttypedescription | listed 'ECOM' in another letter case   | refused  |
      | accounttypedescription | listed 'ECOM' with a leading space     | refused  |
      | accounttypedescription | listed 'ECOM' with a trailing space    | refused  |

    @rule:FIELD-LENGTHS:currencyiso3a @rule:LIMIT-FIELD-LENGTHS:currencyiso3a
    Examples:
      | field         | case              | outcome  |
      | currencyiso3a | one longer (4)    | refused  |
      | currencyiso3a | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | field         | case                       | outcome  |
      | currencyiso3a | with a digit ('0')         | refused  |
      | currencyiso3a | with a space (' ')         | refused  |
      | currencyiso3a | with an underscore ('_')   | refused  |
      | currencyiso3a | with a hyphen ('-')        | refused  |
      | currencyiso3a | with a symbol ('#')        | refused  |

    @rule:FIELD-LENGTHS:baseamount @rule:LIMIT-FIELD-LENGTHS:baseamount @rule:LIMIT-BASEAMOUNT
    Examples:
      | field      | case              | outcome  |
      | baseamount | one longer (14)   | refused  |

    @rule:FIELD-TYPES:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | with a letter ('A')   | refused  |
      | baseamount | with a space (' ')    | refused  |
      | baseamount | with a symbol ('.')   | refused  |
      | baseamount | with a hyphen ('-')   | refused  |

    @rule:FIELD-BASEAMOUNT-POSITIVE:baseamount
    Examples:
      | field      | case   | outcome  |
      | baseamount | of 0   | taken    |

    @rule:FIELD-LENGTHS:billingpremise @rule:LIMIT-FIELD-LENGTHS:billingpremise
    Examples:
      | field          | case              | outcome  |
      | billingpremise | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingpremise @format:json
    Examples:
      | field          | case                                | outcome  |
      | billingpremise | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingpostcode @rule:LIMIT-FIELD-LENGTHS:billingpostcode
    Examples:
      | field           | case              | outcome  |
      | billingpostcode | one longer (26)   | refused  |

    @rule:FIELD-POSTCODE-VALIDATION:billingpostcode
    Examples:
      | field           | case                                 | outcome  |
      | billingpostcode | with a symbol ('#') for US           | refused  |
      | billingpostcode | with an underscore ('_') for US      | refused  |
      | billingpostcode | with a symbol ('#') for FR           | taken    |
      | billingpostcode | with a symbol ('#') and no country   | taken    |

    @rule:FIELD-LENGTHS:securitycode @rule:LIMIT-FIELD-LENGTHS:securitycode
    Examples:
      | field        | case              | outcome  |
      | securitycode | one longer (5)    | refused  |
      | securitycode | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:securitycode
    Examples:
      | field        | case                  | outcome  |
      | securitycode | with a letter ('A')   | refused  |
      | securitycode | with a space (' ')    | refused  |
      | securitycode | with a symbol ('.')   | refused  |
      | securitycode | with a hyphen ('-')   | refused  |

    @rule:FIELD-SECURITYCODE-OPTIONAL:securitycode
    Examples:
      | field        | case                     | outcome  |
      | securitycode | left out (recommended)   | taken    |

    @rule:FIELD-LENGTHS:billingstreet @rule:LIMIT-FIELD-LENGTHS:billingstreet
    Examples:
      | field         | case               | outcome  |
      | billingstreet | longest (127)      | taken    |
      | billingstreet | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingstreet @format:json
    Examples:
      | field         | case                                | outcome  |
      | billingstreet | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingtown @rule:LIMIT-FIELD-LENGTHS:billingtown
    Examples:
      | field       | case               | outcome  |
      | billingtown | longest (127)      | taken    |
      | billingtown | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingtown @format:json
    Examples:
      | field       | case                                | outcome  |
      | billingtown | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingcounty @rule:LIMIT-FIELD-LENGTHS:billingcounty
    Examples:
      | field         | case               | outcome  |
      | billingcounty | longest (127)      | taken    |
      | billingcounty | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingcounty @format:json
    Examples:
      | field         | case                                | outcome  |
      | billingcounty | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingcountryiso2a @rule:LIMIT-FIELD-LENGTHS:billingcountryiso2a
    Examples:
      | field               | case              | outcome  |
      | billingcountryiso2a | one longer (3)    | refused  |
      | billingcountryiso2a | one shorter (1)   | refused  |

    @rule:FIELD-TYPES:billingcountryiso2a
    Examples:
      | field               | case                       | outcome  |
      | billingcountryiso2a | with a digit ('0')         | refused  |
      | billingcountryiso2a | with a space (' ')         | refused  |
      | billingcountryiso2a | with an underscore ('_')   | refused  |
      | billingcountryiso2a | with a hyphen ('-')        | refused  |
      | billingcountryiso2a | with a symbol ('#')        | refused  |

    @rule:FIELD-LENGTHS:billingemail @rule:LIMIT-FIELD-LENGTHS:billingemail
    Examples:
      | field        | case               | outcome  |
      | billingemail | longest (255)      | taken    |
      | billingemail | one longer (256)   | refused  |

    @rule:FIELD-EMAIL-LOCALPART:billingemail
    Examples:
      | field        | case                              | outcome  |
      | billingemail | with 64 characters before the @   | taken    |
      | billingemail | with 65 characters before the @   | refused  |

    @rule:FIELD-TYPES:billingemail
    Examples:
      | field        | case           | outcome  |
      | billingemail | without an @   | refused  |

    @rule:FIELD-LENGTHS:billingtelephonetype @rule:LIMIT-FIELD-LENGTHS:billingtelephonetype
    Examples:
      | field                | case             | outcome  |
      | billingtelephonetype | one longer (2)   | refused  |

    @rule:FIELD-TELEPHONETYPE:billingtelephonetype
    Examples:
      | field                | case                                | outcome  |
      | billingtelephonetype | listed 'H'                          | taken    |
      | billingtelephonetype | listed 'M'                          | taken    |
      | billingtelephonetype | listed 'W'                          | taken    |
      | billingtelephonetype | unlisted 'X'                        | refused  |
      | billingtelephonetype | listed 'H' in another letter case   | refused  |
      | billingtelephonetype | listed 'H' with a leading space     | refused  |
      | billingtelephonetype | listed 'H' with a trailing space    | refused  |

    @rule:FIELD-LENGTHS:billingtelephone @rule:LIMIT-FIELD-LENGTHS:billingtelephone
    Examples:
      | field            | case              | outcome  |
      | billingtelephone | longest (20)      | taken    |
      | billingtelephone | one longer (21)   | refused  |

    @rule:FIELD-TELEPHONE-ALPHABET:billingtelephone
    Examples:
      | field            | case                         | outcome  |
      | billingtelephone | with a letter ('A')          | refused  |
      | billingtelephone | with a symbol ('#')          | refused  |
      | billingtelephone | of every allowed character   | taken    |

    @rule:FIELD-LENGTHS:billingprefixname @rule:LIMIT-FIELD-LENGTHS:billingprefixname
    Examples:
      | field             | case              | outcome  |
      | billingprefixname | longest (25)      | taken    |
      | billingprefixname | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingprefixname @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingprefixname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingfirstname @rule:LIMIT-FIELD-LENGTHS:billingfirstname
    Examples:
      | field            | case               | outcome  |
      | billingfirstname | longest (127)      | taken    |
      | billingfirstname | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingfirstname @format:json
    Examples:
      | field            | case                                | outcome  |
      | billingfirstname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingmiddlename @rule:LIMIT-FIELD-LENGTHS:billingmiddlename
    Examples:
      | field             | case               | outcome  |
      | billingmiddlename | longest (127)      | taken    |
      | billingmiddlename | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingmiddlename @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingmiddlename | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billinglastname @rule:LIMIT-FIELD-LENGTHS:billinglastname
    Examples:
      | field           | case               | outcome  |
      | billinglastname | longest (127)      | taken    |
      | billinglastname | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billinglastname @format:json
    Examples:
      | field           | case                                | outcome  |
      | billinglastname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingsuffixname @rule:LIMIT-FIELD-LENGTHS:billingsuffixname
    Examples:
      | field             | case              | outcome  |
      | billingsuffixname | longest (25)      | taken    |
      | billingsuffixname | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingsuffixname @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingsuffixname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:pan @rule:LIMIT-FIELD-LENGTHS:pan
    Examples:
      | field | case               | outcome  |
      | pan   | one longer (20)    | refused  |
      | pan   | one shorter (11)   | refused  |

    @rule:FIELD-TYPES:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | with a letter ('A')   | refused  |
      | pan   | with a space (' ')    | refused  |
      | pan   | with a symbol ('.')   | refused  |
      | pan   | with a hyphen ('-')   | refused  |

    @rule:FIELD-LENGTHS:expirydate @rule:LIMIT-FIELD-LENGTHS:expirydate
    Examples:
      | field      | case              | outcome  |
      | expirydate | one longer (8)    | refused  |
      | expirydate | one shorter (6)   | refused  |

    @rule:FIELD-TYPES:expirydate
    Examples:
      | field      | case            | outcome  |
      | expirydate | with month 13   | refused  |

  @type:AUTH @type:SUBSCRIPTION
  Scenario Outline: Subscription without 3-D Secure: <field> <case>
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card, <field> "<case>"
    Then <field> "<case>" is <outcome>

    @rule:FIELD-LENGTHS:sitereference @rule:LIMIT-FIELD-LENGTHS:sitereference
    Examples:
      | field         | case              | outcome  |
      | sitereference | one longer (51)   | refused  |

    @rule:FIELD-TYPES:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | with a space (' ')    | refused  |
      | sitereference | with a hyphen ('-')   | refused  |
      | sitereference | with a symbol ('#')   | refused  |

    @rule:SUB-NO-3DS:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:accounttypedescription @rule:LIMIT-FIELD-LENGTHS:accounttypedescription
    Examples:
      | field                  | case              | outcome  |
      | accounttypedescription | one longer (21)   | refused  |

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | field                  | case                                   | outcome  |
      | accounttypedescription | listed 'ECOM'                          | taken    |
      | accounttypedescription | listed 'MOTO'                          | taken    |
      | accounttypedescription | 'CARDSTORE', not listed for this row   | refused  |
      | accounttypedescription | unlisted 'XXXX'                        | refused  |
      | accounttypedescription | listed 'ECOM' in another letter case   | refused  |
      | accounttypedescription | listed 'ECOM' with a leading space     | refused  |
      | accounttypedescription | listed 'ECOM' with a trailing space    | refused  |

    @rule:SUB-NO-3DS:accounttypedescription
    Examples:
      | field                  | case                  | outcome  |
      | accounttypedescription | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:currencyiso3a @rule:LIMIT-FIELD-LENGTHS:currencyiso3a
    Examples:
      | field         | case              | outcome  |
      | currencyiso3a | one longer (4)    | refused  |
      | currencyiso3a | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | field         | case                       | outcome  |
      | currencyiso3a | with a digit ('0')         | refused  |
      | currencyiso3a | with a space (' ')         | refused  |
      | currencyiso3a | with an underscore ('_')   | refused  |
      | currencyiso3a | with a hyphen ('-')        | refused  |
      | currencyiso3a | with a symbol ('#')        | refused  |

    @rule:SUB-NO-3DS:currencyiso3a
    Examples:
      | field         | case                  | outcome  |
      | currencyiso3a | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:baseamount @rule:LIMIT-FIELD-LENGTHS:baseamount @rule:LIMIT-BASEAMOUNT
    Examples:
      | field      | case              | outcome  |
      | baseamount | one longer (14)   | refused  |

    @rule:FIELD-TYPES:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | with a letter ('A')   | refused  |
      | baseamount | with a space (' ')    | refused  |
      | baseamount | with a symbol ('.')   | refused  |
      | baseamount | with a hyphen ('-')   | refused  |

    @rule:FIELD-BASEAMOUNT-POSITIVE:baseamount
    Examples:
      | field      | case   | outcome  |
      | baseamount | of 0   | refused  |

    @rule:SUB-NO-3DS:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:orderreference @rule:LIMIT-FIELD-LENGTHS:orderreference
    Examples:
      | field          | case               | outcome  |
      | orderreference | longest (255)      | taken    |
      | orderreference | one longer (256)   | refused  |

    @rule:FIELD-TYPES:orderreference @format:json
    Examples:
      | field          | case                                | outcome  |
      | orderreference | with a control character (U+0000)   | refused  |

    @rule:SUB-NO-3DS:orderreference
    Examples:
      | field          | case                  | outcome  |
      | orderreference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:subscriptiontype @rule:LIMIT-FIELD-LENGTHS:subscriptiontype
    Examples:
      | field            | case              | outcome  |
      | subscriptiontype | one longer (12)   | refused  |

    @rule:FIELD-TYPES:subscriptiontype
    Examples:
      | field            | case                       | outcome  |
      | subscriptiontype | with a digit ('0')         | refused  |
      | subscriptiontype | with a space (' ')         | refused  |
      | subscriptiontype | with an underscore ('_')   | refused  |
      | subscriptiontype | with a hyphen ('-')        | refused  |
      | subscriptiontype | with a symbol ('#')        | refused  |

    @rule:SUB-NO-3DS:subscriptiontype
    Examples:
      | field            | case                  | outcome  |
      | subscriptiontype | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:subscriptionunit @rule:LIMIT-FIELD-LENGTHS:subscriptionunit
    Examples:
      | field            | case             | outcome  |
      | subscriptionunit | one longer (6)   | refused  |

    @rule:FIELD-TYPES:subscriptionunit
    Examples:
      | field            | case                       | outcome  |
      | subscriptionunit | with a digit ('0')         | refused  |
      | subscriptionunit | with a space (' ')         | refused  |
      | subscriptionunit | with an underscore ('_')   | refused  |
      | subscriptionunit | with a hyphen ('-')        | refused  |
      | subscriptionunit | with a symbol ('#')        | refused  |

    @rule:SUB-NO-3DS:subscriptionunit
    Examples:
      | field            | case                  | outcome  |
      | subscriptionunit | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:subscriptionfrequency @rule:LIMIT-FIELD-LENGTHS:subscriptionfrequency
    Examples:
      | field                 | case              | outcome  |
      | subscriptionfrequency | longest (11)      | taken    |
      | subscriptionfrequency | one longer (12)   | refused  |

    @rule:FIELD-TYPES:subscriptionfrequency
    Examples:
      | field                 | case                  | outcome  |
      | subscriptionfrequency | with a letter ('A')   | refused  |
      | subscriptionfrequency | with a space (' ')    | refused  |
      | subscriptionfrequency | with a symbol ('.')   | refused  |
      | subscriptionfrequency | with a hyphen ('-')   | refused  |

    @rule:SUB-NO-3DS:subscriptionfrequency
    Examples:
      | field                 | case                  | outcome  |
      | subscriptionfrequency | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:subscriptionnumber @rule:LIMIT-FIELD-LENGTHS:subscriptionnumber
    Examples:
      | field              | case             | outcome  |
      | subscriptionnumber | longest (5)      | taken    |
      | subscriptionnumber | one longer (6)   | refused  |

    @rule:FIELD-TYPES:subscriptionnumber
    Examples:
      | field              | case                  | outcome  |
      | subscriptionnumber | with a letter ('A')   | refused  |
      | subscriptionnumber | with a space (' ')    | refused  |
      | subscriptionnumber | with a symbol ('.')   | refused  |
      | subscriptionnumber | with a hyphen ('-')   | refused  |

    @rule:SUB-NO-3DS:subscriptionnumber
    Examples:
      | field              | case                  | outcome  |
      | subscriptionnumber | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:subscriptionfinalnumber @rule:LIMIT-FIELD-LENGTHS:subscriptionfinalnumber
    Examples:
      | field                   | case             | outcome  |
      | subscriptionfinalnumber | longest (5)      | taken    |
      | subscriptionfinalnumber | one longer (6)   | refused  |

    @rule:FIELD-TYPES:subscriptionfinalnumber
    Examples:
      | field                   | case                  | outcome  |
      | subscriptionfinalnumber | with a letter ('A')   | refused  |
      | subscriptionfinalnumber | with a space (' ')    | refused  |
      | subscriptionfinalnumber | with a symbol ('.')   | refused  |
      | subscriptionfinalnumber | with a hyphen ('-')   | refused  |

    @rule:SUB-NO-3DS:subscriptionfinalnumber
    Examples:
      | field                   | case                  | outcome  |
      | subscriptionfinalnumber | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:subscriptionbegindate @rule:LIMIT-FIELD-LENGTHS:subscriptionbegindate
    Examples:
      | field                 | case              | outcome  |
      | subscriptionbegindate | one longer (11)   | refused  |
      | subscriptionbegindate | one shorter (9)   | refused  |

    @rule:FIELD-TYPES:subscriptionbegindate
    Examples:
      | field                 | case                 | outcome  |
      | subscriptionbegindate | written YYYY/MM/DD   | refused  |

    @rule:SUB-NO-3DS:subscriptionbegindate
    Examples:
      | field                 | case                  | outcome  |
      | subscriptionbegindate | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:pan @rule:LIMIT-FIELD-LENGTHS:pan
    Examples:
      | field | case               | outcome  |
      | pan   | one longer (20)    | refused  |
      | pan   | one shorter (11)   | refused  |

    @rule:FIELD-TYPES:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | with a letter ('A')   | refused  |
      | pan   | with a space (' ')    | refused  |
      | pan   | with a symbol ('.')   | refused  |
      | pan   | with a hyphen ('-')   | refused  |

    @rule:SUB-NO-3DS:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:expirydate @rule:LIMIT-FIELD-LENGTHS:expirydate
    Examples:
      | field      | case              | outcome  |
      | expirydate | one longer (8)    | refused  |
      | expirydate | one shorter (6)   | refused  |

    @rule:FIELD-TYPES:expirydate
    Examples:
      | field      | case            | outcome  |
      | expirydate | with month 13   | refused  |

    @rule:SUB-NO-3DS:expirydate
    Examples:
      | field      | case                  | outcome  |
      | expirydate | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:credentialsonfile @rule:LIMIT-FIELD-LENGTHS:credentialsonfile
    Examples:
      | field             | case             | outcome  |
      | credentialsonfile | one longer (2)   | refused  |

    @rule:FIELD-TYPES:credentialsonfile
    Examples:
      | field             | case                  | outcome  |
      | credentialsonfile | with a letter ('A')   | refused  |
      | credentialsonfile | with a space (' ')    | refused  |
      | credentialsonfile | with a symbol ('.')   | refused  |
      | credentialsonfile | with a hyphen ('-')   | refused  |

    @rule:FIELD-CREDENTIALSONFILE-OMITTED:credentialsonfile
    Examples:
      | field             | case                     | outcome  |
      | credentialsonfile | left out (recommended)   | taken    |

    @rule:FIELD-LENGTHS:securitycode @rule:LIMIT-FIELD-LENGTHS:securitycode
    Examples:
      | field        | case              | outcome  |
      | securitycode | one longer (5)    | refused  |
      | securitycode | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:securitycode
    Examples:
      | field        | case                  | outcome  |
      | securitycode | with a letter ('A')   | refused  |
      | securitycode | with a space (' ')    | refused  |
      | securitycode | with a symbol ('.')   | refused  |
      | securitycode | with a hyphen ('-')   | refused  |

    @rule:FIELD-SECURITYCODE-OPTIONAL:securitycode
    Examples:
      | field        | case                     | outcome  |
      | securitycode | left out (recommended)   | taken    |

    @rule:FIELD-LENGTHS:transactionactive @rule:LIMIT-FIELD-LENGTHS:transactionactive
    Examples:
      | field             | case             | outcome  |
      | transactionactive | one longer (2)   | refused  |

    @rule:SUB-TRANSACTIONACTIVE-VALUES:transactionactive
    Examples:
      | field             | case                               | outcome  |
      | transactionactive | listed '0'                         | taken    |
      | transactionactive | listed '1'                         | taken    |
      | transactionactive | listed '2'                         | taken    |
      | transactionactive | unlisted '9'                       | refused  |
      | transactionactive | listed '0' with a leading space    | refused  |
      | transactionactive | listed '0' with a trailing space   | refused  |

  @requires:cardstore @type:STORE
  Scenario Outline: Card store: <field> <case>
    When the merchant sends "Card store" with the "authorised" card, <field> "<case>"
    Then <field> "<case>" is <outcome>

    @rule:FIELD-LENGTHS:sitereference @rule:LIMIT-FIELD-LENGTHS:sitereference
    Examples:
      | field         | case              | outcome  |
      | sitereference | one longer (51)   | refused  |

    @rule:FIELD-TYPES:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | with a space (' ')    | refused  |
      | sitereference | with a hyphen ('-')   | refused  |
      | sitereference | with a symbol ('#')   | refused  |

    @rule:STORE-SHAPE:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:orderreference @rule:LIMIT-FIELD-LENGTHS:orderreference
    Examples:
      | field          | case               | outcome  |
      | orderreference | longest (255)      | taken    |
      | orderreference | one longer (256)   | refused  |

    @rule:FIELD-TYPES:orderreference @format:json
    Examples:
      | field          | case                                | outcome  |
      | orderreference | with a control character (U+0000)   | refused  |

    @rule:STORE-SHAPE:orderreference
    Examples:
      | field          | case                  | outcome  |
      | orderreference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:accounttypedescription @rule:LIMIT-FIELD-LENGTHS:accounttypedescription
    Examples:
      | field                  | case              | outcome  |
      | accounttypedescription | one longer (21)   | refused  |

    @rule:STORE-SHAPE:accounttypedescription
    Examples:
      | field                  | case                                        | outcome  |
      | accounttypedescription | listed 'CARDSTORE'                          | taken    |
      | accounttypedescription | 'ECOM', not listed for this row             | refused  |
      | accounttypedescription | unlisted 'XXXX'                             | refused  |
      | accounttypedescription | listed 'CARDSTORE' in another letter case   | refused  |
      | accounttypedescription | listed 'CARDSTORE' with a leading space     | refused  |
      | accounttypedescription | listed 'CARDSTORE' with a trailing space    | refused  |
      | accounttypedescription | left out (required)                         | refused  |

    @rule:FIELD-LENGTHS:billingpremise @rule:LIMIT-FIELD-LENGTHS:billingpremise
    Examples:
      | field          | case              | outcome  |
      | billingpremise | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingpremise @format:json
    Examples:
      | field          | case                                | outcome  |
      | billingpremise | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingstreet @rule:LIMIT-FIELD-LENGTHS:billingstreet
    Examples:
      | field         | case               | outcome  |
      | billingstreet | longest (127)      | taken    |
      | billingstreet | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingstreet @format:json
    Examples:
      | field         | case                                | outcome  |
      | billingstreet | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingtown @rule:LIMIT-FIELD-LENGTHS:billingtown
    Examples:
      | field       | case               | outcome  |
      | billingtown | longest (127)      | taken    |
      | billingtown | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingtown @format:json
    Examples:
      | field       | case                                | outcome  |
      | billingtown | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingcounty @rule:LIMIT-FIELD-LENGTHS:billingcounty
    Examples:
      | field         | case               | outcome  |
      | billingcounty | longest (127)      | taken    |
      | billingcounty | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingcounty @format:json
    Examples:
      | field         | case                                | outcome  |
      | billingcounty | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingcountryiso2a @rule:LIMIT-FIELD-LENGTHS:billingcountryiso2a
    Examples:
      | field               | case              | outcome  |
      | billingcountryiso2a | one longer (3)    | refused  |
      | billingcountryiso2a | one shorter (1)   | refused  |

    @rule:FIELD-TYPES:billingcountryiso2a
    Examples:
      | field               | case                       | outcome  |
      | billingcountryiso2a | with a digit ('0')         | refused  |
      | billingcountryiso2a | with a space (' ')         | refused  |
      | billingcountryiso2a | with an underscore ('_')   | refused  |
      | billingcountryiso2a | with a hyphen ('-')        | refused  |
      | billingcountryiso2a | with a symbol ('#')        | refused  |

    @rule:FIELD-LENGTHS:billingpostcode @rule:LIMIT-FIELD-LENGTHS:billingpostcode
    Examples:
      | field           | case              | outcome  |
      | billingpostcode | one longer (26)   | refused  |

    @rule:FIELD-POSTCODE-VALIDATION:billingpostcode
    Examples:
      | field           | case                                 | outcome  |
      | billingpostcode | with a symbol ('#') for US           | refused  |
      | billingpostcode | with an underscore ('_') for US      | refused  |
      | billingpostcode | with a symbol ('#') for FR           | taken    |
      | billingpostcode | with a symbol ('#') and no country   | taken    |

    @rule:FIELD-LENGTHS:billingemail @rule:LIMIT-FIELD-LENGTHS:billingemail
    Examples:
      | field        | case               | outcome  |
      | billingemail | longest (255)      | taken    |
      | billingemail | one longer (256)   | refused  |

    @rule:FIELD-EMAIL-LOCALPART:billingemail
    Examples:
      | field        | case                              | outcome  |
      | billingemail | with 64 characters before the @   | taken    |
      | billingemail | with 65 characters before the @   | refused  |

    @rule:FIELD-TYPES:billingemail
    Examples:
      | field        | case           | outcome  |
      | billingemail | without an @   | refused  |

    @rule:FIELD-LENGTHS:billingtelephonetype @rule:LIMIT-FIELD-LENGTHS:billingtelephonetype
    Examples:
      | field                | case             | outcome  |
      | billingtelephonetype | one longer (2)   | refused  |

    @rule:FIELD-TELEPHONETYPE:billingtelephonetype
    Examples:
      | field                | case                                | outcome  |
      | billingtelephonetype | listed 'H'                          | taken    |
      | billingtelephonetype | listed 'M'                          | taken    |
      | billingtelephonetype | listed 'W'                          | taken    |
      | billingtelephonetype | unlisted 'X'                        | refused  |
      | billingtelephonetype | listed 'H' in another letter case   | refused  |
      | billingtelephonetype | listed 'H' with a leading space     | refused  |
      | billingtelephonetype | listed 'H' with a trailing space    | refused  |

    @rule:FIELD-LENGTHS:billingtelephone @rule:LIMIT-FIELD-LENGTHS:billingtelephone
    Examples:
      | field            | case              | outcome  |
      | billingtelephone | longest (20)      | taken    |
      | billingtelephone | one longer (21)   | refused  |

    @rule:FIELD-TELEPHONE-ALPHABET:billingtelephone
    Examples:
      | field            | case                         | outcome  |
      | billingtelephone | with a letter ('A')          | refused  |
      | billingtelephone | with a symbol ('#')          | refused  |
      | billingtelephone | of every allowed character   | taken    |

    @rule:FIELD-LENGTHS:billingprefixname @rule:LIMIT-FIELD-LENGTHS:billingprefixname
    Examples:
      | field             | case              | outcome  |
      | billingprefixname | longest (25)      | taken    |
      | billingprefixname | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingprefixname @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingprefixname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingfirstname @rule:LIMIT-FIELD-LENGTHS:billingfirstname
    Examples:
      | field            | case               | outcome  |
      | billingfirstname | longest (127)      | taken    |
      | billingfirstname | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingfirstname @format:json
    Examples:
      | field            | case                                | outcome  |
      | billingfirstname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingmiddlename @rule:LIMIT-FIELD-LENGTHS:billingmiddlename
    Examples:
      | field             | case               | outcome  |
      | billingmiddlename | longest (127)      | taken    |
      | billingmiddlename | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billingmiddlename @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingmiddlename | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billinglastname @rule:LIMIT-FIELD-LENGTHS:billinglastname
    Examples:
      | field           | case               | outcome  |
      | billinglastname | longest (127)      | taken    |
      | billinglastname | one longer (128)   | refused  |

    @rule:FIELD-TYPES:billinglastname @format:json
    Examples:
      | field           | case                                | outcome  |
      | billinglastname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:billingsuffixname @rule:LIMIT-FIELD-LENGTHS:billingsuffixname
    Examples:
      | field             | case              | outcome  |
      | billingsuffixname | longest (25)      | taken    |
      | billingsuffixname | one longer (26)   | refused  |

    @rule:FIELD-TYPES:billingsuffixname @format:json
    Examples:
      | field             | case                                | outcome  |
      | billingsuffixname | with a control character (U+0000)   | refused  |

    @rule:FIELD-LENGTHS:pan @rule:LIMIT-FIELD-LENGTHS:pan
    Examples:
      | field | case               | outcome  |
      | pan   | one longer (20)    | refused  |
      | pan   | one shorter (11)   | refused  |

    @rule:FIELD-TYPES:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | with a letter ('A')   | refused  |
      | pan   | with a space (' ')    | refused  |
      | pan   | with a symbol ('.')   | refused  |
      | pan   | with a hyphen ('-')   | refused  |

    @rule:FIELD-LENGTHS:expirydate @rule:LIMIT-FIELD-LENGTHS:expirydate
    Examples:
      | field      | case              | outcome  |
      | expirydate | one longer (8)    | refused  |
      | expirydate | one shorter (6)   | refused  |

    @rule:FIELD-TYPES:expirydate
    Examples:
      | field      | case            | outcome  |
      | expirydate | with month 13   | refused  |

  @requires:fraudcontrol @type:RISKDEC
  Scenario Outline: Risk decision on card data: <field> <case>
    When the merchant sends "Risk decision on card data" with the "authorised" card, <field> "<case>"
    Then <field> "<case>" is <outcome>

    @rule:FIELD-LENGTHS:sitereference @rule:LIMIT-FIELD-LENGTHS:sitereference
    Examples:
      | field         | case              | outcome  |
      | sitereference | one longer (51)   | refused  |

    @rule:FIELD-TYPES:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | with a space (' ')    | refused  |
      | sitereference | with a hyphen ('-')   | refused  |
      | sitereference | with a symbol ('#')   | refused  |

    @rule:RISKDEC-CARD:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:accounttypedescription @rule:LIMIT-FIELD-LENGTHS:accounttypedescription
    Examples:
      | field                  | case              | outcome  |
      | accounttypedescription | one longer (21)   | refused  |

    @rule:RISKDEC-CARD:accounttypedescription
    Examples:
      | field                  | case                                           | outcome  |
      | accounttypedescription | listed 'FRAUDCONTROL'                          | taken    |
      | accounttypedescription | 'ECOM', not listed for this row                | refused  |
      | accounttypedescription | unlisted 'XXXX'                                | refused  |
      | accounttypedescription | listed 'FRAUDCONTROL' in another letter case   | refused  |
      | accounttypedescription | listed 'FRAUDCONTROL' with a leading space     | refused  |
      | accounttypedescription | listed 'FRAUDCONTROL' with a trailing space    | refused  |
      | accounttypedescription | left out (required)                            | refused  |

    @rule:FIELD-LENGTHS:currencyiso3a @rule:LIMIT-FIELD-LENGTHS:currencyiso3a
    Examples:
      | field         | case              | outcome  |
      | currencyiso3a | one longer (4)    | refused  |
      | currencyiso3a | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | field         | case                       | outcome  |
      | currencyiso3a | with a digit ('0')         | refused  |
      | currencyiso3a | with a space (' ')         | refused  |
      | currencyiso3a | with an underscore ('_')   | refused  |
      | currencyiso3a | with a hyphen ('-')        | refused  |
      | currencyiso3a | with a symbol ('#')        | refused  |

    @rule:RISKDEC-CARD:currencyiso3a
    Examples:
      | field         | case                  | outcome  |
      | currencyiso3a | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:baseamount @rule:LIMIT-FIELD-LENGTHS:baseamount @rule:LIMIT-BASEAMOUNT
    Examples:
      | field      | case              | outcome  |
      | baseamount | one longer (14)   | refused  |

    @rule:FIELD-TYPES:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | with a letter ('A')   | refused  |
      | baseamount | with a space (' ')    | refused  |
      | baseamount | with a symbol ('.')   | refused  |
      | baseamount | with a hyphen ('-')   | refused  |

    @rule:FIELD-BASEAMOUNT-POSITIVE:baseamount
    Examples:
      | field      | case   | outcome  |
      | baseamount | of 0   | refused  |

    @rule:RISKDEC-CARD:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:orderreference @rule:LIMIT-FIELD-LENGTHS:orderreference
    Examples:
      | field          | case               | outcome  |
      | orderreference | longest (255)      | taken    |
      | orderreference | one longer (256)   | refused  |

    @rule:FIELD-TYPES:orderreference @format:json
    Examples:
      | field          | case                                | outcome  |
      | orderreference | with a control character (U+0000)   | refused  |

    @rule:RISKDEC-CARD:orderreference
    Examples:
      | field          | case                  | outcome  |
      | orderreference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:pan @rule:LIMIT-FIELD-LENGTHS:pan
    Examples:
      | field | case               | outcome  |
      | pan   | one longer (20)    | refused  |
      | pan   | one shorter (11)   | refused  |

    @rule:FIELD-TYPES:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | with a letter ('A')   | refused  |
      | pan   | with a space (' ')    | refused  |
      | pan   | with a symbol ('.')   | refused  |
      | pan   | with a hyphen ('-')   | refused  |

    @rule:RISKDEC-CARD:pan
    Examples:
      | field | case                  | outcome  |
      | pan   | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:expirydate @rule:LIMIT-FIELD-LENGTHS:expirydate
    Examples:
      | field      | case              | outcome  |
      | expirydate | one longer (8)    | refused  |
      | expirydate | one shorter (6)   | refused  |

    @rule:FIELD-TYPES:expirydate
    Examples:
      | field      | case            | outcome  |
      | expirydate | with month 13   | refused  |

    @rule:RISKDEC-CARD:expirydate
    Examples:
      | field      | case                  | outcome  |
      | expirydate | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:securitycode @rule:LIMIT-FIELD-LENGTHS:securitycode
    Examples:
      | field        | case              | outcome  |
      | securitycode | one longer (5)    | refused  |
      | securitycode | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:securitycode
    Examples:
      | field        | case                  | outcome  |
      | securitycode | with a letter ('A')   | refused  |
      | securitycode | with a space (' ')    | refused  |
      | securitycode | with a symbol ('.')   | refused  |
      | securitycode | with a hyphen ('-')   | refused  |

    @rule:FIELD-SECURITYCODE-OPTIONAL:securitycode
    Examples:
      | field        | case                     | outcome  |
      | securitycode | left out (recommended)   | taken    |

  @requires:cachetokens @type:THREEDQUERY
  Scenario Outline: 3-D Secure enrolment check: <field> <case>
    When the merchant sends "3-D Secure enrolment check" with a cache token for the "authorised" card, <field> "<case>"
    Then <field> "<case>" is <outcome>

    @rule:FIELD-LENGTHS:termurl @rule:LIMIT-FIELD-LENGTHS:termurl
    Examples:
      | field   | case                | outcome  |
      | termurl | longest (1024)      | taken    |
      | termurl | one longer (1025)   | refused  |

    @rule:FIELD-TYPES:termurl
    Examples:
      | field   | case        | outcome  |
      | termurl | not a URL   | refused  |

    @rule:3DS-QUERY-REQUEST:termurl
    Examples:
      | field   | case                  | outcome  |
      | termurl | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:accept @rule:LIMIT-FIELD-LENGTHS:accept
    Examples:
      | field  | case                | outcome  |
      | accept | longest (1024)      | taken    |
      | accept | one longer (1025)   | refused  |

    @rule:3DS-QUERY-REQUEST:accept
    Examples:
      | field  | case                  | outcome  |
      | accept | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:currencyiso3a @rule:LIMIT-FIELD-LENGTHS:currencyiso3a
    Examples:
      | field         | case              | outcome  |
      | currencyiso3a | one longer (4)    | refused  |
      | currencyiso3a | one shorter (2)   | refused  |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | field         | case                       | outcome  |
      | currencyiso3a | with a digit ('0')         | refused  |
      | currencyiso3a | with a space (' ')         | refused  |
      | currencyiso3a | with an underscore ('_')   | refused  |
      | currencyiso3a | with a hyphen ('-')        | refused  |
      | currencyiso3a | with a symbol ('#')        | refused  |

    @rule:3DS-QUERY-REQUEST:currencyiso3a
    Examples:
      | field         | case                  | outcome  |
      | currencyiso3a | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:accounttypedescription @rule:LIMIT-FIELD-LENGTHS:accounttypedescription
    Examples:
      | field                  | case              | outcome  |
      | accounttypedescription | one longer (21)   | refused  |

    @rule:FIELD-ACCOUNTTYPE-THREEDQUERY:accounttypedescription
    Examples:
      | field                  | case                                   | outcome  |
      | accounttypedescription | listed 'ECOM'                          | taken    |
      | accounttypedescription | 'MOTO', not listed for this row        | refused  |
      | accounttypedescription | unlisted 'XXXX'                        | refused  |
      | accounttypedescription | listed 'ECOM' in another letter case   | refused  |
      | accounttypedescription | listed 'ECOM' with a leading space     | refused  |
      | accounttypedescription | listed 'ECOM' with a trailing space    | refused  |

    @rule:3DS-QUERY-REQUEST:accounttypedescription
    Examples:
      | field                  | case                  | outcome  |
      | accounttypedescription | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:sitereference @rule:LIMIT-FIELD-LENGTHS:sitereference
    Examples:
      | field         | case              | outcome  |
      | sitereference | one longer (51)   | refused  |

    @rule:FIELD-TYPES:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | with a space (' ')    | refused  |
      | sitereference | with a hyphen ('-')   | refused  |
      | sitereference | with a symbol ('#')   | refused  |

    @rule:3DS-QUERY-REQUEST:sitereference
    Examples:
      | field         | case                  | outcome  |
      | sitereference | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:baseamount @rule:LIMIT-FIELD-LENGTHS:baseamount @rule:LIMIT-BASEAMOUNT
    Examples:
      | field      | case              | outcome  |
      | baseamount | one longer (14)   | refused  |

    @rule:FIELD-TYPES:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | with a letter ('A')   | refused  |
      | baseamount | with a space (' ')    | refused  |
      | baseamount | with a symbol ('.')   | refused  |
      | baseamount | with a hyphen ('-')   | refused  |

    @rule:FIELD-BASEAMOUNT-POSITIVE:baseamount
    Examples:
      | field      | case   | outcome  |
      | baseamount | of 0   | refused  |

    @rule:3DS-QUERY-REQUEST:baseamount
    Examples:
      | field      | case                  | outcome  |
      | baseamount | left out (required)   | refused  |

    @rule:FIELD-LENGTHS:useragent @rule:LIMIT-FIELD-LENGTHS:useragent
    Examples:
      | field     | case               | outcome  |
      | useragent | longest (255)      | taken    |
      | useragent | one longer (256)   | refused  |

    @rule:3DS-USERAGENT:useragent
    Examples:
      | field     | case                     | outcome  |
      | useragent | left out (recommended)   | taken    |

  @type:AUTH
  Scenario Outline: Ordinary AUTH without 3-D Secure: the <type> part's <field> is in its documented form
    When the merchant has the answer to "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the <type> part's <field> is in its documented form

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | AUTH | accounttypedescription |

    @rule:FIELD-TYPES:acquirerresponsecode
    Examples:
      | type | field |
      | AUTH | acquirerresponsecode |

    @rule:FIELD-TYPES:authcode
    Examples:
      | type | field |
      | AUTH | authcode |

    @rule:FIELD-BASEAMOUNT-MINOR-UNITS:baseamount
    Examples:
      | type | field |
      | AUTH | baseamount |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | type | field |
      | AUTH | currencyiso3a |

    @rule:FIELD-TYPES:dccenabled
    Examples:
      | type | field |
      | AUTH | dccenabled |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | AUTH | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | AUTH | issuercountryiso2a |

    @rule:FIELD-TYPES:livestatus
    Examples:
      | type | field |
      | AUTH | livestatus |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | AUTH | maskedpan |

    @rule:FIELD-TYPES:merchantcountryiso2a
    Examples:
      | type | field |
      | AUTH | merchantcountryiso2a |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | AUTH | merchantname |

    @rule:FIELD-TYPES:merchantnumber
    Examples:
      | type | field |
      | AUTH | merchantnumber |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | AUTH | operatorname |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | AUTH | paymenttypedescription |

    @rule:SEC-RESULT-DIGIT:securityresponseaddress
    Examples:
      | type | field |
      | AUTH | securityresponseaddress |

    @rule:SEC-RESULT-DIGIT:securityresponsepostcode
    Examples:
      | type | field |
      | AUTH | securityresponsepostcode |

    @rule:SEC-RESULT-DIGIT:securityresponsesecuritycode
    Examples:
      | type | field |
      | AUTH | securityresponsesecuritycode |

    @rule:FIELD-SETTLEDUEDATE:settleduedate
    Examples:
      | type | field |
      | AUTH | settleduedate |

    @rule:FIELD-TYPES:settlestatus
    Examples:
      | type | field |
      | AUTH | settlestatus |

    @rule:FIELD-TYPES:splitfinalnumber
    Examples:
      | type | field |
      | AUTH | splitfinalnumber |

    @rule:FIELD-TYPES:tid
    Examples:
      | type | field |
      | AUTH | tid |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | AUTH | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | AUTH | transactionstartedtimestamp |

  @type:AUTH
  Scenario Outline: Ordinary AUTH without 3-D Secure: the <type> part holds <field>
    When the merchant has the answer to "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the <type> part holds <field>

    @rule:FIELD-ECHO:accounttypedescription
    Examples:
      | type | field |
      | AUTH | accounttypedescription |

    @rule:AUTH-BANK-CONTACTED:acquirerresponsecode
    Examples:
      | type | field |
      | AUTH | acquirerresponsecode |

    @rule:AUTH-BANK-CONTACTED:authcode
    Examples:
      | type | field |
      | AUTH | authcode |

    @rule:FIELD-ECHO:baseamount
    Examples:
      | type | field |
      | AUTH | baseamount |

    @rule:FIELD-ECHO:currencyiso3a
    Examples:
      | type | field |
      | AUTH | currencyiso3a |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | AUTH | maskedpan |

    @rule:FIELD-SETTLEDUEDATE:settleduedate
    Examples:
      | type | field |
      | AUTH | settleduedate |

    @rule:FIELD-TRANSACTIONREFERENCE:transactionreference
    Examples:
      | type | field |
      | AUTH | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | AUTH | transactionstartedtimestamp |

  @type:ACCOUNTCHECK
  Scenario Outline: Account check: the <type> part's <field> is in its documented form
    When the merchant has the answer to "Account check" with the "authorised" card
    Then the <type> part's <field> is in its documented form

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | ACCOUNTCHECK | accounttypedescription |

    @rule:FIELD-TYPES:acquirerresponsecode
    Examples:
      | type | field |
      | ACCOUNTCHECK | acquirerresponsecode |

    @rule:FIELD-TYPES:authcode
    Examples:
      | type | field |
      | ACCOUNTCHECK | authcode |

    @rule:FIELD-BASEAMOUNT-MINOR-UNITS:baseamount
    Examples:
      | type | field |
      | ACCOUNTCHECK | baseamount |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | type | field |
      | ACCOUNTCHECK | currencyiso3a |

    @rule:FIELD-TYPES:dccenabled
    Examples:
      | type | field |
      | ACCOUNTCHECK | dccenabled |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | ACCOUNTCHECK | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | ACCOUNTCHECK | issuercountryiso2a |

    @rule:FIELD-TYPES:livestatus
    Examples:
      | type | field |
      | ACCOUNTCHECK | livestatus |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | ACCOUNTCHECK | maskedpan |

    @rule:FIELD-TYPES:merchantcountryiso2a
    Examples:
      | type | field |
      | ACCOUNTCHECK | merchantcountryiso2a |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | ACCOUNTCHECK | merchantname |

    @rule:FIELD-TYPES:merchantnumber
    Examples:
      | type | field |
      | ACCOUNTCHECK | merchantnumber |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | ACCOUNTCHECK | operatorname |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | ACCOUNTCHECK | paymenttypedescription |

    @rule:SEC-RESULT-DIGIT:securityresponseaddress
    Examples:
      | type | field |
      | ACCOUNTCHECK | securityresponseaddress |

    @rule:SEC-RESULT-DIGIT:securityresponsepostcode
    Examples:
      | type | field |
      | ACCOUNTCHECK | securityresponsepostcode |

    @rule:SEC-RESULT-DIGIT:securityresponsesecuritycode
    Examples:
      | type | field |
      | ACCOUNTCHECK | securityresponsesecuritycode |

    @rule:FIELD-SETTLEDUEDATE:settleduedate
    Examples:
      | type | field |
      | ACCOUNTCHECK | settleduedate |

    @rule:FIELD-TYPES:settlestatus
    Examples:
      | type | field |
      | ACCOUNTCHECK | settlestatus |

    @rule:FIELD-TYPES:splitfinalnumber
    Examples:
      | type | field |
      | ACCOUNTCHECK | splitfinalnumber |

    @rule:FIELD-TYPES:tid
    Examples:
      | type | field |
      | ACCOUNTCHECK | tid |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | ACCOUNTCHECK | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | ACCOUNTCHECK | transactionstartedtimestamp |

  @type:ACCOUNTCHECK
  Scenario Outline: Account check: the <type> part holds <field>
    When the merchant has the answer to "Account check" with the "authorised" card
    Then the <type> part holds <field>

    @rule:FIELD-ECHO:accounttypedescription
    Examples:
      | type | field |
      | ACCOUNTCHECK | accounttypedescription |

    @rule:AUTH-BANK-CONTACTED:acquirerresponsecode
    Examples:
      | type | field |
      | ACCOUNTCHECK | acquirerresponsecode |

    @rule:AUTH-BANK-CONTACTED:authcode
    Examples:
      | type | field |
      | ACCOUNTCHECK | authcode |

    @rule:FIELD-ECHO:baseamount
    Examples:
      | type | field |
      | ACCOUNTCHECK | baseamount |

    @rule:FIELD-ECHO:currencyiso3a
    Examples:
      | type | field |
      | ACCOUNTCHECK | currencyiso3a |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | ACCOUNTCHECK | maskedpan |

    @rule:AC-VALIDATES:securityresponseaddress
    Examples:
      | type | field |
      | ACCOUNTCHECK | securityresponseaddress |

    @rule:AC-VALIDATES:securityresponsepostcode
    Examples:
      | type | field |
      | ACCOUNTCHECK | securityresponsepostcode |

    @rule:AC-VALIDATES:securityresponsesecuritycode
    Examples:
      | type | field |
      | ACCOUNTCHECK | securityresponsesecuritycode |

    @rule:FIELD-SETTLEDUEDATE:settleduedate
    Examples:
      | type | field |
      | ACCOUNTCHECK | settleduedate |

    @rule:FIELD-TRANSACTIONREFERENCE:transactionreference
    Examples:
      | type | field |
      | ACCOUNTCHECK | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | ACCOUNTCHECK | transactionstartedtimestamp |

  @type:AUTH @type:SUBSCRIPTION
  Scenario Outline: Subscription without 3-D Secure: the <type> part's <field> is in its documented form
    When the merchant has the answer to "Subscription without 3-D Secure" with the "authorised" card
    Then the <type> part's <field> is in its documented form

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | AUTH | accounttypedescription |

    @rule:FIELD-TYPES:acquirerresponsecode
    Examples:
      | type | field |
      | AUTH | acquirerresponsecode |

    @rule:FIELD-TYPES:authcode
    Examples:
      | type | field |
      | AUTH | authcode |

    @rule:FIELD-BASEAMOUNT-MINOR-UNITS:baseamount
    Examples:
      | type | field |
      | AUTH | baseamount |

    @rule:FIELD-TYPES:credentialsonfile
    Examples:
      | type | field |
      | AUTH | credentialsonfile |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | type | field |
      | AUTH | currencyiso3a |

    @rule:FIELD-TYPES:dccenabled
    Examples:
      | type | field |
      | AUTH | dccenabled |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | AUTH | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | AUTH | issuercountryiso2a |

    @rule:FIELD-TYPES:livestatus
    Examples:
      | type | field |
      | AUTH | livestatus |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | AUTH | maskedpan |

    @rule:FIELD-TYPES:merchantcountryiso2a
    Examples:
      | type | field |
      | AUTH | merchantcountryiso2a |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | AUTH | merchantname |

    @rule:FIELD-TYPES:merchantnumber
    Examples:
      | type | field |
      | AUTH | merchantnumber |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | AUTH | operatorname |

    @rule:FIELD-TYPES:orderreference
    Examples:
      | type | field |
      | AUTH | orderreference |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | AUTH | paymenttypedescription |

    @rule:SEC-RESULT-DIGIT:securityresponseaddress
    Examples:
      | type | field |
      | AUTH | securityresponseaddress |

    @rule:SEC-RESULT-DIGIT:securityresponsepostcode
    Examples:
      | type | field |
      | AUTH | securityresponsepostcode |

    @rule:SEC-RESULT-DIGIT:securityresponsesecuritycode
    Examples:
      | type | field |
      | AUTH | securityresponsesecuritycode |

    @rule:FIELD-SETTLEDUEDATE:settleduedate
    Examples:
      | type | field |
      | AUTH | settleduedate |

    @rule:FIELD-TYPES:settlestatus
    Examples:
      | type | field |
      | AUTH | settlestatus |

    @rule:FIELD-TYPES:splitfinalnumber
    Examples:
      | type | field |
      | AUTH | splitfinalnumber |

    @rule:FIELD-TYPES:tid
    Examples:
      | type | field |
      | AUTH | tid |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | AUTH | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | AUTH | transactionstartedtimestamp |

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | SUBSCRIPTION | accounttypedescription |

    @rule:FIELD-BASEAMOUNT-MINOR-UNITS:baseamount
    Examples:
      | type | field |
      | SUBSCRIPTION | baseamount |

    @rule:FIELD-TYPES:credentialsonfile
    Examples:
      | type | field |
      | SUBSCRIPTION | credentialsonfile |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | type | field |
      | SUBSCRIPTION | currencyiso3a |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | SUBSCRIPTION | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | SUBSCRIPTION | issuercountryiso2a |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | SUBSCRIPTION | maskedpan |

    @rule:FIELD-TYPES:merchantcountryiso2a
    Examples:
      | type | field |
      | SUBSCRIPTION | merchantcountryiso2a |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | SUBSCRIPTION | merchantname |

    @rule:FIELD-TYPES:merchantnumber
    Examples:
      | type | field |
      | SUBSCRIPTION | merchantnumber |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | SUBSCRIPTION | operatorname |

    @rule:FIELD-TYPES:orderreference
    Examples:
      | type | field |
      | SUBSCRIPTION | orderreference |

    @rule:FIELD-TYPES:parenttransactionreference
    Examples:
      | type | field |
      | SUBSCRIPTION | parenttransactionreference |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | SUBSCRIPTION | paymenttypedescription |

    @rule:FIELD-TYPES:subscriptionbegindate
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionbegindate |

    @rule:FIELD-TYPES:subscriptionfinalnumber
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionfinalnumber |

    @rule:FIELD-TYPES:subscriptionfrequency
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionfrequency |

    @rule:FIELD-TYPES:subscriptionnumber
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionnumber |

    @rule:FIELD-TYPES:subscriptiontype
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptiontype |

    @rule:FIELD-TYPES:subscriptionunit
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionunit |

    @rule:FIELD-TYPES:tid
    Examples:
      | type | field |
      | SUBSCRIPTION | tid |

    @rule:SUB-TRANSACTIONACTIVE-VALUES:transactionactive
    Examples:
      | type | field |
      | SUBSCRIPTION | transactionactive |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | SUBSCRIPTION | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | SUBSCRIPTION | transactionstartedtimestamp |

  @type:AUTH @type:SUBSCRIPTION
  Scenario Outline: Subscription without 3-D Secure: the <type> part holds <field>
    When the merchant has the answer to "Subscription without 3-D Secure" with the "authorised" card
    Then the <type> part holds <field>

    @rule:FIELD-ECHO:accounttypedescription
    Examples:
      | type | field |
      | AUTH | accounttypedescription |

    @rule:AUTH-BANK-CONTACTED:acquirerresponsecode
    Examples:
      | type | field |
      | AUTH | acquirerresponsecode |

    @rule:AUTH-BANK-CONTACTED:authcode
    Examples:
      | type | field |
      | AUTH | authcode |

    @rule:FIELD-ECHO:baseamount
    Examples:
      | type | field |
      | AUTH | baseamount |

    @rule:FIELD-ECHO:credentialsonfile @format:json
    Examples:
      | type | field |
      | AUTH | credentialsonfile |

    @rule:FIELD-ECHO:currencyiso3a
    Examples:
      | type | field |
      | AUTH | currencyiso3a |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | AUTH | maskedpan |

    @rule:FIELD-SETTLEDUEDATE:settleduedate
    Examples:
      | type | field |
      | AUTH | settleduedate |

    @rule:FIELD-TRANSACTIONREFERENCE:transactionreference
    Examples:
      | type | field |
      | AUTH | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | AUTH | transactionstartedtimestamp |

    @rule:SUB-RECUR:accounttypedescription
    Examples:
      | type | field |
      | SUBSCRIPTION | accounttypedescription |

    @rule:SUB-AUTH-FIRST-PAYMENT:baseamount
    Examples:
      | type | field |
      | SUBSCRIPTION | baseamount |

    @rule:FIELD-ECHO:credentialsonfile @format:json
    Examples:
      | type | field |
      | SUBSCRIPTION | credentialsonfile |

    @rule:FIELD-ECHO:currencyiso3a
    Examples:
      | type | field |
      | SUBSCRIPTION | currencyiso3a |

    @rule:SUB-AUTH-FIRST-PAYMENT:subscriptionbegindate
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionbegindate |

    @rule:SUB-AUTH-FIRST-PAYMENT:subscriptionfinalnumber
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionfinalnumber |

    @rule:SUB-AUTH-FIRST-PAYMENT:subscriptionfrequency
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionfrequency |

    @rule:SUB-AUTH-FIRST-PAYMENT:subscriptionunit
    Examples:
      | type | field |
      | SUBSCRIPTION | subscriptionunit |

    @rule:SUB-AUTH-FIRST-PAYMENT:transactionactive
    Examples:
      | type | field |
      | SUBSCRIPTION | transactionactive |

    @rule:FIELD-TRANSACTIONREFERENCE:transactionreference
    Examples:
      | type | field |
      | SUBSCRIPTION | transactionreference |

  @requires:cardstore @type:STORE
  Scenario Outline: Card store: the <type> part's <field> is in its documented form
    When the merchant has the answer to "Card store" with the "authorised" card
    Then the <type> part's <field> is in its documented form

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | STORE | accounttypedescription |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | STORE | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | STORE | issuercountryiso2a |

    @rule:FIELD-TYPES:livestatus
    Examples:
      | type | field |
      | STORE | livestatus |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | STORE | maskedpan |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | STORE | merchantname |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | STORE | operatorname |

    @rule:FIELD-TYPES:orderreference
    Examples:
      | type | field |
      | STORE | orderreference |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | STORE | paymenttypedescription |

    @rule:SUB-TRANSACTIONACTIVE-VALUES:transactionactive
    Examples:
      | type | field |
      | STORE | transactionactive |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | STORE | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | STORE | transactionstartedtimestamp |

  @requires:cardstore @type:STORE
  Scenario Outline: Card store: the <type> part holds <field>
    When the merchant has the answer to "Card store" with the "authorised" card
    Then the <type> part holds <field>

    @rule:STORE-RESPONSE-FIELDS:accounttypedescription
    Examples:
      | type | field |
      | STORE | accounttypedescription |

    @rule:STORE-RESPONSE-FIELDS:issuer
    Examples:
      | type | field |
      | STORE | issuer |

    @rule:STORE-RESPONSE-FIELDS:issuercountryiso2a
    Examples:
      | type | field |
      | STORE | issuercountryiso2a |

    @rule:STORE-RESPONSE-FIELDS:livestatus
    Examples:
      | type | field |
      | STORE | livestatus |

    @rule:STORE-RESPONSE-FIELDS:maskedpan
    Examples:
      | type | field |
      | STORE | maskedpan |

    @rule:STORE-RESPONSE-FIELDS:merchantname
    Examples:
      | type | field |
      | STORE | merchantname |

    @rule:STORE-RESPONSE-FIELDS:operatorname
    Examples:
      | type | field |
      | STORE | operatorname |

    @rule:STORE-RESPONSE-FIELDS:orderreference
    Examples:
      | type | field |
      | STORE | orderreference |

    @rule:STORE-RESPONSE-FIELDS:paymenttypedescription
    Examples:
      | type | field |
      | STORE | paymenttypedescription |

    @rule:STORE-RESPONSE-FIELDS:transactionactive
    Examples:
      | type | field |
      | STORE | transactionactive |

    @rule:STORE-RESPONSE-FIELDS:transactionreference
    Examples:
      | type | field |
      | STORE | transactionreference |

    @rule:STORE-RESPONSE-FIELDS:transactionstartedtimestamp
    Examples:
      | type | field |
      | STORE | transactionstartedtimestamp |

  @requires:fraudcontrol @type:RISKDEC
  Scenario Outline: Risk decision on card data: the <type> part's <field> is in its documented form
    When the merchant has the answer to "Risk decision on card data" with the "authorised" card
    Then the <type> part's <field> is in its documented form

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | RISKDEC | accounttypedescription |

    @rule:FIELD-TYPES:acquirerrecommendedaction
    Examples:
      | type | field |
      | RISKDEC | acquirerrecommendedaction |

    @rule:FIELD-BASEAMOUNT-MINOR-UNITS:baseamount
    Examples:
      | type | field |
      | RISKDEC | baseamount |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | type | field |
      | RISKDEC | currencyiso3a |

    @rule:FIELD-TYPES:fraudcontrolreference
    Examples:
      | type | field |
      | RISKDEC | fraudcontrolreference |

    @rule:FIELD-TYPES:fraudcontrolresponsecode
    Examples:
      | type | field |
      | RISKDEC | fraudcontrolresponsecode |

    @rule:RISKDEC-SHIELD-VALUES:fraudcontrolshieldstatuscode
    Examples:
      | type | field |
      | RISKDEC | fraudcontrolshieldstatuscode |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | RISKDEC | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | RISKDEC | issuercountryiso2a |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | RISKDEC | maskedpan |

    @rule:FIELD-TYPES:merchantcountryiso2a
    Examples:
      | type | field |
      | RISKDEC | merchantcountryiso2a |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | RISKDEC | merchantname |

    @rule:FIELD-TYPES:merchantnumber
    Examples:
      | type | field |
      | RISKDEC | merchantnumber |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | RISKDEC | operatorname |

    @rule:FIELD-TYPES:orderreference
    Examples:
      | type | field |
      | RISKDEC | orderreference |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | RISKDEC | paymenttypedescription |

    @rule:FIELD-TYPES:tid
    Examples:
      | type | field |
      | RISKDEC | tid |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | RISKDEC | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | RISKDEC | transactionstartedtimestamp |

  @requires:fraudcontrol @type:RISKDEC
  Scenario Outline: Risk decision on card data: the <type> part holds <field>
    When the merchant has the answer to "Risk decision on card data" with the "authorised" card
    Then the <type> part holds <field>

    @rule:FIELD-ECHO:accounttypedescription
    Examples:
      | type | field |
      | RISKDEC | accounttypedescription |

    @rule:FIELD-ECHO:baseamount
    Examples:
      | type | field |
      | RISKDEC | baseamount |

    @rule:FIELD-ECHO:currencyiso3a
    Examples:
      | type | field |
      | RISKDEC | currencyiso3a |

    @rule:RISKDEC-SHIELD:fraudcontrolshieldstatuscode
    Examples:
      | type | field |
      | RISKDEC | fraudcontrolshieldstatuscode |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | RISKDEC | maskedpan |

    @rule:FIELD-TRANSACTIONREFERENCE:transactionreference
    Examples:
      | type | field |
      | RISKDEC | transactionreference |

  @requires:cachetokens @type:THREEDQUERY
  Scenario Outline: 3-D Secure enrolment check: the <type> part's <field> is in its documented form
    When the merchant has the answer to "3-D Secure enrolment check" with a cache token for the "authorised" card
    Then the <type> part's <field> is in its documented form

    @rule:FIELD-ACCOUNTTYPE-PAYMENTS:accounttypedescription
    Examples:
      | type | field |
      | THREEDQUERY | accounttypedescription |

    @rule:FIELD-TYPES:acsurl
    Examples:
      | type | field |
      | THREEDQUERY | acsurl |

    @rule:FIELD-BASEAMOUNT-MINOR-UNITS:baseamount
    Examples:
      | type | field |
      | THREEDQUERY | baseamount |

    @rule:FIELD-TYPES:currencyiso3a
    Examples:
      | type | field |
      | THREEDQUERY | currencyiso3a |

    @rule:FIELD-TYPES:dccenabled
    Examples:
      | type | field |
      | THREEDQUERY | dccenabled |

    @rule:FIELD-TYPES:enrolled
    Examples:
      | type | field |
      | THREEDQUERY | enrolled |

    @rule:FIELD-TYPES:issuer
    Examples:
      | type | field |
      | THREEDQUERY | issuer |

    @rule:FIELD-TYPES:issuercountryiso2a
    Examples:
      | type | field |
      | THREEDQUERY | issuercountryiso2a |

    @rule:FIELD-TYPES:livestatus
    Examples:
      | type | field |
      | THREEDQUERY | livestatus |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | THREEDQUERY | maskedpan |

    @rule:FIELD-TYPES:md
    Examples:
      | type | field |
      | THREEDQUERY | md |

    @rule:FIELD-TYPES:merchantcountryiso2a
    Examples:
      | type | field |
      | THREEDQUERY | merchantcountryiso2a |

    @rule:FIELD-TYPES:merchantname
    Examples:
      | type | field |
      | THREEDQUERY | merchantname |

    @rule:FIELD-TYPES:merchantnumber
    Examples:
      | type | field |
      | THREEDQUERY | merchantnumber |

    @rule:FIELD-TYPES:operatorname
    Examples:
      | type | field |
      | THREEDQUERY | operatorname |

    @rule:FIELD-TYPES:pareq
    Examples:
      | type | field |
      | THREEDQUERY | pareq |

    @rule:FIELD-TYPES:paymenttypedescription
    Examples:
      | type | field |
      | THREEDQUERY | paymenttypedescription |

    @rule:FIELD-TYPES:splitfinalnumber
    Examples:
      | type | field |
      | THREEDQUERY | splitfinalnumber |

    @rule:FIELD-TYPES:threedversion
    Examples:
      | type | field |
      | THREEDQUERY | threedversion |

    @rule:FIELD-TYPES:tid
    Examples:
      | type | field |
      | THREEDQUERY | tid |

    @rule:FIELD-TYPES:transactionreference
    Examples:
      | type | field |
      | THREEDQUERY | transactionreference |

    @rule:FIELD-TIMESTAMP:transactionstartedtimestamp
    Examples:
      | type | field |
      | THREEDQUERY | transactionstartedtimestamp |

    @rule:FIELD-TYPES:xid
    Examples:
      | type | field |
      | THREEDQUERY | xid |

  @requires:cachetokens @type:THREEDQUERY
  Scenario Outline: 3-D Secure enrolment check: the <type> part holds <field>
    When the merchant has the answer to "3-D Secure enrolment check" with a cache token for the "authorised" card
    Then the <type> part holds <field>

    @rule:FIELD-ECHO:accounttypedescription
    Examples:
      | type | field |
      | THREEDQUERY | accounttypedescription |

    @rule:3DS-QUERY-RESPONSE:acsurl
    Examples:
      | type | field |
      | THREEDQUERY | acsurl |

    @rule:FIELD-ECHO:baseamount
    Examples:
      | type | field |
      | THREEDQUERY | baseamount |

    @rule:FIELD-ECHO:currencyiso3a
    Examples:
      | type | field |
      | THREEDQUERY | currencyiso3a |

    @rule:3DS-QUERY-RESPONSE:enrolled
    Examples:
      | type | field |
      | THREEDQUERY | enrolled |

    @rule:FIELD-MASKEDPAN:maskedpan
    Examples:
      | type | field |
      | THREEDQUERY | maskedpan |

    @rule:3DS-QUERY-RESPONSE:md
    Examples:
      | type | field |
      | THREEDQUERY | md |

    @rule:3DS-QUERY-RESPONSE:pareq
    Examples:
      | type | field |
      | THREEDQUERY | pareq |

    @rule:FIELD-TRANSACTIONREFERENCE:transactionreference
    Examples:
      | type | field |
      | THREEDQUERY | transactionreference |

    @rule:3DS-QUERY-RESPONSE:xid
    Examples:
      | type | field |
      | THREEDQUERY | xid |
