"""The live course: a real JupyterLab runs each widget chapter, and every widget reacts.

JupyterLab (with the options scripts/course.sh uses) serves copies of the widget chapters on
127.0.0.1 with its own token and settings, so the repository's notebooks and the user's settings
are never touched. It runs twice: from this Python's environment (ipywidgets 8, as in the course's
JupyterLab) and from the Colab-like environment .venv-colab (ipywidgets 7.7.1 in the kernel, as in
Colab; skipped when scripts/colab_env.sh has not built it). Headless Chromium (tools/browser.py)
opens a chapter, runs all cells from the Run menu and, in each widget, moves the first slider
(ArrowRight) or, where there is none, picks the next entry of the first menu, then waits for what
the kernel draws (images, HTML) to change. Kernels and server are stopped by id afterwards.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.browser
sys.path.insert(0, str(ROOT / "tools"))
import browser  # noqa: E402

# The chapters with widgets, and how many each shows.
CHAPTERS = {
    "01_float_formats": 2,  # FloatExplorer, RangeChart
    "06_loss_scaling": 2,  # GradientUnderflow, LossScaleDynamics
    "08_performance": 1,  # SpeedupExplorer
}
ENVIRONMENTS = {  # where JupyterLab and the kernel run from
    "ipywidgets-8": Path(sys.executable),
    "colab-like": ROOT / ".venv-colab" / "bin" / "python",
}
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


@pytest.fixture(scope="module", params=list(ENVIRONMENTS))
def lab(request, tmp_path_factory):
    """JupyterLab serving copies of the widget chapters; yields (base URL, token, environment)."""
    python = ENVIRONMENTS[request.param]
    if not python.exists():
        pytest.skip(f"{python} is not built (bash scripts/colab_env.sh)")
    home = tmp_path_factory.mktemp("lab")
    (home / "notebooks").mkdir()
    for chapter in CHAPTERS:
        nb = json.loads((ROOT / "notebooks" / "en" / f"{chapter}.ipynb").read_text("utf-8"))
        # A cleared chapter: no stored outputs or counts, so "every cell shows [n]" means this
        # run has finished (stored counts would satisfy it before the run starts), and no saved
        # widget view can stand in for the new one. (The saved widget state is ipywidgets 8's
        # anyway; a 7.7 front end cannot restore it.)
        nb["metadata"].pop("widgets", None)
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["execution_count"], cell["outputs"] = None, []
        (home / "notebooks" / f"{chapter}.ipynb").write_text(json.dumps(nb), "utf-8")
    for name, values in SETTINGS.items():
        path = home / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = free_port(), secrets.token_hex(16)
    command = [str(python), "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1"]
    command += [f"--port={port}", f"--IdentityProvider.token={token}"]
    command += [f"--ServerApp.root_dir={home / 'notebooks'}"]
    command += [f"--LabApp.user_settings_dir={home / 'settings'}"]
    command += [f"--LabApp.workspaces_dir={home / 'workspaces'}"]
    if os.getuid() == 0:
        command.append("--allow-root")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config")}
    env["JUPYTER_RUNTIME_DIR"] = str(home / "runtime")
    env["PYTHONPATH"] = str(ROOT)  # the kernel imports this checkout's mpteach
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
        yield base, token, request.param
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


def stop_kernels(base: str, token: str) -> None:
    for kernel in api(base, token, "/api/kernels"):
        api(base, token, f"/api/kernels/{kernel['id']}", method="DELETE")


@pytest.mark.slow
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_running_a_chapter_and_moving_each_widget_changes_what_it_draws(lab, chapter):
    from playwright.sync_api import expect, sync_playwright

    base, token, environment = lab
    try:
        with sync_playwright() as p:
            chromium = browser.launch(p)
            page = chromium.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(RUN_TIMEOUT_MS)
            problems = []
            page.on("pageerror", lambda e: problems.append(f"{e}\n{e.stack}"))
            # A workspace of its own, reset: Lab would otherwise reopen the previous chapter's tab,
            # whose cells and widgets would be counted with this one's.
            page.goto(f"{base}/lab/workspaces/{chapter}/tree/{chapter}.ipynb?token={token}&reset")
            # Run only once the kernel is up: the widget manager attaches to it when it connects.
            page.wait_for_function(
                "() => /\\| Idle/.test(document.querySelector('#jp-main-statusbar')?.textContent)"
            )

            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            # Done when every code cell shows an execution count, [n].
            try:
                page.wait_for_function(
                    """() => { const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                               return prompts.length > 0 &&
                                      prompts.every(p => /\\[\\d+\\]/.test(p.textContent)); }"""
                )
            except Exception:  # say which cells did not run, and what the page shows as errors
                prompts = page.locator(".jp-CodeCell .jp-InputPrompt").all_text_contents()
                errors = page.locator(".jp-OutputArea-output[data-mime-type*='error']")
                pytest.fail(f"cells not run: {prompts}; errors: {errors.all_text_contents()[:3]}")
            assert not page.locator(".jp-OutputArea-output[data-mime-type*='error']").count(), (
                "a cell raised an error"
            )

            # each cell's own outputs that hold a widget (not outputs inside a widget)
            widgets = page.locator(
                ".jp-Cell-outputArea > .jp-OutputArea-child > .jp-OutputArea-output:has(.jupyter-widgets)"
            )
            expect(widgets).to_have_count(CHAPTERS[chapter], timeout=30_000)
            for i in range(widgets.count()):
                output = widgets.nth(i)
                output.scroll_into_view_if_needed()
                before = output.evaluate(DRAWN)
                if not before.strip(" |"):  # a front end that cannot draw it shows why when clicked
                    output.get_by_text("Click to show javascript error").first.click()
                assert before.strip(" |"), f"widget {i} draws nothing: {output.inner_text()[:600]}"
                # ipywidgets 8's sliders are noUiSlider, 7's jQuery UI: both move on ArrowRight
                handles = output.locator(
                    ".widget-slider .noUi-handle, .widget-slider .ui-slider-handle"
                )
                if handles.count():
                    handles.first.focus()
                    page.keyboard.press("ArrowRight")
                else:
                    menu = output.locator("select").first
                    options = menu.locator("option").evaluate_all("os => os.map(o => o.value)")
                    menu.select_option(options[1])
                page.wait_for_function(
                    f"([el, before]) => ({DRAWN})(el) !== before",
                    arg=[output.element_handle(), before],
                    timeout=30_000,
                )
            chromium.close()
    finally:  # a chapter that fails must not leave its kernel busy for the next one
        stop_kernels(base, token)
    if environment == "colab-like":
        # The stand-in for Colab's front end, ipywidgets 7's Lab extension (1.1) under JupyterLab
        # 4, throws from its own code on some kernel messages (reading 'Queue'); the widgets draw
        # and react regardless, which is what this checks. Colab's front end is its own.
        problems = [p for p in problems if "@jupyter-widgets/jupyterlab-manager" not in p]
    assert problems == []
