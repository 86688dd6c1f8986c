#!/usr/bin/env bash
# Create .venv (Python 3.11) with mpteach installed in editable mode plus the course and test stack.
# Idempotent: re-installs only when pyproject.toml has changed since the last run.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
VENV=${VENV:-.venv}
stamp="$VENV/.mpteach-setup"
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip 2>/dev/null || true
"$VENV/bin/python" -m pip install --quiet -e '.[tf-cpu,course,test]' 2>&1 \
  | grep -v -E "^WARNING: Location .* is ignored" || true
"$VENV/bin/python" -c "import mpteach, tensorflow, keras, ipywidgets, nbval; print('mpteach', mpteach.__version__, '| tensorflow', tensorflow.__version__, '| keras', keras.__version__, '| ipywidgets', ipywidgets.__version__)"
echo "$want" > "$stamp"
