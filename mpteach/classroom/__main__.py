"""``python -m mpteach.classroom``: copies, grade, measure, plan (see ``--help`` of each)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mpteach.classroom import copies as ex
from mpteach.classroom import grade, timing

GUIDE = "instructors.md"
DEFAULT_KEYS = "classroom/exercises.yml"


def _book(root: Path) -> tuple[list[str], list[str]]:
    """Languages and chapters from the repository's book.yml."""
    import yaml

    book = yaml.safe_load((root / "book.yml").read_text(encoding="utf-8"))
    return [lang["code"] for lang in book["languages"]], list(book["chapters"])


def copies(args: argparse.Namespace) -> int:
    import nbformat

    root, out = Path(args.root), Path(args.out)
    langs, chapters = _book(root)
    keys = ex.load_keys(root / "classroom" / "exercises.yml")
    for lang in args.lang or langs:
        for chapter in chapters:
            nb = nbformat.read(root / "notebooks" / lang / f"{chapter}.ipynb", as_version=4)
            if args.nbgrader:
                made = {
                    f"source/{chapter}/{chapter}.ipynb": ex.nbgrader_source(
                        nb, keys[chapter], chapter
                    )
                }
            else:
                made = {
                    f"student/{chapter}.ipynb": ex.student_copy(nb),
                    f"key/{chapter}.ipynb": ex.answer_key(nb, keys[chapter]),
                }
            for name, notebook in made.items():
                target = out / lang / name
                target.parent.mkdir(parents=True, exist_ok=True)
                nbformat.write(nbformat.from_dict(notebook), target)
    print(f"wrote {out}/<lang>/" + ("source/<chapter>/" if args.nbgrader else "{student,key}/"))
    return 0


def grade_command(args: argparse.Namespace) -> int:
    keys = None
    if args.keys is not None:
        if not Path(args.keys).exists():
            sys.exit(f"grade: --keys {args.keys!r} does not exist")
        keys = ex.load_keys(args.keys)
    elif Path(DEFAULT_KEYS).exists():
        keys = ex.load_keys(DEFAULT_KEYS)
    else:
        print(
            f"grade: no {DEFAULT_KEYS} here (run from the repository's root, or give --keys):"
            " exercises a submission lacks are not reported",
            file=sys.stderr,
        )
    rows = grade.grade_folder(
        args.submissions, args.out, limit_s=args.limit, keys=keys, jobs=args.jobs
    )
    counts = {s: sum(r.status == s for r in rows) for s in grade.STATUSES}
    print(f"{args.out}: {len(rows)} rows; " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
    return 0


def measure(args: argparse.Namespace) -> int:
    root = Path(args.root)
    _, chapters = _book(root)
    paths = [root / "notebooks" / "en" / f"{c}.ipynb" for c in args.chapters or chapters]
    record = timing.measure(paths, args.out)
    for chapter, result in record["chapters"].items():
        print(f"{chapter}: {result['seconds']} s, peak {result['peak_memory_mib']} MiB")
    return 0


def guide_text(root: Path, lang: str) -> str:
    """The instructor's guide in ``lang`` with its timings table as the records say it should be."""
    import yaml

    _, chapters = _book(root)
    path = root / "notebooks" / lang / GUIDE
    timings = json.loads((root / "classroom" / "timings.json").read_text(encoding="utf-8"))
    keys = ex.load_keys(root / "classroom" / "exercises.yml")
    plan = yaml.safe_load((root / "classroom" / "plan.yml").read_text(encoding="utf-8"))
    rows = timing.timings_rows(
        lang, chapters, root / "notebooks", timings, keys, plan["prerequisites"]
    )
    return timing.with_rows(path.read_text(encoding="utf-8"), rows)


def plan(args: argparse.Namespace) -> int:
    root = Path(args.root)
    langs, _ = _book(root)
    stale = []
    for lang in langs:
        path = root / "notebooks" / lang / GUIDE
        if not path.exists():
            print(f"no guide yet: {path}")
            continue
        text = guide_text(root, lang)
        if text != path.read_text(encoding="utf-8"):
            stale.append(str(path))
            if args.write:
                path.write_text(text, encoding="utf-8")
    verb = "rewrote" if args.write else "out of date"
    print(f"{verb}: {', '.join(stale)}" if stale else "every guide's timings table is up to date")
    return 1 if stale and not args.write else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mpteach.classroom", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("copies", help="student copies and answer keys (or nbgrader sources)")
    p.add_argument("--root", default=".", help="the course repository (default: .)")
    p.add_argument(
        "--out", default="_build/classroom", help="folder to write (default: %(default)s)"
    )
    p.add_argument("--lang", nargs="*", help="languages (default: every language of book.yml)")
    p.add_argument("--nbgrader", action="store_true", help="nbgrader source notebooks instead")
    p.set_defaults(run=copies)

    p = commands.add_parser("grade", help="run submitted notebooks, write one CSV row per exercise")
    p.add_argument("submissions", help="folder of notebooks: <student>/.../x.ipynb or x.ipynb")
    p.add_argument("--out", default="grades.csv", help="CSV to write (default: %(default)s)")
    p.add_argument("--limit", type=float, default=300, help="seconds per notebook (default: 300)")
    p.add_argument("--jobs", type=int, default=1, help="notebooks at a time (default: 1)")
    p.add_argument(
        "--keys",
        help=f"the course's exercise list, to report missing exercises (default: {DEFAULT_KEYS})",
    )
    p.set_defaults(run=grade_command)

    p = commands.add_parser("measure", help="time each English chapter here, in a fresh kernel")
    p.add_argument("--root", default=".", help="the course repository (default: .)")
    p.add_argument(
        "--out",
        default="classroom/timings.json",
        help="the record to write (default: %(default)s, the one the guide's table shows)",
    )
    p.add_argument("chapters", nargs="*", help="chapters (default: every chapter of book.yml)")
    p.set_defaults(run=measure)

    p = commands.add_parser("plan", help="check (or --write) the guides' timings tables")
    p.add_argument("--root", default=".", help="the course repository (default: .)")
    p.add_argument("--write", action="store_true", help="rewrite the tables that are out of date")
    p.set_defaults(run=plan)

    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
