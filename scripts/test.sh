#!/usr/bin/env bash
# Builds everything (the CUDA parts too when nvcc is present) and runs the test suite.
# GPU tests skip cleanly on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"

# The Python package (python/, the CPU module: about 65 s of compiling, 10 s of tests on two
# cores) and its tests (GPU tests skip without a GPU). CORANK_PYTHON_CUDA=ON builds the CUDA module
# too when nvcc is found: its 48 translation units take about half an hour on two cores.
CORANK_PYTHON_CUDA="${CORANK_PYTHON_CUDA:-OFF}" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
  build/python-venv/bin/pip install -q --disable-pip-version-check --no-build-isolation ./python
build/python-venv/bin/pytest -q python/tests
