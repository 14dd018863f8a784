#!/bin/bash
cd "$(dirname "$0")"
J="java -jar ../../src/target/perflab.jar"
{ date -u +%FT%TZ; uptime; } > a3.times
$J calibrate --experiments 2 --pairs 8 --out a3-alternating-1.json > a3-alternating-1.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> a3.times
$J calibrate --design fresh --runs 40 --experiments 1 --out a3-fresh-40.json > a3-fresh-40.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> a3.times
$J calibrate --experiments 2 --pairs 8 --out a3-alternating-2.json > a3-alternating-2.txt 2>&1
{ date -u +%FT%TZ; uptime; } >> a3.times
