#!/bin/bash
# Acceptance 3 for the default experiment of the jar it runs (PERFLAB_JAR, copied out of the tree): an A/A of the
# default before and after the seeds' fresh 40 + 40, in one queue on a guest left idle. Start times and load in
# PREFIX.times. Argument: PREFIX, a3d unless given.
#   a3d (12-06): jar of b2a91d3 (measured path of 2c24896), default alternating, at most 20 pairs, stopping once CPU
#                per call is settled.
#   a3f (12-07): jar of c69d63b (engine and runner of 0d806a7), default alternating, at most 40 pairs, each of user,
#                system, all CPU and context switches per request an mde=2% target.
cd "$(dirname "$0")"
P="${1:-a3d}"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
{ date -u +%FT%TZ; uptime; } > "$P.times"
$J calibrate --experiments 1 --out "$P-default-1.json" > "$P-default-1.txt" 2>&1
{ date -u +%FT%TZ; uptime; } >> "$P.times"
$J calibrate --design fresh --runs 40 --experiments 1 --out "$P-fresh-40.json" > "$P-fresh-40.txt" 2>&1
{ date -u +%FT%TZ; uptime; } >> "$P.times"
$J calibrate --experiments 1 --out "$P-default-2.json" > "$P-default-2.txt" 2>&1
{ date -u +%FT%TZ; uptime; } >> "$P.times"
