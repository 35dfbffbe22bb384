#!/bin/bash
# Device run of the segmented-sort work: suites, sanitizers on the new kernels, the sweep, and a
# short table last (segsort_table.py). Copy this script, device_steps.sh, segsort_table.py and the
# binaries (test_cuda_segmented_sort, test_cuda_temporary_storage, test_cuda_sort, corank) into
# .carry-segsort/, then from the repository root: bash .carry-segsort/segsort_device.sh MODE
# (MODE: full | tests | bench).
cd "$(dirname "$0")"
export OUT=${OUT:-out}
source ./device_steps.sh
mode=${1:-full}
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
if [ "$mode" != bench ]; then
  step segsort 100 ./test_cuda_segmented_sort
  step temp 40 ./test_cuda_temporary_storage --gtest_filter='TemporaryStorage.Segmented*:TemporaryStorage.StableSort*'
  step sort 90 ./test_cuda_sort
  step sort_racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 9 ./test_cuda_sort --gtest_filter="$sort_racecheck_filter"
  step memcheck 90 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_cuda_segmented_sort \
    --gtest_filter='StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*:StableSortSegments.SortsShortWindows*:StableSortSegments.SortsAtWindow*:SortSegments.HandlesNo*'
  step racecheck 60 compute-sanitizer --tool racecheck --error-exitcode 9 ./test_cuda_segmented_sort \
    --gtest_filter='StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*:StableSortSegments.SortsShortWindows*'
fi
if [ "$mode" != tests ]; then
  step bench ${BENCH_LIMIT:-200} ./corank bench segmented-sort --backend gpu -q --json "$OUT/segsort.json" $BENCH_ARGS
  python3 segsort_table.py "$OUT/segsort.json" > "$OUT/table.txt" 2>&1
fi
summary
[ -f "$OUT/table.txt" ] && cat "$OUT/table.txt"
