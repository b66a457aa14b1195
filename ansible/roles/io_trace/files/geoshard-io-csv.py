#!/usr/bin/env python3
"""Converts a raw bpftrace block trace to the run folder's io/<node>.csv (the harness's columns), and
writes beside it (OUT with .json for .csv) the tracepoints used and the requests that started but were
never seen to complete (in flight at the end, merged into another request, or missed), as the harness's
run.json records them.

Usage: geoshard-io-csv.py RAW ANCHOR STAGE OUT PROBES
ANCHOR holds "<epoch ms> <monotonic ns>", read together when the tracer started: bpftrace's nsecs
and Python's monotonic_ns are both CLOCK_MONOTONIC, so a request's start becomes epoch time exactly.
PROBES holds the set used: block_io or block_rq.
"""
import json
import re
import sys

HEADER = "epoch_ms,stage,device,sector,bytes,op,rwbs,process,pid,latency_us"
# The tracepoints of each set, in the order a request meets them (the harness's BlockProbes).
TRACEPOINTS = {"block_io": ["block_io_start", "block_bio_frontmerge", "block_rq_issue", "block_io_done"],
               "block_rq": ["block_getrq", "block_bio_frontmerge", "block_rq_issue", "block_rq_complete"]}
COUNTS = re.compile(r"^# requests (\d+) started, (\d+) completed$")


def op(rwbs: str, size: int) -> str:
    if "R" in rwbs:
        return "R"
    return "W" if "W" in rwbs and size > 0 else "other"


def convert(raw_lines, epoch_ms: float, nanos: int, stage: str, counts: dict):
    yield HEADER
    for line in raw_lines:
        found = COUNTS.match(line.strip())
        if found:
            counts["started"], counts["completed"] = int(found.group(1)), int(found.group(2))
            continue
        fields = line.strip().split(",")
        if len(fields) != 9 or not fields[0].isdigit():
            continue  # bpftrace's own lines (Attaching ..., the anchor)
        start, major, minor, sector, size, rwbs, pid, comm, latency = fields
        at = epoch_ms + (int(start) - nanos) / 1e6
        yield (f"{at:.3f},{stage},{major}:{minor},{int(sector)},{int(size)},{op(rwbs, int(size))},{rwbs},"
               f"{comm.replace(',', '_')},{int(pid)},{int(latency) / 1000:.1f}")


def main(argv):
    raw, anchor, stage, out, probes = argv[1:6]
    with open(anchor, encoding="utf-8") as f:
        epoch_ms, nanos = f.read().split()
    with open(probes, encoding="utf-8") as f:
        probe_set = f.read().strip()
    counts = {}
    with open(raw, encoding="utf-8", errors="replace") as f, open(out, "w", encoding="utf-8") as o:
        for row in convert(f, float(epoch_ms), int(nanos), stage, counts):
            o.write(row + "\n")
    # Without the count line (bpftrace was killed) the number is unknown: null, as in run.json.
    never = counts["started"] - counts["completed"] if counts else None
    with open(out[:-len(".csv")] + ".json", "w", encoding="utf-8") as o:
        json.dump({"stage": stage, "probes": TRACEPOINTS.get(probe_set, [probe_set]), "neverCompleted": never,
                   "started": counts.get("started"), "completed": counts.get("completed")}, o)
        o.write("\n")


if __name__ == "__main__":
    main(sys.argv)
