"""The .hlog reader: real Java output, strict parsing, histogram merging and percentile curves."""

import math

import pytest

from geoshard_results import hlog
from geoshard_results.errors import RunFolderError
from tests.synthetic import Sample

# Written by the harness (Java HdrHistogram 2.2.2): `bin/ycsb run noop ...`, READ.hlog.
JAVA_LOG = """\
#[geoshard operation READ, latency values in microseconds]
#[Histogram log format version 1.3]
#[StartTime: 1795305107.849 (seconds since epoch), Sat Nov 21 23:51:47 UTC 2026]
#[BaseTime: 1795305107.849 (seconds since epoch)]
"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
0.000,0.234,16.015,HISTFAAAACx42pNpmSzMwMDAwwABzFCaEURcm7yEwf4DRODIfB52JgYmZqZufyYAnHoG7g==
"""


def write(tmp_path, text, name="READ.hlog"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_reads_a_log_written_by_the_java_harness(tmp_path):
    log = hlog.read_hlog(write(tmp_path, JAVA_LOG))
    assert log.base_time_sec == pytest.approx(1795305107.849)
    assert list(log.intervals["startSec"]) == [0.0]
    assert list(log.intervals["lengthSec"]) == [0.234]
    assert list(log.absolute_start_ms()) == [1795305107849.0]
    histogram = hlog.merge_payloads(log.intervals["payload"])
    # summary.json of that run: READ count 100326, maxUs 16015, p99Us 0.
    assert histogram.get_total_count() == 100326
    assert histogram.get_max_value() == 16015
    assert hlog.percentile_values(histogram, [99.0]) == {99.0: 0.0}


def encoded(values, counts=None):
    return Sample(values, counts).histogram().encode().decode("ascii")


def test_merging_adds_histograms_before_taking_percentiles():
    merged = hlog.merge_payloads([encoded([1000], [100]), encoded([2000], [50])])
    values = hlog.percentile_values(merged, [50.0, 95.0, 99.0, 100.0])
    assert merged.get_total_count() == 150
    assert values == {50.0: 1000.0, 95.0: 2000.0, 99.0: 2000.0, 100.0: 2000.0}


def test_percentiles_of_an_empty_histogram_are_nan():
    values = hlog.percentile_values(hlog.new_histogram(), [50.0])
    assert math.isnan(values[50.0])


def test_percentile_curve_rises_to_the_maximum():
    histogram = hlog.merge_payloads([encoded(list(range(1, 1001)))])
    curve = hlog.percentile_curve(histogram)
    assert curve["inverseTail"].iloc[0] == 1.0
    assert curve["valueUs"].is_monotonic_increasing
    assert curve["valueUs"].iloc[-1] == 1000
    # The median of 1..1000 is 500; the curve passes through it at 1/(1-0.5) = 2.
    assert curve.loc[(curve["percentile"] - 50).abs().idxmin(), "valueUs"] == pytest.approx(500, abs=3)


def test_relative_timestamps_without_base_time_count_from_start_time(tmp_path):
    text = JAVA_LOG.replace("#[BaseTime: 1795305107.849 (seconds since epoch)]\n", "")
    log = hlog.read_hlog(write(tmp_path, text))
    assert list(log.absolute_start_ms()) == [1795305107849.0]


@pytest.mark.parametrize("line, problem", [
    ("0.000,1.000,HISTFAAAAC", "expected 4 comma-separated fields"),
    ("zero,1.000,1.0,HISTFAAAAC", "not a number"),
    ("0.000,1.000,1.0,@@not base64@@", "not base64"),
    ("-1.000,1.000,1.0,HISTFAAAAC", "negative"),
])
def test_a_damaged_line_is_reported_with_file_and_line(tmp_path, line, problem):
    path = write(tmp_path, JAVA_LOG + line + "\n")
    with pytest.raises(RunFolderError) as error:
        hlog.read_hlog(path)
    assert error.value.path == path
    assert error.value.line == 7
    assert problem in str(error.value)
    assert str(error.value).startswith(f"{path}:7: ")


def test_a_payload_that_does_not_decode_names_its_source():
    with pytest.raises(RunFolderError) as error:
        hlog.merge_payloads(["QUJDREVGRw=="], ["/runs/a/READ.hlog:9"])
    assert str(error.value).startswith("/runs/a/READ.hlog:9: the histogram cannot be decoded")


def test_a_file_that_is_not_an_interval_log_is_refused(tmp_path):
    path = write(tmp_path, "0.000,1.000,1.0,HISTFAAAAC\n")
    with pytest.raises(RunFolderError, match="not an HdrHistogram interval log"):
        hlog.read_hlog(path)


def test_a_binary_file_is_refused(tmp_path):
    path = tmp_path / "READ.hlog"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(RunFolderError, match="not an ASCII"):
        hlog.read_hlog(path)
