"""What the figures show, read from the matplotlib objects: legend entries drawn as the lines they
stand for, axes labelled and on one scale, no axis without a scale."""

from __future__ import annotations

import matplotlib.colors
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from geoshard_results import plotting, servers
from geoshard_results.report import compute_frames
from geoshard_results.rundir import load_runs
from tests.conftest import RAMP, make_run
from tests.synthetic import Sample, Second, RunSpec, write_run


def _drawn(figure):
    FigureCanvasAgg(figure).draw()  # tick labels and limits as they are saved
    return figure


def _colour(artist) -> tuple:
    return tuple(round(c, 3) for c in matplotlib.colors.to_rgb(artist.get_color()))


def _legend_handles(figure) -> dict:
    legend = figure.legends[0]
    return {text.get_text(): handle for text, handle in zip(legend.get_texts(), legend.legend_handles)}


def _latency_figure(folders):
    frames = compute_frames(load_runs(folders))
    palette = plotting.Palette(frames.runs["scenario"])
    return _drawn(plotting.latency_over_time_figure(frames.latency, frames.threads, frames.runs, palette))


def test_the_latency_legend_draws_each_percentile_in_the_colour_and_width_of_its_line(ramp_run):
    figure = _latency_figure([ramp_run])
    axes = figure.axes[0]
    handles = _legend_handles(figure)
    for label in ("p50", "p95", "p98", "p99"):
        line = next(line for line in axes.get_lines()
                    if any(t.get_text() == label and _colour(t) == _colour(line) for t in axes.texts))
        assert _colour(handles[label]) == _colour(line), label
        assert handles[label].get_linewidth() == line.get_linewidth(), label
    assert len({_colour(handles[p]) for p in ("p50", "p95", "p98", "p99")}) == 4


def test_several_scenarios_label_their_percentile_lines_instead_of_a_grey_legend(ramp_run, simple_run):
    figure = _latency_figure([ramp_run, simple_run])
    assert not {"p50", "p95", "p98", "p99"} & set(_legend_handles(figure))
    assert {t.get_text() for t in figure.axes[0].texts} >= {"p50", "p95", "p98", "p99"}


def _ramp_with_limit(folder, limit_ms: float):
    sla = {**RAMP["ramp"]["sla"], "latencyMs": limit_ms}
    return make_run(folder, label="0S", extra={**RAMP, "ramp": {**RAMP["ramp"], "sla": sla}})


def test_an_sla_limit_on_the_axis_is_drawn_and_listed(tmp_path):
    # The runs' latencies are 1-2 ms: a 1.5 ms limit lies on the axis.
    figure = _latency_figure([_ramp_with_limit(tmp_path / "near", 1.5)])
    assert "SLA: p98 ≤ 1.5 ms" in _legend_handles(figure)
    assert any(line.get_ydata()[0] == 1.5 and line.get_linestyle() == "--" for line in figure.axes[0].get_lines())


def test_an_sla_limit_off_the_axis_is_said_in_the_panel_not_listed(tmp_path):
    # A 100 ms limit is far above every point: it is neither drawn off the plot nor listed.
    figure = _latency_figure([_ramp_with_limit(tmp_path / "far", 100)])
    assert not any(label.startswith("SLA") for label in _legend_handles(figure))
    assert figure.axes[0].get_ylim()[1] < 100
    assert not any(len(line.get_ydata()) and line.get_ydata()[0] == 100 for line in figure.axes[0].get_lines())
    assert "SLA: p98 ≤ 100 ms: above the axis" in [t.get_text() for t in figure.axes[0].texts]


def _distribution(tmp_path, operations: dict):
    folder = write_run(tmp_path / "dist", RunSpec(seconds=[Second(operations)]))
    frames = compute_frames(load_runs([folder]))
    return _drawn(plotting.latency_distribution_figure(frames.curves, plotting.Palette(frames.runs["scenario"])))


def test_latency_distribution_panels_share_one_y_scale_and_all_have_tick_labels(tmp_path):
    # READ spans four decades (log), UPDATE and SCAN less than one: all three panels on a log axis.
    figure = _distribution(tmp_path, {"READ": Sample([100, 1_000_000], [990, 10]),
                                      "UPDATE": Sample([1000, 2000], [50, 50]),
                                      "SCAN": Sample([1500, 1900], [50, 50])})
    panels = [axes for axes in figure.axes if axes.get_visible()]
    assert len(panels) == 3
    assert {axes.get_yscale() for axes in panels} == {"log"}
    for axes in panels:
        labels = [t.get_text() for t in axes.get_xticklabels() if t.get_visible() and t.get_text()]
        assert labels[:2] == ["0", "90"], axes.get_title(loc="left")


def test_latency_distribution_is_linear_when_no_operation_is_wide(tmp_path):
    figure = _distribution(tmp_path, {"READ": Sample([1000, 1500], [50, 50]), "UPDATE": Sample([1000, 2000], [5, 5])})
    assert {axes.get_yscale() for axes in figure.axes if axes.get_visible()} == {"linear"}


def _servers_figure(metrics: list[str]):
    rows = [{"runId": "r", "scenario": "s", "time_s": float(t), "node": "db:5432", "role": "postgresql",
             "metric": metric, "value": 100.0 * t} for t in range(4) for metric in metrics]
    series = servers.panel_series(pd.DataFrame(rows))
    client = pd.DataFrame({"runId": "r", "scenario": "s", "time_s": [1.0, 2.0, 3.0], "value": [90.0, 95.0, 99.0]})
    return _drawn(servers.servers_figure(series, client, plotting.Palette(["s"])))


def test_a_panel_with_nothing_sampled_shows_no_scale_and_the_client_axis_is_labelled():
    figure = _servers_figure(["pg_xact_commit_total"])
    throughput, cpu, cache = figure.axes[:3]
    assert [t.get_text() for t in cpu.texts] == ["not sampled"]
    assert list(cpu.get_yticks()) == [] and list(cache.get_yticks()) == []
    assert [t.get_text() for t in throughput.texts] == ["PostgreSQL commits/s"]
    assert len(throughput.get_yticks()) > 1
    twin = next(axes for axes in figure.axes if axes not in (throughput, cpu, cache) and axes.bbox.bounds ==
                throughput.bbox.bounds)
    assert twin.get_ylabel() == servers.CLIENT_SERIES
    assert [line.get_ydata().tolist() for line in twin.get_lines()] == [[90.0, 95.0, 99.0]]


def test_the_client_line_leaves_out_the_last_partial_interval(tmp_path):
    # Three full seconds at 100 ops/s and a last interval of 105 ms with 2 operations (19/s).
    seconds = [Second({"READ": Sample([1000], [100])}) for _ in range(3)]
    seconds.append(Second({"READ": Sample([1000], [2])}, interval_ms=105))
    folder = write_run(tmp_path / "run", RunSpec(seconds=seconds))
    client = servers.client_throughput(load_runs([folder]))
    assert client["time_s"].tolist() == [1.0, 2.0, 3.0]
    assert client["value"].tolist() == pytest.approx([100.0, 100.0, 100.0])
