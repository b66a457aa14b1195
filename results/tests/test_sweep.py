"""Sweeps ("Queries under inserts"): the table's numbers worked out by hand from tests.conftest's
sweep_seconds, the figure, and the errors for a damaged sweep."""

import json
import math
import re
from pathlib import Path

import matplotlib.image
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from geoshard_results import plotting, sweep, tables
from geoshard_results.cli import main
from geoshard_results.report import FIGURES, REPORT_FILE, SWEEP_FIGURES, compute_frames, render_markdown
from geoshard_results.rundir import load_runs
from tests.conftest import RAMP, make_run, make_sweep_run
from tests.synthetic import sweep_study

SWEEP_PNG = SWEEP_FIGURES["queries_vs_inserts"]


def frames_of(*folders):
    return compute_frames(load_runs(list(folders)))


def test_sweep_steps_of_one_run(sweep_run):
    steps = frames_of(sweep_run).sweep_steps
    assert list(steps["step"]) == [1, 2]
    assert list(steps["offeredOpsPerSec"]) == [0.0, 50.0]
    assert list(steps["threads"]) == [2, 2]
    assert list(steps["group"]) == ["writers", "writers"]
    # Step 1 has no writes at all: the harness leaves the operations out, the rates are 0.
    assert list(steps["insertsPerSec"]) == [0.0, 45.0]  # 90 inserts in 2 s
    assert list(steps["upsertsPerSec"]) == [0.0, 40.0]
    assert list(steps["stalePerSec"]) == [0.0, 5.0]
    assert list(steps["LKL_READPerSec"]) == [100.0, 80.0]
    assert list(steps["HISTORY_RANGEPerSec"]) == [20.0, 10.0]
    assert list(steps["LKL_NEARPerSec"]) == [0.0, 0.0]
    assert list(steps["queriesPerSec"]) == [120.0, 90.0]  # 100 + 20, 80 + 10
    assert list(steps["LKL_READP99Us"]) == [1000, 1800]  # step 2: 20 of 160 reads at 1800 µs
    assert list(steps["HISTORY_RANGEP99Us"]) == [2000, 1900]
    assert steps["LKL_NEARP99Us"].isna().all()
    # 1000 users x 2 events; step 2 adds 90 inserts of which 1 failed.
    assert list(steps["inserted"]) == [0.0, 89.0]
    assert list(steps["historyAtEnd"]) == [2000.0, 2089.0]
    assert list(steps["verdict"]) == ["pass", "sla"]


def test_the_sweep_table_of_one_run_is_the_summary(sweep_run):
    frames = frames_of(sweep_run)
    assert frames.sweep_queries == ["LKL_READ", "HISTORY_RANGE"]
    table, right = tables.sweep_summary(frames.sweep, frames.sweep_queries)
    assert list(table.columns) == ["Step", "Offered inserts/s", "Inserts/s", "Upserts/s", "Stale/s", "Queries/s",
                                   "LKL_READ/s", "HISTORY_RANGE/s", "LKL_READ p99 (ms)", "HISTORY_RANGE p99 (ms)",
                                   "History at step end", "Verdict"]
    assert list(table.iloc[0]) == ["1", "0.0", "0.0", "0.0", "0.0", "120", "100", "20.0", "1.00", "2.00", "2,000",
                                   "pass"]
    assert list(table.iloc[1]) == ["2", "50.0", "45.0", "40.0", "5.0", "90.0", "80.0", "10.0", "1.80", "1.90",
                                   "2,089", "sla"]
    assert "Verdict" not in right and "Queries/s" in right
    assert list(frames.sweep["breached"]) == [False, True]
    assert not frames.sweep["pooled"].any()


