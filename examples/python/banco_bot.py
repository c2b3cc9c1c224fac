#!/usr/bin/env python3
"""A banco bot in Python, on the standard library alone: the JSON protocol over a
WebSocket (wss://HOST:7373/ws), as a third party would write one.

It logs in to a bot account (registering it with --register), takes every challenge,
plays random legal moves (xiangqi: from the server's Facts; caro: any empty point),
declines undo, draw and new-game offers, answers the heartbeat, leaves each room when
its game is over, and stops after --games games.

    BANCO_PASSWORD=secret python3 banco_bot.py --server 192.168.1.20 \\
        --name RandomBot --register --fingerprint '3f2a 91c0 ...'

The protocol: docs/src/protocol/ (overview.md, messages.md, bots.md) in the repository.
"""

import argparse
import base64
import hashlib
import json
import os
import random
import socket
import ssl
import sys

# The protocol version this client speaks (banco_protocol::PROTOCOL_VERSION). A server
# of another version refuses the Hello with `version_mismatch`.
PROTOCOL_VERSION = 11


# ---------------------------------------------------------------------------------------
# The server's key: the SHA-256 of its certificate's SubjectPublicKeyInfo (DER), the
# fingerprint the host's screen shows.


def _der_element(data, at):
    """The (tag, start of content, end) of the DER element at `at`."""
    tag = data[at]
    length = data[at + 1]
    at += 2
    if length & 0x80:
        count = length & 0x7F
        length = int.from_bytes(data[at:at + count], "big")
        at += count
    return tag, at, at + length


def spki_fingerprint(cert_der):
    """SHA-256 of the certificate's SubjectPublicKeyInfo, as 64 hex digits."""
    _, cert, _ = _der_element(cert_der, 0)          # Certificate
    _, tbs, _ = _der_element(cert_der, cert)        # TBSCertificate
    at = tbs
    tag, _, end = _der_element(cert_der, at)
    if tag == 0xA0:                                 # [0] version, when present
        at = end
    for _ in range(5):                              # serial, signature, issuer, validity, subject
        _, _, at = _der_element(cert_der, at)
    _, _, end = _der_element(cert_der, at)          # subjectPublicKeyInfo
    return hashlib.sha256(cert_der[at:end]).hexdigest()


# ---------------------------------------------------------------------------------------
# A WebSocket client (RFC 6455): text messages, the client's frames masked.


