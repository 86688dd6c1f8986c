#!/usr/bin/env bash
# Build the course website offline into _build/site/ (preview: python -m http.server -d _build/site).
#   bash scripts/site.sh                 # install what the build needs, then build every language
#   bash scripts/site.sh --screenshots   # also install the browser and write _build/screenshots/*.png
# Other options go to tools/build_site.py (e.g. --lang en zh). Each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3.11 || command -v python3)}
screenshots=0
for arg in "$@"; do [ "$arg" = --screenshots ] && screenshots=1; done
quiet_pip() { "$@" 2>&1 | grep -v -E "^WARNING: Location .* is ignored" || true; }

# Jupyter Book 1.x in its own venv: 2.x cannot build offline, and both install `jupyter-book`.
# jieba: without it, Sphinx cannot split Chinese into words, and the Chinese site's search finds
# almost nothing.
if ! .venv-book/bin/jupyter-book --version 2>/dev/null | grep -q -E "Jupyter Book\s*: 1\." \
  || ! .venv-book/bin/python -c "import jieba" 2>/dev/null; then
  echo "== site: Jupyter Book 1.x and jieba in .venv-book"
  [ -x .venv-book/bin/python ] || "$PY" -m venv .venv-book
  quiet_pip .venv-book/bin/python -m pip install --quiet 'jupyter-book>=1,<2' 'jieba>=0.42'
fi

# MathJax and the widget renderer, served by the site itself (site/node_modules is git-ignored).
want=$(sha256sum site/package-lock.json | cut -d' ' -f1)
if [ "$(cat site/node_modules/.mpteach-setup 2>/dev/null)" != "$want" ]; then
  echo "== site: npm packages (site/package-lock.json)"
  npm ci --prefix site --no-audit --no-fund --loglevel=error
  echo "$want" > site/node_modules/.mpteach-setup
fi

if [ "$screenshots" = 1 ]; then
  # Debian's Chromium (Playwright cannot download its own here), CJK fonts for zh/ko pages, and
  # Playwright in .venv, or $VENV (the test extra of pyproject.toml).
  if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -q "Noto Sans CJK"; then
    echo "== site: chromium and fonts-noto-cjk (apt)"
    sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium fonts-noto-cjk >/dev/null
  fi
  bash scripts/setup.sh
  exec "${VENV:-.venv}/bin/python" tools/build_site.py "$@"
fi
exec .venv-book/bin/python tools/build_site.py "$@"
