"""The website: built from book.yml by tools/build_site.py, checked in a real headless Chromium.

The first tests check the one place launch URLs come from (tools/book.py) and what the build
generates. The browser tests (marked slow) need the built site and Debian's chromium, which
``bash scripts/site.sh --screenshots`` provides (scripts/test.sh runs it before the tests). They
serve _build/site on 127.0.0.1, let no request leave it, and check for every language built: the
landing page and every chapter load without a console error, maths is typeset, figures and saved
widgets show, the language switcher leads to the same chapter in the other languages, and the
launch buttons open this very notebook in Colab and Binder.
"""

from __future__ import annotations

import contextlib
import doctest
import json
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import book as book_yml  # noqa: E402
import browser  # noqa: E402
import build_site  # noqa: E402

BOOK = book_yml.load()
SITE = build_site.SITE
# What the site must contain: every language with notebooks, the chapters it has, in book order.
EXPECTED = {
    lang: chapters
    for lang in BOOK.codes
    if (chapters := build_site.chapters_with_notebooks(BOOK, lang))
}
PAGES = [(lang, chapter) for lang, chapters in EXPECTED.items() for chapter in chapters]
WIDGET_VIEW = build_site.WIDGET_VIEW
TIMEOUT_MS = 60_000  # generous: CI runs the notebooks beside these tests


def notebook(lang: str, chapter: str) -> dict:
    path = build_site.NOTEBOOKS / lang / f"{chapter}.ipynb"
    return json.loads(path.read_text(encoding="utf-8"))


def outputs(nb: dict) -> list[dict]:
    return [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"]]


# --- launch URLs and what the build generates (no browser) -------------------------------------


def test_launch_urls_are_built_from_book_yml():
    raw = yaml.safe_load((ROOT / "book.yml").read_text(encoding="utf-8"))
    repo = raw["repository"]["url"].removeprefix("https://github.com/")
    branch = raw["repository"]["branch"]
    colab = BOOK.colab_url("zh", "06_loss_scaling")
    assert colab == (
        f"{raw['launch']['colab']}/github/{repo}/blob/{branch}/notebooks/zh/06_loss_scaling.ipynb"
    )
    binder = BOOK.binder_url("ko", "01_float_formats")
    assert binder == (
        f"{raw['launch']['binder']}/v2/gh/{repo}/{branch}"
        "?urlpath=lab/tree/notebooks/ko/01_float_formats.ipynb"
    )
    assert [lang.code for lang in BOOK.languages] == [lang["code"] for lang in raw["languages"]]
    assert BOOK.chapters == tuple(raw["chapters"])
    assert (ROOT / "environment.yml").exists(), "Binder builds the repository's environment.yml"


@pytest.mark.parametrize("module", [book_yml, build_site], ids=["book", "build_site"])
def test_the_docstring_examples_of_the_site_tools_run(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("lang", "chapter", "wrong"),
    [("fr", "01_float_formats", "lang='fr'"), ("en", "01_floats", "chapter='01_floats'")],
)
def test_an_unknown_language_or_chapter_is_a_clear_error(lang, chapter, wrong):
    with pytest.raises(ValueError, match=wrong) as error:
        BOOK.colab_url(lang, chapter)
    assert "is not one of" in str(error.value)


def test_build_rejects_an_unknown_language_before_building_anything():
    with pytest.raises(ValueError, match=r"lang='xx' is not one of \('en', 'zh'"):
        build_site.build(["xx"])


def test_book_yml_problems_are_named(tmp_path):
    raw = yaml.safe_load((ROOT / "book.yml").read_text(encoding="utf-8"))
    del raw["launch"]
    (tmp_path / "book.yml").write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match="missing key 'launch'"):
        book_yml.load(tmp_path / "book.yml")
    raw = yaml.safe_load((ROOT / "book.yml").read_text(encoding="utf-8"))
    raw["repository"]["url"] = "https://gitlab.com/mpteach/mpteach"
    (tmp_path / "book.yml").write_text(yaml.safe_dump(raw))
    with pytest.raises(ValueError, match="must start with https://github.com/"):
        book_yml.load(tmp_path / "book.yml")