class WebSocket:
    def __init__(self, host, port, tls, fingerprint):
        raw = socket.create_connection((host, port), timeout=30)
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            # The server's certificate is its own, not an authority's: its key is checked
            # against the fingerprint instead.
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
            context.set_alpn_protocols(["http/1.1"])
            raw = context.wrap_socket(raw, server_hostname=host)
            seen = spki_fingerprint(raw.getpeercert(binary_form=True))
            if fingerprint is None:
                print(f"banco_bot: the server's key is {seen}; pass it as --fingerprint "
                      "to have it checked", file=sys.stderr)
            elif seen != fingerprint:
                raise SystemExit(f"banco_bot: the server's key is {seen}, not {fingerprint}: "
                                 "refusing to connect")
        self.sock = raw
        self.buffer = b""
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((
            "GET /ws HTTP/1.1\r\n"
            f"Host: {host}:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode())
        head = self._read_until(b"\r\n\r\n")
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status + b" ":
            raise SystemExit(f"banco_bot: the server refused the WebSocket: {status.decode()}")

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _read_until(self, mark):
        while mark not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer.split(mark, 1)
        return out

    def _send_frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(head + mask + masked)

    def send(self, message):
        self._send_frame(0x1, json.dumps(message).encode())

    def recv(self):
        """The next message as JSON; None once the server closes."""
        text = b""
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = int.from_bytes(self._read(2), "big")
            elif n == 127:
                n = int.from_bytes(self._read(8), "big")
            payload = self._read(n)
            if opcode == 0x8:                      # close
                return None
            if opcode == 0x9:                      # the WebSocket's own ping
                self._send_frame(0xA, payload)
                continue
            if opcode in (0x1, 0x0):
                text += payload
                if b0 & 0x80:                      # the last fragment
                    return json.loads(text)


# ---------------------------------------------------------------------------------------
# The bot.


def one(message):
    """A message's name and content: {"Name": content} or "Name"."""
    if isinstance(message, str):
        return message, None
    (name, content), = message.items()
    return name, content


class Bot:
    def __init__(self, ws, games):
        self.ws = ws
        self.games_left = games
        self.seat = None        # "one" or "two" while seated
        self.settings = None    # the room's settings
        self.first = None       # the seat that moves first in the current game
        self.stones = set()     # caro: the opening's stones and the moves
        self.moves = []         # the current game's moves (wire form)
        self.over = True        # no game running
        self.asked = None       # the ply a Facts request was sent for

    def say(self, text):
        print(f"banco_bot: {text}", flush=True)

    def to_move(self):
        if self.over or self.first is None:
            return None
        other = "two" if self.first == "one" else "one"
        return self.first if len(self.moves) % 2 == 0 else other

    def start_game(self, game):
        self.first = game["first"]
        self.moves = [record["mv"] for record in game["moves"]]
        self.stones = {(p["x"], p["y"]) for p in game["opening"]}
        for mv in self.moves:
            self.place(mv)
        self.over = False
        self.asked = None

    def place(self, mv):
        if "caro" in mv:
            self.stones.add((mv["caro"]["x"], mv["caro"]["y"]))

    def maybe_move(self):
        """Plays when it is our turn: caro at once, xiangqi once the Facts are in."""
        if self.seat is None or self.to_move() != self.seat or self.asked == len(self.moves):
            return
        game = self.settings["game"]
        if "caro" in game:
            free = [(x, y) for x in range(game["caro"]["width"])
                    for y in range(game["caro"]["height"]) if (x, y) not in self.stones]
            x, y = random.choice(free)
            self.asked = len(self.moves)
            self.ws.send({"Move": {"caro": {"x": x, "y": y}}})
        else:
            self.asked = len(self.moves)
            self.ws.send("Facts")

    def handle(self, message):
        name, content = one(message)
        if name == "Ping":
            self.ws.send({"Pong": content})
        elif name == "Welcome":
            self.say(f"logged in as {content['name']} (bot account: {content.get('bot')})")
            self.ws.send({"SetChallenges": "everyone"})
        elif name == "Challenged":
            self.say(f"challenge {content['id']} from {content['from']}: taken")
            self.ws.send({"AcceptChallenge": content["id"]})
        elif name == "Joined":
            you = content["you"]
            self.seat = you["player"] if isinstance(you, dict) else None
            self.settings = content["settings"]
            self.over = True
            if content.get("game"):
                self.start_game(content["game"])
                self.over = content["game"].get("over") is not None
        elif name == "GameStarted":
            self.start_game(content)
            self.say("a game starts")
        elif name == "Moved":
            self.moves.append(content["record"]["mv"])
            self.place(content["record"]["mv"])
        elif name == "Undone":
            for _ in range(content["plies"]):
                mv = self.moves.pop()
                if "caro" in mv:
                    self.stones.discard((mv["caro"]["x"], mv["caro"]["y"]))
            self.asked = None
        elif name == "Facts":
            if content["ply"] == len(self.moves) and self.to_move() == self.seat and content["legal"]:
                self.ws.send({"Move": random.choice(content["legal"])})
        elif name == "Offered":
            if content["by"] != self.seat:
                self.ws.send({"Answer": {"kind": content["kind"], "accept": False}})
        elif name == "GameOver":
            self.over = True
            winner = content["winner"]
            result = "a draw" if winner is None else ("won" if winner == self.seat else "lost")
            self.say(f"game over: {result} ({content['reason']})")
            self.games_left -= 1
            self.ws.send("LeaveRoom")
        elif name == "Left":
            self.seat = None
            if self.games_left <= 0:
                return False
        elif name == "Error":
            self.say(f"the server says: {content['message']} ({content['code']})")
            self.asked = None          # a refused move: think again
        self.maybe_move()
        return True


def main():
    parser = argparse.ArgumentParser(description="A random-move banco bot over the JSON protocol.")
    parser.add_argument("--server", default="127.0.0.1:7373", help="HOST[:PORT]")
    parser.add_argument("--name", required=True, help="the bot account's name")
    parser.add_argument("--register", action="store_true", help="register the bot account first")
    parser.add_argument("--fingerprint", help="the server's key fingerprint (64 hex digits)")
    parser.add_argument("--no-tls", action="store_true", help="a server started with --no-tls")
    parser.add_argument("--games", type=int, default=1, help="stop after this many games")
    args = parser.parse_args()
    password = os.environ.get("BANCO_PASSWORD")
    if not password:
        raise SystemExit("banco_bot: set BANCO_PASSWORD to the bot account's password")
    host, _, port = args.server.rpartition(":") if ":" in args.server else (args.server, "", "7373")
    fingerprint = None
    if args.fingerprint:
        fingerprint = "".join(c for c in args.fingerprint.lower() if c in "0123456789abcdef")
    ws = WebSocket(host, int(port), not args.no_tls, fingerprint)
    ws.send({"Hello": {
        "version": PROTOCOL_VERSION,
        "name": args.name,
        "resume": None,
        "account": {"password": {"password": password, "register": args.register,
                                 "remember": False, "bot": True}},
    }})
    bot = Bot(ws, args.games)
    while True:
        message = ws.recv()
        if message is None:
            raise SystemExit("banco_bot: the server closed the connection")
        name, content = one(message)
        if name == "Error" and bot.seat is None and content["code"] in (
                "version_mismatch", "login_failed", "name_registered", "bad_name", "busy"):
            raise SystemExit(f"banco_bot: {content['message']}")
        if not bot.handle(message):
            return 0


if __name__ == "__main__":
    sys.exit(main())
