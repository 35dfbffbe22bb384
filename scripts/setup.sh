#!/usr/bin/env bash
# Installs the Debian packages corank builds with, skipping those already present. Idempotent.
set -euo pipefail

packages=(
  cmake g++ make git ccache
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev zlib1g-dev  # zlib: .mtx.gz inputs
  clang libclang-rt-14-dev libomp-dev  # libFuzzer for the file-reader fuzzers (OpenMP for clang)
  clang-format               # the layout CI checks (scripts/check_format.sh; Debian 12: 14)
  python3-matplotlib         # figures from benchmark JSON
  libhwy-dev                 # Highway vqsort: the CPU sorts' SIMD base case (optional)
  libtbb-dev                 # TBB parallel_sort and std::execution::par: CPU benchmark peers
  libips4o-dev               # IPS4o (header-only parallel samplesort): a CPU benchmark peer
  python3-venv               # the Python package's build environment (below)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq || true
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The newest CCCL's headers, for the GPU benchmarks' second CUB (pip and the network needed; without
# them the benchmarks compare with the toolkit's CUB alone).
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  "$(dirname "$0")/fetch_cccl.sh" >/dev/null ||
    echo "setup: could not fetch the newest CCCL headers (benchmarks: toolkit CUB only)" >&2
fi

# The Python package's build and test dependencies (PyPI) in a virtual environment of the build
# tree, build/python-venv: nanobind and scikit-build-core build it, NumPy, SciPy and pytest test it.
python_venv="$(dirname "$0")/../build/python-venv"
if [ ! -x "$python_venv/bin/pytest" ] || ! "$python_venv/bin/python" -c "import nanobind, scikit_build_core, numpy, scipy" 2>/dev/null; then
  echo "setup: creating $python_venv (nanobind scikit-build-core numpy scipy pytest)" >&2
  python3 -m venv "$python_venv"
  "$python_venv/bin/pip" install -q --disable-pip-version-check nanobind scikit-build-core numpy scipy pytest
fi
