"""Small pieces every widget of the course uses, the same on ipywidgets 7.7 (Colab) and 8.

* :func:`parse_number`: typed text to a float, or a message in the learner's language (never an
  exception).
* :func:`tooltip`: the keyword a hover text needs (``description_tooltip`` in 7, ``tooltip`` in 8).
  Otherwise ipywidgets' own ``IntSlider``, ``FloatLogSlider``, ``Dropdown``, ``Button`` and
  ``HTML`` behave the same in 7.7 and 8 when built with ``description=...`` and
  ``style={"description_width": "initial"}`` (``Label`` shows no HTML in 7: use ``HTML``).
* :class:`Message`: a line of text under the controls for errors and notes.
* :func:`figure_text`: draw a figure's text in the learner's language (Chinese and Korean with
  the CJK font mpteach ships, so no font needs to be installed).
* :func:`new_figure` and :class:`FigureView`: a matplotlib figure shown as a PNG ``Image`` widget.
  ``redraw()`` replaces the picture's bytes in one message, so nothing flickers (an ``Output``
  cleared and re-filled can), it needs no IPython display hooks, and the last picture is saved
  with the notebook's widget state, so a page without a kernel still shows it. Only the artists
  that change are redrawn over a saved background, which keeps a slider move quick.
* :class:`NumberInput`: a typed number plus a log-scale slider for its magnitude, kept in step.

>>> parse_number("2^-24")
(5.960464477539063e-08, '')
>>> parse_number("abc")[1]
"Not a number: 'abc'. Type a decimal number such as 0.1, 1e-5 or -65504."
"""

from __future__ import annotations

import html
import io
import math
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation

import ipywidgets as widgets
import PIL.Image
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from mpteach import figures, i18n

IPYWIDGETS_MAJOR = int(widgets.__version__.split(".")[0])
WEB_DATA_MIME = "application/vnd.mpteach.web-data+json"
"""The output entry with the data a widget drawn by the website needs when its arguments were
computed in the notebook (tools/build_site.py reads it; notebook front ends ignore it)."""

_POWER_OF_TWO = re.compile(r"([+-]?)2\s*(?:\^|\*\*)\s*\(?\s*([+-]?\d+)\s*\)?")


def parse_number(
    text: str,
    lang: str | None = None,
    low: float = -math.inf,
    high: float = math.inf,
    finite: bool = False,
) -> tuple[float | None, str]:
    """``(value, "")`` for a good entry, ``(None, message)`` otherwise; the message is in ``lang``.

    Accepts decimals (``0.1``, ``-1e-5``), powers of two (``2^-24``, ``2**10``), hexadecimal
    floats (``0x1p-14``), ``inf`` and ``nan`` (unless ``finite``). A finite entry that float64
    cannot hold (``1e400``, ``1e-400``) and a value outside ``[low, high]`` get a message.

    >>> parse_number(" -1e-5 ")
    (-1e-05, '')
    >>> parse_number("0x1p-14"), parse_number("inf")
    ((6.103515625e-05, ''), (inf, ''))
    >>> parse_number("1e400")[1]
    "Beyond float64: '1e400'. Type 0 or a number whose magnitude lies between 4.941e-324 and 1.798e+308."
    >>> parse_number("0", "es", low=1, high=2**24)[1]
    "Fuera de rango: '0'. Escribe un número entre 1 y 1.678e+07."
    """
    cleaned = text.strip().replace("\u2212", "-")  # a typographic minus sign counts as "-"
    try:
        if power := _POWER_OF_TWO.fullmatch(cleaned):
            exact = Decimal(-1 if power[1] == "-" else 1) * Decimal(2) ** int(power[2])
        elif cleaned.lower().lstrip("+-").startswith("0x"):
            exact = Decimal(float.fromhex(cleaned))
        else:
            exact = Decimal(cleaned)
        value = float(exact)
    except (InvalidOperation, ValueError, OverflowError):
        return None, i18n.t("common.invalid_number", lang, text=text)
    if exact.is_finite() and (math.isinf(value) or (value == 0 and exact != 0)):
        tiny, huge = math.ulp(0.0), sys.float_info.max
        return None, i18n.t(
            "common.number_beyond_float64", lang, text=text, tiny=f"{tiny:.4g}", huge=f"{huge:.4g}"
        )
    if (finite and not math.isfinite(value)) or not (low <= value <= high or math.isnan(value)):
        return None, i18n.t(
            "common.number_out_of_range", lang, text=text, low=f"{low:.4g}", high=f"{high:.4g}"
        )
    return value, ""


def tooltip(text: str) -> dict[str, str]:
    """Keyword arguments that give a control (not a ``Button``: it has ``tooltip`` in both) a
    hover text, on ipywidgets 7 and 8.

    >>> sorted(tooltip("hello").values())
    ['hello']
    """
    return {"tooltip": text} if IPYWIDGETS_MAJOR >= 8 else {"description_tooltip": text}


class Message(widgets.HTML):
    """A line of text under a widget's controls: empty when all is well.

    >>> m = Message()
    >>> m.show("Not a number: 'x'.")
    >>> m.text
    "Not a number: 'x'."
    >>> m.clear(); m.text
    ''
    """

    COLOURS = {"error": "#b00020", "note": "#555555"}

    def __init__(self) -> None:
        super().__init__(value="")
        self.text = ""

    def show(self, text: str, kind: str = "error") -> None:
        """Show ``text``, in red for ``kind="error"``, in grey for ``kind="note"``."""
        if kind not in self.COLOURS:
            raise ValueError(f"kind={kind!r} is not valid; choose one of 'error', 'note'.")
        self.text = text
        self.value = f'<span style="color:{self.COLOURS[kind]}">{html.escape(text)}</span>'

    def clear(self) -> None:
        self.text = ""
        self.value = ""


