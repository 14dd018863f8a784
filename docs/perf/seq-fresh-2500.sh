#!/bin/bash
# A fresh check of the sequential experiment of at most 20 pairs on the +2.5 % known effect (serverWorkNanos=2500),
# the size and rule that the stored campaigns judged again found it with in 15 of 18 (sequential-rejudge.txt): four
# experiments of 20 pairs, every pair run (calibrate runs whole blocks), each judged fixed and as the sequential
# experiment `ab --pairs 20 --target cpu_us_per_req:settled` would have stopped; alone on the guest, jar of 2c24896.
# No reference run: the injected cost is CPU per call's reference, and power needs none.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > seq-fresh-2500.times
$J calibrate --experiments 4 --pairs 20 --inject serverWorkNanos=2500 --target cpu_us_per_req:settled \
    --out seq-fresh-2500.json > seq-fresh-2500.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> seq-fresh-2500.times
