#!/bin/bash
# Waits for an idle machine (1-minute load average below 0.5) until CUTOFF (default: 30 minutes from now), then runs
# the load benchmark on H2 and PostgreSQL side by side and prints the table with the load before and after.
# Run from the repository's root: docs/perf/wait-idle-then-load.sh [CUTOFF as `date -d` reads it]
cutoff=$(date -d "${1:-30 minutes}" +%s)
while :; do
  l=$(cut -d' ' -f1 /proc/loadavg)
  if awk "BEGIN{exit !($l < 0.5)}"; then echo "# idle: load $(cat /proc/loadavg)"; break; fi
  if [ "$(date +%s)" -ge "$cutoff" ]; then echo "# never idle before the cutoff: load $(cat /proc/loadavg)"; break; fi
  sleep 10
done
echo '$ ./mvnw -B -q -pl src -am -Pload test -DskipTests -Dload.args="--scenarios=uploads,pages,analyze --databases=h2,postgres"'
echo "# started $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
s=$(date +%s.%N)
./mvnw -B -q -o -pl src -am -Pload test -DskipTests \
    -Dload.args="--scenarios=uploads,pages,analyze --databases=h2,postgres" 2>&1 | grep -v ' WARN '
e=$(date +%s.%N)
echo "# wall $(echo "$e - $s" | bc) s"
echo "# ended $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
