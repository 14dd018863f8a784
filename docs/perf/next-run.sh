#!/bin/sh
# What `perflab compare` now advises as the windows per pair for a next run as long as each stored experiment:
# each calibrate file cut into its experiments (slice-pairs.py), each judged as one experiment; the components
# lines of the headline metrics. No trial is run.
# usage: docs/perf/next-run.sh [JAR]          (from the repository's root; output: docs/perf/next-run.txt)
JAR=${1:-src/target/perflab.jar}
T=$(mktemp -d)
for spec in 8:aa-default-8 8:aa-pause 13:inject-2500-13; do
    size=${spec%%:*}; name=${spec#*:}
    docs/perf/slice-pairs.py "$size" "$T/$name" "docs/perf/$name.json"
    for f in $(ls "$T/$name"-*.json | sort -t- -k3 -n); do
        echo "== $name, experiment $(basename "$f" .json | sed 's/.*-//') ($size pairs)"
        java -jar "$JAR" compare "$f" "$f" | sed -n '/^Variance components/,$p' \
            | grep -E '^(Variance|cpu_us_per_req|user_cpu_us_per_req|sys_cpu_us_per_req|ctx_switches_per_req) '
    done
done
rm -rf "$T"
