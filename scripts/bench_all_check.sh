#!/usr/bin/env bash
# One device call for `corank bench all`: the quick suite on the GPU, then (unless --quick-only)
# the full one. The corank binary comes from $1 (default .carry-bench); JSON, tables and progress
# go to $OUT (or ./out). Figures are drawn afterwards, wherever matplotlib is:
#   scripts/plot_bench.sh $OUT/bench_all.json -o docs/figures/h100
#   usage: scripts/bench_all_check.sh [bin_dir] [--quick-only] [limit_s]
set -u
bin=${1:-.carry-bench}
source "$(dirname "$0")/device_steps.sh"
quick_only=${2:-}
limit=${3:-400}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
"$bin/corank" info
step quick 150 "$bin/corank" bench all --backend gpu --quick --json "$out/bench_all_quick.json"
if [ "$quick_only" != "--quick-only" ]; then
  step full "$limit" "$bin/corank" bench all --backend gpu --json "$out/bench_all.json"
fi
summary
grep -h "corank bench all:" "$out"/*.log
