#!/usr/bin/env bash
# One device call for the GPU segmented scan: the GPU test suite, compute-sanitizer (memcheck on
# the suite without its largest cases, racecheck on the single-pass kernel), the CLI's spmv-scan on
# both backends, and the benchmarks (corank bench ...). Binaries come from $1 (default .carry-scan:
# test_cuda_segmented_scan, corank); logs go to $OUT (or ./out).
# Prints a short table last.
#   usage: scripts/gpu_scan_check.sh [bin_dir]
set -u
bin=${1:-.carry-scan}
source "$(dirname "$0")/device_steps.sh"

nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.mem --format=csv,noheader
step tests 90 "$bin/test_cuda_segmented_scan"
step memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/test_cuda_segmented_scan" \
  --gtest_filter='-*FloatAndDouble*:*OneSegmentSpanning*/thread*:*IntegerSums*/thread*'
step racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 9 "$bin/test_cuda_segmented_scan" \
  --gtest_filter='*/automatic:-*FloatAndDouble*:*IntegerSums*:*OneSegment*:*LargeScans*'
cli() {
  local d
  d=$(mktemp -d)
  "$bin/corank" gen matrix --like cant -o "$d/cant.mtx" &&
    "$bin/corank" spmv-scan --matrix "$d/cant.mtx" --iters 50 --x-random 1 --backend gpu &&
    "$bin/corank" spmv-scan --matrix "$d/cant.mtx" --iters 3 --x-random 1 --backend gpu &&
    "$bin/corank" spmv-scan --matrix "$d/cant.mtx" --iters 50 --x-random 1 --backend cpu &&
    echo "[  PASSED  ] CLI spmv-scan"
}
export -f cli
export bin
step cli 60 bash -c cli
step bench_segmented 100 "$bin/corank" bench segmented-scan --json "$out/segmented.json"
step bench_spmv 150 "$bin/corank" bench spmv-scan --json "$out/spmv.json"

summary
grep -E "running time|per iteration|relative error" "$out/cli.log" || true
grep -E "copy|CUB|corank" "$out/bench_segmented.log" || true
grep -E "fused|CUB|floor" "$out/bench_spmv.log" || true
sed -n '/^CPU:/,$p' "$out/bench_spmv.log" || true
