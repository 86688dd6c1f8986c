"""FloatExplorer: one real number in every format side by side, bits and all.

Type a number or move the log-scale slider; flip any bit or step by one ULP of a chosen format
(float8 included). For every format you see the colour-coded bits with the formula they encode,
the stored value (hover: its exact decimal expansion), the absolute and relative error, the
neighbours one ULP down and up, and a status badge (normal, subnormal, underflow to zero,
overflow to inf or NaN, ...).

The numbers come from :func:`mpteach.formats.represent_all`; :func:`table_html` and
:func:`draw_bits` turn them into the live table and the static figure.

>>> w = FloatExplorer(1e-5, lang="en")
>>> [r.status for r in w.result][2:4]
['normal', 'subnormal']
>>> w.value_text.value = "65520"
>>> w.result[3].status
'overflow_inf'
>>> w.step(-1)                              # one float16 ULP down: the largest float16
>>> w.x
65504.0
"""

from __future__ import annotations

import html
import math

import ipywidgets as widgets
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from mpteach import formats as float_formats
from mpteach import i18n
from mpteach.formats import Representation
from mpteach.widgets._common import NumberInput, figure_text, new_figure

FIELD_COLOURS = {"sign": "#9ecae1", "exponent": "#a1d99b", "mantissa": "#fdd0a2"}
"""Background of each bit field (sign, exponent, mantissa), in the table and the figure."""

STATUS_COLOURS = {
    "zero": "#969696",
    "normal": "#31a354",
    "subnormal": "#e6a100",
    "underflow_to_zero": "#de2d26",
    "overflow_inf": "#756bb1",
    "overflow_nan": "#756bb1",
    "saturated": "#d95f0e",
    "inf": "#636363",
    "nan": "#636363",
}
"""Badge colour of each status of :data:`mpteach.formats.STATUSES`."""


def _number(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.3g}"


def _bits_html(r: Representation, lang: str | None) -> str:
    fields = ("sign", "exponent", "mantissa")
    spans = "".join(
        f'<span style="background:{FIELD_COLOURS[name]};padding:0 1px" '
        f'title="{html.escape(i18n.t(f"formats.field.{name}", lang))}">{bits}</span>'
        for name, bits in zip(fields, r.bits, strict=True)
    )
    return (
        f'<span style="font-family:monospace">{spans}</span><br>'
        f'<small style="color:#555">{html.escape(r.formula)}</small>'
    )


def table_html(representations: list[Representation], lang: str | None = None) -> str:
    """The live table: one row per format (bits, stored value, errors, neighbours, status).

    >>> text = table_html(float_formats.represent_all(70000.0, ("float32", "float16")), "en")
    >>> "overflow → inf" in text and "01000111100010001011100000000000" not in text
    True
    """
    columns = ("format", "bits", "stored", "abs_error", "rel_error", "neighbours", "status")
    head = "".join(
        f'<th style="text-align:left;padding:2px 8px">'
        f"{html.escape(i18n.t(f'formats.column.{c}', lang))}</th>"
        for c in columns
    )
    rows = []
    for r in representations:
        badge = (
            f'<span style="background:{STATUS_COLOURS[r.status]};color:white;'
            f'border-radius:4px;padding:1px 6px">'
            f"{html.escape(i18n.t(f'formats.status.{r.status}', lang))}</span>"
        )
        cells = (
            f"<b>{r.fmt}</b>",
            _bits_html(r, lang),
            f'<span title="{html.escape(r.exact)}">{html.escape(repr(r.stored))}</span>',
            _number(r.abs_error),
            _number(r.rel_error),
            f"{r.below!r} / {r.above!r}",  # every digit: float64's neighbours differ late
            badge,
        )
        rows.append(
            "<tr>" + "".join(f'<td style="padding:2px 8px">{c}</td>' for c in cells) + "</tr>"
        )
    return f'<table style="border-collapse:collapse"><tr>{head}</tr>{"".join(rows)}</table>'


def draw_bits(representations: list[Representation], lang: str | None = None) -> Figure:
    """The static figure: each format's bits as coloured cells, with stored value and status.

    >>> fig = draw_bits(float_formats.represent_all(0.1), "en")
    >>> len(fig.axes), len(fig.axes[0].patches)        # one cell per bit of the six formats
    (1, 144)
    """
    with figure_text(lang) as lang:
        rows = len(representations)
        height = 0.45 * rows + 0.7
        figure = new_figure(13, height)
        axes = figure.add_axes((0.01, 0.02, 0.98, 1 - 0.7 / height))
        longest = max(len("".join(r.bits)) for r in representations)
        for row, r in enumerate(representations):
            y = rows - 1 - row
            axes.text(-1, y + 0.4, r.fmt, ha="right", va="center", fontsize=9, family="monospace")
            column = 0
            for name, bits in zip(("sign", "exponent", "mantissa"), r.bits, strict=True):
                for bit in bits:
                    cell = Rectangle((column, y), 0.92, 0.8, color=FIELD_COLOURS[name], lw=0)
                    axes.add_patch(cell)
                    axes.text(column + 0.46, y + 0.4, bit, ha="center", va="center", fontsize=6)
                    column += 1
            status = i18n.t(f"formats.status.{r.status}", lang)
            label = f"{r.stored!r}   {status}"
            colour = STATUS_COLOURS[r.status]
            axes.text(longest + 1, y + 0.4, label, va="center", fontsize=9, color=colour)
        axes.set_xlim(-12, longest + 30)
        axes.set_ylim(-0.2, rows)
        axes.axis("off")
        x = representations[0].x if representations else math.nan
        figure.suptitle(i18n.t("formats.explorer.title", lang, x=repr(x)), x=0.02, ha="left")
        fields = ("sign", "exponent", "mantissa")
        handles = [Patch(color=FIELD_COLOURS[name]) for name in fields]
        labels = [i18n.t(f"formats.field.{name}", lang) for name in fields]
        figure.legend(handles, labels, loc="upper right", ncol=3, fontsize=9, frameon=False)
    return figure