@contextmanager
def figure_text(lang: str | None) -> Iterator[str]:
    """Create a figure's text inside this block; it yields the language to write it in.

    That is ``lang`` (default: the current language). Chinese and Korean are drawn with the CJK
    font mpteach ships (:mod:`mpteach.figures`), which it registers with matplotlib for good:
    fonts are looked up when the figure is drawn, after the block, when the notebook shows it.

    >>> with figure_text("ko") as lang:
    ...     lang
    'ko'
    """
    lang = lang or i18n.get_language()
    if lang in figures.FONT_LANGUAGES:
        figures.use_packaged_font()
    yield lang


def new_figure(width: float, height: float) -> Figure:
    """A matplotlib figure (inches) that lives outside pyplot.

    pyplot would keep every figure alive and, in a notebook, show it once more at the end of the
    cell; a plain ``Figure`` with its own Agg canvas does neither.
    """
    figure = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(figure)
    return figure


class FigureView(widgets.Image):
    """A matplotlib figure shown in a widget; change its artists, then call :meth:`redraw`.

    ``changing`` names the artists that updates touch. Everything else is drawn once and kept
    as a background; a redraw pastes it back and draws only those artists (matplotlib's
    "blitting"), which saves most of the time a full draw spends on ticks and labels. Artists
    not listed must not change after the first draw.

    >>> figure = new_figure(2, 1)
    >>> label = figure.text(0.5, 0.5, "before")
    >>> view = FigureView(figure, changing=[label])
    >>> bytes(view.value[:4])
    b'\x89PNG'
    >>> first = bytes(view.value)
    >>> label.set_text("after"); view.redraw()
    >>> bytes(view.value) != first
    True
    """

    def __init__(self, figure: Figure, changing: Sequence[Artist] = ()) -> None:
        super().__init__(format="png")
        self.figure = figure
        self.changing = list(changing)
        self._background = None
        self.redraw()

    def redraw(self, full: bool = False) -> None:
        """Show the figure's current state; ``full=True`` draws the background again too (for
        updates that move axis limits or change other artists not listed in ``changing``)."""
        canvas = self.figure.canvas
        if full or self._background is None:
            for artist in self.changing:
                artist.set_animated(True)  # left out of full draws: the background
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
        else:
            canvas.restore_region(self._background)
        for artist in self.changing:
            self.figure.draw_artist(artist)
        buffer = io.BytesIO()  # compress_level 1: several times faster than the default 6
        PIL.Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba()).save(
            buffer, format="png", compress_level=1
        )
        self.value = buffer.getvalue()


class NumberInput(widgets.VBox):
    """A typed number and a log-scale slider for its magnitude, kept in step.

    Typing sets the number (Enter or leaving the box); moving the slider sets ``|x|`` and keeps
    the sign. ``on_change(x)`` runs once per accepted change; a bad entry leaves the number as it
    was and shows a message under the controls.

    >>> seen = []
    >>> box = NumberInput(0.5, seen.append)
    >>> box.text.value = "abc"
    >>> box.number, box.message.text[:13]
    (0.5, 'Not a number:')
    >>> box.text.value = "-2^-10"
    >>> box.number, box.slider.value, box.message.text
    (-0.0009765625, 0.0009765625, '')
    >>> box.slider.value = 1000.0
    >>> seen
    [-0.0009765625, -1000.0]
    """

    def __init__(
        self,
        number: float,
        on_change: Callable[[float], None],
        lang: str | None = None,
        description: str = "x =",
        slider_description: str = "|x|",
        exponents: tuple[int, int] = (-46, 39),
    ) -> None:
        self.lang = lang
        self.on_change = on_change
        self.number = float(number)
        self.text = widgets.Text(
            value=repr(self.number),
            description=description,
            continuous_update=False,
            layout=widgets.Layout(width="260px"),
        )
        self.slider = widgets.FloatLogSlider(
            value=1.0,
            base=10,
            min=exponents[0],
            max=exponents[1],
            step=0.01,
            description=slider_description,
            readout_format=".3e",
            style={"description_width": "initial"},
            layout=widgets.Layout(width="520px"),
        )
        self.message = Message()
        self._quiet = False
        self._show_on_slider(self.number)
        self.text.observe(self._typed, names="value")
        self.slider.observe(self._slid, names="value")
        super().__init__(children=[widgets.HBox([self.text, self.slider]), self.message])

    def set_number(self, number: float) -> None:
        """Set the number from code (or a step button): both controls follow."""
        self._accept(float(number), typed=False)

    def _typed(self, change: dict) -> None:
        if self._quiet:
            return
        number, problem = parse_number(change["new"], self.lang)
        if number is None:
            self.message.show(problem)
            return
        self._accept(number, typed=True)

    def _slid(self, change: dict) -> None:
        if self._quiet:
            return
        magnitude = float(f"{change['new']:.4g}")  # what the slider's readout shows
        self._accept(math.copysign(magnitude, self.number), typed=False)

    def _accept(self, number: float, typed: bool) -> None:
        self.number = number
        self.message.clear()
        self._quiet = True
        try:
            if not typed:
                self.text.value = repr(number)
            self._show_on_slider(number)
        finally:
            self._quiet = False
        self.on_change(number)

    def _show_on_slider(self, number: float) -> None:
        low, high = self.slider.base**self.slider.min, self.slider.base**self.slider.max
        if low <= abs(number) <= high:  # zero, inf, NaN and far-out values leave it where it is
            self.slider.value = abs(number)
