"""Checks of the io_trace role offline: the rendered bpftrace program has the harness's predicate and
output line, with either probe set (block_io from Linux 6.5, block_rq before), the size taken at issue;
the converter writes the harness's CSV (io/<node>.csv) exactly and the probes and never-completed count
beside it; and, as root with bpftrace installed, each rendered program traces dd on this machine's kernel
(a kernel from 6.5 has both sets), its counts printed at the end.
Prints PASS/FAIL lines (counted by ./check)."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jinja2


ROLE = Path(__file__).resolve().parent.parent / "roles" / "io_trace"
# The harness's BlockRequest.CSV_HEADER.
HEADER = "epoch_ms,stage,device,sector,bytes,op,rwbs,process,pid,latency_us"
failed = False


def check(label, ok, detail=""):
    global failed
    print(("PASS " if ok else "FAIL ") + label + ("" if ok else f": {detail}"))
    failed |= not ok


# As Ansible's template module renders (trim_blocks).
def trace_dd(tmp, program):
    """Runs the program while dd writes 1 MiB through the page cache (fsync: merged 4 KiB pages) and
    reads it back directly; returns (summary, ok, detail)."""
    (tmp / "p.bt").write_text(program)
    data = Path(__file__).resolve().parent.parent / ".check" / "io-trace-dd"
    data.parent.mkdir(exist_ok=True)
    with open(tmp / "p.out", "w") as out, open(tmp / "p.err", "w") as err:
        tracer = subprocess.Popen(["bpftrace", str(tmp / "p.bt")], stdout=out, stderr=err)
    try:
        for _ in range(600):
            if "# anchor " in (tmp / "p.out").read_text() or tracer.poll() is not None:
                break
            time.sleep(0.2)
        subprocess.run(["dd", "if=/dev/zero", f"of={data}", "bs=4k", "count=256", "conv=fsync", "status=none"], check=True)
        subprocess.run(["dd", f"if={data}", "of=/dev/null", "bs=64k", "iflag=direct", "status=none"], check=True)
    finally:
        time.sleep(0.5)  # the last completions reach the program's output before it is stopped
        tracer.terminate()
        tracer.wait(120)
        data.unlink(missing_ok=True)
    text = (tmp / "p.out").read_text()
    rows = [r.split(",") for r in text.splitlines() if r.count(",") == 8 and r.split(",")[7] == "dd"]
    counts = re.search(r"^# requests (\d+) started, (\d+) completed$", text, re.M)
    writes = sum(int(r[4]) for r in rows if "W" in r[5])
    # dd's direct reads of the data, not the read-ahead (RA) of dd's own program when it starts.
    reads = sum(int(r[4]) for r in rows if "R" in r[5] and "A" not in r[5])
    never = int(counts.group(1)) - int(counts.group(2)) if counts else None
    summary = f"{len(rows)} requests, {writes} bytes written, {reads} read, {never} never completed"
    mib = 1 << 20
    ok = (counts is not None and 0 <= never <= 3 and mib - never * mib <= writes <= mib + 65536
          and reads + never * 65536 >= mib and reads <= mib + 65536)
    return summary, ok, text[-1500:] + (tmp / "p.err").read_text()[-1500:]


template = jinja2.Environment(loader=jinja2.FileSystemLoader(ROLE / "templates"), keep_trailing_newline=True,
                              trim_blocks=True)


def render(names, probe_set):
    return template.get_template("geoshard-io.bt.j2").render(io_trace_process_names=names,
                                                             io_trace_probe_set=probe_set)


KEY = "[args->dev, args->sector]"
for probe_set, start, done in (("block_io", "block_io_start", "block_io_done"),
                               ("block_rq", "block_getrq", "block_rq_complete")):
    program = render(["mongod", "mongos"], probe_set)
    check(f"io_trace ({probe_set}): the program traces exactly the named processes where a request starts ({start})",
          f'tracepoint:block:{start} /comm == "mongod" || comm == "mongos"/ {{' in program, program)
    check(f"io_trace ({probe_set}): {done}, block_rq_issue and block_bio_frontmerge follow the requests started",
          f"tracepoint:block:{done} /@start{KEY}/ {{" in program
          and f"tracepoint:block:block_rq_issue /@start{KEY}/ {{\n  @bytes{KEY} = args->nr_sector * 512;" in program
          and f"tracepoint:block:block_bio_frontmerge /@start[args->dev, args->sector + args->nr_sector]/" in program
          and program.count("tracepoint:") == 4, program)
    check(f"io_trace ({probe_set}): the program prints the harness's line, anchor and counts",
          'printf("%llu,%u,%u,%llu,%u,%s,%d,%s,%llu\\n"' in program and 'printf("# anchor %llu\\n", nsecs)' in program
          and 'printf("# requests %d started, %d completed\\n", @started, @completed)' in program, program)

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    (tmp / "raw.txt").write_text("# anchor 4000000000\nAttaching 3 probes...\n"
                                 "5000000000,254,0,16,4096,WS,7,mongod,2500000\n"
                                 "5000500000,254,0,0,0,FWS,7,mongod,1000\n"
                                 "5001000000,8,16,2048,131072,RA,9,mongod,800000\n"
                                 "# requests 5 started, 3 completed\n\n")
    (tmp / "anchor").write_text("1000.5 4000000000\n")
    (tmp / "probes").write_text("block_rq\n")
    subprocess.run([sys.executable, str(ROLE / "files" / "geoshard-io-csv.py"), str(tmp / "raw.txt"),
                    str(tmp / "anchor"), "after-load", str(tmp / "out.csv"), str(tmp / "probes")], check=True)
    rows = (tmp / "out.csv").read_text().splitlines()
    expected = [HEADER,
                "2000.500,after-load,254:0,16,4096,W,WS,mongod,7,2500.0",
                "2001.000,after-load,254:0,0,0,other,FWS,mongod,7,1.0",
                "2001.500,after-load,8:16,2048,131072,R,RA,mongod,9,800.0"]
    check("io_trace: the converter writes the harness's CSV (epoch ms from the clock anchor)", rows == expected,
          "\n".join(rows))
    side = json.loads((tmp / "out.json").read_text())
    check("io_trace: beside the CSV, the probes used and the requests never completed (io/<node>.json)",
          side == {"stage": "after-load", "probes": ["block_getrq", "block_bio_frontmerge", "block_rq_issue", "block_rq_complete"],
                   "neverCompleted": 2, "started": 5, "completed": 3}, side)

    if os.geteuid() == 0 and shutil.which("bpftrace"):
        kernel = os.uname().release
        has_io = Path("/sys/kernel/tracing/events/block/block_io_start").is_dir()
        for probe_set in ("block_io", "block_rq") if has_io else ("block_rq",):
            traced = trace_dd(tmp, render(["dd"], probe_set))
            check(f"io_trace ({probe_set}): the rendered program traces dd's 1 MiB on this kernel ({kernel}), "
                  f"sizes at issue, counts at the end: {traced[0]}", traced[1], traced[2])
        if not has_io:
            print(f"PASS io_trace: this kernel ({kernel}) has no block_io_start: block_rq is what auto chooses here")
    else:
        print("PASS io_trace: bpftrace attach not tried (needs root and bpftrace on this machine)")
sys.exit(1 if failed else 0)
