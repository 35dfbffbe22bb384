#!/usr/bin/env bash
# Issue 19, branch scan-lookback: the segmented scan's warp look-back as a second kernel variant.
# Run from the repository root on the device, carrying .carry-scan:   bash .carry-scan/run.sh
# (committed as scripts/segscan_lookback_device.sh; the binaries' folder is $1, else this file's:
# test_cuda_segmented_scan, test_cuda_segmented_scan_planted, segscan_lookback_ab).
# All output goes to $OUT/scan.txt (and stdout); each step prints its rc; always exits 0.
#   (a) test_cuda_segmented_scan, every test                                   (<= 80 s)
#   (b) compute-sanitizer memcheck on the look-back tests                       (<= 45 s)
#   (c) compute-sanitizer racecheck on the part of them that forces each variant (<= 40 s)
#   (d) the A/B driver: forced thread / forced warp / automatic / CUB 3.6, 13 shapes (<= 50 s)
#   (e) the mutant (the warp look-back's round combine with its operands swapped, op(v, older))
#       on the order tests: they must FAIL there                                 (<= 10 s)
dir=${1:-$(cd "$(dirname "$0")" && pwd)}
out=${OUT:-out}
mkdir -p "$out"
log=$out/scan.txt
: >"$log"
t_start=$SECONDS
subset='TileLookBack.*:*OneSegmentOverManyTiles*/automatic:*LookBacksEndingAtAnyDistance*/automatic:*LookBackFollowsTheMeanSegmentLength*/automatic:*ScaledScansAndIterationsTakeEitherLookBack*/automatic:*AllSegmentsOfLengthOne*/automatic:*HeadsAtTileEdgesPlusMinusOne*/automatic'
race_subset='TileLookBack.*:*LookBacksEndingAtAnyDistance*/automatic:*ScaledScansAndIterationsTakeEitherLookBack*/automatic'
order_tests='TileLookBack.*:*OneSegmentOverManyTiles*/automatic:*LookBacksEndingAtAnyDistance*/automatic:*LookBackFollowsTheMeanSegmentLength*/automatic'

step() {  # step NAME LIMIT_S COMMAND...
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  echo "==== $name (limit ${limit}s): $*" | tee -a "$log"
  timeout "$limit" "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  echo "==== $name: rc=$rc $((SECONDS - t0))s" | tee -a "$log"
}

{
  echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1)"
  ldd "$dir/test_cuda_segmented_scan" "$dir/segscan_lookback_ab" | grep -i "not found" || echo "# ldd: every library found"
} 2>&1 | tee -a "$log"
step tests 80 "$dir/test_cuda_segmented_scan"
step memcheck 45 compute-sanitizer --tool memcheck --error-exitcode 9 \
  "$dir/test_cuda_segmented_scan" --gtest_filter="$subset"
step racecheck 40 compute-sanitizer --tool racecheck --error-exitcode 9 \
  "$dir/test_cuda_segmented_scan" --gtest_filter="$race_subset"
step ab 50 "$dir/segscan_lookback_ab" --reps 15
step mutant 10 "$dir/test_cuda_segmented_scan_planted" --gtest_filter="$order_tests"
{
  echo "==== mutant's failed tests (each should be a warp-look-back case):"
  sed -n '/^==== mutant (limit/,$p' "$log" | grep -E '^\[  FAILED  \]' | sort -u
  echo "==== summary"
  grep -E '^==== [a-z]+: rc=' "$log"
  echo "==== total $((SECONDS - t_start))s"
} 2>&1 | tee -a "$log"
exit 0