def test_repeats_average_the_rates_and_pool_the_p99(tmp_path):
    a = make_sweep_run(tmp_path / "a")
    b = make_sweep_run(tmp_path / "b", read_step2=((1000,), (80,)), inserts=55, verdicts=("pass", "pass"))
    sweep = frames_of(a, b).sweep
    assert list(sweep["runs"]) == [2, 2] and sweep["pooled"].all()
    step2 = sweep.iloc[1]
    assert step2["insertsPerSec"] == 50.0  # (45 + 55) / 2
    assert step2["upsertsPerSec"] == 40.0 and step2["queriesPerSec"] == 90.0
    # Pooled: 300 reads at 1000 µs and 20 at 1800 µs (6.25%) -> p99 1800; run b alone has 1000,
    # averaging the two p99s would give 1400.
    assert step2["LKL_READP99Us"] == 1800
    assert step2["HISTORY_RANGEP99Us"] == 1900
    assert sweep.iloc[0]["LKL_READP99Us"] == 1000 and sweep.iloc[0]["HISTORY_RANGEP99Us"] == 2000
    # History: a 2000 + 89, b 2000 + 109 -> mean 2099.
    assert list(sweep["historyAtEnd"]) == [2000.0, 2099.0]
    assert list(sweep["verdict"]) == ["pass ×2", "sla, pass"]
    assert list(sweep["breached"]) == [False, True]


def test_repeats_with_different_offered_rates_show_the_range(tmp_path, capsys):
    a = make_sweep_run(tmp_path / "a")
    b = make_sweep_run(tmp_path / "b", offered=(0, 60))
    out = tmp_path / "out"
    assert main([str(a), str(b), "-o", str(out), "-q"]) == 0
    assert "| 2 | 50.0 – 60.0 | 45.0 |" in (out / REPORT_FILE).read_text()
    assert ("report: warning: PostGIS: the repeats offered different insert rates in step 2 (50 to 60 events/s)"
            in capsys.readouterr().err)


def test_history_size_is_na_without_the_load_properties(tmp_path):
    run = make_sweep_run(tmp_path / "s", properties={"ll.users": "1000"})
    frames = frames_of(run)
    assert frames.sweep["historyAtEnd"].isna().all()
    table, _ = tables.sweep_summary(frames.sweep, frames.sweep_queries)
    assert list(table["History at step end"]) == ["n/a", "n/a"]


def test_lkl_near_gets_columns_when_it_ran(tmp_path):
    run = make_sweep_run(tmp_path / "s")
    summary = json.loads((run / "summary.json").read_text())
    near = dict(summary["sweep"]["steps"][1]["perOperation"]["LKL_READ"], count=6, throughput=3.0, p99Us=4000)
    summary["sweep"]["steps"][1]["perOperation"]["LKL_NEAR"] = near
    (run / "summary.json").write_text(json.dumps(summary))
    frames = frames_of(run)
    assert frames.sweep_queries == ["LKL_READ", "HISTORY_RANGE", "LKL_NEAR"]
    assert list(frames.sweep["queriesPerSec"]) == [120.0, 93.0]
    table, _ = tables.sweep_summary(frames.sweep, frames.sweep_queries)
    assert list(table["LKL_NEAR/s"]) == ["0.0", "3.0"]
    assert list(table["LKL_NEAR p99 (ms)"]) == ["n/a", "4.00"]


def test_runs_without_a_sweep_have_no_sweep_section(ramp_run, sweep_run):
    plain = frames_of(ramp_run)
    assert not len(plain.sweep) and not len(plain.sweep_steps)
    assert "Queries under inserts" not in render_markdown(plain)
    mixed = frames_of(ramp_run, sweep_run)
    assert list(mixed.sweep["scenario"].unique()) == ["PostGIS"]
    text = render_markdown(mixed)
    assert "## Queries under inserts" in text and "**PostGIS** — sweep of `writers` (2 threads; one run" in text
    assert "| 0S | 1 | mongodb-geo | synthetic.Workload | run | threads |" in text
    assert "| PostGIS | 1 | postgis-geo | synthetic.Workload | run | writers sweep |" in text


def test_ramp_steps_with_and_without_per_operation_numbers(tmp_path):
    steps = [dict(step, perOperation={"READ": {"count": 10, "errors": 0, "p99Us": 1000, "throughput": 5.0}})
             for step in RAMP["ramp"]["steps"]]
    newer = make_run(tmp_path / "newer", "new", dict(RAMP, ramp=dict(RAMP["ramp"], steps=steps)))
    older = make_run(tmp_path / "older", "old", RAMP)
    frames = frames_of(newer, older)
    assert list(frames.steps["throughput"]) == [225.0, 112.0, 225.0, 112.0]


