"""A Dask cluster on loopback for the fault tests: a scheduler and N worker processes.

Run as a script: prints the scheduler's address, then serves until its stdin closes.  Its
nannies restart a worker that is killed, as on a real cluster.
"""

from __future__ import annotations

import sys

from distributed import LocalCluster

if __name__ == "__main__":
    with LocalCluster(n_workers=int(sys.argv[1]), threads_per_worker=1, processes=True, host="127.0.0.1",
                      scheduler_port=0, dashboard_address=None) as cluster:
        print(cluster.scheduler_address, flush=True)
        sys.stdin.read()
