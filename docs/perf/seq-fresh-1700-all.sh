#!/bin/bash
# The fresh known-effect experiments of the default experiment at about +2 % (seq-fresh-1700.sh, one file each, one
# jar, alone on the guest) judged together, fixed-size and as the default stops them. No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
files=$(ls seq-fresh-1700-[0-9]*.json | sort -t- -k4 -n)
./aa-clean-blocks.py 20 1000 seq-fresh-1700-all.json $files > seq-fresh-1700-all-blocks.txt
n=$(echo $files | wc -w)
$J calibrate --from seq-fresh-1700-all.json --experiments "$n" --pairs 20 --inject serverWorkNanos=1700 \
    --target cpu_us_per_req:settled > seq-fresh-1700-all.txt 2>&1
rm seq-fresh-1700-all.json  # written again from the files kept
