#!/bin/bash
# Known effect at the default design and size (alternating, 8 pairs since 7297090), run as one campaign rather than
# judged again from a campaign of 5-pair experiments: a 20-pair reference, then 10 default experiments, with
# serverWorkNanos=2500 (between 2,000 ns, worth +0.7-1.5 % of CPU per call, and 3,000 ns, worth +5.1-5.3 %).
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > inject-2500.times
$J calibrate --experiments 1 --pairs 20 --inject serverWorkNanos=2500 --out inject-2500-reference.json \
    > inject-2500-reference.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> inject-2500.times
$J calibrate --experiments 10 --pairs 8 --inject serverWorkNanos=2500 --reference inject-2500-reference.json \
    --out inject-2500.json > inject-2500.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> inject-2500.times
