"""Build the course website offline from book.yml: one Jupyter Book per language and a landing page.

    python tools/build_site.py                  # every language with notebooks -> _build/site/
    python tools/build_site.py --lang en zh     # a site of these languages only
    python tools/build_site.py --screenshots    # then write PNGs of a chapter per language
                                                #   under _build/screenshots/ (needs chromium, playwright)

``bash scripts/site.sh`` installs what this needs (Jupyter Book 1.x in .venv-book, MathJax and the
widget renderer from npm in site/node_modules, chromium) and then runs it.

For each language of book.yml that has notebooks in ``notebooks/<lang>/``, the notebooks of book.yml's
chapters are staged in ``_build/book/<lang>/`` with a generated ``_config.yml`` and ``_toc.yml``, and
Jupyter Book 1.x renders them, without executing them, to ``_build/site/<lang>/``. The pages show the
stored outputs; widgets render from the saved widget state. MathJax and the widget renderer are copied
once into ``_build/site/_vendor/`` and every page loads them from there, so the site needs no CDN.
Every chapter page carries "Open in Colab" and Binder buttons (URLs from tools/book.py) and a
language switcher that leads to the same chapter in every other language built.
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import book as book_yml  # noqa: E402

ROOT = book_yml.ROOT
NOTEBOOKS = ROOT / "notebooks"
ASSETS = ROOT / "site"
WEB_MODULES = ROOT / "mpteach" / "widgets" / "web"
NODE_MODULES = ASSETS / "node_modules"
BUILD = ROOT / "_build"
STAGING = BUILD / "book"
SITE = BUILD / "site"
SCREENSHOTS = BUILD / "screenshots"

VENDOR = "_vendor"
"""Folder of the site's own copies of MathJax and the widget renderer; not ``_static``, where
Sphinx would add a ``<script>`` tag for every one of MathJax's files."""
VENDOR_SOURCES = {
    "mathjax": NODE_MODULES / "mathjax" / "es5",
    "html-manager": NODE_MODULES / "@jupyter-widgets" / "html-manager" / "dist",
}
# Sphinx puts a relative script path under the language's _static/; from there, two levels up is the
# site's root, where every language shares one copy.
FROM_STATIC = f"../../{VENDOR}"
MATHJAX = f"{FROM_STATIC}/mathjax/tex-mml-chtml.js"
WIDGETS_EMBED = f"{FROM_STATIC}/html-manager/embed.js"  # standalone: needs no require.js
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

SPHINX_LANGUAGE = {"zh": "zh_CN"}
"""Sphinx's name for a language where it differs from book.yml's code."""

SCREENSHOT_CHAPTER = "01_float_formats"  # maths, figures and a widget on one page


def strings(lang: str) -> dict[str, str]:
    """The site's own words (site/strings.yml) in ``lang``."""
    table = yaml.safe_load((ASSETS / "strings.yml").read_text(encoding="utf-8"))
    return {key: texts[lang] for key, texts in table.items()}


def pages_with_text(book: book_yml.Book, lang: str) -> list[str]:
    """book.yml's pages (the instructor's guide) that ``notebooks/<lang>/`` has a Markdown file for."""
    return [p for p in book.pages if (NOTEBOOKS / lang / f"{p}.md").exists()]


def chapters_with_notebooks(book: book_yml.Book, lang: str) -> list[str]:
    """book.yml's chapters (in book order) that ``notebooks/<lang>/`` has a notebook for."""
    return [c for c in book.chapters if (NOTEBOOKS / lang / f"{c}.ipynb").exists()]


# A heading's stable anchor (tools/translations.py anchors): "## Title <a id="slug"></a>".
HEADING_ANCHOR = re.compile(r'^(#{1,6} .*?)[ \t]*<a id="([^"]+)"></a>[ \t]*$', re.MULTILINE)


def page_markdown(text: str, remote_badge: str) -> str:
    """A markdown cell as the site shows it.

    - The Colab badge image comes from the site itself (no request leaves it).
    - A heading's anchor moves just above the heading: inside it, Sphinx would copy the ``<a>``
      into the page's table of contents, nested in a link, which breaks the theme's scroll spy.

    >>> page_markdown('## Goals <a id="goals"></a>\\ntext', "https://x/badge.svg")
    '<a id="goals"></a>\\n\\n## Goals\\ntext'
    """
    text = text.replace(remote_badge, "colab-badge.svg")
    return HEADING_ANCHOR.sub(r'<a id="\2"></a>\n\n\1', text)


