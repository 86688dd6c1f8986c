"""The book as ``book.yml`` defines it, and the launch links built from it, in one place.

The website's launch buttons and the notebooks' Colab badges both come from here, so a test
can hold the notebooks to the same URLs the site shows.

>>> book = load()
>>> [lang.code for lang in book.languages]
['en', 'zh', 'es', 'ko', 'ru']
>>> book.colab_url("en", "01_float_formats")
'https://colab.research.google.com/github/mpteach/mpteach/blob/main/notebooks/en/01_float_formats.ipynb'
>>> book.binder_url("es", "06_loss_scaling")
'https://mybinder.org/v2/gh/mpteach/mpteach/main?urlpath=lab/tree/notebooks/es/06_loss_scaling.ipynb'
>>> book.colab_url("fr", "01_float_formats")
Traceback (most recent call last):
...
ValueError: lang='fr' is not one of ('en', 'zh', 'es', 'ko', 'ru')
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BOOK_YML = ROOT / "book.yml"
GITHUB = "https://github.com/"


@dataclass(frozen=True)
class Language:
    """One language of the course: its code (``"zh"``) and its name in itself (``"中文"``)."""

    code: str
    name: str


@dataclass(frozen=True)
class Book:
    """Title, languages, chapter order, repository and launch services of the course."""

    title: str
    author: str
    repository_url: str
    branch: str
    colab: str
    binder: str
    languages: tuple[Language, ...]
    chapters: tuple[str, ...]
    pages: tuple[str, ...] = ()
    """Markdown pages beside the chapters (``notebooks/<lang>/<page>.md``): the instructor's guide."""

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.languages)

    @property
    def github_repo(self) -> str:
        """``owner/name`` of the GitHub repository, as Colab and Binder address it."""
        return self.repository_url.removeprefix(GITHUB).strip("/")

    def language(self, code: str) -> Language:
        self._check("lang", code, self.codes)
        return next(lang for lang in self.languages if lang.code == code)

    def notebook_path(self, lang: str, chapter: str) -> str:
        """The notebook's path in the repository, e.g. ``notebooks/en/01_float_formats.ipynb``."""
        self._check("lang", lang, self.codes)
        self._check("chapter", chapter, self.chapters)
        return f"notebooks/{lang}/{chapter}.ipynb"

    def colab_url(self, lang: str, chapter: str) -> str:
        """Colab opens the notebook straight from GitHub, at the book's branch."""
        path = self.notebook_path(lang, chapter)
        return f"{self.colab}/github/{self.github_repo}/blob/{self.branch}/{path}"

    def binder_url(self, lang: str, chapter: str) -> str:
        """Binder builds the repository from ``environment.yml`` and opens the notebook in JupyterLab."""
        path = self.notebook_path(lang, chapter)
        return f"{self.binder}/v2/gh/{self.github_repo}/{self.branch}?urlpath=lab/tree/{path}"

    def colab_badge(self, lang: str, chapter: str) -> str:
        """The markdown badge the first cell of every notebook carries."""
        image = f"{self.colab}/assets/colab-badge.svg"
        return f"[![Open In Colab]({image})]({self.colab_url(lang, chapter)})"

    @staticmethod
    def _check(argument: str, value: str, choices: tuple[str, ...]) -> None:
        if value not in choices:
            raise ValueError(f"{argument}={value!r} is not one of {choices}")


def load(path: Path = BOOK_YML) -> Book:
    """Read ``book.yml``; a missing key or a repository outside GitHub is a clear error."""
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    try:
        repository, launch = data["repository"], data["launch"]
        book = Book(
            title=data["title"],
            author=data["author"],
            repository_url=repository["url"],
            branch=repository["branch"],
            colab=launch["colab"].rstrip("/"),
            binder=launch["binder"].rstrip("/"),
            languages=tuple(Language(lang["code"], lang["name"]) for lang in data["languages"]),
            chapters=tuple(data["chapters"]),
            pages=tuple(data.get("pages", ())),
        )
    except KeyError as missing:
        raise ValueError(f"{path}: missing key {missing}") from None
    if not book.repository_url.startswith(GITHUB):
        raise ValueError(
            f"{path}: repository.url must start with {GITHUB}, not {book.repository_url!r}"
        )
    return book
