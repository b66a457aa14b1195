"""The servers beside the client: servers.csv read, counters turned into rates, one panel per node
(throughput, CPU, cache), and the report's "Servers" section, from hand-made numbers."""

import json
import re
from pathlib import Path

import matplotlib.image
import pandas as pd
import pytest

from geoshard_results import servers
from geoshard_results.cli import main
from geoshard_results.errors import RunFolderError
from geoshard_results.rundir import load_run
from tests.conftest import make_run

HEADER = "time_s,node,role,metric,value"


def write_servers(folder: Path, rows: list[str], observe: dict | None = None) -> Path:
    (folder / servers.SERVERS_CSV).write_text("\n".join([HEADER, *rows]) + "\n")
    if observe is not None:
        meta = json.loads((folder / "run.json").read_text())
        meta["observe"] = observe
        (folder / "run.json").write_text(json.dumps(meta))
    return folder


def host_and_database(t: float, i: int) -> list[str]:
    """Second ``i`` of a host with 2 CPUs busy 25% (1.5 s idle, 0.5 s user per second), a PostgreSQL
    server on the same host with 100 commits/s and 90% buffer hits, and a MongoDB shard."""
    return [
        f"{t},127.0.0.1:9100,host,node_cpu_seconds_total.idle,{1000 + 1.5 * i}",
        f"{t},127.0.0.1:9100,host,node_cpu_seconds_total.user,{200 + 0.5 * i}",
        f"{t},127.0.0.1:9100,host,node_memory_Cached_bytes,{2**30}",
        f"{t},127.0.0.1:54329,postgresql,pg_xact_commit_total,{5000 + 100 * i}",
        f"{t},127.0.0.1:54329,postgresql,pg_blks_hit_total,{9000 * i}",
        f"{t},127.0.0.1:54329,postgresql,pg_blks_read_total,{1000 * i}",
        f"{t},127.0.0.1:54329,postgresql,pg_backends_active,{3}",
        f"{t},rs0,shard-primary,mongodb_opcounters_total.insert,{400 * i}",
        f"{t},rs0,shard-primary,mongodb_opcounters_total.query,{100 * i}",
        f"{t},rs0,shard-primary,mongodb_cache_bytes,{2 * 2**30}",
    ]


@pytest.fixture
def observed_run(tmp_path) -> Path:
    folder = make_run(tmp_path / "observed", label="pg")
    rows = [line for i in range(5) for line in host_and_database(0.5 + i, i)]
    return write_servers(folder, rows, {"intervalSeconds": 1.0, "cpuMillis": 40, "rounds": 5, "meanRoundMicros": 1500,
                                        "nodes": [{"node": "127.0.0.1:54329", "role": "postgresql", "requests": 5,
                                                   "failures": 0},
                                                  {"node": "rs0", "role": "shard-primary", "requests": 5, "failures": 0},
                                                  {"node": "127.0.0.1:9100", "role": "host", "requests": 5,
                                                   "failures": 0},
                                                  {"node": "cfg", "role": "config", "requests": 5, "failures": 5}]})


def frame(rows: list[str]) -> pd.DataFrame:
    parsed = pd.DataFrame([r.split(",") for r in rows], columns=servers.HEADER)
    parsed["time_s"] = parsed["time_s"].astype(float)
    parsed["value"] = parsed["value"].astype(float)
    return parsed.assign(runId="r", scenario="s")


def test_counters_become_rates_and_gauges_stay():
    r = servers.rates(frame(["0,n,host,a_total,10", "2,n,host,a_total,30", "3,n,host,a_total,5",
                             "4,n,host,a_total,15", "0,n,host,gauge,7", "2,n,host,gauge,9"]))
    counter = r[r["metric"] == "a_total"]
    assert list(counter["time_s"]) == [2, 4], "no rate for the first reading nor across a restart"
    assert list(counter["value"]) == [10, 10]
    assert list(r[r["metric"] == "gauge"]["value"]) == [7, 9]


def test_a_counter_is_named_by_its_base_before_the_label():
    assert servers.is_counter("node_cpu_seconds_total.user")
    assert servers.is_counter("pg_xact_commit_total")
    assert not servers.is_counter("node_memory_Cached_bytes")
    assert not servers.is_counter("pg_backends_waiting.Lock_total")


