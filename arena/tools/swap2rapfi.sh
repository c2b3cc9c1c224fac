#!/usr/bin/env bash
# How balanced pbrain-banco's Swap2 proposals are by Rapfi's own evaluation: asks
# pbrain-banco COUNT times for the first three stones (Gomocup's `SWAP2BOARD` with no
# stones, 15x15, INFO rule RULE_NUMBER, INFO timeout_turn BRAIN_MS, as a Swap2 match at
# that time asks it), then gives each proposal to Rapfi as a `BOARD` with White (O) to
# move (X, O, X with fields 2, 1, 2) and a turn of RAPFI_MS, and reads the evaluation of
# Rapfi's last `MESSAGE ... Eval N ...` line (White's side, Rapfi's units). Prints each
# proposal with its evaluation, then: mean, mean |eval|, max |eval|, and how many lie
# within +-WINDOW.
#
#   arena/tools/swap2rapfi.sh ./target/release/pbrain-banco "$RAPFI" \
#       [RULE_NUMBER=0] [COUNT=20] [RAPFI_MS=1000] [WINDOW=200] [BRAIN_MS=1000]
set -euo pipefail
brain=$1
rapfi=$2
number=${3:-0}
count=${4:-20}
rapfi_ms=${5:-1000}
window=${6:-200}
brain_ms=${7:-1000}
here=$(dirname "$0")
for _ in $(seq "$count"); do
    moves=$(printf 'START 15\nINFO rule %s\nINFO timeout_turn %s\nSWAP2BOARD\nDONE\nEND\n' \
        "$number" "$brain_ms" | "$brain" | grep -v '^\(OK\|MESSAGE\)' | head -n 1)
    read -r a b c <<<"$moves"
    evaluation=$("$here/rapfi-eval.sh" "$rapfi" "$number" "$rapfi_ms" "$a" "$b" "$c")
    echo "$moves $evaluation"
done | awk -v w="$window" -v number="$number" -v ms="$rapfi_ms" '
    { print; e = $NF; n++; s += e; a = (e < 0 ? -e : e); abs += a; if (a > max) max = a; if (a <= w) inside++ }
    END { printf "proposals, rule %d, evaluated by Rapfi at %d ms, White to move: %d, mean %.1f, mean |eval| %.1f, max |eval| %d, within +-%d: %d\n", number, ms, n, s / n, abs / n, max, w, inside }'
