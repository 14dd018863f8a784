#!/bin/bash
# old (before batching, 89494e2) on 8096, new (ad2be16) on 8095; ABBA order, after warm-up
url="$1"
for p in 8096 8095; do for k in $(seq 1 20); do curl -s -o /dev/null "localhost:$p$url"; done; done
for r in $(seq 1 30); do
  if [ $((r % 2)) = 1 ]; then order="8096 8095"; else order="8095 8096"; fi
  for p in $order; do echo "$p $(curl -s -o /dev/null -w '%{time_total}' "localhost:$p$url")"; done
done
