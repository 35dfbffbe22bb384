#!/usr/bin/env bash
# Builds everything (the CUDA parts too when nvcc is present) and runs the test suite.
# GPU tests skip cleanly on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)"
ctest --preset release -j"$(nproc)"
