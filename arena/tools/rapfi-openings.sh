#!/usr/bin/env bash
# Rapfi's evaluation (White to move, Rapfi's units) of every three-stone opening of an
# arena openings file (offsets dx,dy from the centre of a 15x15 board), as
# arena/openings/renju.txt was made: prints "EVAL<TAB>OPENING" per line; sort by |EVAL|
# to keep the most even.
#
#   arena/tools/rapfi-openings.sh "$RAPFI" RULE_NUMBER MS FILE
set -euo pipefail
here=$(dirname "$0")
rapfi=$1
number=$2
ms=$3
file=$4
grep -v '^#' "$file" | grep . | sed 's/#.*//' | while read -r a b c; do
    stones=()
    for off in $a $b $c; do
        stones+=("$((7 + ${off%%,*})),$((7 + ${off##*,}))")
    done
    printf '%s\t%s %s %s\n' "$("$here/rapfi-eval.sh" "$rapfi" "$number" "$ms" "${stones[@]}")" "$a" "$b" "$c"
done
