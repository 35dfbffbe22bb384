#!/usr/bin/env bash
# Figures from `corank bench all --json FILE` (see scripts/plot_bench.py; $PYTHON picks the Python,
# and one without matplotlib hands over to the system's /usr/bin/python3).
#   usage: scripts/plot_bench.sh bench.json -o figures/ [--format png,svg]
set -euo pipefail
py=${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}
exec "$py" "$(dirname "$0")/plot_bench.py" "$@"