@pytest.mark.parametrize(("lang", "chapter"), PAGES, ids=[f"{la}/{c}" for la, c in PAGES])
def test_the_notebook_badge_is_the_one_book_py_builds(lang, chapter):
    title = "".join(notebook(lang, chapter)["cells"][0]["source"])
    assert BOOK.colab_badge(lang, chapter) in title


def test_the_site_words_exist_in_every_language():
    table = yaml.safe_load((build_site.ASSETS / "strings.yml").read_text(encoding="utf-8"))
    for key, texts in table.items():
        assert set(texts) == set(BOOK.codes), f"strings.yml {key!r}: {sorted(texts)}"
        assert all(text.strip() for text in texts.values()), f"strings.yml {key!r} has a blank"
    assert table["title"]["en"] == BOOK.title, "the English title is book.yml's"


def test_a_page_takes_its_badge_from_the_site_and_keeps_anchors_out_of_headings():
    badge = f"{BOOK.colab}/assets/colab-badge.svg"
    text = f'# 01 · Title\n\n[![Open In Colab]({badge})](url)\n\n### A `b` <a id="a-b"></a>\nBody'
    page = build_site.page_markdown(text, badge)
    assert badge not in page and "[![Open In Colab](colab-badge.svg)](url)" in page
    assert '<a id="a-b"></a>\n\n### A `b`\nBody' in page
    assert build_site.page_markdown("## No anchor\ntext", badge) == "## No anchor\ntext"


def test_each_book_loads_its_scripts_from_the_site_and_links_the_languages_built():
    built = {"en": ["00_start_here", "01_float_formats"], "zh": ["01_float_formats"]}
    config = build_site.book_config(BOOK, "zh", built)
    sphinx = config["sphinx"]["config"]
    assert config["execute"]["execute_notebooks"] == "off"
    scripts = [sphinx["mathjax_path"], *sphinx["nb_ipywidgets_js"]]
    assert scripts and not any("://" in s for s in scripts), scripts
    assert all((SITE / "zh" / "_static" / s).resolve().is_relative_to(SITE) for s in scripts)
    header = sphinx["html_context"]["mpteach"]
    assert header["launch"] == {
        "01_float_formats": {
            "colab": BOOK.colab_url("zh", "01_float_formats"),
            "binder": BOOK.binder_url("zh", "01_float_formats"),
        }
    }
    guide = list(BOOK.pages)  # every language has the instructor's guide
    assert [(m["code"], m["root"], m["pages"]) for m in header["languages"]] == [
        ("en", "00_start_here", built["en"] + guide),
        ("zh", "01_float_formats", built["zh"] + guide),
    ]
    assert build_site.toc(built["en"]) == {
        "format": "jb-book",
        "root": "00_start_here",
        "chapters": [{"file": "01_float_formats"}],
    }


# --- the built site in Chromium ------------------------------------------------------------


@pytest.fixture(scope="module")
def site() -> Path:
    if not (SITE / "index.html").exists():
        pytest.fail(f"no site in {SITE}: build it with `bash scripts/site.sh`")
    missing = [f"{lang}/{c}.html" for lang, c in PAGES if not (SITE / lang / f"{c}.html").exists()]
    assert not missing, f"the site is older than the notebooks, rebuild it: missing {missing}"
    return SITE


@pytest.fixture(scope="module")
def served(site):
    """The site served on localhost, and one Chromium for every context of this module."""
    from playwright.sync_api import sync_playwright

    with browser.serve(site) as base, sync_playwright() as p:
        chromium = browser.launch(p)
        yield base, chromium
        chromium.close()


@contextlib.contextmanager
def site_context(served, viewport: dict):
    """A browser context on the served site; any request elsewhere is blocked (and so fails)."""
    base, chromium = served
    context = chromium.new_context(base_url=base, viewport=viewport)
    context.set_default_timeout(TIMEOUT_MS)

    def local_only(route):
        if route.request.url.startswith(base):
            route.continue_()
        else:
            route.abort("blockedbyclient")

    context.route("**/*", local_only)
    yield context
    context.close()


@pytest.fixture(scope="module")
def context(served):
    with site_context(served, {"width": 1280, "height": 900}) as desktop:
        yield desktop


