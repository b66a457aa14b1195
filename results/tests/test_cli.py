"""The command end to end: every figure is written and looks like a picture, report.md links them,
and bad input fails with a clear message naming the file."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import pytest

from geoshard_results.cli import main
from geoshard_results.report import FIGURES, REPORT_FILE
from tests.conftest import make_run
from tests.synthetic import realistic_study

RESULTS = Path(__file__).resolve().parent.parent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """0S, 2S, 3S (twice) ramps and a PostGIS run without a ramp, rendered once for the module."""
    root = tmp_path_factory.mktemp("study")
    realistic_study(root / "runs", step_seconds=6, ops_scale=0.05)
    out = root / "report"
    assert main([str(root / "runs"), "-o", str(out), "-q"]) == 0
    return out


@pytest.mark.parametrize("name", sorted(FIGURES.values()))
def test_every_figure_is_a_non_empty_picture(study, name):
    path = study / name
    assert path.read_bytes()[:8] == PNG_SIGNATURE
    assert path.stat().st_size > 20_000
    pixels = matplotlib.image.imread(path)
    height, width = pixels.shape[:2]
    assert width >= 800 and height >= 500
    # Not a blank canvas: a good share of the pixels is not white.
    assert (pixels[..., :3].min(axis=2) < 0.9).mean() > 0.02


def test_report_embeds_every_figure_and_the_tables(study):
    text = (study / REPORT_FILE).read_text()
    linked = re.findall(r"!\[Figure \d\]\(([^)]+)\)", text)
    assert sorted(linked) == sorted(FIGURES.values())
    for heading in ("## Maximum sustained throughput", "## Latency per operation", "## Ramp steps", "## Runs",
                    "## Cross-check"):
        assert heading in text
    for scenario in ("0S", "2S", "3S", "PostGIS"):
        assert f"| {scenario} |" in text
    assert "| 3S | 2 |" in text  # the two 3S runs are one scenario
    assert "agree with `summary.json`" in text


def test_the_last_line_says_where_the_report_is(simple_run, tmp_path, capsys):
    out = tmp_path / "out"
    assert main([str(simple_run), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == f"Report written to {out / REPORT_FILE}"
    assert all((out / name).stat().st_size > 0 for name in FIGURES.values())


def test_labels_rename_and_add_run_folders(simple_run, tmp_path):
    other = make_run(tmp_path / "other", "ignored")
    out = tmp_path / "out"
    assert main([str(simple_run), "--label", f"PostGIS={other}", "-o", str(out), "-q"]) == 0
    text = (out / REPORT_FILE).read_text()
    assert "**simple**, **PostGIS**" in text and "ignored" not in text


def test_default_output_folder_is_under_results_reports(monkeypatch, simple_run, tmp_path):
    from geoshard_results import cli

    monkeypatch.setattr(cli, "RESULTS_HOME", tmp_path)
    assert main([str(simple_run), "-q"]) == 0
    (folder,) = (tmp_path / "reports").iterdir()
    assert re.fullmatch(r"\d{8}T\d{6}Z", folder.name) and (folder / REPORT_FILE).is_file()


def damage(folder: Path, name: str):
    """Breaks one file of a run folder; returns the path the error must name."""
    if name == "no timeseries.csv":
        (folder / "timeseries.csv").unlink()
        return folder / "timeseries.csv"
    if name == "no run.json":
        (folder / "run.json").unlink()
        return folder / "run.json"
    if name == "corrupt summary.json":
        (folder / "summary.json").write_text('{"operations": 3,')
        return folder / "summary.json"
    if name == "summary.json without perOperation":
        (folder / "summary.json").write_text('{"operations": 3, "throughput": 1.0, "stopReason": "time"}')
        return folder / "summary.json"
    if name == "wrong timeseries header":
        path = folder / "timeseries.csv"
        path.write_text(path.read_text().replace("opsPerSec", "rate", 1))
        return path
    if name == "text in a timeseries number":
        path = folder / "timeseries.csv"
        lines = path.read_text().splitlines()
        lines[2] = lines[2].replace(",2", ",two", 1)
        path.write_text("\n".join(lines) + "\n")
        return path
    if name == "truncated timeseries row":
        path = folder / "timeseries.csv"
        path.write_text(path.read_text() + "5,1795305373615,1000,READ,7\n")
        return path
    if name == "no READ.hlog":
        (folder / "READ.hlog").unlink()
        return folder / "READ.hlog"
    if name == "garbled hlog line":
        path = folder / "UPDATE.hlog"
        path.write_text(path.read_text() + "1.000,1.000,??,broken\n")
        return path
    if name == "hlog histogram that does not decode":
        path = folder / "READ.hlog"
        path.write_text(path.read_text() + "4.000,1.000,1.000,QUJDREVGRw==\n")
        return path
    raise AssertionError(name)


DAMAGES = ["no timeseries.csv", "no run.json", "corrupt summary.json", "summary.json without perOperation",
           "wrong timeseries header", "text in a timeseries number", "truncated timeseries row", "no READ.hlog",
           "garbled hlog line", "hlog histogram that does not decode"]


@pytest.mark.parametrize("name", DAMAGES)
def test_bad_input_fails_naming_the_file(simple_run, tmp_path, capsys, name):
    culprit = damage(simple_run, name)
    out = tmp_path / "out"
    assert main([str(simple_run), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert f"report: error: {culprit}" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""
    assert not (out / REPORT_FILE).exists()


def test_a_run_that_measured_nothing_still_gives_a_report(tmp_path):
    from tests.synthetic import RunSpec, write_run

    empty = write_run(tmp_path / "empty", RunSpec(seconds=[], label="empty", stop_reason="failed"))
    out = tmp_path / "out"
    assert main([str(empty), "-o", str(out), "-q"]) == 0
    text = (out / REPORT_FILE).read_text()
    assert "| empty | 1 | 0.0* | n/a |" in text
    assert all((out / name).stat().st_size > 0 for name in FIGURES.values())


def test_open_loop_ramps_plot_against_offered_load(tmp_path):
    from tests.conftest import RAMP

    ramp = dict(RAMP, ramp=dict(RAMP["ramp"], mode="rate", steps=[
        dict(step, offeredOpsPerSec=offered) for step, offered in zip(RAMP["ramp"]["steps"], (250.0, 500.0))]))
    closed, opened = make_run(tmp_path / "closed", "closed", RAMP), make_run(tmp_path / "open", "open", ramp)
    out = tmp_path / "out"
    assert main([str(closed), str(opened), "-o", str(out), "-q"]) == 0
    assert "(rate ramp;" in (out / REPORT_FILE).read_text()
    assert matplotlib.image.imread(out / FIGURES["throughput_vs_threads"]).shape[1] >= 1400  # two panels


def test_a_missing_run_folder_is_named(tmp_path, capsys):
    assert main([str(tmp_path / "nowhere"), "-o", str(tmp_path / "out")]) == 1
    assert f"report: error: {tmp_path / 'nowhere'}: no such run folder" in capsys.readouterr().err


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--label", "no-equals-sign"])
    assert exit_info.value.code == 2
    assert "expected NAME=RUN_DIR" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_report_script_exits_non_zero_and_names_the_file(simple_run, tmp_path):
    """Through results/report itself (the venv is already set up when the tests run)."""
    culprit = damage(simple_run, "no READ.hlog")
    result = subprocess.run([str(RESULTS / "report"), str(simple_run), "-o", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert f"report: error: {culprit}: missing" in result.stderr


def test_the_module_runs_as_a_command(simple_run, tmp_path):
    out = tmp_path / "out"
    result = subprocess.run([sys.executable, "-m", "geoshard_results", str(simple_run), "-o", str(out)],
                            capture_output=True, text=True, cwd=RESULTS, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"Report written to {out / REPORT_FILE}"
