"""A Web Push service and the subscribing browser in one, on loopback, for the API's tests.

It makes a subscription's keys (a P-256 key pair and a 16-byte authentication secret), prints
them with its endpoints as one JSON line, then takes push messages: each one's VAPID
`Authorization` is checked against the server's public key (argv[1]) with `cryptography`
(ES256 signature, audience, expiry, subject), its body decrypted with the subscription's
private key by `http_ece` (aes128gcm, RFC 8188/8291), and printed as one JSON line. Posts to
`/gone/...` are answered 410, as a push service answers for a subscription it forgot. It
stops when its standard input closes.
"""

import base64
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

SERVER_KEY = sys.argv[1]
PRIVATE = ec.generate_private_key(ec.SECP256R1())
AUTH = os.urandom(16)
LOCK = threading.Lock()


def unbase64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def base64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def say(line):
    with LOCK:
        print(json.dumps(line), flush=True)


def check_vapid(header, origin):
    """Raises unless `header` is `vapid t=<JWT>, k=<the server's key>` signed by that key."""
    scheme, _, parameters = header.partition(" ")
    if scheme != "vapid":
        raise ValueError(f"not a vapid authorization: {header}")
    fields = dict(part.strip().split("=", 1) for part in parameters.split(","))
    if fields["k"] != SERVER_KEY:
        raise ValueError(f"k is {fields['k']}, not the server's key")
    head, claims, signature = fields["t"].split(".")
    if json.loads(unbase64(head))["alg"] != "ES256":
        raise ValueError("not ES256")
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unbase64(SERVER_KEY))
    raw = unbase64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    claims = json.loads(unbase64(claims))
    if claims["aud"] != origin:
        raise ValueError(f"aud is {claims['aud']}, not {origin}")
    if not time.time() < claims["exp"] <= time.time() + 24 * 3600:
        raise ValueError(f"exp {claims['exp']} is not within 24 hours")
    if not claims["sub"].startswith(("mailto:", "https:")):
        raise ValueError(f"sub is {claims['sub']}")


class Push(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        if self.path.startswith("/gone/"):
            say({"path": self.path, "gone": True})
            return self.answer(410)
        try:
            origin = f"http://{self.server.server_address[0]}:{self.server.server_address[1]}"
            check_vapid(self.headers["authorization"], origin)
            if self.headers.get("content-encoding") != "aes128gcm":
                raise ValueError(f"content-encoding {self.headers.get('content-encoding')}")
            if not self.headers.get("ttl"):
                raise ValueError("no TTL")
            plain = http_ece.decrypt(
                body, private_key=PRIVATE, auth_secret=AUTH, version="aes128gcm"
            )
            say({"path": self.path, "notice": json.loads(plain)})
            self.answer(201)
        except Exception as error:  # every failure is the test's to see
            say({"path": self.path, "error": repr(error)})
            self.answer(400)

    def answer(self, status):
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Push)
    host, port = server.server_address
    public = PRIVATE.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    say(
        {
            "endpoint": f"http://{host}:{port}/push/1",
            "gone": f"http://{host}:{port}/gone/1",
            "p256dh": base64url(public),
            "auth": base64url(AUTH),
        }
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()


main()
