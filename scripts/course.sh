#!/usr/bin/env bash
# Start the course: JupyterLab on notebooks/, headless-friendly (prints the URL with its token).
# Usage: bash scripts/course.sh [--port 8888] [other jupyter lab options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
extra=()
[ "$(id -u)" = 0 ] && extra+=(--allow-root)
exec .venv/bin/jupyter lab --no-browser --ip="${MPTEACH_IP:-127.0.0.1}" \
  --ServerApp.root_dir=notebooks "${extra[@]}" "$@"
