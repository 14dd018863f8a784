#!/bin/bash
# Six more fresh experiments of the sequential design of at most 20 pairs on the +2.5 % known effect, the same
# command and jar (2c24896) as seq-fresh-2500.sh, alone on the guest, so that with its four they make the ten
# known-effect experiments acceptance 2 counts (judged together by seq-fresh-2500-all.sh).
# No reference run: the injected cost is CPU per call's reference, and power needs none.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > seq-fresh-2500-b.times
$J calibrate --experiments 6 --pairs 20 --inject serverWorkNanos=2500 --target cpu_us_per_req:settled \
    --out seq-fresh-2500-b.json > seq-fresh-2500-b.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> seq-fresh-2500-b.times
