#!/usr/bin/env bash
# Everything that needs the GPU, in one device call: the GPU test suites and the README's GPU block,
# compute-sanitizer (memcheck and racecheck on subsets sized to finish in a minute or so each), the CLI's GPU paths
# against its CPU paths, and `corank bench all` (one JSON document). Logs and the JSON go to $OUT
# (or ./out); a short table comes last.
#   usage: scripts/device_check.sh BIN_DIR [tests] [sanitize] [cli] [bench] [bench-quick]
# BIN_DIR is a build directory (build/release) or a folder of carried binaries: it holds
# test_cuda_{launch,merge,sort,segmented_scan,segmented_sort,toolbox,misuse,temporary_storage}, readme_block_* (there
# or under tests/) and corank; a missing one's steps are skipped. With no parts named, all but bench-quick run.
set -u
bin=${1:?usage: scripts/device_check.sh BIN_DIR [parts...]}
shift
parts=${*:-tests sanitize cli bench}
wants() { [[ " $parts " == *" $1 "* ]]; }
source "$(dirname "$0")/device_steps.sh"
# Carried binaries lie flat in BIN_DIR; a build directory keeps the tests under tests/.
[ -x "$bin/tests/test_cuda_merge" ] && tests_dir=$bin/tests || tests_dir=$bin
have() { [ -x "$tests_dir/$1" ] || [ -x "$bin/$1" ]; }

nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem,driver_version \
  --format=csv,noheader

if wants tests; then
  for suite in launch merge sort segmented_scan segmented_sort toolbox misuse temporary_storage; do
    have "test_cuda_$suite" && step "test_$suite" 300 "$tests_dir/test_cuda_$suite"
  done
  # The README's GPU block, built as a program of its own (scripts/readme_snippets.py).
  for block in "$tests_dir"/readme_block_*; do
    [ -x "$block" ] && step "$(basename "$block")" 60 "$block"
  done
fi

if wants sanitize; then
  memcheck=(compute-sanitizer --tool memcheck --error-exitcode 9)
  racecheck=(compute-sanitizer --tool racecheck --error-exitcode 9)
  if have test_cuda_merge; then
    step memcheck_merge 120 "${memcheck[@]}" "$tests_dir/test_cuda_merge" --gtest_filter='-*Large*:*RandomSizes*'
    step racecheck_merge 60 "${racecheck[@]}" "$tests_dir/test_cuda_merge" \
      --gtest_filter='*IsStableWithManyTies/automatic*:*RandomSizes/automatic_grid7:*IsStableWithManyTies/tiled_tile5_reuse:*IsStableWithManyTies/circular_tile32_reuse:*IsStableWithManyTies/circular_tile127:*IsStableWithManyTies/basic_reuse1_bf1:*HandlesUnalignedPointers/automatic:*RandomSizes/automatic_partitioned_t32_lead3:*IsStableWithManyTies/automatic_partitioned_t32_lead1'
  fi
  if have test_cuda_sort; then
    step memcheck_sort 90 "${memcheck[@]}" "$tests_dir/test_cuda_sort" --gtest_filter='-*Huge*:*RandomSizes*:*Large*'
    step racecheck_sort 60 "${racecheck[@]}" "$tests_dir/test_cuda_sort" \
      --gtest_filter="$sort_racecheck_filter"
  fi
  if have test_cuda_segmented_sort; then
    step memcheck_segsort 240 "${memcheck[@]}" "$tests_dir/test_cuda_segmented_sort" \
      --gtest_filter='StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*:StableSortSegments.SortsAtWindow*:StableSortSegments.EndsOn*:StableSortSegments.SortsKeysOfEveryType:SortSegments.HandlesNo*:SortSegments.SortsOneSegment*'
    step racecheck_segsort 240 "${racecheck[@]}" "$tests_dir/test_cuda_segmented_sort" \
      --gtest_filter='StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*:SortSegments.HandlesNo*'
  fi
  for suite in misuse temporary_storage; do
    have "test_cuda_$suite" && step "memcheck_$suite" 240 "${memcheck[@]}" "$tests_dir/test_cuda_$suite"
  done
  if have test_cuda_segmented_scan; then
    step memcheck_scan 150 "${memcheck[@]}" "$tests_dir/test_cuda_segmented_scan" \
      --gtest_filter='-*FloatAndDouble*:*OneSegmentSpanning*/thread*:*IntegerSums*/thread*'
    step racecheck_scan 120 "${racecheck[@]}" "$tests_dir/test_cuda_segmented_scan" \
      --gtest_filter='*/automatic:-*FloatAndDouble*:*IntegerSums*:*OneSegment*:*Large*'
  fi
fi

if wants cli && have corank; then
  # Each GPU path of the CLI against its CPU path, byte for byte (scan: the relative error vs the
  # double reference, which the command prints and checks).
  cli() {
    local d c=$bin/corank
    d=$(mktemp -d)
    $c gen -o "$d/a" -n 3000017 -t u64 -s 1 && $c gen -o "$d/b" -n 2000003 -t u64 -s 2 -d few &&
      $c merge "$d/a" "$d/b" -o "$d/gpu" -t u64 --backend gpu &&
      $c merge "$d/a" "$d/b" -o "$d/cpu" -t u64 --backend cpu && cmp "$d/gpu" "$d/cpu" &&
      echo "[  PASSED  ] merge gpu == cpu" &&
      $c gen -o "$d/in" -n 3000017 -t i64 -s 3 && $c sort "$d/in" -o "$d/scpu" -t i64 --backend cpu &&
      $c sort "$d/in" -o "$d/smerge" -t i64 --backend gpu --algo merge &&
      $c sort "$d/in" -o "$d/sbitonic" -t i64 --backend gpu --algo bitonic &&
      cmp "$d/scpu" "$d/smerge" && cmp "$d/scpu" "$d/sbitonic" && echo "[  PASSED  ] sort gpu == cpu" &&
      $c gen matrix --like cant -o "$d/cant.mtx" &&
      $c spmv-scan --matrix "$d/cant.mtx" --iters 50 --x-random 1 --backend gpu &&
      $c spmv-scan --matrix "$d/cant.mtx" --iters 50 --x-random 1 --backend cpu &&
      echo "[  PASSED  ] spmv-scan gpu and cpu" &&
      $c gen matrix --like shipsec1 -o "$d/ship.mtx" &&
      for k in 1 0; do
        # Steps spanning several waves of tiles: a grid per pass, of one step or of the tuned number.
        $c spmv-scan --matrix "$d/ship.mtx" --iters 11 --backend gpu --steps-per-pass $k |
          tee "$d/ship$k.log" &&
          awk '/^relative error/ { e = $NF } END { exit !(e != "" && e + 0 < 1e-5) }' "$d/ship$k.log" ||
          return 1
      done && echo "[  PASSED  ] spmv-scan gpu, 1 and the tuned steps per pass, error < 1e-5"
  }
  export -f cli
  export bin
  step cli 90 bash -c cli
fi

if have corank; then
  wants bench && step bench_all 420 "$bin/corank" bench all --backend gpu --json "$out/bench_all.json"
  wants bench-quick &&
    step bench_quick 120 "$bin/corank" bench all --backend gpu --quick --json "$out/bench_quick.json"
fi

summary
