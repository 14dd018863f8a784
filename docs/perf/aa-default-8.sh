#!/bin/bash
# A/A of the default design at 8 pairs (the size six minutes allow), 16 experiments; with the four of
# a3-alternating-{1,2}.json (12-03 06:17-07:17, the same instrument) they make the 20 of acceptance 1.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > aa-default-8.times
$J calibrate --experiments 16 --pairs 8 --out aa-default-8.json > aa-default-8.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> aa-default-8.times
