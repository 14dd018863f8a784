#!/bin/sh
# A fresh known-effect campaign to confirm, on data the robust check was not designed on, what robust-rejudge.txt
# found in the stored ones: serverWorkNanos=2500 (about +2.5 % of CPU per call), 10 experiments of the default
# (alternating, 8 pairs of 3 windows of 3 s, auto:15), alone on the guest; calibrate prints the verdict's t-test
# and the robust check of the same experiments (robust-confirm-2500.txt). No reference run: the injected cost is
# the reference of CPU per call, and power needs none.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > robust-confirm.times
$J calibrate --experiments 10 --pairs 8 --inject serverWorkNanos=2500 --out robust-confirm-2500.json \
    > robust-confirm-2500.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> robust-confirm.times
