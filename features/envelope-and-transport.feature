# Endpoints > Transport; What the service does; Resources and their fields > Envelope; Versioning.
Feature: The envelope and the transport
  Every operation is one POST of an envelope, {alias, version, request:[ {request object} ]}, to a single
  endpoint; the answer is {requestreference, version, response:[ {part}, ... ], secrand}, one part per request
  type, in the order of requesttypedescriptions.

  @rule:ENV-SINGLE-ENDPOINT @type:AUTH @type:ACCOUNTCHECK
  Scenario: Every operation is one POST of a body holding one request object, to a single endpoint
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Account check" with the "authorised" card
    Then the AUTH succeeded
    And the ACCOUNTCHECK succeeded
    And both calls went to the same endpoint

  @rule:TRANSPORT-RESPONSE-BODY @rule:ENV-REQUESTREFERENCE @rule:ENV-TYPES-NAMED @type:AUTH
  Scenario: The response body holds requestreference, version, the response parts and secrand
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the answer carries `requestreference`, `version`, `response` and `secrand`
    And the response has 1 part: AUTH

  @rule:ENV-SECRAND @type:AUTH
  Scenario: secrand is a random string
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    And the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the two answers carry different secrand values

  @rule:ENV-ORDER @rule:ENV-RESPONSE-ONE-PART-PER-TYPE @requires:fraudcontrol @type:RISKDEC @type:AUTH
  Scenario: Several request types are run in the listed order, one part per type
    When the merchant sends "Combined, risk decision first" with the "authorised" card
    Then the response has 2 parts: RISKDEC, then AUTH
    When the merchant sends "Combined, risk decision last" with the "authorised" card
    Then the response has 2 parts: AUTH, then RISKDEC

  @rule:FIELD-STRINGS @type:AUTH @type:SUBSCRIPTION
  Scenario: All values in the answer are strings, including numbers
    When the merchant sends "Subscription without 3-D Secure" with the "authorised" card
    Then every value in the answer is a string

  @format:json @rule:VER-JSON @rule:TRANSPORT-JSON-PATH @type:AUTH
  Scenario: The JSON envelope carries version 1.00, posted to {base_url}/json/ with the JSON headers
    When the merchant sends "Ordinary AUTH without 3-D Secure" with the "authorised" card
    Then the request went as a POST to the JSON path with "Content-type: application/json" and "Accept: application/json"
    And the answer's version is "1.00"
    And the AUTH succeeded
