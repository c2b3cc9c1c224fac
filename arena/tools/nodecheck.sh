#!/usr/bin/env bash
# Node-for-node check of the caro search: one node-limited search of every position of the
# benchmark files, one line each (best move, score, depth, nodes; no time). Two builds
# that search alike print the same lines: diff the outputs.
#
#   arena/tools/nodecheck.sh ./target/release/banco-arena [NODES] > new.txt
set -euo pipefail
arena=$1
nodes=${2:-300000}
cd "$(dirname "$0")/../.."
for f in engine/benches/data/freestyle.txt engine/benches/data/midgame.txt; do
    grep -v '^#' "$f" | grep . | while IFS=';' read -r head moves; do
        rule=${head%% *}
        size=${head##* }
        size=${size%%x*}
        # shellcheck disable=SC2086 # the moves are one argument each
        "$arena" think --rule "$rule" --size "$size" --time-ms 600000 --nodes "$nodes" $moves 2>&1 \
            | grep -v '^pv' | tail -n 1 | sed 's/ time .*//'
    done
done
