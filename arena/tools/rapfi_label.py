#!/usr/bin/env python3
"""Score positions with Rapfi, for `banco-arena caro-tune --teacher`.

Usage: rapfi_label.py RAPFI POSITIONS OUT [MS]

POSITIONS has one position per line, its moves `x,y` from X (what
`banco-arena caro-tune --dump-positions` writes). OUT gets `MOVES;SCORE` lines: Rapfi's
score for the side to move after a search of MS milliseconds (default 60), in its units
(200: a 73% chance, like ours); a found win or loss, or any score beyond, is written as
+4000 or -4000.
Freestyle, 15x15. One Rapfi process scores every position (a BOARD command each).
"""
import re
import subprocess
import sys
import time

MOVE = re.compile(r"^\d+,\d+$")
EVAL = re.compile(r"Eval ([+-]?M?\d+)")


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    rapfi, src, out = sys.argv[1:4]
    ms = int(sys.argv[4]) if len(sys.argv) == 5 else 60
    p = subprocess.Popen([rapfi], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    send("START 15")
    while p.stdout.readline().strip() != "OK":
        pass
    for info in ("rule 0", f"timeout_turn {ms}", "timeout_match 1000000000",
                 "time_left 1000000000", "max_memory 268435456"):
        send(f"INFO {info}")
    with open(src) as positions, open(out, "w") as scores:
        for line in positions:
            moves = line.split()
            if not moves:
                continue
            # Rapfi can drop the first word of a command that arrives just as it leaves
            # its thinking state: wait a moment and lead with a line it may lose.
            time.sleep(0.01)
            send("INFO max_memory 268435456")
            send("BOARD")
            n = len(moves)
            for i, m in enumerate(moves):
                send(f"{m},{1 if (n - i) % 2 == 0 else 2}")
            send("DONE")
            last = None
            while True:
                reply = p.stdout.readline()
                if not reply:
                    sys.exit("rapfi stopped")
                reply = reply.strip()
                found = EVAL.search(reply)
                if found:
                    last = found.group(1)
                if MOVE.match(reply):
                    break
            if last is None:
                continue
            if "M" in last:
                score = -4000.0 if last.startswith("-") else 4000.0
            else:
                score = max(-4000.0, min(4000.0, float(last)))
            scores.write(f"{' '.join(moves)};{score}\n")
    send("END")


if __name__ == "__main__":
    main()
