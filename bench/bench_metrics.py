"""What the bot's metrics cost (not a test).

    .venv/bin/python bench/bench_metrics.py [--n 200000]

Prints the time of one counter increment, one histogram observation and one REST call counted
(each as the bot does it, labels looked up every time), what a click's share comes to (a move,
about four REST calls and four store transactions), and the time and size of one /metrics text
with about thirty REST routes seen.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cogs.metrics import Metrics  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200_000)
    n = parser.parse_args().n
    m = Metrics("bench")

    def per_call(fn: object) -> float:
        return timeit.timeit(fn, number=n) / n * 1e6  # type: ignore[arg-type]

    inc = per_call(lambda: m.moves.labels("player").inc())
    observe = per_call(lambda: m.store_seconds.labels("write").observe(0.003))
    rest = per_call(lambda: m.rest_call("POST", "/channels/{channel_id}/messages", "ok"))
    for i in range(30):
        m.rest_call("PATCH", f"/route/{i}", "ok")
    text = m.exposition()
    scrape = timeit.timeit(m.exposition, number=200) / 200 * 1e3
    click = inc + observe + 4 * rest + 4 * observe
    print(f"counter increment     {inc:6.2f} us")
    print(f"histogram observation {observe:6.2f} us")
    print(f"REST call counted     {rest:6.2f} us")
    print(f"a click's figures     {click:6.1f} us (a move, 4 REST calls, 4 transactions, latency)")
    print(f"/metrics text         {scrape:6.2f} ms, {len(text):,} bytes")


if __name__ == "__main__":
    main()
