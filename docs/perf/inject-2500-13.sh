#!/bin/bash
# What acceptance 2 would take: the +2.5 % known effect of inject-2500-pause.sh (serverWorkNanos=2500) judged by
# experiments of 13 pairs instead of the default's 8 — the size the 8-pair campaigns' spread said 8 of 10
# detections need — with a 20-pair reference of its own, on the jar of 5c3bfe2 (runner and engine as at 2c64182
# but for strip() in place of trim()), alone on the guest.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > inject-2500-13.times
$J calibrate --experiments 1 --pairs 20 --inject serverWorkNanos=2500 --out inject-2500-13-reference.json \
    > inject-2500-13-reference.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> inject-2500-13.times
$J calibrate --experiments 10 --pairs 13 --inject serverWorkNanos=2500 --reference inject-2500-13-reference.json \
    --out inject-2500-13.json > inject-2500-13.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> inject-2500-13.times
