"""geoshard_results: turns geoshard run folders into a report (tables, figures, report.md).

Entry point: ``python -m geoshard_results`` (``bin/ycsb report``); see results/README.md.
"""

__version__ = "0.1.0"
