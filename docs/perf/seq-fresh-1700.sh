#!/bin/bash
# The default experiment (alternating, at most 20 pairs, stopping once CPU per call is settled) on a known effect of
# about +2 % of CPU per call: serverWorkNanos=1700, scaled from the 2,500 ns that measured +2.92 % on the idle guest
# (seq-fresh-2500-all.txt). Jar of 2c24896 (PERFLAB_JAR, copied out of the tree; the flags spell out the default it
# lacks), alone on the guest. One file per experiment, numbered from the first argument to the second, so that the
# queues of several stops add up to acceptance 2's ten: seq-fresh-1700-K.json.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
for k in $(seq "$1" "$2"); do
    { date -u +%FT%TZ; uptime; } >> seq-fresh-1700.times
    $J calibrate --experiments 1 --pairs 20 --inject serverWorkNanos=1700 --target cpu_us_per_req:settled \
        --out seq-fresh-1700-$k.json > seq-fresh-1700-$k.txt 2>&1
done
{ date -u +%FT%TZ; uptime; } >> seq-fresh-1700.times