def test_panels_give_throughput_cpu_and_cache_per_host():
    rows = [line for i in range(4) for line in host_and_database(float(i), i)]
    series = servers.panel_series(frame(rows))
    assert set(series["panel"]) == {"127.0.0.1", "rs0"}, "the database and its host's exporter share a panel"

    def values(panel, name):
        return series[(series["panel"] == panel) & (series["series"] == name)]["value"].tolist()

    assert values("127.0.0.1", "CPU busy %") == pytest.approx([25, 25, 25])
    assert values("127.0.0.1", "PostgreSQL commits/s") == pytest.approx([100, 100, 100])
    assert values("127.0.0.1", "buffer hit %") == pytest.approx([90, 90, 90])
    assert values("127.0.0.1", "page cache GiB") == pytest.approx([1, 1, 1, 1])
    assert values("rs0", "MongoDB ops/s") == pytest.approx([500, 500, 500])
    assert values("rs0", "WiredTiger cache GiB") == pytest.approx([2, 2, 2, 2])


def test_a_bad_servers_csv_is_named(tmp_path):
    bad = tmp_path / "servers.csv"
    bad.write_text("time,node\n1,2\n")
    with pytest.raises(RunFolderError, match="servers.csv:1: header"):
        servers.read_servers(bad)
    bad.write_text(HEADER + "\n0.5,n,host,m,1\nsoon,n,host,m,2\n")
    with pytest.raises(RunFolderError, match="servers.csv:3: time_s is not a number"):
        servers.read_servers(bad)
    assert servers.read_servers(tmp_path / "missing.csv").empty


def test_the_node_table_lists_nodes_that_never_answered(observed_run):
    run = load_run(observed_run, "r1")
    table = servers.node_table(servers.servers_frame([run]), [run])
    config = table[table["node"] == "cfg"].iloc[0]
    assert (config["readings"], config["requests"], config["failed"]) == (0, 5, 5)
    assert table[table["node"] == "rs0"].iloc[0]["readings"] == 5


def test_the_report_draws_the_servers_beside_the_client(observed_run, tmp_path):
    out = tmp_path / "report"
    assert main([str(observed_run), "-o", str(out), "-q"]) == 0
    picture = matplotlib.image.imread(out / servers.FIGURE)
    assert picture.shape[0] > 500 and picture.std() > 0.01
    text = (out / "report.md").read_text()
    assert "## Servers" in text and f"]({servers.FIGURE})" in text
    # One numbering for every figure: the five of every report, then the servers' (README's "Figures").
    numbered = re.findall(r"!\[Figure (\d+)\]\(([^)]+)\)", text)
    assert [int(n) for n, _ in numbered] == [1, 2, 3, 4, 5, 6]
    assert numbered[-1][1] == servers.FIGURE and f"*Figure 6. Each node's throughput" in text
    assert "| pg | cfg | config | 0 | 5 | 5 |" in text
    assert "40 ms of CPU over 5 rounds" in text


def test_a_report_without_servers_has_no_servers_section(simple_run, tmp_path):
    out = tmp_path / "report"
    assert main([str(simple_run), "-o", str(out), "-q"]) == 0
    assert "## Servers" not in (out / "report.md").read_text()
    assert not (out / servers.FIGURE).exists()


def test_the_last_reading_is_not_divided_by_a_fraction_of_a_second():
    # PostgreSQL's commits as a real run sampled them every second; the last reading came 0.37 s after
    # the one before, when the phase stopped. Its rate spans from the reading before: 16,271 commits
    # over 1.386 s, not 1,115 over 0.37 s (or a stop's flush over a tenth of a second).
    rows = ["10.074,db,postgresql,pg_xact_commit_total,59646", "11.075,db,postgresql,pg_xact_commit_total,67851",
            "12.091,db,postgresql,pg_xact_commit_total,83007", "12.461,db,postgresql,pg_xact_commit_total,84122"]
    r = servers.rates(frame(rows).assign(intervalS=1.0))
    assert list(r["time_s"]) == [11.075, 12.461]
    assert r["value"].tolist() == pytest.approx([(67851 - 59646) / 1.001, (84122 - 67851) / 1.386])


def test_rates_are_taken_between_readings_at_least_half_an_interval_apart():
    assert servers.rate_readings([0, 1, 2, 2.3]) == [0, 1, 2.3]
    assert servers.rate_readings([0, 0.2, 1, 2]) == [0, 1, 2], "a second reading too close to the first is left out"
    assert servers.rate_readings([0, 1, 1.6, 2.6], interval=2.0) == [0, 1.6, 2.6]
    assert servers.rate_readings([0, 5, 10, 12.4], interval=5.0) == [0, 5, 12.4]
    assert servers.rate_readings([3.0]) == [3.0]
