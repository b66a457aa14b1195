"""The report's outline: one ordered list of sections (sections.SECTIONS), every figure numbered in the
order report.md shows it, captions and files from one place, and tables computed only when read."""

import json
import re
from datetime import datetime

import pytest

from geoshard_results import captions
from geoshard_results.cli import main
from geoshard_results.report import REPORT_FILE, compute_frames, outline, render_markdown
from geoshard_results.rundir import load_runs
from geoshard_results.sections import SECTIONS
from tests.conftest import RAMP, make_run, make_sweep_run
from tests.test_blockio import HEADER as IO_HEADER, ROWS as IO_ROWS
from tests.test_migrations import MOVING, QUIET
from tests.test_servers import host_and_database, write_servers
from tests.test_targeting import CELLS, HASHED

# Every heading a report can have, in the order report.md has them.
EVERY_HEADING = [
    "# geoshard benchmark report",
    "## Scenarios",
    "## Maximum sustained throughput",
    "## Latency per operation",
    "## Ramp steps",
    "## Queries under inserts",
    "## Query targeting",
    "## Chunk migrations",
    "## Block I/O",
    "## Servers",
    "## As the study reports it",
    "## Runs",
    "## Cross-check",
    "## Inputs",
]
# The figures of each section that has any, in the order the section shows them.
SECTION_FIGURES = {
    "## Maximum sustained throughput": ["max-throughput.png", "throughput-vs-threads.png",
                                        "throughput-over-time.png", "latency-over-time.png"],
    "## Latency per operation": ["latency-distribution.png"],
    "## Queries under inserts": ["queries-vs-inserts.png"],
    "## Block I/O": ["io-pattern.png", "io-distribution.png"],
    "## Servers": ["servers-over-time.png"],
}


def _edit_meta(folder, **fields):
    meta = json.loads((folder / "run.json").read_text())
    meta.update(fields)
    (folder / "run.json").write_text(json.dumps(meta))
    return meta


@pytest.fixture(scope="module")
def everything(tmp_path_factory):
    """Run folders with something for every section: a ramp run whose servers were sampled, a sweep run
    that traced block I/O, both with query targeting and chunk migrations in run.json, and a run folder
    that failed to start."""
    root = tmp_path_factory.mktemp("everything")
    ramp = make_run(root / "runs" / "ramp", label="0S", extra=RAMP, binding="mongodb-geo", stop_reason="sla")
    write_servers(ramp, [line for i in range(5) for line in host_and_database(0.5 + i, i)],
                  {"intervalSeconds": 1.0, "cpuMillis": 40, "rounds": 5, "meanRoundMicros": 1500,
                   "nodes": [{"node": "cfg", "role": "config", "requests": 5, "failures": 5}]})
    _edit_meta(ramp, queryTargeting={"operations": HASHED}, migrations=MOVING)
    sweep = make_sweep_run(root / "runs" / "sweep")
    meta = _edit_meta(sweep, queryTargeting={"operations": CELLS}, migrations=QUIET)
    start_ms = int(datetime.fromisoformat(meta["startTime"].replace("Z", "+00:00")).timestamp() * 1000)
    (sweep / "io").mkdir()
    (sweep / "io" / "postgresql-5432.csv").write_text("\n".join(
        [IO_HEADER, *(",".join([str(start_ms + 1000 + i), *row.split(",")[1:]]) for i, row in enumerate(IO_ROWS))])
        + "\n")
    failed = root / "runs" / "failed"
    failed.mkdir()
    (failed / "run.json").write_text(json.dumps({"status": "failed to start", "failure": "no server", "label": "X",
                                                 "command": "run", "binding": {"name": "noop"}, "workload": "w"}))
    out = root / "report"
    assert main([str(root / "runs"), "-o", str(out), "-q", "--study-trim", "1:0", "--study-window", "2"]) == 0
    return out


def _sections(text: str) -> dict[str, str]:
    """Heading -> the text under it, in the order of report.md."""
    parts = re.split(r"^(#{1,2} .+)$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_sections_come_in_the_order_of_the_one_list(everything):
    text = (everything / REPORT_FILE).read_text()
    headings = re.findall(r"^#{1,2} .+$", text, flags=re.M)
    assert headings == EVERY_HEADING
    assert headings == [section.heading() for section in SECTIONS]


def test_every_figure_is_numbered_in_the_order_of_the_text_and_each_section_has_its_own(everything):
    text = (everything / REPORT_FILE).read_text()
    assert text.count("![") == len(re.findall(r"!\[Figure \d+\]", text)), "no figure without a number"
    numbered = re.findall(r"!\[Figure (\d+)\]\(([^)]+)\)", text)
    assert [int(number) for number, _ in numbered] == list(range(1, len(numbered) + 1))
    for number, _ in numbered:
        assert text.count(f"*Figure {number}. ") == 1, "one caption per figure, with the figure's number"
    assert [file for _, file in numbered] == [file for files in SECTION_FIGURES.values() for file in files]
    for heading, body in _sections(text).items():
        assert re.findall(r"!\[Figure \d+\]\(([^)]+)\)", body) == SECTION_FIGURES.get(heading, [])
    assert sorted(path.name for path in everything.glob("*.png")) == sorted(file for _, file in numbered)


def test_captions_and_files_come_from_one_place(everything):
    assert set(captions.CAPTIONS) == set(captions.FILES)
    text = (everything / REPORT_FILE).read_text()
    numbered = dict((file, number) for number, file in re.findall(r"!\[Figure (\d+)\]\(([^)]+)\)", text))
    for figure_id, file in captions.FILES.items():
        start = captions.CAPTIONS[figure_id].split("{")[0]
        assert f"*Figure {numbered[file]}. {start}" in text


def test_a_plain_run_has_the_sections_that_apply_in_the_same_order(simple_run):
    frames = compute_frames(load_runs([simple_run]))
    text = render_markdown(frames)
    headings = re.findall(r"^#{1,2} .+$", text, flags=re.M)
    assert headings == ["# geoshard benchmark report", "## Scenarios", "## Maximum sustained throughput",
                        "## Latency per operation", "## As the study reports it", "## Runs", "## Cross-check",
                        "## Inputs"]
    assert headings == [heading for heading in EVERY_HEADING if heading in headings]
    placed = outline(frames)
    assert [figure.number for part in placed for figure in part.figures] == [1, 2, 3, 4, 5]


def test_the_tables_are_computed_when_first_read(simple_run):
    frames = compute_frames(load_runs([simple_run]))
    assert not {"runs", "intervals", "curves", "latency", "sweep", "io", "servers"} & set(vars(frames))
    render_markdown(frames)
    computed = set(vars(frames))
    assert {"runs", "scenarios", "operations", "crosscheck"} <= computed
    assert not {"curves", "latency", "plotted"} & computed, "report.md alone draws no figure"
    assert frames.curves is frames.curves  # once computed, kept
