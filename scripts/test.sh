#!/usr/bin/env bash
# Every test of the project, on a fresh machine too: sets up .venv (and the Colab-like .venv-colab),
# then lint, unit + differential tests, docstring examples and the notebooks (nbval).
# Set MPTEACH_SKIP_COLAB=1 to skip the Colab-like environment.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONHASHSEED=0 TF_CPP_MIN_LOG_LEVEL=2
bash scripts/setup.sh

echo "== lint (ruff)"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

if [ "${MPTEACH_SKIP_COLAB:-0}" != 1 ]; then
  echo "== Colab-like environment (.venv-colab; the live-kernel browser test uses it too)"
  bash scripts/colab_env.sh
fi

echo "== website: build _build/site, chromium for the browser tests, screenshots"
bash scripts/site.sh --screenshots

echo "== tests, docstring examples and notebooks (Python $(.venv/bin/python -c 'import sys; print(sys.version.split()[0])'))"
.venv/bin/python -m pytest -n 2 --dist loadscope -p no:cacheprovider \
  --doctest-modules mpteach tests --ignore tests/test_lab.py \
  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks
echo "== live JupyterLab (alone: a loaded machine delays the widget manager past the test's waits)"
.venv/bin/python -m pytest -p no:cacheprovider tests/test_lab.py

if [ "${MPTEACH_SKIP_COLAB:-0}" != 1 ]; then
  echo "== Colab-like environment: tests and notebooks"
  # the checkout, not the copy installed by colab_env.sh, is what is tested (kernels too)
  PYTHONPATH="$PWD" .venv-colab/bin/python -m pytest -n 2 --dist loadscope -p no:cacheprovider -m "not slow" \
    --doctest-modules mpteach tests
  # The notebooks as another machine runs them: the course describes a Colab T4 runtime
  # (MPTEACH_HARDWARE=t4), and TensorFlow computes with its Eigen kernels instead of oneDNN's, so
  # a stored output that depends on the hardware or on a kernel's rounding fails here.
  MPTEACH_HARDWARE=t4 TF_ENABLE_ONEDNN_OPTS=0 PYTHONPATH="$PWD" .venv-colab/bin/python -m pytest \
    -n 2 --dist loadscope -p no:cacheprovider \
    --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks/en
fi
