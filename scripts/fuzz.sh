#!/usr/bin/env bash
# Fuzzing: builds the fuzz preset (Clang, libFuzzer under ASan and UBSan) and
# runs each target of tests/fuzz for SECONDS (default 15), one at a time.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 240 quantity
#
# Each target starts from its seed corpus (tests/fuzz/corpus/<target>) plus
# what earlier runs found (build/fuzz/corpus/<target>, where new inputs go),
# with its dictionary. A crash, a leak, a UBSan report, a run over 10 s on one
# input (a hang) or more than 2 GB of memory fails the script; the input is
# saved under build/fuzz/artifacts/<target>/ (add it to the seed corpus with
# the fix). Prints executions and coverage (cov: edges, ft: features) per
# target. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-15}"
shift || true
if [[ $# -gt 0 ]]; then
  targets=("$@")
else
  targets=()
  for source in tests/fuzz/*_fuzz.cc; do
    name="$(basename "${source}" _fuzz.cc)"
    targets+=("${name}")
  done
fi

dictionary_of() {
  case "$1" in
    manifest_yaml | manifest_json | workload_submission | scenario) echo tests/fuzz/manifest.dict ;;
    yaml_shape | kueue_import) echo tests/fuzz/yaml.dict ;;
    *) echo "tests/fuzz/$1.dict" ;;
  esac
}

echo "== configure and build (fuzz preset)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j"${ALLOT_BUILD_JOBS:-$(nproc)}"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

summary=()
failed=()
for name in "${targets[@]}"; do
  binary="build/fuzz/tests/fuzz/${name}_fuzz"
  work="build/fuzz/corpus/${name}"
  artifacts="build/fuzz/artifacts/${name}"
  log="build/fuzz/logs/${name}.log"
  mkdir -p "${work}" "${artifacts}" "$(dirname "${log}")"
  dictionary=()
  if [[ -f "$(dictionary_of "${name}")" ]]; then
    dictionary=(-dict="$(dictionary_of "${name}")")
  fi
  echo "== fuzz ${name} (${seconds} s)"
  status=0
  "${binary}" -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "${dictionary[@]}" -artifact_prefix="${artifacts}/" "${work}" "tests/fuzz/corpus/${name}" \
    >"${log}" 2>&1 || status=$?
  runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "${log}" | tail -1)"
  coverage="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "${log}" | tail -1)"
  line="$(printf '%-20s %12s executions  %s' "${name}" "${runs:-?}" "${coverage:-cov: ? ft: ?}")"
  if [[ ${status} -ne 0 ]]; then
    tail -n 60 "${log}"
    line+="  FAILED (exit ${status}; log ${log}; input in ${artifacts}/)"
    failed+=("${name}")
  fi
  echo "${line}"
  summary+=("${line}")
done

echo "== fuzz summary (${seconds} s per target)"
printf '%s\n' "${summary[@]}"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no crash, leak, UB or hang"
