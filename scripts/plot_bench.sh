#!/usr/bin/env bash
# Figures from `corank bench all --json FILE`: runs scripts/plot_bench.py with a Python that has
# matplotlib (Debian's python3-matplotlib, installed by scripts/setup.sh, lives in the system
# Python, which a pyenv or venv python3 earlier on PATH does not see).
#   usage: scripts/plot_bench.sh bench.json -o figures/ [--format png,svg]
set -euo pipefail
here=$(dirname "$0")
for py in "${PYTHON:-}" python3 /usr/bin/python3; do
  if [ -n "$py" ] && "$py" -c 'import matplotlib' 2>/dev/null; then
    exec "$py" "$here/plot_bench.py" "$@"
  fi
done
echo "plot_bench: no Python with matplotlib found (scripts/setup.sh installs python3-matplotlib)" >&2
exit 1
