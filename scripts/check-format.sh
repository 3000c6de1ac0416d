#!/usr/bin/env bash
# Fails when any C++ file under src/, tests/ or bench/ differs from .clang-format.
# Fix with: clang-format -i $(git ls-files 'src/*.h' 'src/*.cc' ...) or your editor.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format not found; run scripts/install-deps.sh" >&2
  exit 1
fi

mapfile -d '' files < <(find src tests bench -type f \( -name '*.h' -o -name '*.cc' \) -print0 \
  2>/dev/null | sort -z)
if [[ ${#files[@]} -eq 0 ]]; then
  echo "check-format: no C++ files found"
  exit 0
fi

if clang-format --dry-run -Werror "${files[@]}"; then
  echo "check-format: ${#files[@]} files formatted correctly"
else
  echo "check-format: files above need clang-format -i (style in .clang-format)" >&2
  exit 1
fi
