"""Figures. Each ``*_figure`` function draws one figure from DataFrames and returns it; saving is
``save_figure``'s job alone. One colour and one marker per scenario, the same in every figure.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, never a window

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter, NullLocator  # noqa: E402

from . import sweep as _sweep  # noqa: E402  (a cycle of modules: only used at call time)
from .data import BREACH_VERDICTS  # noqa: E402

# Okabe & Ito's colour-blind safe palette, darkest first so that the first scenarios print well in grey.
_COLOURS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
# Percentile lines in the latency-over-time figure: the scenario's colour, lighter for lower
# percentiles (tint towards white < 0 < shade towards black), the SLA percentile p98 heaviest.
PERCENTILE_STYLES = {"p50Us": ("p50", -0.6, 1.0), "p95Us": ("p95", -0.3, 1.0), "p98Us": ("p98", 0.0, 1.7),
                     "p99Us": ("p99", 0.45, 1.0)}
THREADS_COLOUR = "0.45"
SLA_COLOUR = "#B2182B"
FULL_WIDTH_IN = 7.2  # a two-column paper's full text width

STYLE = {
    "font.size": 9.5,
    "axes.titlesize": 10.5,
    "axes.titleweight": "bold",
    "axes.labelsize": 9.5,
    "legend.fontsize": 8.5,
    "xtick.labelsize": 8.5,
    "ytick.labelsize": 8.5,
    "axes.grid": True,
    "grid.color": "0.88",
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "legend.frameon": False,
    "lines.linewidth": 1.4,
    "savefig.dpi": 200,
}


class Palette:
    """Scenario -> colour and marker, fixed by the order in which scenarios are given."""

    def __init__(self, scenarios):
        self.scenarios = list(dict.fromkeys(scenarios))
        self._index = {name: i for i, name in enumerate(self.scenarios)}

    def colour(self, scenario: str) -> str:
        index = self._index[scenario]
        if index < len(_COLOURS):
            return _COLOURS[index]
        return matplotlib.colormaps["tab20"](index % 20)

    def marker(self, scenario: str) -> str:
        return _MARKERS[self._index[scenario] % len(_MARKERS)]


def shade(colour, amount: float):
    """``amount`` < 0 mixes the colour with white, > 0 with black (0 leaves it)."""
    rgb = np.asarray(matplotlib.colors.to_rgb(colour))
    target = np.ones(3) if amount < 0 else np.zeros(3)
    return tuple(rgb + (target - rgb) * abs(amount))


def _resolution(window: int) -> str:
    return "1 s intervals" if window <= 1 else f"{window} s windows"


@contextmanager
def _style():
    with matplotlib.rc_context(STYLE):
        yield


def save_figure(figure: Figure, path: Path) -> Path:
    """Writes the figure as PNG and releases it."""
    figure.savefig(path, format="png", dpi=STYLE["savefig.dpi"], facecolor="white")
    figure.clear()
    return path


# Axis helpers ----------------------------------------------------------------------------------


def format_rate(value: float, _position=None) -> str:
    """12500 -> '12.5k', 2000000 -> '2M' (tick labels of ops/s axes)."""
    if value == 0 or not math.isfinite(value):
        return "0"
    for factor, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= factor:
            return f"{value / factor:.3g}{suffix}"
    return f"{value:.3g}"


def time_unit(max_seconds: float) -> tuple[float, str]:
    """Seconds for runs up to 20 minutes, minutes beyond."""
    return (60.0, "min") if max_seconds > 1200 else (1.0, "s")


def _no_data(axes, message: str) -> None:
    axes.text(0.5, 0.5, message, ha="center", va="center", transform=axes.transAxes, color="0.4")
    axes.set_xticks([])
    axes.set_yticks([])


def _is_wide(low, high, decades: float = 2.0) -> bool:
    """``high`` (e.g. the largest p99) more than ``decades`` decades above ``low`` (e.g. the typical median)."""
    return bool(low > 0 and math.isfinite(low) and math.isfinite(high) and high / low > 10**decades)


def _log_if_wide(axes, low, high, decades: float = 2.0) -> None:
    """Logarithmic y when ``high`` is more than ``decades`` decades above ``low``, else linear from zero."""
    if _is_wide(low, high, decades):
        axes.set_yscale("log")
    else:
        axes.set_ylim(bottom=0)


def _body_and_top(curve: pd.DataFrame) -> tuple[float, float]:
    """A percentile curve's lowest value from p50 to p99.99 and its highest (ms)."""
    body = curve[(curve["percentile"] >= 50) & (curve["percentile"] <= 99.99)]["valueUs"] / 1000.0
    return (float(body.min()) if len(body) else math.nan), float(curve["valueUs"].max()) / 1000.0


