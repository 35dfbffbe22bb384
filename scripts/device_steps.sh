# Sourced by the scripts/gpu_*_check.sh device calls: `step` runs one logged step and records its
# result; `summary` prints them. Logs go to $out (default $OUT, else ./out).
out=${OUT:-out}
mkdir -p "$out"
declare -a names results

# The test_cuda_sort subset racecheck runs (about 30 s on an H100): every shared-memory kernel
# family of the sorts, the u32-key bitonic shape included.
sort_racecheck_filter='BitonicSort.WideTailsSortAtEdgeSizes:StableSort.MergePassMergesRunsPairwiseWithAndWithoutLeadTiles:StableSort.FourWayPassMergesGroupsOfFourRuns:BitonicSort.SortsStructKeysWithCustomComparators:StableSort.KeepsSignedZerosInInputOrder:BitonicSort.SortsAllEqualFewDistinctSortedAndReversed'

step() {  # step NAME LIMIT_S COMMAND...: runs, logs to $out/NAME.log, records pass/fail
  local name=$1 limit=$2
  shift 2
  local t0=$SECONDS
  timeout "$limit" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  names+=("$name")
  results+=("rc=$rc $((SECONDS - t0))s $(grep -E '^\[  (PASSED|FAILED)|ERROR SUMMARY|RACECHECK SUMMARY' "$out/$name.log" | tr '\n' ' ' | cut -c1-90)")
  echo "== $name: rc=$rc"
  tail -n 25 "$out/$name.log"
}

summary() {
  echo
  echo "==== summary"
  for i in "${!names[@]}"; do printf '%-16s %s\n' "${names[$i]}" "${results[$i]}"; done
}
