#!/bin/bash
# The known-effect campaign of inject-2500-default.sh run again on the build whose warmup pauses its load (2c64182):
# a 20-pair reference, then 10 default experiments (alternating, 8 pairs), serverWorkNanos=2500, alone on the guest.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > inject-2500-pause.times
$J calibrate --experiments 1 --pairs 20 --inject serverWorkNanos=2500 --out inject-2500-pause-reference.json \
    > inject-2500-pause-reference.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> inject-2500-pause.times
$J calibrate --experiments 10 --pairs 8 --inject serverWorkNanos=2500 --reference inject-2500-pause-reference.json \
    --out inject-2500-pause.json > inject-2500-pause.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> inject-2500-pause.times
