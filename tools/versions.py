"""Which installed packages differ from the set the suite last passed with.

A fresh install resolves every dependency anew, so a test that fails after a quiet upstream
release (ml_dtypes 0.7 rounding float64 once, say) fails with nothing in the project changed.
This names the packages that moved, so the failure points at its cause:

    python tools/versions.py diff [FILE]     # packages whose version differs from FILE
    python tools/versions.py record [FILE]   # write this environment's versions to FILE
    python tools/versions.py pinned FILE     # fail if an installed package FILE pins is at another version

FILE defaults to ``tests/tested-versions.txt``: the versions of the main environment the last
time ``bash scripts/test.sh`` passed on a fresh resolve (``bash scripts/test.sh fresh`` records it).

>>> changed({"numpy": "2.1.3", "ml-dtypes": "0.6.0"}, {"numpy": "2.1.3", "ml-dtypes": "0.7.0"})
['ml-dtypes 0.6.0 -> 0.7.0']
>>> changed({"keras": "3.15.1"}, {"jax": "0.10.2"})
['jax (new) 0.10.2', 'keras 3.15.1 (gone)']
>>> off_pins({"numpy": "2.1.3", "pandas": "2.2.3"}, {"numpy": "2.4.6", "keras": "3.13.2"})
['numpy 2.4.6 (pinned: 2.1.3)']
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "tests" / "tested-versions.txt"
HEADER = (
    "# The main environment's packages when `bash scripts/test.sh` last passed on a fresh resolve\n"
    "# (`bash scripts/test.sh fresh` writes this file; commit it with the change that made it pass).\n"
)


def normalize(name: str) -> str:
    """A package name as PyPI compares it (PEP 503): ``ML_Dtypes`` and ``ml-dtypes`` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed() -> dict[str, str]:
    """Every distribution in this environment but mpteach itself: ``{name: version}``."""
    versions = {normalize(d.metadata["Name"]): d.version for d in metadata.distributions()}
    versions.pop("mpteach", None)
    return dict(sorted(versions.items()))


def read(path: Path) -> dict[str, str]:
    """``name==version`` lines of ``path`` (comments and blank lines skipped)."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[normalize(name)] = version.strip()
    return pins


def changed(recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """One line per package that is new, gone, or at another version than recorded."""
    lines = []
    for name in sorted(set(recorded) | set(now)):
        was, is_ = recorded.get(name), now.get(name)
        if was == is_:
            continue
        if was is None:
            lines.append(f"{name} (new) {is_}")
        elif is_ is None:
            lines.append(f"{name} {was} (gone)")
        else:
            lines.append(f"{name} {was} -> {is_}")
    return lines


def off_pins(pins: dict[str, str], now: dict[str, str]) -> list[str]:
    """The installed packages of ``pins`` at another version (packages not installed are fine)."""
    return [f"{n} {now[n]} (pinned: {v})" for n, v in sorted(pins.items()) if now.get(n, v) != v]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("diff", "record", "pinned"))
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    args = parser.parse_args(argv)
    if args.command == "record":
        lines = [f"{name}=={version}" for name, version in installed().items()]
        args.file.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
        print(f"recorded {len(lines)} packages in {args.file}")
        return 0
    if args.command == "pinned":
        off = off_pins(read(args.file), installed())
        if off:
            print(f"not the versions {args.file.name} pins: " + ", ".join(off))
        return 1 if off else 0
    if not args.file.exists():
        print(f"no record of tested versions at {args.file}")
        return 0
    lines = changed(read(args.file), installed())
    if lines:
        print(f"packages that differ from the last passing set ({args.file.name}):")
        print("\n".join(f"  {line}" for line in lines))
    else:
        print(f"every package is at the version of the last passing set ({args.file.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
