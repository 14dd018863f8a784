#!/bin/bash
# A fresh check of the default since 12-06 night (alternating, at most 20 pairs, target cpu_us_per_req:mde=2%): A/A
# experiments, each run whole (20 pairs) and judged at 20 pairs and as the default stops it. Jar of the build that
# made the target the default (PERFLAB_JAR, copied out of the tree), alone on the guest. One file per experiment,
# numbered from the first argument to the second: mde-aa-fresh-K.json.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> mde-aa-fresh.times
    $J calibrate --experiments 1 --out mde-aa-fresh-$k.json > mde-aa-fresh-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> mde-aa-fresh.times