@pytest.fixture(scope="module")
def sweep_report(tmp_path_factory):
    """A MongoDB sweep and a repeated PostGIS sweep, rendered once for the module."""
    root = tmp_path_factory.mktemp("sweeps")
    sweep_study(root / "runs", step_seconds=3, ops_scale=0.05)
    out = root / "report"
    assert main([str(root / "runs"), "-o", str(out), "-q"]) == 0
    return out


def test_the_sweep_figure_is_a_non_empty_picture(sweep_report):
    path = sweep_report / SWEEP_PNG
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    pixels = matplotlib.image.imread(path)
    height, width = pixels.shape[:2]
    assert width >= 2000 and height >= 700  # three panels
    assert (pixels[..., :3].min(axis=2) < 0.9).mean() > 0.02
    # Both scenario colours are drawn (Okabe-Ito blue and vermilion).
    for colour in ((0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00)):
        close = (abs(pixels[..., :3] * 255 - colour) < 8).all(axis=2)
        assert close.sum() > 200, colour


def test_the_report_has_a_sweep_table_per_scenario_and_the_figure(sweep_report):
    text = (sweep_report / REPORT_FILE).read_text()
    assert text.count("## Queries under inserts") == 1
    assert "**MongoDB** — sweep of `writers` (8 threads; one run" in text
    assert "**PostGIS** — sweep of `writers` (8 threads; 2 runs" in text
    assert f"]({SWEEP_PNG})" in text
    assert text.index("## Queries under inserts") < text.index(f"]({SWEEP_PNG})") < text.index("## Runs")
    assert re.findall(r"!\[Figure (\d+)\]\(([^)]+)\)", text)[-1] == ("6", SWEEP_PNG)
    # Five steps per scenario; History starts at 9,000,000 (9M users x 1 event).
    assert text.count("| 9,000,000 |") == 2
    assert all((sweep_report / name).stat().st_size > 0 for name in FIGURES.values())


def test_no_sweep_figure_without_a_sweep(simple_run, tmp_path):
    out = tmp_path / "out"
    assert main([str(simple_run), "-o", str(out), "-q"]) == 0
    assert not (out / SWEEP_PNG).exists()


def _edit_summary(folder: Path, change) -> Path:
    path = folder / "summary.json"
    summary = json.loads(path.read_text())
    change(summary)
    path.write_text(json.dumps(summary))
    return path


def _step(summary, index=1):
    return summary["sweep"]["steps"][index]


SWEEP_DAMAGES = {
    "sweep is a list": (lambda s: s.update(sweep=[1]), "sweep is not an object"),
    "no steps": (lambda s: s["sweep"].pop("steps"), "sweep.steps is missing or not a list"),
    "step is text": (lambda s: s["sweep"]["steps"].append("step 3"), "sweep.steps[2] is not an object"),
    "no offered rate": (lambda s: _step(s).pop("offeredOpsPerSec"), "sweep.steps[1] lacks offeredOpsPerSec"),
    "no perOperation": (lambda s: _step(s, 0).pop("perOperation"), "sweep.steps[0] lacks perOperation"),
    "start second is text": (lambda s: _step(s).update(startSecond="three"),
                             "sweep.steps[1].startSecond is not a number: 'three'"),
    "offered rate is null": (lambda s: _step(s).update(offeredOpsPerSec=None),
                             "sweep.steps[1].offeredOpsPerSec is not a number: None"),
    "step twice": (lambda s: _step(s).update(step=1), "sweep.steps[1]: step 1 appears twice"),
    "perOperation is a list": (lambda s: _step(s).update(perOperation=[]), "sweep.steps[1].perOperation is not"),
    "operation without throughput": (lambda s: _step(s)["perOperation"]["HISTORY_INSERT"].pop("throughput"),
                                     "sweep.steps[1].perOperation.HISTORY_INSERT lacks throughput"),
    "negative count": (lambda s: _step(s)["perOperation"]["LKL_READ"].update(count=-5),
                       "sweep.steps[1].perOperation.LKL_READ.count is not a number ≥ 0: -5"),
    "p99 is text": (lambda s: _step(s)["perOperation"]["LKL_READ"].update(p99Us="1 ms"),
                    "sweep.steps[1].perOperation.LKL_READ.p99Us is not a number ≥ 0: '1 ms'"),
    "group is a number": (lambda s: s["sweep"].update(group=7), "sweep.group is not a name: 7"),
}


