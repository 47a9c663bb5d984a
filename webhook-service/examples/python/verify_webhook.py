"""Verifies a webhook delivery from the payments platform on the receiving side. Python 3.8+, standard library only.

As a library (e.g. in a Flask view; ``request.get_data()`` is the exact body bytes, before any JSON parsing)::

    from verify_webhook import WebhookVerifier
    verifier = WebhookVerifier(os.environ["WEBHOOK_SECRET"])
    result = verifier.verify(request.headers, request.get_data())
    if not result.ok:
        return result.reason, 400
    try:
        process(request.get_data())
    except Exception:
        verifier.forget(result.event_id)  # so that the platform's retry is accepted
        return "", 500
    return "", 200

As a CLI (exit 0 = accepted, 1 = refused, 2 = usage error)::

    WEBHOOK_SECRET=whsec_... python3 verify_webhook.py delivery.json [--seen seen.json] [--tolerance 300] [--now 1700000000]

where delivery.json is {"headers": {"X-Service-Event-Id": "...", ...}, "body": "<exact body text>"} (or
"body_base64" for the exact bytes) and seen.json keeps the accepted event ids between runs.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import sys
import time

EVENT_ID = "x-service-event-id"
TIMESTAMP = "x-service-timestamp"
TIMESTAMPED_SIGNATURE = "x-service-timestamped-signature"
DEFAULT_TOLERANCE_SECONDS = 300

_TIMESTAMP_FORMAT = re.compile(r"[0-9]{1,12}")
_SIGNATURE_FORMAT = re.compile(r"[0-9a-fA-F]{64}")


class Result:
    """``ok`` with the ``event_id`` accepted, or not ``ok`` with the ``reason``."""

    def __init__(self, ok, event_id=None, reason=None):
        self.ok = ok
        self.event_id = event_id
        self.reason = reason


class WebhookVerifier:
    """Checks the timestamped signature, the timestamp's age and that an event id is accepted once.

    ``now`` answers epoch seconds; ``accepted`` maps accepted event ids to the epoch second they can be forgotten.
    """

    def __init__(self, secret, tolerance_seconds=DEFAULT_TOLERANCE_SECONDS, now=None, accepted=None):
        if not secret:
            raise ValueError("the endpoint secret is required")
        self._key = secret.encode("utf-8")
        self._tolerance = tolerance_seconds
        self._now = now or (lambda: int(time.time()))
        self.accepted = accepted if accepted is not None else {}

    def verify(self, headers, body):
        """``headers``: any mapping of header names (any case) to values; ``body``: the exact bytes received."""
        named = {str(name).lower(): value for name, value in dict(headers).items()}
        event_id = _first(named.get(EVENT_ID)).strip()
        timestamp_text = _first(named.get(TIMESTAMP)).strip()
        signature = _first(named.get(TIMESTAMPED_SIGNATURE)).strip()
        if not event_id:
            return _refuse("missing " + EVENT_ID)
        if not timestamp_text:
            return _refuse("missing " + TIMESTAMP)
        if not signature:
            return _refuse("missing " + TIMESTAMPED_SIGNATURE)

        if not _TIMESTAMP_FORMAT.fullmatch(timestamp_text):
            return _refuse("malformed " + TIMESTAMP)
        timestamp = int(timestamp_text)
        now = self._now()
        if abs(now - timestamp) > self._tolerance:
            return _refuse("timestamp outside the tolerance of %d s" % self._tolerance)

        if not _SIGNATURE_FORMAT.fullmatch(signature):
            return _refuse("malformed " + TIMESTAMPED_SIGNATURE)
        if isinstance(body, str):
            body = body.encode("utf-8")
        expected = hmac.new(self._key, timestamp_text.encode("utf-8") + b"." + body, hashlib.sha256).digest()
        if not hmac.compare_digest(expected, bytes.fromhex(signature)):
            return _refuse("signature does not match")

        for accepted_id, expiry in list(self.accepted.items()):
            if expiry < now:
                del self.accepted[accepted_id]
        if event_id in self.accepted:
            return _refuse("event %s was already accepted (replay)" % event_id)
        self.accepted[event_id] = timestamp + self._tolerance
        return Result(True, event_id=event_id)

    def forget(self, event_id):
        """Forgets an accepted event id, for when processing it failed and the platform will retry."""
        self.accepted.pop(event_id, None)


def _first(value):
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return value if isinstance(value, str) else ""


def _refuse(reason):
    return Result(False, reason=reason)


def _cli(argv):
    seen, tolerance, now, files = None, DEFAULT_TOLERANCE_SECONDS, None, []
    i = 0
    try:
        while i < len(argv):
            arg = argv[i]
            if arg == "--seen":
                i += 1
                seen = argv[i]
            elif arg == "--tolerance":
                i += 1
                tolerance = int(argv[i])
            elif arg == "--now":
                i += 1
                now = int(argv[i])
            else:
                files.append(arg)
            i += 1
    except (IndexError, ValueError):
        files = []
    secret = os.environ.get("WEBHOOK_SECRET")
    if len(files) != 1 or not secret:
        print("usage: WEBHOOK_SECRET=whsec_... python3 verify_webhook.py delivery.json "
              "[--seen seen.json] [--tolerance seconds] [--now epochSeconds]", file=sys.stderr)
        return 2
    with open(files[0], encoding="utf-8") as f:
        delivery = json.load(f)
    if "body_base64" in delivery:
        body = base64.b64decode(delivery["body_base64"])
    else:
        body = delivery.get("body", "").encode("utf-8")
    accepted = {}
    if seen and os.path.exists(seen):
        with open(seen, encoding="utf-8") as f:
            accepted = json.load(f)
    verifier = WebhookVerifier(
        secret, tolerance_seconds=tolerance, now=(lambda: now) if now is not None else None, accepted=accepted)
    result = verifier.verify(delivery.get("headers", {}), body)
    if seen:
        with open(seen, "w", encoding="utf-8") as f:
            json.dump(accepted, f)
    if not result.ok:
        print("refused: " + result.reason, file=sys.stderr)
        return 1
    print("accepted event " + result.event_id)
    return 0


if __name__ == "__main__":
    sys.exit(_cli(sys.argv[1:]))
