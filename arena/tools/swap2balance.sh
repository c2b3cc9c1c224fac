#!/usr/bin/env bash
# How balanced the bot's Swap2 proposals are by its own search: every three-stone
# opening of the shipped list (rules/src/caro/openings.txt, centred on a 15x15 board)
# searched to a fixed node count under a rule, with O (White) to move. Prints each
# score (from White's side) and a summary: mean, mean absolute score, the largest, and
# how many lie within the window (+-WINDOW).
#
#   arena/tools/swap2balance.sh ./target/release/banco-arena [RULE] [NODES] [WINDOW]
set -euo pipefail
arena=$1
rule=${2:-renju}
nodes=${3:-200000}
window=${4:-200}
cd "$(dirname "$0")/../.."
grep -v '^#' rules/src/caro/openings.txt | grep . | sed 's/#.*//' | while read -r a b c; do
    moves=""
    for off in $a $b $c; do
        moves="$moves $((7 + ${off%%,*})),$((7 + ${off##*,}))"
    done
    # shellcheck disable=SC2086 # the moves are one argument each
    "$arena" think --rule "$rule" --size 15 --time-ms 600000 --nodes "$nodes" $moves 2>&1 \
        | grep -v '^pv' | tail -n 1 | sed -n 's/.* score \(-\{0,1\}[0-9]*\) .*/\1/p'
done | awk -v w="$window" -v rule="$rule" -v nodes="$nodes" '
    { n++; s += $1; a = ($1 < 0 ? -$1 : $1); abs += a; if (a > max) max = a; if (a <= w) inside++; print }
    END { printf "rule %s, %d nodes: %d openings, mean %.1f, mean |score| %.1f, max |score| %d, within +-%d: %d\n", rule, nodes, n, s / n, abs / n, max, w, inside }'
