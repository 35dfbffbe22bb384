#!/usr/bin/env bash
# One command for a newcomer: install what is missing, build, and run the main job, a short
# side-by-side merge benchmark (on the GPU when one is present, else on the CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release -j"$(nproc)" --target corank_cli
build/release/corank info
build/release/corank bench merge --quick --backend auto
