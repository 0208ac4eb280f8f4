# Authentication.
Feature: Authentication
  Every call uses HTTP basic authentication: a user name and password. The request body also carries alias, the
  operator account identifier. The answer to a call without valid credentials is not shown by the document; the
  kit checks only that it is not a success.

  @rule:SEC-BASIC-AUTH @type:AUTH
  Scenario: A call with the account's basic authentication is answered
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the AUTH succeeded

  @rule:SEC-BASIC-AUTH @type:AUTH
  Scenario: A call without basic authentication is not successful
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card without basic authentication
    Then the call was not successful

  @rule:SEC-BASIC-AUTH @type:AUTH
  Scenario: A call with a wrong password is not successful
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and a wrong password
    Then the call was not successful

  # "sent as <USERNAME>:<PASSWORD>": the credentials are the account's exactly, without a surrounding space and in
  # their own letter case.
  @rule:SEC-BASIC-AUTH @type:AUTH
  Scenario Outline: A call whose <credential> is sent <change> is not successful
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card and the <credential> <change>
    Then the call was not successful

    Examples:
      | credential | change                 |
      | user name  | with a leading space   |
      | user name  | with a trailing space  |
      | user name  | in another letter case |
      | password   | with a leading space   |
      | password   | with a trailing space  |
      | password   | in another letter case |
