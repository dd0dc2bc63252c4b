#!/usr/bin/env bash
# Draws the report's charts from the charts.csv bench report writes: scripts/plot_results.sh <charts.csv> <output folder>
# Creates .venv (git-ignored) with matplotlib on first use; needs python3 with venv and access to PyPI once.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import matplotlib' 2>/dev/null; then
    echo "plot: creating .venv with matplotlib" >&2
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check 'matplotlib>=3.7,<4'
fi
exec .venv/bin/python scripts/plot_results.py "$@"
