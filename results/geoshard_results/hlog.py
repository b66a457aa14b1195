"""HdrHistogram interval logs (``<OPERATION>.hlog``) and the histogram arithmetic built on them.

The harness writes one log per operation with Java's ``HistogramLogWriter`` (log format V1.3):
comment lines, a ``StartTime`` and a ``BaseTime`` line, a CSV legend, then one line per interval::

    0.000,1.000,4.119,HISTFAAAADx42pNpmSzMwMAg...

(start in seconds relative to BaseTime, length in seconds, interval max in milliseconds, and the
base64 of a compressed V2 histogram whose values are microseconds).

This module parses the lines itself, strictly, so that a damaged log fails with its file and line
number, and leaves only the decoding of one payload to HdrHistogram_py (``hdrh``).
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd
from hdrh.histogram import HdrHistogram

from .errors import RunFolderError

log = logging.getLogger(__name__)

# The harness records microseconds up to one hour at three significant digits.
LOWEST_US = 1
HIGHEST_US = 3_600_000_000
SIGNIFICANT_DIGITS = 3

INTERVAL_COLUMNS = ["startSec", "lengthSec", "maxMs", "payload", "line"]

_START_TIME = re.compile(r"#\[StartTime:\s*([0-9]+(?:\.[0-9]*)?)")
_BASE_TIME = re.compile(r"#\[BaseTime:\s*([0-9]+(?:\.[0-9]*)?)")
_PAYLOAD = re.compile(r"^[A-Za-z0-9+/]+={0,2}$")
# Timestamps smaller than this are relative (seconds since BaseTime), larger ones are epoch seconds.
_EPOCH_THRESHOLD_SEC = 365 * 24 * 3600.0


@dataclass(frozen=True)
class IntervalLog:
    """One parsed .hlog file: its interval lines, not yet decoded."""

    path: Path
    base_time_sec: float | None
    intervals: pd.DataFrame  # INTERVAL_COLUMNS, one row per interval line

    def absolute_start_ms(self) -> pd.Series:
        """Epoch milliseconds at which each interval started (NaN if the log has no time base)."""
        starts = self.intervals["startSec"]
        if self.base_time_sec is None:
            absolute = starts.where(starts >= _EPOCH_THRESHOLD_SEC)
        else:
            absolute = starts + self.base_time_sec
        return (absolute * 1000.0).round()


def parse_hlog(text: str, path: Path) -> IntervalLog:
    """Parses the text of an interval log; raises RunFolderError naming ``path`` and the line.

    The harness ends every line it writes; a last line without its end was cut off by a crash and is
    left out (with a warning), so that what the run measured before the crash can still be read.
    """
    start_time = base_time = None
    rows = []
    saw_legend = False
    lines = text.splitlines()
    if lines and not text.endswith(("\n", "\r")):
        log.warning("%s:%d: the last line is cut off (the run did not end normally); left out", path, len(lines))
        lines = lines[:-1]
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if match := _START_TIME.match(line):
                start_time = float(match.group(1))
            elif match := _BASE_TIME.match(line):
                base_time = float(match.group(1))
            continue
        if line.startswith('"StartTimestamp"'):
            saw_legend = True
            continue
        if line.startswith("Tag="):
            line = line.partition(",")[2]
        fields = line.split(",")
        if len(fields) != 4:
            raise RunFolderError(path, f"expected 4 comma-separated fields in an interval line, found {len(fields)}",
                                 number)
        try:
            start, length, max_ms = (float(value) for value in fields[:3])
        except ValueError:
            raise RunFolderError(path, f"timestamp, length or max is not a number: {raw[:80]!r}", number) from None
        if not all(math.isfinite(value) and value >= 0 for value in (start, length, max_ms)):
            raise RunFolderError(path, "negative or infinite timestamp, length or max", number)
        if not _PAYLOAD.match(fields[3]):
            raise RunFolderError(path, "the histogram is not base64 text", number)
        rows.append((start, length, max_ms, fields[3], number))
    if rows and not saw_legend:
        raise RunFolderError(path, 'no "StartTimestamp",... legend line: not an HdrHistogram interval log')
    if base_time is None and start_time is not None and rows and rows[0][0] < _EPOCH_THRESHOLD_SEC:
        base_time = start_time  # HdrHistogram's rule: relative timestamps count from StartTime
    intervals = pd.DataFrame(rows, columns=INTERVAL_COLUMNS)
    return IntervalLog(path=path, base_time_sec=base_time, intervals=intervals)


def read_hlog(path: Path) -> IntervalLog:
    """Reads and parses one .hlog file."""
    try:
        text = Path(path).read_text(encoding="ascii")
    except FileNotFoundError:
        raise RunFolderError(path, "missing") from None
    except UnicodeDecodeError as error:
        raise RunFolderError(path, f"not an ASCII HdrHistogram log (byte {error.start})") from None
    except OSError as error:
        raise RunFolderError(path, f"cannot be read: {error.strerror}") from None
    return parse_hlog(text, Path(path))


# Histogram arithmetic -------------------------------------------------------------------------


def new_histogram() -> HdrHistogram:
    """An empty histogram with the harness's range and precision."""
    return HdrHistogram(LOWEST_US, HIGHEST_US, SIGNIFICANT_DIGITS)


def merge_payloads(payloads: Iterable[str], sources: Iterable[str] | None = None) -> HdrHistogram:
    """Adds compressed histograms into one; ``sources`` ("file:line") name a payload that fails."""
    total = new_histogram()
    sources = iter(sources) if sources is not None else None
    for payload in payloads:
        source = next(sources) if sources is not None else None
        try:
            total.decode_and_add(payload)
        except Exception as error:  # hdrh raises many kinds (binascii, zlib, its own cookies)
            path, _, line = (source or "<histogram>").rpartition(":")
            detail = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            raise RunFolderError(path or source, f"the histogram cannot be decoded ({detail})",
                                 int(line) if line.isdigit() else None) from None
    return total


def percentile_values(histogram: HdrHistogram, percentiles: Iterable[float]) -> dict[float, float]:
    """Value (microseconds) at each percentile (0..100); NaN for an empty histogram."""
    percentiles = list(percentiles)
    if histogram.get_total_count() == 0:
        return {p: math.nan for p in percentiles}
    values = histogram.get_percentile_to_value_dict(percentiles)
    return {p: float(values.get(p, histogram.get_max_value())) for p in percentiles}


def percentile_curve(histogram: HdrHistogram, points: int = 200) -> pd.DataFrame:
    """The HdrHistogram percentile distribution: columns ``percentile`` (0..100), ``valueUs`` and
    ``inverseTail`` = 1 / (1 - percentile/100), the x axis of HdrHistogram's plots.

    Percentiles are spaced evenly in log(inverseTail) up to the last one that the count resolves
    (1 - 1/count); the maximum closes the curve.
    """
    count = histogram.get_total_count()
    if count == 0:
        return pd.DataFrame({"percentile": [], "valueUs": [], "inverseTail": []})
    last = max(float(count), 1.0)
    inverse_tails = np.unique(np.concatenate([[1.0], np.logspace(0, math.log10(last), points)]))
    percentiles = [100.0 * (1.0 - 1.0 / x) for x in inverse_tails]
    values = percentile_values(histogram, percentiles)
    curve = pd.DataFrame({"percentile": percentiles, "valueUs": [values[p] for p in percentiles],
                          "inverseTail": inverse_tails})
    closing = pd.DataFrame({"percentile": [100.0], "valueUs": [float(histogram.get_max_value())],
                            "inverseTail": [last * 1.0001]})
    return pd.concat([curve, closing], ignore_index=True)