class FloatExplorer(widgets.VBox):
    """One number in every format, live: type it, slide its magnitude, flip a bit, step by one ULP.

    ``lang=None`` uses :func:`mpteach.i18n.get_language`. ``result`` holds the last
    :class:`mpteach.formats.Representation` of each format; :meth:`figure` draws them statically.
    """

    def __init__(
        self,
        x: float = 0.1,
        formats: tuple[str, ...] = float_formats.FORMAT_NAMES,
        step_format: str = "float16",
        lang: str | None = None,
    ) -> None:
        self.lang = lang or i18n.get_language()
        self.formats_shown = tuple(float_formats.float_format(f).name for f in formats)
        float_formats.float_format(step_format)  # a clear error for a bad name
        t = self._t
        self.input = NumberInput(x, self._update, self.lang, t("number"), t("magnitude"))
        self.value_text, self.slider, self.message = (
            self.input.text,
            self.input.slider,
            self.input.message,
        )
        self.step_format = widgets.Dropdown(
            options=list(float_formats.FORMAT_NAMES),
            value=step_format,
            description=t("step_format"),
            layout=widgets.Layout(width="240px"),
        )
        self.down_button = widgets.Button(
            description=t("step_down"), tooltip=t("step_down_tooltip")
        )
        self.up_button = widgets.Button(description=t("step_up"), tooltip=t("step_up_tooltip"))
        self.down_button.on_click(lambda _: self.step(-1))
        self.up_button.on_click(lambda _: self.step(+1))
        self.saturate = widgets.Checkbox(value=False, description=t("saturate"), indent=False)
        self.saturate.observe(lambda _: self._update(self.x), names="value")
        self.bits = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.step_format.observe(lambda _: self._update(self.x), names="value")
        self.table = widgets.HTML()
        caption = widgets.HTML(f"<small>{html.escape(t('caption'))}</small>")
        self.result: list[Representation] = []
        steps = widgets.HBox([self.step_format, self.down_button, self.up_button, self.saturate])
        super().__init__(children=[self.input, steps, self.bits, self.table, caption])
        self._update(self.x)

    def _t(self, name: str, **values: object) -> str:
        return i18n.t(f"formats.explorer.{name}", self.lang, **values)

    @property
    def x(self) -> float:
        """The number being explored (float64)."""
        return self.input.number

    def set_x(self, x: float) -> None:
        """Explore ``x``: the text box and the slider follow."""
        self.input.set_number(x)

    def step(self, direction: int) -> None:
        """Move ``x`` one ULP of the chosen format down (``-1``) or up (``+1``)."""
        if direction not in (-1, 1):
            raise ValueError(f"direction={direction!r} is not valid; choose -1 or +1.")
        move = float_formats.next_up if direction > 0 else float_formats.next_down
        self.set_x(float(move(self.x, self.step_format.value)))

    def flip(self, position: int) -> None:
        """Flip one bit of ``x`` stored in the chosen format (0: the sign bit, on the left)."""
        f = float_formats.float_format(self.step_format.value)
        if not 0 <= position < f.bits:
            raise ValueError(f"position={position!r} is not valid; choose 0 to {f.bits - 1}.")
        pattern = float_formats.cast(self.x, f).view(f.uint)
        flipped = pattern ^ f.uint.type(1 << (f.bits - 1 - position))
        self.set_x(float(flipped.view(f.dtype)))

    def _update(self, x: float) -> None:
        self.result = float_formats.represent_all(x, self.formats_shown, self.saturate.value)
        self.table.value = table_html(self.result, self.lang)
        self._show_bits()

    def _show_bits(self) -> None:
        """One button per bit of the chosen format, coloured by field; a click flips it."""
        r = float_formats.represent(self.x, self.step_format.value, self.saturate.value)
        bits = "".join(r.bits)
        if len(self.bits.children) != len(bits):  # another format: new buttons
            self.bits.children = [self._bit_button(i) for i in range(len(bits))]
        fields = ["sign"] * len(r.bits[0]) + ["exponent"] * len(r.bits[1])
        fields += ["mantissa"] * len(r.bits[2])
        for button, bit, field in zip(self.bits.children, bits, fields, strict=True):
            button.description = bit
            button.style.button_color = FIELD_COLOURS[field]

    def _bit_button(self, position: int) -> widgets.Button:
        button = widgets.Button(
            tooltip=self._t("flip_tooltip"),
            layout=widgets.Layout(width="22px", height="26px", padding="0px", margin="1px"),
        )
        button.on_click(lambda _: self.flip(position))
        return button

    def figure(self) -> Figure:
        """The static figure of the current number (what a page without a kernel can show)."""
        return draw_bits(self.result, self.lang)
