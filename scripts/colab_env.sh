#!/usr/bin/env bash
# A Colab-like environment in .venv-colab: Colab's preinstalled versions (Python 3.12+, TensorFlow
# 2.20, Keras 3.13, ipywidgets 7.7.1, matplotlib 3.10, scikit-learn) are installed first, then mpteach the way a
# notebook's setup cell installs it. Installing mpteach must not replace any of them (checked).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${COLAB_PYTHON:-}
if [ -z "$PY" ]; then  # pyenv's shim answers `command -v` even when 3.12 is not active: try each
  for c in "$HOME"/.pyenv/versions/3.1[23]*/bin/python3.1[23] python3.12 python3.13; do
    if "$c" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then PY=$c; break; fi
  done
fi
[ -n "$PY" ] || { echo "colab_env: no Python 3.12+ found (set COLAB_PYTHON)"; exit 1; }
VENV=.venv-colab
stamp="$VENV/.mpteach-setup"
want=$(cat pyproject.toml scripts/colab_env.sh | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
rm -rf "$VENV"
"$PY" -m venv "$VENV"
pip() { "$VENV/bin/python" -m pip "$@" 2>&1 | grep -v -E "^WARNING: Location .* is ignored" || true; }
# jupyterlab_widgets 1.x: ipywidgets 7's JupyterLab front end, standing in for Colab's own in the
# browser test (tests/test_lab.py); pip would otherwise pick 3.x, which cannot draw 7.x widgets.
pip install --quiet 'tensorflow==2.20.*' 'keras==3.13.*' 'ipywidgets==7.7.1' 'matplotlib==3.10.*' \
  'jupyterlab_widgets>=1.1,<2' \
  'scikit-learn' 'ipykernel' 'pytest' 'pytest-xdist' 'hypothesis' 'nbval' 'nbformat' 'nbclient' 'pyyaml'
before=$("$VENV/bin/python" -m pip freeze 2>/dev/null | grep -i -E '^(tensorflow|keras|ipywidgets|matplotlib)==' | sort)
pip install --quiet .
after=$("$VENV/bin/python" -m pip freeze 2>/dev/null | grep -i -E '^(tensorflow|keras|ipywidgets|matplotlib)==' | sort)
if [ "$before" != "$after" ]; then
  echo "colab_env: installing mpteach changed preinstalled packages:"; diff <(echo "$before") <(echo "$after") || true
  exit 1
fi
echo "colab-like environment:" $after
echo "$want" > "$stamp"
