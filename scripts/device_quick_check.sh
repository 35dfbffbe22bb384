#!/usr/bin/env bash
# The whole GPU test surface in one short device call, for a tight device budget: every GPU suite,
# the README's blocks, compute-sanitizer subsets (memcheck, racecheck on the shared-memory sorts)
# and the CLI's GPU-vs-CPU check run at once, as separate processes on the one GPU (the suites
# are independent and none is timed). Logs in $OUT (or ./out); failures, then a table, come last.
#   usage: scripts/device_quick_check.sh BIN_DIR [LIMIT_S]
# BIN_DIR: a build directory or a folder of carried binaries (as for scripts/device_check.sh).
set -u
bin=${1:?usage: scripts/device_quick_check.sh BIN_DIR [LIMIT_S]}
limit=${2:-230}
out=${OUT:-out}
mkdir -p "$out"
[ -x "$bin/tests/test_cuda_merge" ] && tests_dir=$bin/tests || tests_dir=$bin
# A folder of carried binaries may bring the shared libraries the CLI needs (TBB, Highway) in lib/.
[ -d "$bin/lib" ] && export LD_LIBRARY_PATH="$bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader

job() {  # job NAME COMMAND...: runs in the background under the limit; rc and seconds to NAME.rc
  local name=$1
  shift
  (
    t0=$SECONDS
    timeout "$limit" "$@" >"$out/$name.log" 2>&1
    echo "$? $((SECONDS - t0))" >"$out/$name.rc"
  ) &
}

for suite in launch merge misuse segmented_scan segmented_sort sort temporary_storage toolbox; do
  [ -x "$tests_dir/test_cuda_$suite" ] && job "$suite" "$tests_dir/test_cuda_$suite" --gtest_brief=1
done
for block in "$tests_dir"/readme_block_*; do [ -x "$block" ] && job "$(basename "$block")" "$block"; done

memcheck=(compute-sanitizer --tool memcheck --error-exitcode 9)
racecheck=(compute-sanitizer --tool racecheck --error-exitcode 9)
sanitize() {  # sanitize NAME TOOL SUITE FILTER
  local name=$1 tool=$2 suite=$3 filter=$4
  [ -x "$tests_dir/test_cuda_$suite" ] || return 0
  local -n args=$tool
  job "$name" "${args[@]}" "$tests_dir/test_cuda_$suite" --gtest_brief=1 --gtest_filter="$filter"
}
# TriesAgainAfterARefusal provokes a refused cudaFuncSetAttribute on purpose; memcheck counts
# every API error, so that test runs apart with API errors unreported (kernel accesses still are).
sanitize memcheck_launch memcheck launch '-LaunchSetup.TriesAgainAfterARefusal'
memcheck_quiet_api=("${memcheck[@]}" --report-api-errors no)
sanitize memcheck_launch_refusal memcheck_quiet_api launch 'LaunchSetup.TriesAgainAfterARefusal'
sanitize memcheck_merge memcheck merge '*/automatic*:-*Large*:*RandomSizes*'
sanitize memcheck_sort memcheck sort 'StableSort.*:-*Huge*:*RandomSizes*:*Large*'
sanitize racecheck_sort racecheck sort 'StableSort.FourWayPass*:StableSort.MergePass*:BitonicSort.WideTails*'
sanitize memcheck_segsort memcheck segmented_sort 'StableSortSegments.SortsAtWindow*:StableSortSegments.HandlesNo*:SortSegments.SortsOneSegment*'
sanitize racecheck_segsort racecheck segmented_sort 'StableSortSegments.HandlesNo*:StableSortSegments.LeavesKeys*'
sanitize memcheck_scan memcheck segmented_scan '*/automatic:-*FloatAndDouble*:*Large*'
sanitize memcheck_toolbox memcheck toolbox '-*Huge*'
sanitize memcheck_misuse memcheck misuse '*'
[ -x "$bin/corank" ] && job cli_vs_cpu bash "$(dirname "$0")/device_check.sh" "$bin" cli
wait

echo "==== failures"
for log in "$out"/*.log; do
  grep -E "^\[  FAILED|Failure|ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [1-9]|out of memory" "$log" |
    head -5 | sed "s|^|  $(basename "$log" .log): |"
done
echo "==== table"
for rc in "$out"/*.rc; do
  name=$(basename "$rc" .rc)
  read -r code seconds <"$rc"
  printf '%-22s rc=%-3s %4ss  %s\n' "$name" "$code" "$seconds" \
    "$(grep -E '^\[  PASSED|^\[  FAILED|SUMMARY' "$out/$name.log" | tr '\n' ' ' | cut -c1-70)"
done
