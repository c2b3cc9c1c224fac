#!/usr/bin/env bash
# Rapfi's evaluation of a three-stone opening (X, O, X) with White (O) to move: Rapfi is
# given the stones as a `BOARD` (fields 2, 1, 2) under INFO rule RULE_NUMBER on 15x15, a
# turn of MS, and the evaluation of its last `MESSAGE ... Eval N ...` line is printed
# (White's side, Rapfi's units). Stones are Gomocup `x,y`.
#
#   arena/tools/rapfi-eval.sh "$RAPFI" RULE_NUMBER MS X1,Y1 X2,Y2 X3,Y3
set -euo pipefail
rapfi=$1
number=$2
ms=$3
a=$4
b=$5
c=$6
# Rapfi is told END only after its answer had time to come (END read during a search
# may cut it short).
wait_s=$(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 + 1.5 }')
{
    printf 'START 15\nINFO rule %s\nINFO timeout_turn %s\nBOARD\n%s,2\n%s,1\n%s,2\nDONE\n' \
        "$number" "$ms" "$a" "$b" "$c"
    sleep "$wait_s"
    printf 'END\n'
} | "$rapfi" 2>/dev/null | sed -n 's/^MESSAGE .*Eval \(-\{0,1\}[0-9]*\).*/\1/p' | tail -n 1