def open_page(context, path: str):
    """The page at ``path``, loaded, and the list its problems are collected in."""
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status} {r.url}"))
    # "load", then each test waits for what it checks: "networkidle" (no request for 500 ms) can
    # take longer than the timeout on a loaded machine and proves nothing the tests do not check.
    page.goto(path, wait_until="load")
    return page, problems


def open_widget(context, lang: str, chapter: str, widget: str, ready: str):
    """The chapter page, its problems and its first ``widget``, once ``ready`` shows in it (the
    browser has drawn it)."""
    page, problems = open_page(context, f"/{lang}/{chapter}.html")
    element = page.locator(widget).first
    element.locator(ready).first.wait_for()
    return page, problems, element


def site_file(page, href: str) -> Path:
    """The file under _build/site that a link on ``page`` points to."""
    url = page.evaluate("href => new URL(href, document.baseURI).pathname", href)
    return SITE / url.lstrip("/")


@pytest.mark.slow
@pytest.mark.browser
def test_the_landing_page_offers_every_language_built(context):
    page, problems = open_page(context, "/index.html")
    links = page.locator("a.language")
    assert [links.nth(i).get_attribute("hreflang") for i in range(links.count())] == list(EXPECTED)
    for i, lang in enumerate(EXPECTED):
        assert BOOK.language(lang).name in links.nth(i).inner_text()
    last = list(EXPECTED)[-1]
    links.nth(len(EXPECTED) - 1).click()
    page.wait_for_url(f"**/{last}/{EXPECTED[last][0]}.html")
    page.wait_for_load_state("load")
    assert problems == []
    page.close()


SEARCH_TERMS = yaml.safe_load((build_site.ASSETS / "search_terms.yml").read_text(encoding="utf-8"))


def test_every_chapter_has_a_search_term_in_every_language_that_its_prose_uses():
    assert list(SEARCH_TERMS) == list(BOOK.chapters)
    for chapter, terms in SEARCH_TERMS.items():
        assert list(terms) == list(BOOK.codes), chapter
        for lang, term in terms.items():
            prose = " ".join(
                "".join(c["source"]) for c in notebook(lang, chapter)["cells"]
                if c["cell_type"] == "markdown"
            )  # fmt: skip
            assert term.lower() in prose.lower(), f"{lang}/{chapter}: {term!r} is not in its prose"


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("lang", list(EXPECTED))
def test_the_search_finds_each_chapter_by_its_key_term(context, lang):
    """The site's own search (Sphinx's, in the browser), in each language: Chinese included,
    whose words only jieba can split."""
    page, problems = open_page(context, f"/{lang}/search.html")
    missed = []
    for chapter in EXPECTED[lang]:
        term = SEARCH_TERMS[chapter][lang]
        page.goto(f"/{lang}/search.html?q={term}", wait_until="load")
        # finished: the title reads "Search Results" (the summary line can be empty: Sphinx's
        # Russian catalogue translates it as "")
        page.wait_for_function(
            "() => document.querySelector('#search-results h2')?.innerText"
            " === Documentation.gettext('Search Results')"
        )
        found = page.locator("#search-results ul.search li a").evaluate_all(
            "as => as.map(a => a.getAttribute('href'))"
        )
        if not any(href.split("?")[0].split("#")[0].endswith(f"{chapter}.html") for href in found):
            missed.append(f"{term!r} → {found[:4]}")
    assert missed == [], f"{lang}: the search does not find the chapter of {missed}"
    # the next search aborts the page's fetches of result snippets: not a problem of the site
    assert [p for p in problems if "net::ERR_ABORTED" not in p] == []
    page.close()


