#!/usr/bin/env bash
# One device call for the GPU sorts: the GPU test suite, compute-sanitizer (memcheck without the
# >2^31-key test, racecheck on a small subset), and the benchmark. Binaries come from $1 (default
# .carry-sort: test_cuda_sort, corank_gpu_sort_bench, optionally corank for the CLI check); logs
# go to $OUT (or ./out). Prints a short table last.
#   usage: scripts/gpu_sort_check.sh [bin_dir] [bench args...]
set -u
bin=${1:-.carry-sort}
shift || true
source "$(dirname "$0")/device_steps.sh"

nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv,noheader
step tests 100 "$bin/test_cuda_sort"
step memcheck 70 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/test_cuda_sort" \
  --gtest_filter='-*Huge*:*RandomSizes*'
step racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/test_cuda_sort" \
  --gtest_filter="$sort_racecheck_filter"
# The CLI (when $bin/corank is carried): GPU merge sort and bitonic sort == CPU stable sort, byte
# for byte.
cli() {
  local d
  d=$(mktemp -d)
  "$bin/corank" gen -o "$d/in" -n 3000017 -t i64 -s 3 &&
    "$bin/corank" sort "$d/in" -o "$d/cpu" -t i64 --backend cpu &&
    "$bin/corank" sort "$d/in" -o "$d/merge" -t i64 --backend gpu --algo merge &&
    "$bin/corank" sort "$d/in" -o "$d/bitonic" -t i64 --backend gpu --algo bitonic &&
    cmp "$d/cpu" "$d/merge" && cmp "$d/cpu" "$d/bitonic" && echo "[  PASSED  ] CLI gpu == cpu"
}
export -f cli
export bin
if [ -x "$bin/corank" ]; then step cli 30 bash -c cli; fi
step bench 50 "$bin/corank_gpu_sort_bench" --json "$out/bench.json" "$@"

summary
cat "$out/bench.log" | grep -v "^bench sort"
