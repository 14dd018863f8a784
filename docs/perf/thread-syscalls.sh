#!/bin/bash
# System calls and context switches per call of the benchmark, by thread role: one `perflab bench` per stack,
# and during 10 s of its measured window perf stat counts per thread; threads are grouped by name with the
# digits taken out (Java names its native threads). Usage: thread-syscalls.sh JAR [STACK...]; needs perf as root.
set -eu
jar=${1:?usage: thread-syscalls.sh JAR [STACK...]}
shift
if [ $# -eq 0 ]; then stacks=(perflab netty); else stacks=("$@"); fi
out=$(mktemp -d)
events=$(printf 'syscalls:sys_enter_%s,' futex epoll_pwait2 epoll_wait write read sendto recvfrom writev readv)context-switches
for stack in "${stacks[@]}"; do
  java -Xms512m -Xmx512m -XX:+AlwaysPreTouch -XX:+UseSerialGC -jar "$jar" bench --stack "$stack" \
      --warmup-seconds 12 --run-seconds 20 --count-syscalls false > "$out/$stack.txt" 2> "$out/$stack.err" &
  pid=$!
  sleep 16
  perf stat --per-thread -x, -e "$events" -p "$pid" -o "$out/$stack.stat" -- sleep 10
  wait
  rps=$(awk '/^Reqs\/sec:/ {print $2}' "$out/$stack.txt")
  echo "== $stack: $(grep -E '^(Reqs/sec|User CPU per req|Sys CPU per req|Ctx Sw. per req):' "$out/$stack.txt" \
      | tr -s ' ' | paste -sd ';' -)"
  echo "per call (10 s at $rps calls/s), by thread role:"
  awk -F, -v n="$rps" '$2 ~ /^[0-9]+$/ {
      t = $1; sub(/-[0-9]+$/, "", t); gsub(/[0-9]+/, "#", t); e = $4; sub("syscalls:sys_enter_", "", e);
      c[t "\t" e] += $2; roles[t] = 1; events[e] = 1 }
    END { for (r in roles) for (e in events) if (c[r "\t" e] / (n * 10) >= 0.005)
      printf "  %-22s %-17s %7.3f\n", r, e, c[r "\t" e] / (n * 10) }' "$out/$stack.stat" | sort
done
rm -rf "$out"