@pytest.mark.browser
@pytest.mark.parametrize("lang", list(EXPECTED))
def test_the_instructors_guide_is_a_page_of_every_language_whose_links_work(context, lang):
    """The guide (book.yml's pages) is in the site's navigation; its chapter table has a row per
    chapter and a total; every link on it leads to a page of the site; the switcher keeps it."""
    page, problems = open_page(context, f"/{lang}/{EXPECTED[lang][0]}.html")
    page.locator("nav.bd-docs-nav a[href$='instructors.html']").click()
    page.wait_for_url(f"**/{lang}/instructors.html")
    page.wait_for_load_state("load")
    rows = page.locator("article table").first.locator("tbody tr")
    assert rows.count() == len(BOOK.chapters) + 1
    assert rows.last.locator("td").first.inner_text().strip() == "Σ"
    local = [
        href
        for href in page.locator("article a[href]").evaluate_all(
            "as => as.map(a => a.getAttribute('href'))"
        )
        if not href.startswith(("http", "#", "mailto:"))
    ]
    assert local, "the guide links its chapters"
    for href in local:
        assert site_file(page, href.split("#")[0]).exists(), href
    for anchor in page.locator("article a[href^='#']").evaluate_all(
        "as => as.map(a => a.getAttribute('href').slice(1))"
    ):
        assert page.locator(f"[id='{anchor}']").count() == 1, f"#{anchor} leads nowhere"
    other = next(code for code in EXPECTED if code != lang)
    page.locator(".mpteach-languages button").click()
    page.locator(f'.mpteach-languages a[hreflang="{other}"]').click()
    page.wait_for_url(f"**/{other}/instructors.html")
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "chapter"), PAGES, ids=[f"{la}/{c}" for la, c in PAGES])
def test_a_chapter_page_shows_its_maths_figures_widgets_and_launch_links(context, lang, chapter):
    page, problems = open_page(context, f"/{lang}/{chapter}.html")
    nb = notebook(lang, chapter)

    # Maths: MathJax typesets every formula the page has.
    if page.locator(".math").count():
        page.wait_for_function(
            "() => [...document.querySelectorAll('.math')].every(m => m.querySelector('mjx-container'))"
        )

    # Figures: every stored PNG output is an image that loaded; no image anywhere is broken.
    pngs = sum(
        "image/png" in o.get("data", {}) and WIDGET_VIEW not in o["data"] for o in outputs(nb)
    )
    page.wait_for_function(
        """n => { const all = [...document.images];
                  const shown = [...document.querySelectorAll('.cell_output img')];
                  return shown.length >= n && all.every(i => i.complete && i.naturalWidth > 0); }""",
        arg=pngs,
    )

    # Widgets: each saved widget view is rendered from the saved state, not left as a script
    # (those the browser draws by itself replace their saved views: see the RangeChart test).
    views = sum(
        WIDGET_VIEW in o.get("data", {})
        for c in nb["cells"]
        if c["cell_type"] == "code" and not build_site.BROWSER_WIDGET.match("".join(c["source"]))
        for o in c["outputs"]
    )
    if views:
        page.wait_for_function(
            f"""() => {{ const views = [...document.querySelectorAll(
                          'script[type="{WIDGET_VIEW}"]')];
                        return views.length === {views} &&
                          views.every(v => v.parentElement.querySelector('.jupyter-widgets')); }}"""
        )

    # Launch: this very notebook, in Colab and in Binder, as tools/book.py builds the URLs.
    assert page.locator("a.mpteach-colab").get_attribute("href") == BOOK.colab_url(lang, chapter)
    assert page.locator("a.mpteach-binder").get_attribute("href") == BOOK.binder_url(lang, chapter)

    # The switcher: the same chapter in each language that has it, else that language's first page.
    items = page.locator(".mpteach-languages a.dropdown-item")
    targets = {items.nth(i).get_attribute("hreflang"): items.nth(i) for i in range(items.count())}
    assert list(targets) == list(EXPECTED)
    for other, link in targets.items():
        wanted = chapter if chapter in EXPECTED[other] else EXPECTED[other][0]
        path = site_file(page, link.get_attribute("href"))
        assert path == SITE / other / f"{wanted}.html" and path.exists()

    assert problems == []
    page.close()


def switches() -> list[tuple[str, str, str]]:
    """Each language built switches to the next one (the last to the first), on a chapter both have;
    the chapter tests check every switcher link of every page."""
    langs, pairs = list(EXPECTED), []
    for lang, other in zip(langs, langs[1:] + langs[:1], strict=True):
        shared = [c for c in EXPECTED[lang] if c in EXPECTED[other]]
        if other != lang and shared:
            pairs.append((lang, other, shared[0]))
    return pairs


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "other", "chapter"), switches())
def test_the_language_switcher_reaches_the_same_chapter(context, lang, other, chapter):
    page, problems = open_page(context, f"/{lang}/{chapter}.html")
    page.locator(".mpteach-languages button").click()
    page.locator(f'.mpteach-languages a[hreflang="{other}"]').click()
    page.wait_for_url(f"**/{other}/{chapter}.html")
    page.wait_for_load_state("load")
    sphinx_lang = build_site.SPHINX_LANGUAGE.get(other, other).replace("_", "-")
    assert page.locator("html").get_attribute("lang") == sphinx_lang
    assert page.locator(".mpteach-languages button").inner_text().strip() == (
        BOOK.language(other).name
    )
    assert problems == []
    page.close()


