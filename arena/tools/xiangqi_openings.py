#!/usr/bin/env python3
"""Fresh balanced xiangqi openings for banco-arena, made with Fairy-Stockfish.

Usage: xiangqi_openings.py FAIRY_STOCKFISH SEED COUNT PLIES [SHIPPED]

Each line is PLIES moves from the usual start position, every move drawn at random
(seeded by SEED) among Fairy-Stockfish's best few (MultiPV 4 at depth 8, those within
40 centipawns of the best), so the lines are ones strong players play. A line is kept
when Fairy-Stockfish scores the end position within 60 centipawns at depth 12, its
first two moves are not a line of SHIPPED or its mirror image (default arena/openings/xiangqi.txt, the
openings every tuning used), and no kept line reached the same position. Prints the
lines as ICCS moves (ranks 0-9, as banco-arena reads them), each with the score.
"""
import random
import re
import subprocess
import sys

INFO = re.compile(r"multipv (\d+) score (cp|mate) (-?\d+).* pv (\S+)")


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait(self, word):
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(word):
                return lines
        raise RuntimeError("the engine stopped")

    def search(self, moves, depth, multipv):
        """[(score in cp for the side to move, first move)], best first."""
        self.send(f"setoption name MultiPV value {multipv}")
        self.send("position startpos moves " + " ".join(moves))
        self.send(f"go depth {depth}")
        best = {}
        for line in self.wait("bestmove"):
            m = INFO.search(line)
            if m and " depth " in line:
                score = int(m.group(3))
                if m.group(2) == "mate":
                    score = 100000 if score > 0 else -100000
                best[int(m.group(1))] = (score, m.group(4))
        return [best[k] for k in sorted(best)]

    def fen(self, moves):
        self.send("position startpos moves " + " ".join(moves))
        self.send("d")
        self.send("isready")
        for line in self.wait("readyok"):
            if line.startswith("Fen:"):
                return line.split()[1:3]
        return None


def iccs(move):
    """Fairy-Stockfish's ranks 1-10 to ICCS's 0-9: h3e3 -> h2e2."""
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def mirror(move):
    """The same move on the board mirrored left to right (files a-i become i-a)."""
    files = "abcdefghi"
    return "".join(files[8 - files.index(c)] if c in files else c for c in move)


def main():
    path, seed, count, plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    shipped_file = sys.argv[5] if len(sys.argv) > 5 else "arena/openings/xiangqi.txt"
    shipped = set()
    for line in open(shipped_file):
        words = line.split("#")[0].split()
        if len(words) >= 2:
            shipped.add(tuple(words[:2]))
            shipped.add(tuple(mirror(w) for w in words[:2]))
    rng = random.Random(seed)
    engine = Engine(path)
    seen = set()
    tries = 0
    kept = 0
    while kept < count and tries < count * 20:
        tries += 1
        moves = []
        for _ in range(plies):
            lines = engine.search(moves, 8, 4)
            if not lines:
                break
            top = lines[0][0]
            pool = [mv for score, mv in lines if score >= top - 40]
            moves.append(rng.choice(pool))
        if len(moves) < plies:
            continue
        line = [iccs(m) for m in moves]
        if tuple(line[:2]) in shipped:
            continue
        position = tuple(engine.fen(moves) or line)
        if position in seen:
            continue
        score = engine.search(moves, 12, 1)[0][0]
        if abs(score) > 60:
            continue
        seen.add(position)
        kept += 1
        # The score is for the side to move after the line: Red's after an even count.
        red = score if plies % 2 == 0 else -score
        print(f"{' '.join(line)}  # fairy-stockfish {red:+d} for Red, depth 12", flush=True)
    engine.send("quit")


if __name__ == "__main__":
    main()
