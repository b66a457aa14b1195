"""Checks of the io_trace role offline: the rendered bpftrace program has the harness's predicate and
output line, the converter writes the harness's CSV (io/<node>.csv) exactly, and, as root with
bpftrace installed, the rendered program attaches its probes on this machine.
Prints PASS/FAIL lines (counted by ./check)."""
import os
import shutil
import subprocess
import sys
import tempfile
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


template = jinja2.Environment(loader=jinja2.FileSystemLoader(ROLE / "templates"), keep_trailing_newline=True)
program = template.get_template("geoshard-io.bt.j2").render(io_trace_process_names=["mongod", "mongos"])
check("io_trace: the program traces exactly the named processes",
      'tracepoint:block:block_io_start /comm == "mongod" || comm == "mongos"/ {' in program, program)
check("io_trace: the program prints the harness's line and anchor",
      'printf("%llu,%u,%u,%llu,%u,%s,%d,%s,%llu\\n"' in program and 'printf("# anchor %llu\\n", nsecs)' in program,
      program)

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    (tmp / "raw.txt").write_text("# anchor 4000000000\nAttaching 3 probes...\n"
                                 "5000000000,254,0,16,4096,WS,7,mongod,2500000\n"
                                 "5000500000,254,0,0,0,FWS,7,mongod,1000\n"
                                 "5001000000,8,16,2048,131072,RA,9,mongod,800000\n")
    (tmp / "anchor").write_text("1000.5 4000000000\n")
    subprocess.run([sys.executable, str(ROLE / "files" / "geoshard-io-csv.py"), str(tmp / "raw.txt"),
                    str(tmp / "anchor"), "after-load", str(tmp / "out.csv")], check=True)
    rows = (tmp / "out.csv").read_text().splitlines()
    expected = [HEADER,
                "2000.500,after-load,254:0,16,4096,W,WS,mongod,7,2500.0",
                "2001.000,after-load,254:0,0,0,other,FWS,mongod,7,1.0",
                "2001.500,after-load,8:16,2048,131072,R,RA,mongod,9,800.0"]
    check("io_trace: the converter writes the harness's CSV (epoch ms from the clock anchor)", rows == expected,
          "\n".join(rows))

    if os.geteuid() == 0 and shutil.which("bpftrace"):
        (tmp / "p.bt").write_text(template.get_template("geoshard-io.bt.j2").render(io_trace_process_names=["mongod"]))
        done = subprocess.run(["timeout", "-s", "TERM", "20", "bpftrace", str(tmp / "p.bt")], capture_output=True,
                              text=True)
        check("io_trace: the rendered program attaches its probes here (bpftrace, as root)",
              "# anchor " in done.stdout, done.stderr[-2000:])
    else:
        print("PASS io_trace: bpftrace attach not tried (needs root and bpftrace on this machine)")
sys.exit(1 if failed else 0)