def pages_with(widget: str) -> list:
    """The pages whose notebook shows ``widget``, as test parameters."""
    return [
        pytest.param(lang, chapter, id=f"{lang}/{chapter}")
        for lang, chapters in EXPECTED.items()
        for chapter in chapters
        if any(
            c["cell_type"] == "code" and f"mp.widgets.{widget}(" in "".join(c["source"])
            for c in notebook(lang, chapter)["cells"]
        )
    ]


WIDGETS = {  # each widget's element, and what shows once the browser has drawn it
    "RangeChart": (".mpteach-rangechart", ".mpteach-status"),
    "FloatExplorer": (".mpteach-floatexplorer", ".mpteach-badge"),
    "LossScaleDynamics": (".mpteach-dynamics", ".mpteach-summary"),
    "SpeedupExplorer": (".mpteach-speedup", ".mpteach-chart svg"),
    "GradientUnderflow": (".mpteach-underflow", ".mpteach-summary"),
}
PHONE = {"width": 390, "height": 844}  # a phone held upright
OUTSIDE = """(widget) => {
  const box = widget.getBoundingClientRect(), outside = [];
  for (const e of widget.querySelectorAll("*")) {
    const b = e.getBoundingClientRect();
    if (!b.width || !b.height) continue;
    let scroller = false;  // inside a box that scrolls or clips on its own
    for (let p = e.parentElement; p && p !== widget; p = p.parentElement) {
      if (["auto", "scroll", "hidden"].includes(getComputedStyle(p).overflowX)) { scroller = true; break; }
    }
    if (!scroller && (b.left < box.left - 1 || b.right > box.right + 1)) {
      outside.push(`${e.tagName}.${e.getAttribute("class") || ""} ${Math.round(b.left)}..${Math.round(b.right)}`);
    }
  }
  return {left: box.left, right: box.right, outside: outside.slice(0, 5)};
}"""


