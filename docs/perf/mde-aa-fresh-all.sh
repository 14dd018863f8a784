#!/bin/bash
# The fresh A/A experiments of the default since 12-06 night (mde-aa-fresh.sh, one file each, one jar, alone on the
# guest) judged together: at 20 pairs, and as the default stops them (cpu_us_per_req:mde=2%), then with the four
# headline metrics as targets of that kind. No trial runs.
cd "$(dirname "$0")"
J="java -jar ${PERFLAB_JAR:-../../src/target/perflab.jar}"
files=$(ls mde-aa-fresh-[0-9]*.json | sort -t- -k4 -n)
./aa-clean-blocks.py 20 1000 mde-aa-fresh-all.json $files > mde-aa-fresh-all-blocks.txt
n=$(echo $files | wc -w)
$J calibrate --from mde-aa-fresh-all.json --experiments "$n" > mde-aa-fresh-all.txt 2>&1  # the default: 20 pairs, its target
$J calibrate --from mde-aa-fresh-all.json --experiments "$n" --pairs 20 --target user_cpu_us_per_req:mde=2% \
    --target sys_cpu_us_per_req:mde=2% --target cpu_us_per_req:mde=2% --target ctx_switches_per_req:mde=2% \
    > mde-aa-fresh-all-headline.txt 2>&1
rm mde-aa-fresh-all.json  # written again from the files kept
