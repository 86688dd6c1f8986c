#!/usr/bin/env bash
# Every test of the project, on a fresh machine too: sets up what each tier needs, then runs it.
#
#   bash scripts/test.sh             all of the below: what CI runs
#   bash scripts/test.sh quick       lint, unit and differential tests, docstring examples (.venv only)
#   bash scripts/test.sh formats     the float formats and their browser twin under each ml_dtypes
#   bash scripts/test.sh notebooks   every notebook under nbval, and "Run All" twice in one kernel
#   bash scripts/test.sh browser     the website with no kernel, and every widget chapter in a live JupyterLab
#   bash scripts/test.sh colab       the Colab stand-in (.venv-colab): its tests and the English notebooks
#   bash scripts/test.sh fresh       all, in a new .venv-fresh resolved from nothing; records the versions
#
# When a tier fails, the packages that differ from the last passing set are named (tools/versions.py).
# Set MPTEACH_SKIP_COLAB=1 to leave out the Colab stand-in.
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONHASHSEED=0 TF_CPP_MIN_LOG_LEVEL=2
tier=${1:-all}
case "$tier" in
  all | quick | formats | notebooks | browser | colab | fresh) ;;
  *) echo "test.sh: tier '$tier' is not one of all, quick, formats, notebooks, browser, colab, fresh"; exit 2 ;;
esac

if [ "$tier" = fresh ]; then
  rm -rf .venv-fresh
  export VENV=.venv-fresh
fi
VENV=${VENV:-.venv}
PY="$VENV/bin/python"
PYTEST=("$PY" -m pytest -p no:cacheprovider)
XDIST=(-n 2 --dist loadscope)
NBVAL=(--nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg)
# and, after nbval's run of each English chapter, "Run All" again in the same kernel
TWICE=(-p tools.nbval_run_twice --run-twice notebooks/en)
# ml_dtypes releases the formats tests run under besides the main environment's (the newest).
ML_DTYPES_VERSIONS=(0.5.4 0.6.0)

started=$SECONDS
stage_start=$SECONDS
stage() {  # announce a stage, with how long the one before took
  if [ -n "${stage_name:-}" ]; then echo "   ($stage_name: $((SECONDS - stage_start)) s)"; fi
  stage_name=$1
  stage_start=$SECONDS
  echo "== $1"
}
on_exit() {
  local status=$?
  if [ -n "${stage_name:-}" ]; then echo "   ($stage_name: $((SECONDS - stage_start)) s)"; fi
  if [ "$status" != 0 ] && [ -x "$PY" ]; then
    echo "== test.sh $tier failed in '${stage_name:-setup}'; packages of $VENV against the last passing set:"
    "$PY" tools/versions.py diff || true
  fi
  echo "== test.sh $tier: $((SECONDS - started)) s in all"
}
trap on_exit EXIT

wants() {  # does this tier include the given part?
  case "$tier" in all | fresh) return 0 ;; *) [ "$tier" = "$1" ] ;; esac
}
colab() { [ "${MPTEACH_SKIP_COLAB:-0}" != 1 ]; }

stage "set-up: $VENV (the newest release of every dependency)"
VENV=$VENV bash scripts/setup.sh
QUICK=(--doctest-modules mpteach tools/versions.py tests)  # tests/ without marks: the quick tier

if wants quick; then
  stage "lint (ruff)"
  "$VENV/bin/ruff" check .
  "$VENV/bin/ruff" format --check .
fi
if [ "$tier" = quick ]; then
  stage "quick: unit and differential tests, docstring examples"
  "${PYTEST[@]}" "${XDIST[@]}" "${QUICK[@]}" -m "not slow and not notebooks and not browser"
fi

if wants formats; then
  stage "formats: mpteach.formats and floatmath.js under ml_dtypes ${ML_DTYPES_VERSIONS[*]}"
  for version in "${ML_DTYPES_VERSIONS[@]}"; do
    target=.venv-ml_dtypes/$version
    if [ ! -f "$target/.done" ]; then
      "$PY" -m pip install --quiet --no-deps --target "$target" "ml_dtypes==$version" 2>&1 \
        | grep -v -E "^WARNING: Location .* is ignored" || true
      touch "$target/.done"
    fi
    got=$(PYTHONPATH="$target" "$PY" -c "import ml_dtypes; print(ml_dtypes.__version__)")
    [ "$got" = "$version" ] || { echo "formats: ml_dtypes $got imported, not $version"; exit 1; }
    echo "-- ml_dtypes $version"
    PYTHONPATH="$target" "${PYTEST[@]}" -q --doctest-modules mpteach/formats.py \
      tests/test_formats.py tests/test_widgets_js.py tests/test_widgets_formats.py
  done
fi

if colab && { wants colab || wants browser; }; then
  stage "Colab stand-in (.venv-colab; the live-kernel browser test uses it too)"
  bash scripts/colab_env.sh
fi
if wants browser; then
  stage "website: build _build/site and chromium for the browser tests, screenshots"
  VENV=$VENV bash scripts/site.sh --screenshots
fi

case "$tier" in
  all | fresh)  # one pool of workers for everything but the live JupyterLab: no core sits idle
    stage "tests, docstring examples, notebooks (nbval) and the website in Chromium"
    "${PYTEST[@]}" "${XDIST[@]}" "${QUICK[@]}" --ignore tests/test_lab.py "${NBVAL[@]}" "${TWICE[@]}" notebooks ;;
  notebooks)
    stage "notebooks: every chapter in every language under nbval; English run twice in one kernel"
    "${PYTEST[@]}" "${XDIST[@]}" "${NBVAL[@]}" "${TWICE[@]}" notebooks tests/test_run_twice.py ;;
  browser)
    stage "browser: the website's widgets with no kernel, in every language"
    "${PYTEST[@]}" tests/test_site.py -m browser ;;
esac
if wants browser; then
  stage "browser: live JupyterLab (alone: a loaded machine delays the widget manager past the test's waits)"
  "${PYTEST[@]}" tests/test_lab.py
fi

if colab && wants colab; then
  stage "Colab stand-in: tests and the English notebooks"
  # the checkout, not the copy installed by colab_env.sh, is what is tested (kernels too); the
  # slow Keras tests (the doctor's public gallery) too: Keras 3.13 is where they can differ
  PYTHONPATH="$PWD" .venv-colab/bin/python -m pytest "${XDIST[@]}" -p no:cacheprovider \
    -m "not browser and (not slow or keras)" --doctest-modules mpteach tests
  # The notebooks as another machine runs them: the course describes a Colab T4 runtime
  # (MPTEACH_HARDWARE=t4), and TensorFlow computes with its Eigen kernels instead of oneDNN's, so
  # a stored output that depends on the hardware or on a kernel's rounding fails here.
  MPTEACH_HARDWARE=t4 TF_ENABLE_ONEDNN_OPTS=0 PYTHONPATH="$PWD" .venv-colab/bin/python -m pytest \
    "${XDIST[@]}" -p no:cacheprovider "${NBVAL[@]}" notebooks/en
fi

if [ "$tier" = fresh ]; then
  stage "fresh: record the versions this passed with (commit tests/tested-versions.txt)"
  "$PY" tools/versions.py record
fi
