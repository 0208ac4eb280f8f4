#!/usr/bin/env python3
"""A cardspec client-case adapter for a Python SDK: a starting point (docs/contract.md, "The adapter protocol").

    cardspec serve --client-cmd "python3 examples/adapters/python/adapter.py" --report client-report

cardspec runs this once per case. It reads the case from standard input, sends the case's request object once, and
prints one JSON line with what came back. As shipped it sends the request with the standard library (so that it runs
as is, and shows the protocol); replace `send_with_sdk` with your SDK's call. Standard library only.
"""
import base64
import json
import sys
import urllib.request

# Declare True only if the SDK hands back the gateway's `errormessage` unchanged. An SDK that translates messages
# (a German locale) keeps False: `errormessage` is then not compared, and nothing fails for it.
RAW_ERROR_MESSAGE = True


class SdkError(Exception):
    """A failure the SDK made itself (it raised, or gave an error part of its own)."""


def send_with_sdk(case):
    """Sends case["request"] once; returns (parts, envelope or None).

    With a real SDK, replace the body of this function:
      - configure it with case["username"], case["password"] and case["alias"] (use the alias as given: one case has
        an alias that is not the user name), and the endpoint case["endpoint"] (case["url"] + "/json/");
      - turn its retries off (a case is one call: an SDK that retries makes "2 calls reached the gateway");
      - call it once with case["request"] (the SDK may add its own fields and headers);
      - return every field it gives for each response part, as it gives it (strings stay strings, lists stay lists),
        and the envelope fields it gives (requestreference, version, secrand), or None if it gives none;
      - if it raises, let it raise; if it returns an error part of its own for a local failure (a part whose
        requesttypedescription is "ERROR" that the gateway did not send), raise SdkError with its message.
    """
    if case.get("format", "json") != "json":
        # This template speaks JSON; run an SDK's XML side with --format xml and an adapter that sends the XML block.
        raise SdkError("this adapter speaks JSON only: the case is played in " + str(case.get("format")))
    body = json.dumps({"alias": case["alias"], "version": "1.00", "request": [case["request"]]}).encode("utf-8")
    token = base64.b64encode(f'{case["username"]}:{case["password"]}'.encode("utf-8")).decode("ascii")
    http = urllib.request.Request(
        case.get("endpoint", case["url"] + "/json/"),
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "Accept": "application/json", "Authorization": "Basic " + token},
    )
    with urllib.request.urlopen(http, timeout=30) as reply:
        answer = json.loads(reply.read().decode("utf-8"))
    parts = answer.get("response", [])
    envelope = {k: v for k, v in answer.items() if k != "response"}
    return parts, envelope


def main():
    case = json.load(sys.stdin)
    try:
        parts, envelope = send_with_sdk(case)
    except Exception as err:  # the SDK raised: the protocol's {"error": ...}
        print(json.dumps({"error": f"{type(err).__name__}: {err}"}))
        return
    out = {"parts": parts, "rawerrormessage": RAW_ERROR_MESSAGE}
    if envelope is not None:
        out["envelope"] = envelope
    print(json.dumps(out))


if __name__ == "__main__":
    main()
