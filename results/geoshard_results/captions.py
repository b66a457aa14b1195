"""Every figure of the report in one place: its file and its caption, keyed by the figure's id.

A caption may hold placeholders (``{resolution}``) that the section drawing the figure fills in
(``Section.captions``). The numbers are the report's: ``report.outline`` numbers the figures in the order
the sections place them.
"""

from __future__ import annotations

FILES = {
    "max_throughput": "max-throughput.png",
    "throughput_vs_threads": "throughput-vs-threads.png",
    "throughput_over_time": "throughput-over-time.png",
    "latency_over_time": "latency-over-time.png",
    "latency_distribution": "latency-distribution.png",
    "queries_vs_inserts": "queries-vs-inserts.png",
    "io_pattern": "io-pattern.png",
    "io_distribution": "io-distribution.png",
    "servers": "servers-over-time.png",
}

CAPTIONS = {
    "max_throughput":
        "Maximum sustained throughput per scenario. Error bars are 95% confidence intervals: over repeated "
        "runs (t distribution, dots are single runs), or, for a single run, the batch-means interval of its "
        "plateau mean (diamond). Hatched bars have no ramp.",
    "throughput_vs_threads":
        "Throughput of each ramp step against its client threads (open-loop ramps: against the offered "
        "load). Crosses are steps that broke the SLA rule (latency percentile, timeout or errors), the star "
        "is the step of the maximum sustained throughput; light lines are single runs of repeated "
        "scenarios.",
    "throughput_over_time":
        "Throughput per {resolution}. Dotted vertical lines mark the start of ramp steps (with the client "
        "threads on top when every scenario ramps alike); light lines are single runs of a repeated "
        "scenario under their mean. Intervals shorter than 0.5 s (the last, partial one) are left out.",
    "latency_over_time":
        "Latency percentiles of all operations (except `CLEANUP`) per {resolution}, from the interval "
        "histograms merged across operations (and across repeated runs), darker lines for higher "
        "percentiles; the grey step line is the number of client threads (right axis), the red dashed line "
        "the SLA limit.",
    "latency_distribution":
        "Latency distribution per operation (HdrHistogram percentile plot): the x axis is 1/(1-p) on a "
        "log scale, so each decade is one more nine; all intervals of all runs of a scenario pooled.",
    "queries_vs_inserts":
        "A sweep, one point per step in step order. Left: the rate each write operation achieved "
        "against the rate the writers were offered (dotted: achieved = offered). Middle and right: "
        "the query throughput and the p99 latency of each query operation against the insert rate "
        "the writers achieved (`HISTORY_INSERT`/s). Crosses are steps that broke the SLA rule, light "
        "lines single runs of repeated scenarios.",
    "io_pattern":
        "Sector offset against time per device (the I/O study's figure): reads and writes "
        "of the traced processes; a rising line is a sequential pass, a cloud is random "
        "access.",
    "io_distribution": "I/O request sizes and latencies (issue to completion), reads and writes apart.",
    "servers":
        "Each node's throughput, CPU and cache over time (one row per host: a database server and "
        "the node_exporter on its host share a row), on the seconds of the client's figures; the grey "
        "step line is the client's throughput (right axis, `client ops/s`). Each panel names the line it "
        "shows: a database's operations (MongoDB: all operation counters; PostgreSQL: commits) or else "
        "the host's disk I/Os, the host's CPU busy share (node_exporter), the database's cache "
        "(WiredTiger bytes, PostgreSQL buffer hits) or else the host's page cache. Counters are rates "
        "over the real time between readings of `servers.csv` at least half a sampling interval apart. "
        "The table gives every line's mean and maximum.",
}


def caption(figure_id: str, **values) -> str:
    """The caption of ``figure_id`` with its placeholders filled from ``values``."""
    return CAPTIONS[figure_id].format(**values) if values else CAPTIONS[figure_id]
