"""Sphinx extension of the mpteach website: one fix to the pages Jupyter Book 1 generates.

Jupyter Book 1 registers the inline scripts of sphinx-thebe and sphinx-togglebutton twice, and the
second ``const THEBE_JS_URL = ...`` is a SyntaxError on every page. Each page keeps the first of
identical scripts (the copies differ only in ``filename``: ``None`` in one, ``""`` in the other).
"""

from __future__ import annotations


def unique_scripts(app, pagename, templatename, context, doctree) -> None:
    scripts, seen = [], set()
    for script in context.get("script_files", []):
        key = (script.filename or "", tuple(sorted(script.attributes.items())))
        if key not in seen:
            seen.add(key)
            scripts.append(script)
    context["script_files"] = scripts


def setup(app) -> dict:
    app.connect("html-page-context", unique_scripts, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
