#!/usr/bin/env bash
# Runs clang-tidy (.clang-tidy) on the project's sources, using the
# compile_commands.json of a debug configuration without unity batches
# (build/tidy: configured, not built), so that each file is checked on its
# own. Not part of scripts/test.sh: it takes minutes.
#
#   scripts/tidy.sh                 every src/**/*.cc
#   scripts/tidy.sh src/base src/model   only these folders (or files)
set -euo pipefail
cd "$(dirname "$0")/.."

build=build/tidy
if [[ ! -f "${build}/compile_commands.json" ]]; then
  cmake --preset debug -B "${build}" -DALLOT_UNITY_BUILD=OFF -DALLOT_WEB_UI=OFF >/dev/null
fi
if ! command -v clang-tidy >/dev/null 2>&1; then
  echo "tidy: clang-tidy not found; run scripts/install-deps.sh" >&2
  exit 1
fi

targets=("$@")
[[ ${#targets[@]} -eq 0 ]] && targets=(src)
mapfile -t files < <(find "${targets[@]}" -type f -name '*.cc' | sort)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "tidy: no .cc files under ${targets[*]}"
  exit 0
fi
echo "tidy: ${#files[@]} files"

if command -v run-clang-tidy >/dev/null 2>&1; then
  # run-clang-tidy takes regular expressions; anchor each file's absolute path.
  patterns=()
  for file in "${files[@]}"; do patterns+=("^$(realpath "${file}")\$"); done
  run-clang-tidy -quiet -p "${build}" -j "$(nproc)" "${patterns[@]}"
else
  status=0
  for file in "${files[@]}"; do
    clang-tidy --quiet -p "${build}" "${file}" || status=1
  done
  exit "${status}"
fi
