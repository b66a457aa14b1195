#!/usr/bin/env python3
"""Converts a raw bpftrace block trace to the run folder's io/<node>.csv (the harness's columns).

Usage: geoshard-io-csv.py RAW ANCHOR STAGE OUT
ANCHOR holds "<epoch ms> <monotonic ns>", read together when the tracer started: bpftrace's nsecs
and Python's monotonic_ns are both CLOCK_MONOTONIC, so a request's start becomes epoch time exactly.
"""
import sys

HEADER = "epoch_ms,stage,device,sector,bytes,op,rwbs,process,pid,latency_us"


def op(rwbs: str, size: int) -> str:
    if "R" in rwbs:
        return "R"
    return "W" if "W" in rwbs and size > 0 else "other"


def convert(raw_lines, epoch_ms: float, nanos: int, stage: str):
    yield HEADER
    for line in raw_lines:
        fields = line.strip().split(",")
        if len(fields) != 9 or not fields[0].isdigit():
            continue  # bpftrace's own lines (Attaching ..., the anchor)
        start, major, minor, sector, size, rwbs, pid, comm, latency = fields
        at = epoch_ms + (int(start) - nanos) / 1e6
        yield (f"{at:.3f},{stage},{major}:{minor},{int(sector)},{int(size)},{op(rwbs, int(size))},{rwbs},"
               f"{comm.replace(',', '_')},{int(pid)},{int(latency) / 1000:.1f}")


def main(argv):
    raw, anchor, stage, out = argv[1:5]
    with open(anchor, encoding="utf-8") as f:
        epoch_ms, nanos = f.read().split()
    with open(raw, encoding="utf-8", errors="replace") as f, open(out, "w", encoding="utf-8") as o:
        for row in convert(f, float(epoch_ms), int(nanos), stage):
            o.write(row + "\n")


if __name__ == "__main__":
    main(sys.argv)
