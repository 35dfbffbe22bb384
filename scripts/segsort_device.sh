#!/bin/bash
# Device run of the segmented sort work: suites, sanitizers, the sweep. Usage (from the carry
# folder's parent): bash .carry-segsort/run.sh MODE   (MODE: full | tests | bench)
cd "$(dirname "$0")"
export OUT=${OUT:-out}
source ./device_steps.sh
mode=${1:-full}
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
if [ "$mode" != bench ]; then
  step segsort 300 ./test_cuda_segmented_sort
  step sort 200 ./test_cuda_sort
  step memcheck 240 compute-sanitizer --tool memcheck --error-exitcode 9 ./test_cuda_segmented_sort \
    --gtest_filter='StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*:StableSortSegments.SortsAtWindow*:StableSortSegments.EndsOn*:StableSortSegments.SortsKeysOfEveryType:SortSegments.HandlesNo*:SortSegments.SortsOneSegment*'
  step racecheck 240 compute-sanitizer --tool racecheck --error-exitcode 9 ./test_cuda_segmented_sort \
    --gtest_filter='StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*:SortSegments.HandlesNo*'
fi
if [ "$mode" != tests ]; then
  step bench ${BENCH_LIMIT:-330} ./corank bench segmented-sort --backend gpu -q --json "$OUT/segsort.json" $BENCH_ARGS
fi
summary