@pytest.fixture(scope="module")
def phone(served):
    """The site as a phone shows it."""
    with site_context(served, PHONE) as small:
        yield small


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "chapter", "widget"),
    [
        pytest.param(*p.values, widget, id=f"{p.id}/{widget}")
        for widget in WIDGETS
        for p in pages_with(widget)
    ],
)
def test_every_widget_fits_a_phone_screen(phone, lang, chapter, widget):
    """At 390 px wide, each widget lies inside the page and nothing of it sticks out (a table
    that scrolls inside its own box may be wider)."""
    page, problems, element = open_widget(phone, lang, chapter, *WIDGETS[widget])
    fit = element.evaluate(OUTSIDE)
    assert fit["left"] >= 0 and fit["right"] <= PHONE["width"], fit
    assert fit["outside"] == [], fit
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "chapter"), pages_with("RangeChart"))
def test_the_range_chart_follows_its_controls_with_no_kernel(context, lang, chapter):
    """Type, slide and mistype: the chart's statuses are Python's for that number, in the
    page's language, and a bad entry gets Python's message and changes nothing."""
    from mpteach import formats, i18n
    from mpteach.widgets._common import parse_number

    page, problems, chart = open_widget(
        context, lang, chapter, ".mpteach-rangechart", ".mpteach-status"
    )
    names = chart.locator(".mpteach-status").evaluate_all("els => els.map(e => e.dataset.format)")
    box, slider = chart.locator("input.mpteach-number"), chart.locator("input.mpteach-magnitude")

    def shown() -> tuple[list[str], list[str]]:
        statuses = chart.locator(".mpteach-status")
        codes = statuses.evaluate_all("els => els.map(e => e.dataset.status)")
        return codes, statuses.evaluate_all("els => els.map(e => e.textContent)")

    def expected(x: float) -> tuple[list[str], list[str]]:
        codes = [str(formats.classify(x, name)) for name in names]
        return codes, [i18n.t(f"formats.status.{code}", lang) for code in codes]

    for entry in ("1e5", "-2^-24", "1e-6", "0", "inf", "nan", "448", "65520", "0x1p-14"):
        box.fill(entry)
        box.press("Enter")
        assert shown() == expected(parse_number(entry)[0]), entry
    marker = chart.locator(".mpteach-marker")
    box.fill("1e-3")
    box.press("Enter")
    before = marker.get_attribute("x1")
    slider.fill("3")  # |x| = 1e3 on the log slider
    assert float(chart.get_attribute("data-x")) == 1000.0
    assert shown() == expected(1000.0) and marker.get_attribute("x1") != before
    for bad in ("abc", "1e999", ""):
        box.fill(bad)
        box.press("Enter")
        message = chart.locator(".mpteach-message").text_content()
        assert message == parse_number(bad, lang)[1], bad
        assert shown() == expected(1000.0)  # nothing changed
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "chapter"), pages_with("FloatExplorer"))
def test_the_float_explorer_follows_its_controls_with_no_kernel(context, lang, chapter):
    """Type, step by one ULP, flip a bit, saturate and mistype: every row shows what
    mpteach.formats.represent says for that number, in the page's language."""
    from mpteach import formats, i18n
    from mpteach.widgets._common import parse_number

    page, problems, explorer = open_widget(
        context, lang, chapter, ".mpteach-floatexplorer", ".mpteach-badge"
    )
    box = explorer.locator("input.mpteach-number")

    def check(x: float, saturate: bool = False) -> None:
        assert explorer.get_attribute("data-x") == repr(x)
        rows = explorer.locator("tr[data-format]")
        for i in range(rows.count()):
            row = rows.nth(i)
            r = formats.represent(x, row.get_attribute("data-format"), saturate)
            cells = row.locator("td")
            assert cells.nth(2).inner_text() == repr(r.stored)
            assert cells.nth(5).inner_text() == f"{r.below!r} / {r.above!r}"
            badge = row.locator(".mpteach-badge")
            assert badge.get_attribute("data-status") == r.status
            assert badge.inner_text() == i18n.t(f"formats.status.{r.status}", lang)

    for entry in ("1e-5", "65520", "-2^-24", "0x1p-14", "nan"):
        box.fill(entry)
        box.press("Enter")
        check(parse_number(entry)[0])
    box.fill("1e-5")
    box.press("Enter")
    explorer.locator(".mpteach-step-up").click()  # one float16 ULP up
    x = float(formats.next_up(1e-5, "float16"))
    check(x)
    explorer.locator(".mpteach-step-format").select_option("float8_e4m3fn")
    explorer.locator(".mpteach-bit").first.click()  # the sign bit of x in float8_e4m3fn
    x = -float(formats.cast(x, "float8_e4m3fn"))
    check(x)
    box.fill("1e6")
    box.press("Enter")
    explorer.locator(".mpteach-saturate").check()
    check(1e6, saturate=True)
    box.fill("abc")
    box.press("Enter")
    assert explorer.locator(".mpteach-message").inner_text() == parse_number("abc", lang)[1]
    check(1e6, saturate=True)  # nothing changed
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "chapter"), pages_with("LossScaleDynamics"))
def test_the_loss_scale_dynamics_follow_their_controls_with_no_kernel(context, lang, chapter):
    """Pick each preset, move each slider, fix the scale: the summary, the title, the skipped
    steps drawn and the comparison table are what the notebook's widget shows for that setting."""
    from mpteach.simulate import SETTINGS, GradientModel
    from mpteach.widgets.gradient_underflow import scale_text
    from mpteach.widgets.loss_scale_dynamics import (
        MAX_MARKERS,
        _setting_text,
        cached_simulate,
        describe,
        title_text,
    )

    page, problems, widget = open_widget(
        context, lang, chapter, ".mpteach-dynamics", ".mpteach-summary"
    )

    def control(name: str):
        return widget.locator(f"input[data-control='{name}']")

    def check() -> dict:
        """What the widget shows equals Python's numbers for the state it reports."""
        state = json.loads(widget.get_attribute("data-state"))
        model = GradientModel(spread=float(state["spread"]), spike_rate=state["spikeRate"])
        sim = cached_simulate(model, 20_000, state["initialScale"], state["growthSteps"], 0)
        assert widget.locator(".mpteach-summary").text_content() == describe(sim.summary(), lang)
        title = title_text(sim.initial_scale, sim.growth_steps, lang)
        assert widget.locator(".mpteach-title").text_content() == title
        drawn = int(widget.locator(".mpteach-skips").get_attribute("data-count"))
        assert drawn == len(range(0, sim.skipped, max(1, -(-sim.skipped // MAX_MARKERS))))
        settle = widget.locator(".mpteach-settle")  # a vertical line: no area, so no is_visible
        shown = settle.evaluate("line => line.style.display !== 'none'")
        assert shown == (sim.settle_step is not None)
        rows = widget.locator(".mpteach-comparison tr[data-setting]")
        for i, name in enumerate(SETTINGS):
            row = cached_simulate(model, 20_000, *SETTINGS[name], 0).summary()
            cells = rows.nth(i).locator("td").all_text_contents()
            assert cells[0] == _setting_text(name, lang)
            assert cells[1] == f"{row['skipped_fraction'] * 100:.2f} %"
            assert cells[4] == scale_text(row["final_scale"]).split(" =")[0]
        return state

    assert check() == {
        "spread": 30,
        "spikeRate": 1e-4,
        "initialScale": 2.0**15,
        "growthSteps": 2000,
    }
    preset = widget.locator("select.mpteach-preset")
    for name, (scale, growth) in SETTINGS.items():
        preset.select_option(name)
        state = check()
        assert (state["initialScale"], state["growthSteps"]) == (scale, growth), name
    control("scale").fill("20")  # the controls no longer match a preset
    assert preset.input_value() == "" and check()["initialScale"] == 2.0**20
    widget.locator("input.mpteach-fixed").uncheck()
    control("growth").fill("0")  # the first choice: double after every finite step
    assert check()["growthSteps"] == 1
    control("growth").fill("3")  # the fourth choice: 50 steps
    assert check()["growthSteps"] == 50 and control("growth").is_enabled()
    control("spread").fill("42")  # wider than float16's 40 octaves: no band, always underflow
    assert check()["spread"] == 42
    control("spikes").fill("4")
    assert check()["spikeRate"] == 1e-2
    widget.locator("input.mpteach-fixed").check()
    assert check()["growthSteps"] is None and control("growth").is_disabled()
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "chapter"), pages_with("SpeedupExplorer"))
def test_the_speedup_explorer_follows_its_controls_with_no_kernel(context, lang, chapter):
    """Pick each recorded result, workload and set of types, and published groups: the bars
    drawn are speedup_bars/published_bars of that choice, with the notebook's titles and notes."""
    from mpteach.bench.published import published_document, published_groups
    from mpteach.bench.results import recorded_results
    from mpteach.widgets import speedup_explorer as explorer

    page, problems, widget = open_widget(
        context, lang, chapter, ".mpteach-speedup", ".mpteach-chart svg"
    )

    def drawn(where: str) -> list[tuple[str, ...]]:
        """(group, variant, value label) of each bar, in the order of the bars' x."""
        bars = widget.locator(f"{where} rect.mpteach-bar").evaluate_all(
            "rects => rects.map(r => [Number(r.getAttribute('x')), r.dataset.group ??"
            " r.dataset.label, r.dataset.variant ?? '', r.dataset.value])"
        )
        return [tuple(b[1:]) for b in sorted(bars)]

    def in_groups(bars: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """Python's bars as they stand left to right: by group, then by type."""
        groups = list(dict.fromkeys(b[0] for b in bars))
        order = ("float16", "bfloat16", "float32")
        return sorted(
            bars, key=lambda b: (groups.index(b[0]), order.index(explorer._type_of(b[1])))
        )

    def title(where: str) -> str:
        return "\n".join(widget.locator(f"{where} .mpteach-title").all_text_contents())

    types = {
        t: widget.locator(f".mpteach-types input[value='{t}']") for t in ("float16", "bfloat16")
    }
    for i, doc in enumerate(recorded_results()):
        widget.locator("select.mpteach-result").select_option(str(i))
        for workload in explorer.WORKLOADS:
            widget.locator("select.mpteach-workload").select_option(workload)
            for chosen in (("float16", "bfloat16"), ("float16",), ("bfloat16",)):
                for t, box in types.items():
                    box.set_checked(t in chosen)
                bars = explorer.speedup_bars(doc, workload, lang, chosen)
                assert drawn(".mpteach-chart") == in_groups(
                    [(b.group, b.variant, f"{b.speedup:.2f}×") for b in bars]
                ), (i, workload, chosen)
            assert title(".mpteach-chart") == explorer.result_title(doc, workload, lang)
            skipped = [s for s in doc["settings"].get("skipped", []) if s.startswith(workload)]
            want = explorer._t("skipped", lang, items="; ".join(skipped)) if skipped else ""
            assert widget.locator(".mpteach-status-notes").text_content() == want
    groups = list(published_groups(published_document()["rows"], lang).items())
    menu = widget.locator("select.mpteach-published-group")
    for k in range(0, len(groups), 4):
        label, rows = groups[k]
        menu.select_option(str(k))
        want = [(b.label, "", f"{b.speedup:.2f}×") for b in explorer.published_bars(rows, lang)]
        assert drawn(".mpteach-published-chart") == want, label
        assert title(".mpteach-published-chart").splitlines()[0] == label
        links = widget.locator(".mpteach-sources a").evaluate_all(
            "a => a.map(e => e.getAttribute('href'))"
        )
        sources = {(r["source"]["url"], r["source"]["table"]): r["source"]["url"] for r in rows}
        assert links == list(sources.values())
    assert problems == []
    page.close()


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize(("lang", "chapter"), pages_with("GradientUnderflow"))
def test_the_gradient_underflow_follows_its_controls_with_no_kernel(context, lang, chapter):
    """Slide the loss scale and pick each format: the summary, title, legend and the totals of
    the bars are underflow_report's for the notebook's own gradients, in the page's language."""
    import base64

    import numpy as np

    from mpteach import i18n
    from mpteach.widgets._common import WEB_DATA_MIME
    from mpteach.widgets.gradient_underflow import (
        BANDS,
        FORMATS,
        _percent,
        kind_label,
        scale_text,
        summary,
        underflow_report,
    )

    nb = notebook(lang, chapter)
    (data,) = [o["data"][WEB_DATA_MIME] for o in outputs(nb) if WEB_DATA_MIME in o.get("data", {})]
    kind = data["kinds"][0]
    values = np.frombuffer(base64.b64decode(data["values"][kind]), dtype="<f8")
    page, problems, widget = open_widget(
        context, lang, chapter, ".mpteach-underflow", ".mpteach-summary"
    )

    def check(exponent: int, fmt: str) -> None:
        report = underflow_report(values, 2.0**exponent, fmt, tuple(data["bins"][kind]))
        assert widget.locator(".mpteach-summary").text_content() == summary(report, lang)
        title = widget.locator(".mpteach-title").text_content()
        kind_text = kind_label(kind, lang)
        assert title == i18n.t("formats.grad.title", lang, kind=kind_text,
                               scale=scale_text(report.scale), fmt=fmt)  # fmt: skip
        entries = widget.locator(".mpteach-legend-entry").all_text_contents()
        assert entries == [
            f"{i18n.t('formats.grad.band.' + b, lang)}: {_percent(report.fraction(b), lang)}"
            for b in BANDS
        ]
        totals = widget.locator("path.mpteach-band").evaluate_all(
            "paths => paths.map(p => [p.dataset.band, Number(p.dataset.total)])"
        )
        assert dict(totals) == {b: n for b, n in report.totals.items() if b != "zero"}

    check(data["scaleExponent"], data["format"])
    slider = widget.locator("input.mpteach-scale")
    for exponent in (5, 15, 24, 0):
        slider.fill(str(exponent))
        check(exponent, data["format"])
    slider.fill("12")
    for fmt in FORMATS:
        widget.locator("select.mpteach-format").select_option(fmt)
        check(12, fmt)
    assert problems == []
    page.close()
