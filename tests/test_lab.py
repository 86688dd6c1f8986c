"""The live course: a real JupyterLab runs a widget chapter, and a slider move changes the output.

JupyterLab (from this Python's environment, with the options scripts/course.sh uses) serves a
copy of the chapter on 127.0.0.1 with its own token and settings, so the repository's notebook
and the user's settings are never touched. Headless Chromium (see tools/browser.py) opens it,
runs all cells from the Run menu, presses ArrowRight on the first slider, and waits for what the
kernel draws (images, HTML) to change. Kernels and server are stopped by id afterwards.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import browser  # noqa: E402

CHAPTER = ROOT / "notebooks" / "en" / "01_float_formats.ipynb"  # FloatExplorer and RangeChart
START_TIMEOUT_S = 60
RUN_TIMEOUT_MS = 180_000
# Settings of this Lab only: every cell in the page (no windowing, so all prompts can be read)
# and no news prompt over the notebook.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(base: str, token: str, path: str, method: str = "GET"):
    request = urllib.request.Request(
        f"{base}{path}", method=method, headers={"Authorization": f"token {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    return json.loads(body) if body else None


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a copy of the chapter; yields (base URL, token, notebook name)."""
    pytest.importorskip("jupyterlab", reason="JupyterLab is part of the course environment")
    home = tmp_path_factory.mktemp("lab")
    (home / "notebooks").mkdir()
    shutil.copy(CHAPTER, home / "notebooks")
    for name, values in SETTINGS.items():
        path = home / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1"]
    command += [f"--port={port}", f"--IdentityProvider.token={token}"]
    command += [f"--ServerApp.root_dir={home / 'notebooks'}"]
    command += [f"--LabApp.user_settings_dir={home / 'settings'}"]
    command += [f"--LabApp.workspaces_dir={home / 'workspaces'}"]
    if os.getuid() == 0:
        command.append("--allow-root")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config")}
    env["JUPYTER_RUNTIME_DIR"] = str(home / "runtime")
    log = (home / "lab.log").open("w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                api(base, token, "/api/status")
                break
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(
                        f"JupyterLab did not start: {(home / 'lab.log').read_text()[-2000:]}"
                    )
                time.sleep(0.2)
        yield base, token, CHAPTER.name
    finally:
        if server.poll() is None:
            try:
                for kernel in api(base, token, "/api/kernels"):
                    api(base, token, f"/api/kernels/{kernel['id']}", method="DELETE")
            except (urllib.error.URLError, ConnectionError):
                pass
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        log.close()


DRAWN = """el => [...el.querySelectorAll('img')].map(i => i.src).join(' ') + ' | ' +
               [...el.querySelectorAll('.widget-html-content')].map(h => h.innerHTML).join(' ')"""
"""What the kernel draws in a widget: its images and HTML (not the slider's own readout)."""


@pytest.mark.slow
def test_running_the_chapter_and_moving_a_slider_changes_the_widget(lab):
    from playwright.sync_api import sync_playwright

    base, token, name = lab
    with sync_playwright() as p:
        chromium = browser.launch(p)
        page = chromium.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(RUN_TIMEOUT_MS)
        problems = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{base}/lab/tree/{name}?token={token}")
        # Run only once the kernel is up: the widget manager attaches to it when it connects.
        page.wait_for_function(
            "() => /\\| Idle/.test(document.querySelector('#jp-main-statusbar')?.textContent)"
        )

        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        # Done when every code cell shows an execution count, [n].
        page.wait_for_function(
            """() => { const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                       return prompts.length > 0 &&
                              prompts.every(p => /\\[\\d+\\]/.test(p.textContent)); }"""
        )
        assert not page.locator(".jp-OutputArea-output[data-mime-type*='error']").count(), (
            "a cell raised an error"
        )

        output = page.locator(".jp-OutputArea-output:has(.widget-slider)").first
        before = output.evaluate(DRAWN)
        assert before.strip(" |"), "the widget shows no image or HTML"
        handle = output.locator(".widget-slider .noUi-handle").first
        handle.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"([el, before]) => ({DRAWN})(el) !== before",
            arg=[output.element_handle(), before],
            timeout=30_000,
        )
        assert output.evaluate(DRAWN).strip(" |")
        chromium.close()
    assert problems == []
