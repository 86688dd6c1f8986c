"""Keep the translated notebooks in step with English.

Every translated markdown cell records the hash of the English text it translates
(``metadata.mpteach.source_hash``); code cells are copies of English (the setup cell differs only
in its ``lang="..."``). So a changed English cell is *detected*, never discovered by readers.

    python tools/translations.py status [LANG ...]          # stale, missing and extra cells per notebook
    python tools/translations.py sync [--no-execute] [--chapter CHAPTER ...] [LANG ...]
        # copy English code cells into every translation (never touches prose), add new cells
        # (English text, marked stale), drop removed ones, then re-execute the changed notebooks
    python tools/translations.py start LANG CHAPTER          # a new translation: English text, all stale
    python tools/translations.py apply LANG CHAPTER FILE.json   # {cell id: translated markdown}; records hashes
    python tools/translations.py anchors                     # give English headings stable anchors

The checks behind ``status`` are the ones tests/test_translations.py runs.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clean_notebooks import dumps  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
TRANSLATIONS = ("zh", "es", "ko", "ru")
SETUP_LANG = re.compile(r'lang="[a-z]{2}"')
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
HEADING = re.compile(r"^#{2,3} ")


def source(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


def source_hash(cell: dict) -> str:
    """The hash a translation records: of the English cell's text, whitespace at the ends ignored."""
    return hashlib.sha256(source(cell).strip().encode()).hexdigest()[:16]


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def save(path: Path, nb: dict) -> None:
    path.write_text(dumps(nb), encoding="utf-8")


def chapters() -> list[str]:
    return sorted(p.stem for p in (NOTEBOOKS / "en").glob("*.ipynb"))


def localized_setup(code: str, lang: str) -> str:
    return SETUP_LANG.sub(f'lang="{lang}"', code)


def is_setup(cell: dict) -> bool:
    return cell.get("metadata", {}).get("mpteach", {}).get("role") == "setup"


def expected_code(english_cell: dict, lang: str) -> str:
    code = source(english_cell)
    return localized_setup(code, lang) if is_setup(english_cell) else code


def problems(lang: str, chapter: str) -> list[str]:
    """Everything that keeps ``notebooks/LANG/CHAPTER.ipynb`` from being a current translation."""
    en_path, path = NOTEBOOKS / "en" / f"{chapter}.ipynb", NOTEBOOKS / lang / f"{chapter}.ipynb"
    if not path.exists():
        return [f"{path.relative_to(ROOT)}: missing"]
    english, nb = load(en_path)["cells"], load(path)["cells"]
    found: list[str] = []
    en_ids, ids = [c["id"] for c in english], [c["id"] for c in nb]
    if en_ids != ids:
        missing = [i for i in en_ids if i not in ids]
        extra = [i for i in ids if i not in en_ids]
        found.append(
            f"cells differ from English: missing {missing}, extra {extra}, or order changed"
        )
    by_id = {c["id"]: c for c in nb}
    for en_cell in english:
        cell = by_id.get(en_cell["id"])
        if cell is None:
            continue
        where = f"cell {en_cell['id']!r}"
        if cell["cell_type"] != en_cell["cell_type"]:
            found.append(f"{where}: {cell['cell_type']} here, {en_cell['cell_type']} in English")
        elif cell["cell_type"] == "code":
            if source(cell) != expected_code(en_cell, lang):
                found.append(
                    f"{where}: code differs from English (run `tools/translations.py sync`)"
                )
        elif cell.get("metadata", {}).get("mpteach", {}).get("source_hash") != source_hash(en_cell):
            found.append(
                f"{where}: stale — the English text changed since it was translated, or it was never translated"
            )
    return [f"{path.relative_to(ROOT)}: {p}" for p in found]


def sync(lang: str, chapter: str) -> bool:
    """Bring structure and code in step with English; prose is never rewritten. True if changed."""
    en_path, path = NOTEBOOKS / "en" / f"{chapter}.ipynb", NOTEBOOKS / lang / f"{chapter}.ipynb"
    if not path.exists():
        return False
    english, nb = load(en_path), load(path)
    old = {c["id"]: copy.deepcopy(c) for c in nb["cells"]}
    cells = []
    for en_cell in english["cells"]:
        cell = old.get(en_cell["id"])
        if cell is None or cell["cell_type"] != en_cell["cell_type"]:
            cell = copy.deepcopy(en_cell)  # new cell: English text until translated (stale)
        recorded = cell.get("metadata", {}).get("mpteach", {}).get("source_hash")
        cell["metadata"] = copy.deepcopy(en_cell.get("metadata", {}))
        if cell["cell_type"] == "code":
            code = expected_code(en_cell, lang)
            if source(cell) != code:
                cell["source"], cell["outputs"], cell["execution_count"] = code, [], None
        elif recorded:
            cell["metadata"].setdefault("mpteach", {})["source_hash"] = recorded
        cells.append(cell)
    if cells == nb["cells"]:
        return False
    nb["cells"] = cells
    save(path, nb)
    return True


