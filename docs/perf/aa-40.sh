#!/bin/bash
# Acceptance 1 for a default of at most 40 pairs with the futility stop (alternating, --pairs 40,
# --target cpu_us_per_req:mde=2%): A/A experiments of 40 pairs, the same variant on both sides, each run whole and
# judged at 40 pairs and as that default would stop it. Jar of 0d806a7 (PERFLAB_JAR, copied out of the tree), alone on
# the guest. One file per experiment, numbered from the first argument to the second: aa-40-K.json; with the eleven
# stored 40-pair A/A blocks (mde-aa-40.txt) they make acceptance 1's twenty.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> aa-40.times
    $J calibrate --experiments 1 --pairs 40 --target cpu_us_per_req:mde=2% --out aa-40-$k.json > aa-40-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> aa-40.times
