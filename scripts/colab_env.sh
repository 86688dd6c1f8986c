#!/usr/bin/env bash
# A stand-in for Colab's default runtime in .venv-colab: Python 3.13 and Colab's own versions of every
# package the course touches (scripts/colab-default.txt, taken from googlecolab/backend-info, is the
# pip constraints file: TensorFlow 2.20.0, Keras 3.13.2, NumPy 2.1.3, ml_dtypes 0.6.0, ipywidgets 7.7.1,
# matplotlib 3.10.0, scikit-learn, IPython, ipykernel ...). Then mpteach is installed the way a
# notebook's setup cell installs it, which must change none of them (checked).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${COLAB_PYTHON:-}
if [ -z "$PY" ]; then  # pyenv's shim answers `command -v` even when 3.13 is not active: try each
  for c in "$HOME"/.pyenv/versions/3.13*/bin/python3.13 python3.13; do
    if "$c" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null; then PY=$c; break; fi
  done
fi
[ -n "$PY" ] || { echo "colab_env: no Python 3.13 found (set COLAB_PYTHON)"; exit 1; }
VENV=.venv-colab
stamp="$VENV/.mpteach-setup"
want=$(cat pyproject.toml scripts/colab_env.sh scripts/colab-default.txt | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then exit 0; fi
rm -rf "$VENV"
"$PY" -m venv "$VENV"
pip() { "$VENV/bin/python" -m pip "$@" 2>&1 | grep -v -E "^WARNING: Location .* is ignored" || true; }
pip install --quiet -c scripts/colab-default.txt pip  # Colab's pip too
# JupyterLab with jupyterlab_widgets 1.x (ipywidgets 7's Lab front end) stands in for Colab's own
# front end in the browser test (tests/test_lab.py); neither is in Colab's list, and pip would
# otherwise pick jupyterlab_widgets 3.x, which cannot draw 7.x widgets.
pip install --quiet -c scripts/colab-default.txt \
  tensorflow keras numpy ml_dtypes ipywidgets matplotlib scikit-learn ipython ipykernel jupyter_client \
  jupyterlab 'jupyterlab_widgets>=1.1,<2' pytest pytest-xdist hypothesis nbval nbformat nbclient pyyaml
# Every package that Colab pins must be at Colab's version (a constraint pip could not meet fails here).
"$VENV/bin/python" tools/versions.py pinned scripts/colab-default.txt
before=$("$VENV/bin/python" -m pip freeze 2>/dev/null | sort)
pip install --quiet .
after=$("$VENV/bin/python" -m pip freeze 2>/dev/null | grep -v -i "^mpteach" | sort)
if [ "$before" != "$after" ]; then
  echo "colab_env: installing mpteach changed preinstalled packages:"; diff <(echo "$before") <(echo "$after") || true
  exit 1
fi
"$VENV/bin/python" -c "import sys, numpy, ml_dtypes, tensorflow, keras, ipywidgets, matplotlib; print('colab-like environment: Python', sys.version.split()[0], '| numpy', numpy.__version__, '| ml_dtypes', ml_dtypes.__version__, '| tensorflow', tensorflow.__version__, '| keras', keras.__version__, '| ipywidgets', ipywidgets.__version__, '| matplotlib', matplotlib.__version__)" 2>/dev/null
echo "$want" > "$stamp"
