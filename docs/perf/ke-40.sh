#!/bin/bash
# Acceptance 2 for a default of at most 40 pairs with the futility stop (alternating, --pairs 40,
# --target cpu_us_per_req:mde=2%): known-effect experiments of 40 pairs, serverWorkNanos=1700 on the with side (the
# +1.98 % of seq-fresh-1700-*), each run whole and judged at 40 pairs and as that default would stop it. Jar of 0d806a7
# (PERFLAB_JAR, copied out of the tree), alone on the guest. One file per experiment, numbered from the first argument
# to the second: ke-40-K.json; with the five 40-pair blocks of seq-fresh-1700-* they make acceptance 2's ten.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> ke-40.times
    $J calibrate --experiments 1 --pairs 40 --inject serverWorkNanos=1700 --target cpu_us_per_req:mde=2% \
        --out ke-40-$k.json > ke-40-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> ke-40.times