def guide_markdown(text: str) -> str:
    r"""A Markdown page (the instructor's guide) as the site shows it: each heading's anchor
    becomes a MyST target above it, so that ``[…](#anchor)`` links resolve on the site as they do
    in JupyterLab.

    >>> guide_markdown('## Grading <a id="grading"></a>\nSee [above](#grading).')
    '(grading)=\n## Grading\nSee [above](#grading).'
    """
    return HEADING_ANCHOR.sub(r"(\2)=\n\1", text)


# A widget the browser draws by itself on the site (mpteach/widgets/web/): the call in a code cell.
BROWSER_WIDGET = re.compile(
    r"^\s*(?:\w+\s*=\s*)?mp\.widgets\.(RangeChart|FloatExplorer|LossScaleDynamics|SpeedupExplorer|GradientUnderflow)\((.*)\)"
    r"(?:\s*\n\s*\w+)?\s*$",  # `w = mp.widgets.X(...)` then `w` shows it too
    re.S,
)


def _module_constant(module: str, name: str):
    """A constant of an mpteach module, read without importing it (that would need ipywidgets
    and matplotlib, which the book's venv does not have)."""
    tree = ast.parse((ROOT / "mpteach" / module).read_text("utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, ast.Assign | ast.AnnAssign) and getattr(targets[0], "id", "") == name:
            return ast.literal_eval(node.value)
    raise LookupError(f"mpteach/{module} defines no {name}")


def widget_config(widget: str, args: str, lang: str) -> dict:
    """What a browser-drawn widget needs: the call's arguments and its words in ``lang``.

    >>> config = widget_config("RangeChart", '500.0, formats=("float16",)', "es")
    >>> config["x"], config["formats"], config["labels"]["statuses"]["overflow_nan"][:8]
    (500.0, ['float16'], 'desborda')
    >>> widget_config("FloatExplorer", "", "en")["stepFormat"]
    'float16'
    """
    sys.path.insert(0, str(ROOT))
    from mpteach import i18n  # plain Python: the book's own venv can import it

    call = ast.parse(f"f({args})", mode="eval").body
    arguments = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    if call.args:
        arguments["x"] = ast.literal_eval(call.args[0])

    def t(key: str) -> str:
        return i18n.catalogue()[key][lang]

    if widget == "LossScaleDynamics":
        return dynamics_config(arguments, t, i18n.catalogue(), lang)
    if widget == "SpeedupExplorer":  # its words and bars come with speedup-<lang>.json
        unknown = set(arguments) - {"x"}
        if unknown:
            raise ValueError(
                f"SpeedupExplorer({', '.join(sorted(unknown))}=...): only the workload"
            )
        return {"data": f"./speedup-{lang}.json", "workload": arguments.get("x", "matmul")}
    codes = _module_constant("formats.py", "STATUSES")
    labels = {
        "number": t("formats.explorer.number"),
        "magnitude": t("formats.explorer.magnitude"),
        "statuses": {code: t(f"formats.status.{code}") for code in codes},
        "messages": {
            "invalid": t("common.invalid_number"),
            "beyond": t("common.number_beyond_float64"),
            "outOfRange": t("common.number_out_of_range"),
        },
    }
    if widget == "RangeChart":
        labels |= {k: t(f"formats.range.{k}") for k in ("title", "axis", "marker", "normal")}
        labels |= {
            "subnormal": t("formats.range.subnormal"),
            "offAxis": t("formats.range.off_axis"),
        }
        return {
            "x": float(arguments.get("x", 1e-5)),
            "formats": list(
                arguments.get(
                    "formats", _module_constant("widgets/range_chart.py", "DEFAULT_FORMATS")
                )
            ),
            "labels": labels,
        }
    names = ("step_format", "step_down", "step_up", "step_down_tooltip", "step_up_tooltip")
    names += ("saturate", "flip_tooltip", "caption")
    labels |= {
        re.sub(r"_(\w)", lambda m: m[1].upper(), n): t(f"formats.explorer.{n}") for n in names
    }
    columns = ("format", "bits", "stored", "abs_error", "rel_error", "neighbours", "status")
    labels["columns"] = {c: t(f"formats.column.{c}") for c in columns}
    labels["fields"] = {f: t(f"formats.field.{f}") for f in ("sign", "exponent", "mantissa")}
    return {
        "x": float(arguments.get("x", 0.1)),
        "formats": list(arguments.get("formats", _module_constant("formats.py", "FORMAT_NAMES"))),
        "stepFormat": arguments.get("step_format", "float16"),
        "labels": labels,
    }


def dynamics_config(arguments: dict, t, catalogue: dict, lang: str) -> dict:
    """LossScaleDynamics: its words and the settings the call chose; the controls' choices and
    the gradients come with mpteach/widgets/web/dynamics-data.json (tools/widget_data.py).

    >>> config = widget_config("LossScaleDynamics", "spread=40", "ko")
    >>> config["initial"], config["labels"]["presets"]["fixed_high"]
    ({'spread': 40}, '너무 높은 고정 스케일')
    """
    names = {"initial_scale": "initialScale", "growth_steps": "growthSteps"}
    names |= {"spread": "spread", "spike_rate": "spikeRate"}
    unknown = set(arguments) - set(names)
    if unknown:
        raise ValueError(
            f"LossScaleDynamics({', '.join(sorted(unknown))}=...) cannot be drawn on the site: "
            f"it takes {', '.join(names)}"
        )
    camel = {k: re.sub(r"[_.](\w)", lambda m: m[1].upper(), k) for k in _DYNAMICS_WORDS}
    labels = {camel[k]: t(f"dynamics.{k}") for k in _DYNAMICS_WORDS}
    labels["presets"] = {
        key.removeprefix("dynamics.preset."): t(key)
        for key in sorted(catalogue)
        if key.startswith("dynamics.preset.")
    }
    labels["control"] = {c: t(f"dynamics.control.{c}") for c in _DYNAMICS_CONTROLS}
    labels["columns"] = {c: t(f"dynamics.col.{c}") for c in _DYNAMICS_COLUMNS}
    from mpteach import i18n

    labels["thousands"] = i18n.THOUSANDS_SEPARATOR[lang]  # counts as i18n.number groups them
    return {
        "data": "./dynamics-data.json",
        "initial": {names[k]: v for k, v in arguments.items()},
        "labels": labels,
    }


_DYNAMICS_WORDS = (
    "skipped", "settled", "never_settled", "underflow", "no_step_applied", "fixed", "every",
    "why_defaults", "xlabel", "ylabel", "title", "title_fixed", "title_every_step",
)  # fmt: skip
_DYNAMICS_WORDS += ("legend.scale", "legend.skipped", "legend.settled", "legend.band")
_DYNAMICS_WORDS += ("region.over", "region.under")
_DYNAMICS_CONTROLS = ("scale", "growth", "fixed", "spread", "spikes", "preset")
_DYNAMICS_COLUMNS = ("setting", "skipped", "settled", "underflow", "final")


def underflow_config(outputs: list[dict], lang: str, where: str) -> dict:
    """GradientUnderflow: the data its stored output carries (the notebook's own gradients, from
    ``GradientUnderflow.browser_data``) and its words in ``lang``.

    >>> data = {"kinds": ["weights"], "values": {"weights": ""}, "bins": {"weights": [-3, 3]}}
    >>> output = {"data": {_module_constant("widgets/_common.py", "WEB_DATA_MIME"): data}}
    >>> config = underflow_config([output], "zh", "x")
    >>> config["labels"]["kinds"], config["labels"]["bands"]["normal"]
    ({'weights': '权重梯度'}, '正规数')
    >>> underflow_config([], "en", "06_loss_scaling.ipynb: widget")
    Traceback (most recent call last):
    ...
    ValueError: 06_loss_scaling.ipynb: widget: the output holds no GradientUnderflow data; re-execute the notebook (tools/execute_notebooks.py)
    """
    sys.path.insert(0, str(ROOT))
    from mpteach import i18n

    mime = _module_constant("widgets/_common.py", "WEB_DATA_MIME")
    found = [o["data"][mime] for o in outputs if mime in o.get("data", {})]
    if not found:
        raise ValueError(
            f"{where}: the output holds no GradientUnderflow data; "
            "re-execute the notebook (tools/execute_notebooks.py)"
        )
    data = found[0]
    words = i18n.catalogue()

    def t(key: str) -> str:
        return words[key][lang]

    labels = {k: t(f"formats.grad.{k}") for k in ("scale", "kind", "format", "title", "summary")}
    labels |= {"xlabel": t("formats.grad.xlabel"), "ylabel": t("formats.grad.ylabel")}
    labels |= {"noValues": t("formats.grad.no_values"), "zero": t("formats.status.zero")}
    labels["percent"] = t("common.percent")
    bands = _module_constant("widgets/gradient_underflow.py", "BANDS")
    labels["bands"] = {b: t(f"formats.grad.band.{b}") for b in bands}
    labels["kinds"] = {  # kind_label: the catalogue's name, else the dict key as it is
        k: t(f"formats.grad.kind.{k}") if f"formats.grad.kind.{k}" in words else k
        for k in data["kinds"]
    }
    return {"data": data, "labels": labels}


def browser_widget_output(widget: str, config: dict) -> dict:
    """The output that replaces a widget's saved view on the site: its config and its module."""
    data = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    markup = (
        f'<div class="mpteach-widget" data-widget="{widget}">'
        f'<script type="application/json">{data}</script></div>'
        '<script type="module">import { mountAll } from "./_static/mount.js"; mountAll();</script>'
    )
    return {"output_type": "display_data", "data": {"text/html": markup}, "metadata": {}}


def stage_notebook(book: book_yml.Book, source: Path, target: Path) -> None:
    """Copy a notebook for the book, its markdown cells as :func:`page_markdown` makes them, and
    the widgets the browser draws by itself (:data:`BROWSER_WIDGET`) in place of their saved views."""
    nb = json.loads(source.read_text(encoding="utf-8"))
    remote_badge = f"{book.colab}/assets/colab-badge.svg"
    lang = source.parent.name
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = page_markdown("".join(cell["source"]), remote_badge)
        elif match := BROWSER_WIDGET.match("".join(cell["source"])):
            if match[1] == "GradientUnderflow":  # its values were computed in the notebook
                config = underflow_config(cell["outputs"], lang, f"{source.name}: {cell['id']}")
            else:
                config = widget_config(*match.groups(), lang)
            cell["outputs"] = [browser_widget_output(match[1], config)]
    target.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")


def language_menu(book: book_yml.Book, built: dict[str, list[str]]) -> list[dict]:
    return [
        {
            "code": lang,
            "name": book.language(lang).name,
            "root": chapters[0],
            "pages": chapters + pages_with_text(book, lang),
        }
        for lang, chapters in built.items()
    ]


def book_config(book: book_yml.Book, lang: str, built: dict[str, list[str]]) -> dict:
    """The ``_config.yml`` of the ``lang`` book."""
    chapters = built[lang]
    header = {
        "lang": lang,
        "language_name": book.language(lang).name,
        "text": strings(lang),
        "chapters": list(book.chapters),
        "languages": language_menu(book, built),
        "launch": {
            c: {"colab": book.colab_url(lang, c), "binder": book.binder_url(lang, c)}
            for c in chapters
        },
    }
    # Widget views first, then the rest in myst-nb's usual order, so pages show the saved widgets.
    mime_order = [WIDGET_VIEW, "application/javascript", "text/html", "image/svg+xml", "image/png"]
    mime_order += ["image/jpeg", "text/markdown", "text/latex", "text/plain"]
    return {
        "title": header["text"]["title"],
        "author": book.author,
        "copyright": "",
        "only_build_toc_files": True,
        "execute": {"execute_notebooks": "off"},  # the stored outputs are what pages show
        "repository": {
            "url": book.repository_url,
            "path_to_book": f"notebooks/{lang}",
            "branch": book.branch,
        },
        "html": {"use_repository_button": True, "home_page_in_navbar": True},
        "sphinx": {
            "recursive_update": True,
            "local_extensions": {"mpteach_sphinx": str(ASSETS)},
            "config": {
                "language": SPHINX_LANGUAGE.get(lang, lang),
                "templates_path": [str(ASSETS / "templates")],
                # The site's own files, and the browser widgets' modules from the package.
                "html_static_path": [str(ASSETS / "static"), str(WEB_MODULES)],
                "html_css_files": ["mpteach-site.css"],
                "html_js_files": ["mpteach-site.js"],
                # The notebooks' figures and widgets are drawn on white: light mode first.
                "html_context": {"mpteach": header, "default_mode": "light"},
                "html_theme_options": {
                    "article_header_end": ["mpteach-header.html", "article-header-buttons.html"],
                },
                "mathjax_path": MATHJAX,
                "nb_ipywidgets_js": {WIDGETS_EMBED: {}},
                "nb_mime_priority_overrides": [
                    ["html", mime, priority] for priority, mime in enumerate(mime_order)
                ],
            },
        },
    }


def toc(chapters: list[str]) -> dict:
    toc = {"format": "jb-book", "root": chapters[0]}
    if chapters[1:]:
        toc["chapters"] = [{"file": c} for c in chapters[1:]]
    return toc


def jupyter_book() -> str:
    """The ``jupyter-book`` 1.x command: beside this Python, in .venv-book, or on PATH."""
    candidates = [
        Path(sys.executable).parent / "jupyter-book",
        ROOT / ".venv-book/bin/jupyter-book",
    ]
    found = [str(c) for c in candidates if c.exists()] + [shutil.which("jupyter-book") or ""]
    for command in filter(None, found):
        version = subprocess.run([command, "--version"], capture_output=True, text=True).stdout
        if re.search(r"Jupyter Book\s*:\s*1\.", version):
            return command
    sys.exit(
        "build_site: Jupyter Book 1.x not found: run `bash scripts/site.sh` (installs .venv-book)"
    )


def build_language(
    book: book_yml.Book, lang: str, built: dict[str, list[str]], command: str
) -> None:
    """Stage the ``lang`` notebooks and render them with Jupyter Book to ``_build/site/<lang>/``."""
    source, work = STAGING / lang, STAGING / f"{lang}-output"
    shutil.rmtree(source, ignore_errors=True)
    source.mkdir(parents=True)
    for chapter in built[lang]:
        notebook = NOTEBOOKS / lang / f"{chapter}.ipynb"
        stage_notebook(book, notebook, source / notebook.name)
    pages = pages_with_text(book, lang)
    for page in pages:
        text = (NOTEBOOKS / lang / f"{page}.md").read_text(encoding="utf-8")
        (source / f"{page}.md").write_text(guide_markdown(text), encoding="utf-8")
    shutil.copy(ASSETS / "static" / "colab-badge.svg", source)
    dump = {"allow_unicode": True, "sort_keys": False}
    (source / "_config.yml").write_text(yaml.safe_dump(book_config(book, lang, built), **dump))
    (source / "_toc.yml").write_text(yaml.safe_dump(toc(built[lang] + pages), **dump))

    shutil.rmtree(work, ignore_errors=True)
    run = subprocess.run(
        [command, "build", str(source), "--path-output", str(work), "--builder", "html"],
        capture_output=True,
        text=True,
    )
    log = run.stdout + run.stderr
    (STAGING / f"{lang}.log").write_text(log, encoding="utf-8")
    warnings = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    for line in warnings:
        print(f"  {line}")
    if run.returncode != 0:
        print(log[-4000:])
        sys.exit(f"build_site: Jupyter Book failed for {lang!r} (log: {STAGING / f'{lang}.log'})")
    target = SITE / lang
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(work / "_build" / "html", target)
    print(f"  {lang}: {len(built[lang])} chapters -> {target.relative_to(ROOT)}/")


def copy_vendor() -> None:
    """MathJax and the widget renderer, from site/node_modules into the site."""
    missing = [str(p.relative_to(ROOT)) for p in VENDOR_SOURCES.values() if not p.exists()]
    if missing:
        sys.exit(f"build_site: {', '.join(missing)} missing: run `npm ci --prefix site`")
    for name, source in VENDOR_SOURCES.items():
        target = SITE / VENDOR / name
        shutil.rmtree(target, ignore_errors=True)
        # The AMD builds and source maps are not loaded; leave them out.
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("*-amd.js", "*.map"))


def landing_page(book: book_yml.Book, built: dict[str, list[str]]) -> str:
    """``index.html`` of the site: one card per language, in that language."""
    cards = []
    for lang, chapters in built.items():
        text = strings(lang)
        cards.append(
            f'    <a class="language" href="{lang}/index.html" hreflang="{lang}" lang="{lang}">\n'
            f'      <span class="name">{html.escape(book.language(lang).name)}</span>\n'
            f'      <span class="title">{html.escape(text["title"])}</span>\n'
            f'      <span class="tagline">{html.escape(text["tagline"])}</span>\n'
            f'      <span class="meta">{html.escape(text["chapters"].format(n=len(chapters)))}</span>\n'
            f'      <span class="start">{html.escape(text["start"])} →</span>\n'
            "    </a>"
        )
    template = string.Template((ASSETS / "landing.html").read_text(encoding="utf-8"))
    return template.substitute(
        title=html.escape(book.title),
        author=html.escape(book.author),
        repository=html.escape(book.repository_url),
        languages="\n".join(cards),
    )


def build(langs: list[str] | None = None) -> dict[str, list[str]]:
    """Build the site; returns the chapters built per language."""
    book = book_yml.load()
    for lang in langs or []:
        book.language(lang)  # a clear error for a code book.yml does not know
    built = {}
    for lang in langs or book.codes:
        chapters = chapters_with_notebooks(book, lang)
        if chapters:
            built[lang] = chapters
        else:
            print(f"build_site: skipping {lang!r}: notebooks/{lang}/ has no chapter notebooks yet")
    if not built:
        sys.exit("build_site: no notebooks to build")
    command = jupyter_book()
    SITE.mkdir(parents=True, exist_ok=True)
    for lang in built:
        print(f"build_site: {lang} ({book.language(lang).name})")
        build_language(book, lang, built, command)
    for stale in sorted(p for p in SITE.iterdir() if p.is_dir() and p.name in book.codes):
        if stale.name not in built:  # a language built earlier whose notebooks are gone
            shutil.rmtree(stale)
    copy_vendor()
    (SITE / "index.html").write_text(landing_page(book, built), encoding="utf-8")
    (SITE / ".nojekyll").write_text("")  # GitHub Pages: serve the _static/ folders as they are
    print(f"build_site: {SITE.relative_to(ROOT)}/index.html ({', '.join(built)})")
    return built


def screenshots(built: dict[str, list[str]]) -> list[Path]:
    """PNGs of the landing page and of one chapter per language (its top and its first widget)."""
    import browser
    from playwright.sync_api import sync_playwright

    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    written = []
    with browser.serve(SITE) as base, sync_playwright() as p:
        chromium = browser.launch(p)
        page = chromium.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/index.html")
        written.append(SCREENSHOTS / "landing.png")
        page.screenshot(path=written[-1])
        for lang, chapters in built.items():
            chapter = SCREENSHOT_CHAPTER if SCREENSHOT_CHAPTER in chapters else chapters[0]
            page.goto(f"{base}/{lang}/{chapter}.html")
            page.wait_for_load_state("load")
            if page.locator(".math").count():
                page.wait_for_selector("mjx-container", timeout=20_000)
            written.append(SCREENSHOTS / f"{lang}-{chapter}.png")
            page.screenshot(path=written[-1])
            widget = page.locator(".widget-slider, .jupyter-widgets").first
            if widget.count():
                widget.scroll_into_view_if_needed()
                written.append(SCREENSHOTS / f"{lang}-{chapter}-widget.png")
                page.screenshot(path=written[-1])
        chromium.close()
    for path in written:
        print(f"build_site: screenshot {path.relative_to(ROOT)}")
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lang", nargs="+", help="languages to build (default: all with notebooks)"
    )
    parser.add_argument("--screenshots", action="store_true", help="also write _build/screenshots/")
    args = parser.parse_args(argv)
    try:
        built = build(args.lang)
    except ValueError as error:
        sys.exit(f"build_site: {error}")
    if args.screenshots:
        screenshots(built)


if __name__ == "__main__":
    main()
