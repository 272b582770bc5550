"""What migrating an older league's records to schema 4 costs, from a sample of them.

    python benchmarks/record_reencode.py LEAGUE.db [--per-kind 300]

Opens LEAGUE.db read-only (nothing is written), picks ``--per-kind`` played matches at random
of each (game, seats) it holds, and for each kind prints what the schema-4 migration does to
them: the CPU to re-encode a record with the migration's own step (``reencoded``: decode,
replay, encode), the record's bytes before and after, and the CPU to read one back in either format.
Multiplied by the league's counts (printed too), it gives the migration's CPU and the
records' share of the file without migrating a large league (docs/scaling.md, "Schema 4 at
a million matches").
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import time
from pathlib import Path

from arena.league.storage import _ROW_RESULT, _row_result, decode_record, reencoded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("league", type=Path)
    parser.add_argument("--per-kind", type=int, default=300, help="records sampled per (game, seats)")
    args = parser.parse_args()
    if not args.league.is_file():
        raise SystemExit(f"Error: no database at {args.league}")
    conn = sqlite3.connect(f"{args.league.resolve().as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        kinds = conn.execute("SELECT game, num_players, COUNT(*) FROM matches WHERE status = 'done' AND record"
                             " IS NOT NULL GROUP BY game, num_players ORDER BY game, num_players").fetchall()
    except sqlite3.DatabaseError as error:
        raise SystemExit(f"Error: {args.league} is not an arena database ({error})") from None
    total_cpu = old_total = new_total = 0.0
    for game, seats, count in kinds:
        ids = [row[0] for row in conn.execute("SELECT id FROM matches WHERE game = ? AND num_players = ?"
                                              " AND status = 'done' AND record IS NOT NULL", (game, seats))]
        rows = [conn.execute(f"SELECT status, record, {', '.join(_ROW_RESULT)} FROM matches WHERE id = ?",
                             (i,)).fetchone() for i in sorted(random.Random(1).sample(ids, min(args.per_kind, len(ids))))]
        start = time.process_time()
        fresh = [(row, again) for row in rows if (again := reencoded(row)) is not None]
        reencode = (time.process_time() - start) / len(rows)
        if not fresh:
            print(f"{game}, {seats} seats: the sampled records are in schema 4's format already (or do not decode)")
            continue
        rows = [row for row, _ in fresh]
        encoded = [(blob, _row_result(row) if in_row else None) for row, (blob, in_row) in fresh]
        start = time.process_time()
        for row in rows:
            decode_record(row["record"])
        read_old = (time.process_time() - start) / len(rows)
        start = time.process_time()
        for blob, result in encoded:
            decode_record(blob, result)
        read_new = (time.process_time() - start) / len(rows)
        old = sum(len(row["record"]) for row in rows) / len(rows)
        new = sum(len(blob) for blob, _ in encoded) / len(rows)
        total_cpu += reencode * count
        old_total += old * count
        new_total += new * count
        print(f"{game}, {seats} seats: {count} matches; per record ({len(rows)} sampled): re-encoding "
              f"{reencode * 1000:.2f} ms of CPU, {old:.0f} -> {new:.0f} bytes, reading {read_old * 1000:.2f} -> "
              f"{read_new * 1000:.2f} ms of CPU")
    print(f"the league's records: about {total_cpu:.0f} s of CPU to re-encode, "
          f"{old_total / 1e6:.0f} MB -> {new_total / 1e6:.0f} MB")


if __name__ == "__main__":
    main()
