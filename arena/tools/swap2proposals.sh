#!/usr/bin/env bash
# How balanced pbrain-banco's Swap2 proposals are: asks it COUNT times for the first
# three stones (Gomocup's `SWAP2BOARD` with no stones, 15x15, INFO rule RULE_NUMBER),
# then scores each proposal with `banco-arena think` at a fixed node count, O (White)
# to move. Prints each score and: mean, mean |score|, max |score|, within +-WINDOW.
#
#   arena/tools/swap2proposals.sh ./target/release/pbrain-banco ./target/release/banco-arena \
#       [RULE_NUMBER=4] [COUNT=20] [NODES=200000] [WINDOW=200] [BRAIN_NODES=200000]
set -euo pipefail
brain=$1
arena=$2
number=${3:-4}
count=${4:-20}
nodes=${5:-200000}
window=${6:-200}
brain_nodes=${7:-200000}
case $number in
    0) rule=freestyle ;; 1) rule=standard ;; 4 | 5) rule=renju ;; 8) rule=caro-overline ;; 9) rule=caro ;;
    *) echo "unknown Gomocup rule $number" >&2; exit 2 ;;
esac
for _ in $(seq "$count"); do
    moves=$(printf 'START 15\nINFO rule %s\nINFO timeout_turn 5000\nSWAP2BOARD\nDONE\nEND\n' "$number" \
        | "$brain" --nodes "$brain_nodes" | grep -v '^\(OK\|MESSAGE\)' | head -n 1)
    # shellcheck disable=SC2086 # the moves are one argument each
    "$arena" think --rule "$rule" --size 15 --time-ms 600000 --nodes "$nodes" $moves 2>&1 \
        | grep -v '^pv' | tail -n 1 | sed -n 's/.* score \(-\{0,1\}[0-9]*\) .*/\1/p'
done | awk -v w="$window" -v rule="$rule" -v nodes="$nodes" '
    { n++; s += $1; a = ($1 < 0 ? -$1 : $1); abs += a; if (a > max) max = a; if (a <= w) inside++; print }
    END { printf "proposals, rule %s, scored at %d nodes: %d, mean %.1f, mean |score| %.1f, max |score| %d, within +-%d: %d\n", rule, nodes, n, s / n, abs / n, max, w, inside }'
