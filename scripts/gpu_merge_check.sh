#!/usr/bin/env bash
# One device call for the GPU merge: the GPU test suite, compute-sanitizer (memcheck, and racecheck
# on a small subset), the tuning sweep (corank tune merge, saved to $out/merge.tuning), the CLI's
# GPU merge against its CPU merge (10M u64 outputs: the partitioned scheme; with and without that
# table), and the benchmark. Binaries come
# from $1 (default .carry-gpumerge: test_cuda_merge, corank, corank_gpu_bench); logs go to $OUT
# (or ./out). Prints a short table last.
#   usage: scripts/gpu_merge_check.sh [bin_dir] [bench args...]
set -u
bin=${1:-.carry-gpumerge}
shift || true
source "$(dirname "$0")/device_steps.sh"

nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv,noheader
step tests 150 "$bin/test_cuda_merge"
step memcheck 150 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/test_cuda_merge" \
  --gtest_filter='-*Large*:*RandomSizes*'
step racecheck 45 compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/test_cuda_merge" \
  --gtest_filter='*IsStableWithManyTies/automatic_grid1:*IsStableWithManyTies/automatic:*IsStableWithManyTies/automatic_grid3:*RandomSizes/automatic_grid7:*IsStableWithManyTies/tiled_tile5_reuse:*IsStableWithManyTies/circular_tile32_reuse:*IsStableWithManyTies/circular_tile127:*IsStableWithManyTies/basic_reuse1_bf1:*HandlesUnalignedPointers/automatic:*IsStableWithManyTies/automatic_partitioned_t0:*IsStableWithManyTies/automatic_partitioned_t32:*IsStableWithManyTies/automatic_partitioned_t32_lead0:*RandomSizes/automatic_partitioned_t32_lead3:*HandlesUnalignedPointers/automatic_partitioned_t96:*TableFillsWhatTheOptionsLeaveOpen'

step tune 120 "$bin/corank" tune merge --save "$out/merge.tuning"
cat "$out/merge.tuning"

# The CLI: GPU merge == CPU merge, byte for byte (GPU with the default tuning and with the sweep's).
cli() {
  local d
  d=$(mktemp -d)
  "$bin/corank" gen -o "$d/a" -n 6000017 -t u64 -s 1 &&
    "$bin/corank" gen -o "$d/b" -n 4000003 -t u64 -s 2 -d few &&
    "$bin/corank" merge "$d/a" "$d/b" -o "$d/gpu" -t u64 --backend gpu &&
    "$bin/corank" merge "$d/a" "$d/b" -o "$d/cpu" -t u64 --backend cpu &&
    cmp "$d/gpu" "$d/cpu" && echo "[  PASSED  ] CLI gpu == cpu" &&
    if [ -s "$out/merge.tuning" ]; then
      "$bin/corank" merge "$d/a" "$d/b" -o "$d/tuned" -t u64 --backend gpu \
        --tuning "$out/merge.tuning" && cmp "$d/tuned" "$d/cpu" &&
        echo "[  PASSED  ] CLI gpu --tuning == cpu"
    fi
}
export -f cli
export bin out
step cli 20 bash -c cli
step bench 90 "$bin/corank_gpu_bench" --json "$out/bench.json" "$@"

summary
grep -E "^(keys|pairs) .*(automatic|cub|copy)" "$out/bench.log" | grep -E " (1M|10M|100M) " || true