@pytest.mark.parametrize("name", sorted(SWEEP_DAMAGES))
def test_a_damaged_sweep_fails_naming_summary_json(sweep_run, tmp_path, capsys, name):
    change, problem = SWEEP_DAMAGES[name]
    culprit = _edit_summary(sweep_run, change)
    out = tmp_path / "out"
    assert main([str(sweep_run), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert f"report: error: {culprit}: {problem}" in captured.err
    assert "Traceback" not in captured.err and not (out / REPORT_FILE).exists()


def test_damaged_ramp_step_operations_fail_naming_summary_json(tmp_path, capsys):
    steps = [dict(step, perOperation=3) for step in RAMP["ramp"]["steps"]]
    run = make_run(tmp_path / "r", "r", dict(RAMP, ramp=dict(RAMP["ramp"], steps=steps)))
    assert main([str(run), "-o", str(tmp_path / "out")]) == 1
    assert f"report: error: {run / 'summary.json'}: ramp.steps[0].perOperation is not an object" in \
        capsys.readouterr().err


@pytest.mark.parametrize("value", ["lots", "-3", "1.5"])
def test_a_bad_history_property_fails_naming_run_json(tmp_path, capsys, value):
    run = make_sweep_run(tmp_path / "s", properties={"ll.users": value, "ll.history.peruser": "1"})
    assert main([str(run), "-o", str(tmp_path / "out")]) == 1
    assert (f"report: error: {run / 'run.json'}: properties.ll.users is not a whole number ≥ 0: {value!r}"
            in capsys.readouterr().err)


def test_history_start_needs_both_properties():
    assert sweep.history_at_start({"properties": {"ll.users": "20000", "ll.history.peruser": "3"}}) == 60000.0
    assert sweep.history_at_start({"properties": {"ll.users": 20000, "ll.history.peruser": 1}}) == 20000.0
    assert math.isnan(sweep.history_at_start({"properties": {"ll.history.peruser": "1"}}))
    assert math.isnan(sweep.history_at_start({}))


def test_a_sweep_is_no_maximum_nor_a_point_at_its_thread_count(ramp_run, sweep_run):
    frames = frames_of(ramp_run, sweep_run)
    assert list(frames.bars["scenario"]) == ["0S"], "no hatched bar adding reads, inserts and upserts"
    assert set(frames.load_points["scenario"]) == {"0S"}, "no point at the sweep's client threads"
    table, _ = tables.scenario_summary(frames.scenarios)
    assert list(table["Max sustained (ops/s)"]) == ["225", "n/a (sweep)"]
    assert "A sweep has no maximum" in render_markdown(frames)


def test_the_sweep_figure_draws_achieved_against_offered_rates_per_write_operation(sweep_run):
    frames = frames_of(sweep_run)
    figure = plotting.queries_vs_inserts_figure(frames.sweep, frames.sweep_steps, frames.sweep_queries,
                                                plotting.Palette(frames.runs["scenario"]))
    FigureCanvasAgg(figure).draw()
    offered = figure.axes[0]
    assert offered.get_xlabel() == "Offered rate (events/s)"
    # Steps offered 0 and 50 events/s; achieved (conftest.sweep_seconds): inserts 0 and 45/s, upserts 0 and
    # 40/s, stale 0 and 5/s. Each operation is a line (and its markers) in step order.
    lines = {tuple(line.get_ydata()) for line in offered.get_lines() if list(line.get_xdata()) == [0.0, 50.0]}
    assert {(0.0, 45.0), (0.0, 40.0), (0.0, 5.0)} <= lines
    diagonal = [line for line in offered.get_lines() if list(line.get_xdata()) == list(line.get_ydata())
                and len(line.get_xdata()) == 2 and line.get_xdata()[0] == 0]
    assert diagonal and diagonal[0].get_xdata()[1] == 50.0
    labels = [text.get_text() for text in figure.legends[0].get_texts()]
    assert {"HISTORY_INSERT/s (left)", "LKL_UPSERT/s (left)", "LKL_STALE/s (left)", "achieved = offered"} <= set(labels)
