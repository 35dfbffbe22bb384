#!/usr/bin/env bash
# The C, C++ and CUDA sources stand as the repository's .clang-format lays them out.
#   usage: scripts/check_format.sh [--fix]     (--fix: rewrite them in place)
# Checks include/, tools/, tests/, examples/ and python/ (build folders and fuzz corpora left out).
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format=${CLANG_FORMAT:-clang-format}
mapfile -d '' files < <(find include tools tests examples python \
  \( -name build -o -name 'build-*' -o -name '_skbuild' -o -name 'corpus_*' -o -name '.*' \) -prune -o \
  -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cuh' -o -name '*.c' -o -name '*.cpp' -o -name '*.cu' \) \
  -print0 2>/dev/null | sort -z)
if [ "${1:-}" = --fix ]; then
  "$clang_format" -i "${files[@]}"
else
  "$clang_format" --dry-run -Werror "${files[@]}"
  echo "clang-format: ${#files[@]} files as .clang-format lays them out"
fi