def _bottom_legend(figure: Figure, handles, columns: int | None = None) -> None:
    if handles:
        figure.legend(handles=handles, loc="outside lower center", ncols=columns or min(len(handles), 4))


def _scenario_handles(palette: Palette, scenarios, counts: dict | None = None, marker: bool = False):
    handles = []
    for scenario in scenarios:
        runs = (counts or {}).get(scenario, 1)
        label = scenario if runs <= 1 else f"{scenario} (mean of {runs} runs)"
        handles.append(Line2D([], [], color=palette.colour(scenario), lw=2,
                              marker=palette.marker(scenario) if marker else None, label=label))
    return handles


# 1. Throughput over time -----------------------------------------------------------------------


def throughput_over_time_figure(per_second: pd.DataFrame, means: pd.DataFrame, boundaries: pd.DataFrame,
                                palette: Palette, window: int = 1) -> Figure:
    """Per-second throughput, one line per scenario; repeats as light lines under their mean.

    Ramp steps: grey lines labelled with the thread count when every scenario ramps alike,
    otherwise dotted lines in each scenario's colour.
    """
    with _style():
        figure = Figure(figsize=(FULL_WIDTH_IN, 3.9), layout="constrained")
        axes = figure.subplots()
        axes.set_title(f"Throughput over time ({_resolution(window)}, all operations but CLEANUP)")
        if not len(per_second):
            _no_data(axes, "no intervals in timeseries.csv")
            return figure
        divisor, unit = time_unit(per_second["elapsedS"].max())
        counts = per_second.groupby("scenario", sort=False)["runId"].nunique().to_dict()
        scenarios = [s for s in palette.scenarios if s in counts]
        for scenario in scenarios:
            colour = palette.colour(scenario)
            runs = per_second[per_second["scenario"] == scenario]
            if counts[scenario] > 1:
                for _, run in runs.groupby("runId", sort=False):
                    axes.plot(run["elapsedS"] / divisor, run["opsPerSec"], color=colour, lw=0.8, alpha=0.3,
                              marker="o" if len(run) <= 3 else None, markersize=3)
                line = means[means["scenario"] == scenario]
            else:
                line = runs
            every = max(1, len(line) // 12)
            axes.plot(line["elapsedS"] / divisor, line["opsPerSec"], color=colour, lw=1.5,
                      marker=palette.marker(scenario), markevery=every, markersize=4 if len(line) > 3 else 6)
        _mark_steps(axes, boundaries, palette, divisor)
        axes.set_xlabel(f"Time since start ({unit})")
        axes.set_ylabel("Throughput (ops/s)")
        axes.yaxis.set_major_formatter(FuncFormatter(format_rate))
        axes.set_ylim(bottom=0)
        axes.set_xlim(left=0)
        handles = _scenario_handles(palette, scenarios, counts, marker=True)
        if len(boundaries):
            handles.append(Line2D([], [], color="0.5", ls=":", lw=1, label="ramp step start"))
        _bottom_legend(figure, handles)
        return figure


def _mark_steps(axes, boundaries: pd.DataFrame, palette: Palette, divisor: float) -> None:
    if not len(boundaries):
        return
    # One schedule for all when no two scenarios disagree on the load of a step start (a shorter
    # ramp that stopped earlier is still the same schedule).
    by_start = boundaries.groupby("elapsedS")
    shared = bool(((by_start["threads"].nunique(dropna=False) <= 1)
                   & (by_start["offeredOpsPerSec"].nunique(dropna=False) <= 1)).all())
    if shared:
        steps = boundaries.drop_duplicates("elapsedS").sort_values("elapsedS")
        label_every = max(1, math.ceil(len(steps) / 14))
        for i, (_, step) in enumerate(steps.iterrows()):
            x = step["elapsedS"] / divisor
            axes.axvline(x, color="0.55", ls=":", lw=0.9, zorder=0)
            if i % label_every:
                continue
            if not math.isnan(step["offeredOpsPerSec"]):  # open loop: the offered load
                text = format_rate(step["offeredOpsPerSec"]) + (" ops/s offered" if i == 0 else "")
            elif not math.isnan(step["threads"]):
                text = f"{step['threads']:g}" + (" threads" if i == 0 else "")
            else:
                continue
            axes.annotate(text, (x, 1.0), xycoords=("data", "axes fraction"), xytext=(2, -2),
                          textcoords="offset points", va="top", fontsize=7, color="0.35")
    else:
        for scenario, group in boundaries.groupby("scenario", sort=False):
            for x in group["elapsedS"]:
                axes.axvline(x / divisor, color=palette.colour(scenario), ls=":", lw=0.8, alpha=0.6, zorder=0)


# 2. Latency percentiles over time --------------------------------------------------------------


def latency_over_time_figure(latency: pd.DataFrame, threads: pd.DataFrame, runs: pd.DataFrame,
                             palette: Palette, window: int = 1) -> Figure:
    """One panel per scenario: p50/p95/p98/p99 of all operations per second or window (ms, left
    axis), labelled at their right end, and the client threads (right axis); the SLA limit as a
    red line where the run had one."""
    scenarios = [s for s in palette.scenarios if s in set(latency["scenario"])] if len(latency) else []
    with _style():
        rows = max(1, len(scenarios))
        figure = Figure(figsize=(FULL_WIDTH_IN, 1.0 + 2.1 * rows), layout="constrained")
        axes_list = figure.subplots(rows, 1, sharex=True, sharey=True, squeeze=False)[:, 0]
        per = "second" if window <= 1 else f"{window} s window"
        figure.suptitle(f"Latency percentiles over time (all operations, histograms merged per {per})",
                        fontsize=STYLE["axes.titlesize"], fontweight="bold")
        if not scenarios:
            _no_data(axes_list[0], "no latency intervals in the .hlog files")
            return figure
        divisor, unit = time_unit(latency["elapsedS"].max())
        typical, highest = latency["p50Us"].median() / 1000.0, latency["p99Us"].max() / 1000.0
        limits = []  # (axes, SLA limit in ms, its percentile)
        for axes, scenario in zip(axes_list, scenarios):
            colour = palette.colour(scenario)
            data = latency[latency["scenario"] == scenario]
            x = data["elapsedS"] / divisor
            for column, (label, amount, width) in PERCENTILE_STYLES.items():
                axes.plot(x, data[column] / 1000.0, color=shade(colour, amount), lw=width,
                          marker="o" if len(data) <= 3 else None, markersize=4)
                axes.annotate(label, (x.iloc[-1], data[column].iloc[-1] / 1000.0), xytext=(3, 0),
                              textcoords="offset points", va="center", fontsize=7, color=shade(colour, amount))
            repeats = int(data["runs"].max())
            axes.set_title(scenario + (f" (histograms pooled over {repeats} runs)" if repeats > 1 else ""),
                           loc="left", color=colour)
            axes.set_ylabel("Latency (ms)")
            _log_if_wide(axes, typical, highest)
            sla = runs[(runs["scenario"] == scenario) & runs["slaLatencyMs"].notna()]
            if len(sla):
                limits.append((axes, sla["slaLatencyMs"].iloc[0], sla["slaPercentile"].iloc[0]))
            twin = axes.twinx()
            line = threads[threads["scenario"] == scenario]
            twin.step(line["elapsedS"] / divisor, line["threads"], where="mid", color=THREADS_COLOUR, lw=1.1,
                      alpha=0.8)
            twin.set_ylabel("Client threads", color=THREADS_COLOUR)
            twin.tick_params(axis="y", colors=THREADS_COLOUR)
            twin.set_ylim(bottom=0, top=max(1.0, float(threads["threads"].max() if len(threads) else 1)) * 1.1)
            twin.grid(False)
            twin.spines["right"].set_visible(True)
        axes_list[-1].set_xlabel(f"Time since start ({unit})")
        axes_list[-1].set_xlim(left=0)
        handles = []
        if len(scenarios) == 1:  # several scenarios: each has its own colours, every line is labelled at its end
            colour = palette.colour(scenarios[0])
            handles += [Line2D([], [], color=shade(colour, amount), lw=width, label=label)
                        for label, amount, width in PERCENTILE_STYLES.values()]
        handles.append(Line2D([], [], color=THREADS_COLOUR, lw=1.1, alpha=0.8, label="client threads (right axis)"))
        handles += _sla_lines(limits)
        _bottom_legend(figure, handles, columns=min(len(handles), 6))
        return figure


def _sla_lines(limits: list) -> list:
    """Draws each panel's SLA limit where it lies on the panel's latency axis and returns the legend
    entry for it; a limit above the axis (the run stayed far below it) is said in the panel instead
    of being drawn off the plot and listed."""
    handles = []
    for axes, limit, percentile in limits:
        low, high = axes.get_ylim()
        label = f"SLA: p{percentile:g} ≤ {limit:g} ms"
        if low <= limit <= high:
            axes.axhline(limit, color=SLA_COLOUR, ls="--", lw=1)
            axes.set_ylim(low, high)
            if label not in [handle.get_label() for handle in handles]:
                handles.append(Line2D([], [], color=SLA_COLOUR, ls="--", lw=1, label=label))
        else:
            axes.annotate(f"{label}: {'above' if limit > high else 'below'} the axis", (0.995, 0.97),
                          xycoords="axes fraction", ha="right", va="top", fontsize=7, color=SLA_COLOUR)
    return handles


# 3. Throughput versus threads ------------------------------------------------------------------


def throughput_vs_threads_figure(points: pd.DataFrame, palette: Palette) -> Figure:
    """Throughput of each ramp step against its client threads (or offered load in open-loop
    ramps), per scenario. Steps that broke the rule are crosses, the peak a star; a run without a
    ramp is one square at its thread count."""
    closed = points[points["mode"] != "rate"] if len(points) else points
    opened = points[points["mode"] == "rate"] if len(points) else points
    panels = [(closed, "threads", "Client threads")] if len(closed) or not len(opened) else []
    if len(opened):
        panels.append((opened, "offeredOpsPerSec", "Offered load (ops/s)"))
    with _style():
        figure = Figure(figsize=(FULL_WIDTH_IN if len(panels) > 1 else 6.0, 4.2), layout="constrained")
        axes_list = figure.subplots(1, len(panels), squeeze=False)[0]
        figure.suptitle("Throughput versus load (one point per ramp step)", fontsize=STYLE["axes.titlesize"],
                        fontweight="bold")
        if not len(points):
            _no_data(axes_list[0], "no ramp steps or fixed-load runs\n(a sweep is drawn in the sweep figure)")
            return figure
        for axes, (data, x_column, x_label) in zip(axes_list, panels):
            _draw_load_panel(axes, data, x_column, palette)
            axes.set_xlabel(x_label)
            axes.set_ylabel("Throughput (ops/s)")
            axes.yaxis.set_major_formatter(FuncFormatter(format_rate))
            axes.set_ylim(bottom=0)
            axes.set_xlim(left=0)
            if x_column == "offeredOpsPerSec":
                axes.xaxis.set_major_formatter(FuncFormatter(format_rate))
                top = max(data["offeredOpsPerSec"].max(), data["throughput"].max())
                axes.plot([0, top], [0, top], color="0.6", ls="--", lw=0.8, zorder=0)
                axes.set_title("open loop (dashed: throughput = offered)", loc="left", fontsize=9)
            elif len(panels) > 1:
                axes.set_title("closed loop", loc="left", fontsize=9)
        counts = points.groupby("scenario", sort=False)["runId"].nunique().to_dict()
        scenarios = [s for s in palette.scenarios if s in counts]
        handles = _scenario_handles(palette, scenarios, counts, marker=True)
        plain_only = set(points.groupby("scenario")["verdict"].agg(lambda v: set(v) == {"run"}).loc[lambda x: x].index)
        for handle, scenario in zip(handles, scenarios):
            if scenario in plain_only:
                handle.set_marker("s")
                handle.set_linestyle("")
        verdicts = set(points["verdict"])
        if verdicts & set(BREACH_VERDICTS):
            handles.append(Line2D([], [], ls="", marker="X", markersize=8, color="0.3", markeredgecolor="black",
                                  label="step broke the SLA rule"))
        if "partial" in verdicts:
            handles.append(Line2D([], [], ls="", marker="o", markerfacecolor="white", color="0.3",
                                  label="partial step"))
        if points["isPeak"].any():
            handles.append(Line2D([], [], ls="", marker="*", markersize=11, color="0.3", markeredgecolor="black",
                                  label="max sustained step"))
        if "run" in verdicts:
            handles.append(Line2D([], [], ls="", marker="s", color="0.3", label="run without ramp"))
        _bottom_legend(figure, handles, columns=min(len(handles), 3))
        return figure


def _draw_load_panel(axes, data: pd.DataFrame, x_column: str, palette: Palette) -> None:
    for scenario in [s for s in palette.scenarios if s in set(data["scenario"])]:
        colour = palette.colour(scenario)
        subset = data[data["scenario"] == scenario].sort_values(x_column)
        repeated = subset["runId"].nunique() > 1
        for _, run in subset.groupby("runId", sort=False):
            axes.plot(run[x_column], run["throughput"], color=colour, lw=0.9 if repeated else 1.5,
                      alpha=0.35 if repeated else 1.0)
        if repeated:
            mean = subset.groupby(x_column)["throughput"].mean()
            axes.plot(mean.index, mean.to_numpy(), color=colour, lw=1.8)
        passed = subset[~subset["verdict"].isin([*BREACH_VERDICTS, "partial", "run"])]
        axes.plot(passed[x_column], passed["throughput"], ls="", marker=palette.marker(scenario), color=colour,
                  markersize=5, alpha=0.6 if repeated else 1.0)
        partial = subset[subset["verdict"] == "partial"]
        axes.plot(partial[x_column], partial["throughput"], ls="", marker=palette.marker(scenario),
                  markerfacecolor="white", color=colour, markersize=5)
        breached = subset[subset["verdict"].isin(BREACH_VERDICTS)]
        axes.plot(breached[x_column], breached["throughput"], ls="", marker="X", markersize=9, color=colour,
                  markeredgecolor="black", markeredgewidth=0.8, zorder=4)
        plain = subset[subset["verdict"] == "run"]
        axes.plot(plain[x_column], plain["throughput"], ls="", marker="s", markersize=6, color=colour,
                  markeredgecolor="black", markeredgewidth=0.6)
        peak = subset[subset["isPeak"].astype(bool)]
        axes.plot(peak[x_column], peak["throughput"], ls="", marker="*", markersize=13, color=colour,
                  markeredgecolor="black", markeredgewidth=0.7, zorder=5)


# 4. Maximum sustained throughput ---------------------------------------------------------------


def max_throughput_figure(bars: pd.DataFrame, palette: Palette) -> Figure:
    """A bar per scenario: maximum sustained throughput, with a 95% confidence interval.

    Repeated runs: the bar is their mean, the error bar a t interval over runs, dots the runs.
    One run: a diamond with whiskers is its plateau mean and batch-means interval. Hatched bars
    are runs without a ramp (plateau mean or overall throughput instead)."""
    with _style():
        figure = Figure(figsize=(max(5.5, 1.2 + 1.1 * len(bars)), 4.0), layout="constrained")
        axes = figure.subplots()
        axes.set_title("Max sustained throughput per scenario (95% CI)")
        if not len(bars):
            _no_data(axes, "no ramp or fixed-load runs\n(a sweep has no maximum: see the sweep figure)")
            return figure
        positions = np.arange(len(bars))
        handles = []
        for x, (_, bar) in zip(positions, bars.iterrows()):
            colour = palette.colour(bar["scenario"])
            value = bar["value"]
            hatched = bar["source"] != "ramp"
            if math.isnan(value):
                axes.annotate("n/a", (x, 0), xytext=(0, 3), textcoords="offset points", ha="center", fontsize=8)
                continue
            axes.bar(x, value, width=0.62, color=colour, edgecolor="black", linewidth=0.6,
                     hatch="///" if hatched else None, alpha=0.9)
            top = value
            if not math.isnan(bar["errLow"]):
                axes.errorbar(x, value, yerr=[[value - bar["errLow"]], [bar["errHigh"] - value]], color="black",
                              capsize=5, lw=1.2, capthick=1.2)
                top = max(top, bar["errHigh"])
            if bar["runs"] > 1:
                offsets = np.linspace(-0.15, 0.15, len(bar["runValues"]))
                axes.plot(x + offsets, bar["runValues"], ls="", marker="o", markersize=3.5, color="white",
                          markeredgecolor="black", markeredgewidth=0.7, zorder=4)
            if not math.isnan(bar["pointMean"]):
                axes.errorbar(x + 0.18, bar["pointMean"], yerr=[[bar["pointMean"] - bar["pointLow"]],
                                                                 [bar["pointHigh"] - bar["pointMean"]]],
                              fmt="D", markersize=5, color="black", markerfacecolor="white", capsize=4, lw=1.1)
                top = max(top, bar["pointHigh"])
            axes.annotate(format_rate(value), (x, top), xytext=(0, 4), textcoords="offset points", ha="center",
                          va="bottom", fontsize=8.5, fontweight="bold")
        labels = [s if n <= 1 else f"{s}\n({n} runs)" for s, n in zip(bars["scenario"], bars["runs"])]
        axes.set_xticks(positions, labels)
        axes.grid(axis="x", visible=False)
        axes.set_ylabel("Max sustained throughput (ops/s)")
        axes.yaxis.set_major_formatter(FuncFormatter(format_rate))
        axes.set_ylim(0, max(axes.get_ylim()[1] * 1.08, 1.0))
        if (bars["runs"] > 1).any():
            handles.append(Line2D([], [], color="black", marker="|", markersize=10, ls="",
                                  label="95% CI over repeated runs"))
            handles.append(Line2D([], [], ls="", marker="o", markersize=4, color="white", markeredgecolor="black",
                                  label="single run"))
        if bars["pointMean"].notna().any():
            handles.append(Line2D([], [], ls="", marker="D", markersize=5, color="black", markerfacecolor="white",
                                  label="plateau mean, 95% CI (batch means)"))
        if (bars["source"] != "ramp").any():
            handles.append(Patch(facecolor="white", edgecolor="black", hatch="///",
                                 label="no ramp: plateau mean or overall throughput"))
        _bottom_legend(figure, handles, columns=2 if figure.get_figwidth() >= 7 else 1)
        return figure


# 5. Latency distribution per operation ---------------------------------------------------------

_TAIL_TICKS = [(1, "0"), (10, "90"), (100, "99"), (1e3, "99.9"), (1e4, "99.99"), (1e5, "99.999"),
               (1e6, "99.9999"), (1e7, "99.99999")]


def latency_distribution_figure(curves: pd.DataFrame, palette: Palette) -> Figure:
    """HdrHistogram percentile plots: one panel per operation, one line per scenario (all runs of
    a scenario pooled). The x axis is 1/(1-p) on a log scale, labelled with the percentile."""
    operations = list(dict.fromkeys(curves["operation"])) if len(curves) else []
    columns = 1 if len(operations) <= 1 else 2
    rows = max(1, math.ceil(len(operations) / columns))
    with _style():
        figure = Figure(figsize=(FULL_WIDTH_IN if columns > 1 else 6.0, 1.0 + 2.5 * rows), layout="constrained")
        axes_grid = figure.subplots(rows, columns, squeeze=False, sharex=True)
        figure.suptitle("Latency by percentile, per operation (HdrHistogram, all intervals pooled)",
                        fontsize=STYLE["axes.titlesize"], fontweight="bold")
        if not operations:
            _no_data(axes_grid[0][0], "no latency histograms")
            return figure
        highest = curves["inverseTail"].max()
        ticks = [(x, label) for x, label in _TAIL_TICKS if x <= highest * 1.0001] or _TAIL_TICKS[:1]
        # One y scale for every panel (log when any operation's tail spans more than two decades above
        # its median), so that panels side by side read alike.
        logarithmic = any(_is_wide(*_body_and_top(curves[curves["operation"] == op])) for op in operations)
        for index, axes in enumerate(axes_grid.ravel()):
            if index >= len(operations):
                axes.set_visible(False)
                continue
            operation = operations[index]
            data = curves[curves["operation"] == operation]
            for scenario in [s for s in palette.scenarios if s in set(data["scenario"])]:
                line = data[data["scenario"] == scenario]
                axes.plot(line["inverseTail"], line["valueUs"] / 1000.0, color=palette.colour(scenario), lw=1.5,
                          marker=palette.marker(scenario), markevery=max(1, len(line) // 8), markersize=4)
            axes.set_xscale("log")
            axes.xaxis.set_major_locator(FixedLocator([x for x, _ in ticks]))
            axes.xaxis.set_major_formatter(FuncFormatter(lambda x, _p, t=dict(ticks): t.get(x, "")))
            axes.xaxis.set_minor_locator(NullLocator())
            axes.xaxis.set_minor_formatter(NullFormatter())
            axes.set_xlim(1, max(highest * 1.05, 10))
            if logarithmic:
                axes.set_yscale("log")
            else:
                axes.set_ylim(bottom=0)
            axes.set_title(operation, loc="left")
            if index % columns == 0:
                axes.set_ylabel("Latency (ms)")
            # Every panel has its tick labels (a panel above an empty cell has none under it); the axis
            # title goes under the lowest panel of each column.
            axes.xaxis.set_tick_params(labelbottom=True)
            if index + columns >= len(operations):
                axes.set_xlabel("Percentile (%)")
            if len(ticks) > 5:
                for label in axes.get_xticklabels():
                    label.set(rotation=30, horizontalalignment="right", rotation_mode="anchor")
        scenarios = [s for s in palette.scenarios if s in set(curves["scenario"])]
        _bottom_legend(figure, _scenario_handles(palette, scenarios, marker=True))
        return figure


# 6. Query throughput versus insert rate (sweeps) -----------------------------------------------

QUERY_LINE_STYLES = {"LKL_READ": "-", "HISTORY_RANGE": "--", "LKL_NEAR": ":"}
# The writers' operations, against the rate they were offered (one event: an insert and an upsert).
WRITE_LINE_STYLES = {"HISTORY_INSERT": ("insertsPerSec", "-"), "LKL_UPSERT": ("upsertsPerSec", "--"),
                     "LKL_STALE": ("stalePerSec", ":")}


def queries_vs_inserts_figure(sweep: pd.DataFrame, sweep_steps: pd.DataFrame, queries: list[str],
                              palette: Palette) -> Figure:
    """A sweep drawn as a sweep, one point per step: on the left the rate each write operation achieved
    against the rate the writers were offered (the diagonal is "achieved = offered"); in the middle the
    query throughput (the query operations added) and on the right the p99 of each query operation,
    both against the achieved insert rate (HISTORY_INSERT/s). One line per scenario, in step order;
    repeats as light lines under their mean; steps that broke the SLA rule are crosses."""
    with _style():
        figure = Figure(figsize=(FULL_WIDTH_IN * 1.4, 4.2), layout="constrained")
        offered, left, right = figure.subplots(1, 3)
        figure.suptitle("Sweep: offered against achieved write rates, and the queries under them (one point per "
                        "sweep step)", fontsize=STYLE["axes.titlesize"], fontweight="bold")
        if not len(sweep):
            for axes in (offered, left, right):
                _no_data(axes, "no sweep steps")
            return figure
        scenarios = [s for s in palette.scenarios if s in set(sweep["scenario"])]
        writes = [op for op, (column, _) in WRITE_LINE_STYLES.items() if (sweep[column] > 0).any()]
        for scenario in scenarios:
            colour, marker = palette.colour(scenario), palette.marker(scenario)
            line = sweep[sweep["scenario"] == scenario]
            runs = sweep_steps[sweep_steps["scenario"] == scenario]
            if runs["runId"].nunique() > 1:
                for _, run in runs.groupby("runId", sort=False):
                    left.plot(run["insertsPerSec"], run["queriesPerSec"], color=colour, lw=0.8, alpha=0.3)
            for operation in writes:
                column, style = WRITE_LINE_STYLES[operation]
                _sweep_line(offered, line, column, colour, marker, style, 1.3, x_column="offeredOpsPerSec")
            _sweep_line(left, line, "queriesPerSec", colour, marker, "-", 1.5)
            for operation in queries:
                _sweep_line(right, line, _sweep.p99_column(operation), colour, marker,
                            QUERY_LINE_STYLES.get(operation, "-."), 1.3, scale=1 / 1000.0)
        top = float(np.nanmax(sweep[["offeredOpsPerSec", *(WRITE_LINE_STYLES[op][0] for op in writes)]]
                              .to_numpy(dtype=float))) if len(sweep) else 1.0
        offered.plot([0, top], [0, top], color="0.6", ls=(0, (1, 2)), lw=1, zorder=0)
        offered.set_title("Write operations against the offered rate", loc="left", fontsize=9)
        offered.set_xlabel("Offered rate (events/s)")
        offered.set_ylabel("Achieved (ops/s)")
        offered.set_ylim(bottom=0)
        left.set_title("Query throughput (query operations added)", loc="left", fontsize=9)
        left.set_ylabel("Queries (ops/s)")
        left.set_ylim(bottom=0)
        right.set_title("p99 latency per query operation", loc="left", fontsize=9)
        right.set_ylabel("p99 latency (ms)")
        p99 = sweep[[_sweep.p99_column(op) for op in queries]].to_numpy(dtype=float) / 1000.0
        finite = p99[np.isfinite(p99)]
        if len(finite):
            _log_if_wide(right, float(np.min(finite)), float(np.max(finite)), decades=1.5)
        else:
            right.set_ylim(bottom=0)
        for axes in (left, right):
            axes.set_xlabel("Achieved insert rate (HISTORY_INSERT/s)")
        for axes in (offered, left, right):
            axes.xaxis.set_major_formatter(FuncFormatter(format_rate))
            axes.set_xlim(left=0)
        for axes in (offered, left):
            axes.yaxis.set_major_formatter(FuncFormatter(format_rate))
        counts = sweep_steps.groupby("scenario", sort=False)["runId"].nunique().to_dict()
        handles = _scenario_handles(palette, scenarios, marker=True)
        for handle, scenario in zip(handles, scenarios):
            if counts.get(scenario, 1) > 1:  # rates are means over the runs, the p99 pooled
                handle.set_label(f"{scenario} ({counts[scenario]} runs)")
        handles += [Line2D([], [], color="0.3", ls=WRITE_LINE_STYLES[op][1], lw=1.3, label=f"{op}/s (left)")
                    for op in writes]
        handles.append(Line2D([], [], color="0.6", ls=(0, (1, 2)), lw=1, label="achieved = offered"))
        if len(queries) > 1:
            handles += [Line2D([], [], color="0.3", ls=QUERY_LINE_STYLES.get(op, "-."), lw=1.3,
                               label=f"{op} p99 (right)") for op in queries]
        if sweep["breached"].any():
            handles.append(Line2D([], [], ls="", marker="X", markersize=8, color="0.3", markeredgecolor="black",
                                  label="step broke the SLA rule"))
        _bottom_legend(figure, handles, columns=min(len(handles), 5))
        return figure


def _sweep_line(axes, line: pd.DataFrame, column: str, colour, marker: str, style: str, width: float,
                scale: float = 1.0, x_column: str = "insertsPerSec") -> None:
    """One scenario's steps in step order: a line, its marker on steps that met the rule, crosses on the others."""
    x, y = line[x_column], line[column] * scale
    axes.plot(x, y, color=colour, ls=style, lw=width)
    kept = ~line["breached"]
    axes.plot(x[kept], y[kept], ls="", marker=marker, color=colour, markersize=5)
    axes.plot(x[~kept], y[~kept], ls="", marker="X", markersize=9, color=colour, markeredgecolor="black",
              markeredgewidth=0.8, zorder=4)
