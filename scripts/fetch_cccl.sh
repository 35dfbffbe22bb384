#!/usr/bin/env bash
# Fetches the newest CCCL's headers (CUB, thrust, libcu++) for the GPU benchmarks' second CUB: the
# `cuda-cccl` wheel from PyPI, pinned, of which only cuda/cccl/headers/include is kept. Idempotent.
# Prints the include directory; pass it to CMake as CORANK_BENCH_CUB_INCLUDE_DIR (a build tree
# finds DEST/include by itself when DEST is build/cccl).
#   usage: scripts/fetch_cccl.sh [DEST]        (default: build/cccl under the repository)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=${1:-$root/build/cccl}
# cuda-cccl 1.2.1 carries CCCL 3.6.0. The wheels differ by platform only in their Python
# bindings; the headers are the same, so one platform is named and the download is the same file
# on every machine.
wheel_version=1.2.1
want_cub=300600
include=$dest/include
have=$(sed -n 's/^#define CUB_VERSION \([0-9]*\).*/\1/p' "$include/cub/version.cuh" 2>/dev/null || true)
if [ "$have" != "$want_cub" ]; then
  py=$(command -v python3)
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "$py" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_26_x86_64 \
    --python-version 3.11 --implementation cp "cuda-cccl==$wheel_version" -d "$tmp" >&2
  rm -rf "$include"
  mkdir -p "$dest"
  "$py" - "$tmp"/cuda_cccl-*.whl "$include" <<'PY'
import pathlib, sys, zipfile
wheel, include = sys.argv[1], pathlib.Path(sys.argv[2])
prefix = "cuda/cccl/headers/include/"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        rel = name[len(prefix):]
        if name.startswith(prefix) and rel and not name.endswith("/") and rel != "__init__.py":
            out = include / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(z.read(name))
PY
  have=$(sed -n 's/^#define CUB_VERSION \([0-9]*\).*/\1/p' "$include/cub/version.cuh")
  [ "$have" = "$want_cub" ] || { echo "fetch_cccl: expected CUB $want_cub, got '$have'" >&2; exit 1; }
  echo "fetch_cccl: CCCL 3.6.0 headers (cuda-cccl $wheel_version) in $include" >&2
fi
echo "$include"