def start(lang: str, chapter: str) -> Path:
    """Create a new translation from English: code localised, every markdown cell stale."""
    path = NOTEBOOKS / lang / f"{chapter}.ipynb"
    if path.exists():
        raise SystemExit(f"{path} exists already; use `apply` or `sync`")
    nb = load(NOTEBOOKS / "en" / f"{chapter}.ipynb")
    for cell in nb["cells"]:
        if cell["cell_type"] == "code" and is_setup(cell):
            cell["source"] = localized_setup(source(cell), lang)
        elif cell["cell_type"] == "markdown":
            source_text = source(cell).replace("/notebooks/en/", f"/notebooks/{lang}/")
            cell["source"] = source_text
    path.parent.mkdir(parents=True, exist_ok=True)
    save(path, nb)
    return path


def apply(lang: str, chapter: str, texts: dict[str, str]) -> list[str]:
    """Write translated markdown ``texts`` (by cell id) and record which English text each translates."""
    path = NOTEBOOKS / lang / f"{chapter}.ipynb"
    english = {c["id"]: c for c in load(NOTEBOOKS / "en" / f"{chapter}.ipynb")["cells"]}
    nb = load(path)
    unknown = [i for i in texts if i not in english or english[i]["cell_type"] != "markdown"]
    if unknown:
        raise SystemExit(f"not markdown cells of the English {chapter}: {unknown}")
    for cell in nb["cells"]:
        if cell["id"] in texts:
            cell["source"] = texts[cell["id"]].strip("\n")
            meta = cell.setdefault("metadata", {}).setdefault("mpteach", {})
            meta["source_hash"] = source_hash(english[cell["id"]])
    save(path, nb)
    return [  # cells that still translate no English text or an older one
        c["id"]
        for c in nb["cells"]
        if english.get(c["id"], {}).get("cell_type") == "markdown"
        and c.get("metadata", {}).get("mpteach", {}).get("source_hash")
        != source_hash(english[c["id"]])
    ]


def slug(heading: str) -> str:
    words = re.sub(r"[`*_$\\]|<[^>]+>", "", heading).lower()
    return re.sub(r"[^a-z0-9]+", "-", words).strip("-") or "section"


def add_anchors(chapter: str) -> bool:
    """Append ``<a id="..."></a>`` to each English ``##``/``###`` heading that has none.

    Translations keep these ids, so links into a section survive in every language.
    """
    path = NOTEBOOKS / "en" / f"{chapter}.ipynb"
    nb = load(path)
    taken = {m for c in nb["cells"] for m in ANCHOR.findall(source(c))}
    changed = False
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        lines = source(cell).split("\n")
        for i, line in enumerate(lines):
            if HEADING.match(line) and not ANCHOR.search(line):
                base = name = slug(HEADING.sub("", line))
                n = 2
                while name in taken:
                    name, n = f"{base}-{n}", n + 1
                taken.add(name)
                lines[i] = f'{line} <a id="{name}"></a>'
                changed = True
        cell["source"] = "\n".join(lines)
    if changed:
        save(path, nb)
    return changed


def execute(paths: list[Path]) -> None:
    if paths:
        subprocess.run(
            [sys.executable, str(ROOT / "tools" / "execute_notebooks.py"), *map(str, paths)],
            check=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_status = sub.add_parser("status")
    p_status.add_argument("langs", nargs="*", help=f"any of {TRANSLATIONS} (default: all)")
    p_sync = sub.add_parser("sync")
    p_sync.add_argument("--no-execute", action="store_true")
    p_sync.add_argument(
        "--chapter", action="append", help="only this chapter, e.g. 05_first_model (repeatable)"
    )
    p_sync.add_argument("langs", nargs="*", help=f"any of {TRANSLATIONS} (default: all)")
    p_start = sub.add_parser("start")
    p_start.add_argument("lang", choices=TRANSLATIONS)
    p_start.add_argument("chapter")
    sub.add_parser("anchors")
    p_apply = sub.add_parser("apply")
    p_apply.add_argument("lang", choices=TRANSLATIONS)
    p_apply.add_argument("chapter")
    p_apply.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    langs = getattr(args, "langs", None) or list(TRANSLATIONS)
    if bad := [lang for lang in langs if lang not in TRANSLATIONS]:
        parser.error(f"unknown language(s) {bad}; choose from {TRANSLATIONS}")
    named = getattr(args, "chapter", None) or []  # sync: a list; start and apply: one chapter
    if bad := [ch for ch in ([named] if isinstance(named, str) else named) if ch not in chapters()]:
        parser.error(f"unknown chapter(s) {bad}; choose from {chapters()}")

    if args.command == "status":
        found = [p for lang in langs for ch in chapters() for p in problems(lang, ch)]
        print("\n".join(found) or "all translations are current")
        return 1 if found else 0
    if args.command == "sync":
        changed = [
            NOTEBOOKS / lang / f"{ch}.ipynb"
            for lang in langs
            for ch in chapters()
            if (not args.chapter or ch in args.chapter) and sync(lang, ch)
        ]
        print("\n".join(f"synced: {p.relative_to(ROOT)}" for p in changed) or "nothing to sync")
        if not args.no_execute:
            execute(changed)
        return 0
    if args.command == "anchors":
        changed = [ch for ch in chapters() if add_anchors(ch)]
        print(
            "\n".join(f"anchored: notebooks/en/{ch}.ipynb" for ch in changed)
            or "every heading has an anchor"
        )
        return 0
    if args.command == "start":
        print(f"created {start(args.lang, args.chapter).relative_to(ROOT)}")
        return 0
    left = apply(args.lang, args.chapter, json.loads(args.file.read_text(encoding="utf-8")))
    print(f"applied; markdown cells still untranslated: {left or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
