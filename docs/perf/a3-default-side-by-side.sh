#!/bin/bash
# Acceptance 3 for the default experiment since 12-06 (alternating, at most 20 pairs, stopping once CPU per call is
# settled): an A/A of it before and after the seeds' fresh 40 + 40, in one queue on a guest left idle, jar of b2a91d3
# (PERFLAB_JAR, copied out of the tree; the measured path is that of 2c24896). Start times and load in a3d.times.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > a3d.times
$J calibrate --experiments 1 --out a3d-default-1.json > a3d-default-1.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> a3d.times
$J calibrate --design fresh --runs 40 --experiments 1 --out a3d-fresh-40.json > a3d-fresh-40.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> a3d.times
$J calibrate --experiments 1 --out a3d-default-2.json > a3d-default-2.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> a3d.times
