#!/usr/bin/env python3
"""The server's bots against each other on a game clock (max against max; 1+0 unless
CLOCK says otherwise, in `create`'s form: 3m+2s), one game at a time, caro (freestyle)
and xiangqi in turn, watched through `banco join --json`: how each game ended and what
was left on the clocks, and how many were lost on time.

    server/tools/bots-on-the-clock.py BANCO ADDR GAMES DEADLINE_UNIX [CLOCK]

BANCO is the `banco` client; ADDR a server started with --no-tls (e.g.
`banco-server --listen 127.0.0.1:7788 --no-discovery --no-tls --db FILE`); it stops after
GAMES games or at DEADLINE_UNIX, whichever comes first."""
import json, subprocess, sys, time
banco, addr, games, deadline = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
clock_arg = sys.argv[5] if len(sys.argv) > 5 else '1m'
p = subprocess.Popen([banco, 'join', addr, '--json', '--no-tls', '--name', 'Flagwatch'],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(line):
    p.stdin.write(line + '\n'); p.stdin.flush()
def until(kind):
    for line in p.stdout:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get('event') == kind:
            return e
        if e.get('event') == 'error':
            print('error', e, flush=True)
    raise SystemExit('client ended')
until('welcome')
results = []
for i in range(games):
    if time.time() > deadline:
        break
    game = 'caro --rule freestyle' if i % 2 == 0 else 'xiangqi'
    send(f'create {game} --clock {clock_arg} --bot max --vs-bot max')
    until('game_started')
    t0 = time.time()
    over = until('game_over')
    clock = None
    # the clock line that follows the end carries what was left
    for line in p.stdout:
        e = json.loads(line)
        if e.get('event') == 'clock':
            clock = e.get('remaining_ms'); break
        if e.get('event') in ('game_over', 'joined'):
            break
    results.append((game.split()[0], over.get('reason'), over.get('winner'), clock))
    print(i + 1, game.split()[0], over.get('reason'), over.get('winner'), clock, f'{time.time() - t0:.0f}s', flush=True)
    send('leave')
    time.sleep(0.5)
reasons = {}
for g, r, w, c in results:
    reasons[(g, r)] = reasons.get((g, r), 0) + 1
print('games', len(results), 'by game and reason', reasons, 'on time:', sum(1 for _, r, _, _ in results if r in ('time', 'flag', 'timeout')), flush=True)
