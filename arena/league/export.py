"""Datasets of decisions for training code: one row per decision a bot was asked for.

Each row holds the game, the match, the seat and its bot, what that seat was sent (the
observation, with the events since its previous decision, and the legal actions, exactly as
the referee built the ``Decide`` request: :func:`decisions` replays the record through the
engine), the action taken, its status and time, and the match's final result for that seat.
A seat's row holds only what that seat saw, so no row names another seat's hidden cards.

Which matches and seats may be exported is the caller's decision (``arena export`` and the
web app apply what the league shows: :mod:`arena.web.deals`, ``--hide-replays``); this module
only turns chosen matches into rows and writes them, a batch at a time, so memory stays flat
however large the league.

Formats: JSON Lines (one object per line) and Parquet (pyarrow, the optional ``learn``
extra).  The observation and the legal actions are protobuf messages written as JSON text
(``json_format`` with the .proto's field names), the same in both formats, so a reader
parses them with one call and the .proto documents every field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from google.protobuf import json_format

from arena.league.storage import Database, MatchRow
from referee import luck, wire
from referee.games import make_game
from referee.result import MatchRecord, MoveStatus

FORMATS = ("parquet", "jsonl")
COLUMNS: tuple[tuple[str, str], ...] = (
    ("game", "string"), ("variant", "string"), ("match_id", "int64"), ("tournament_id", "int64"),
    ("seat", "int32"), ("bot", "string"), ("bot_version", "string"), ("decision", "int32"),
    ("observation", "string"), ("legal_actions", "string"), ("action_index", "int32"), ("action", "string"),
    ("status", "string"), ("elapsed_ms", "float64"), ("score", "float64"), ("rank", "int32"),
    ("result", "float64"), ("adjusted", "float64"), ("finished_at", "float64"),
)
"""Every row's fields and their Parquet types, in order (docs/learning.md describes them)."""
BATCH_ROWS = 20_000
"""Rows held before they are written: the memory bound."""


class ExportError(ValueError):
    """An export that cannot be made (unknown format, pyarrow missing); the message says what to do."""


@dataclass(frozen=True)
class MatchFilter:
    """Which stored matches an export reads."""

    game: str | None = None
    variant: str | None = None
    bot_id: int | None = None
    tournament_id: int | None = None
    since: float | None = None
    """Finished at or after (Unix time)."""
    until: float | None = None
    """Finished before (Unix time)."""

    def admits(self, match: MatchRow) -> bool:
        finished = match.finished_at or 0.0
        return (self.since is None or finished >= self.since) and (self.until is None or finished < self.until)


def played_matches(db: Database, where: MatchFilter, batch: int = 500) -> Iterator[list[MatchRow]]:
    """The played matches ``where`` admits, a batch at a time in id order."""
    after = 0
    while True:
        rows = db.matches(game=where.game, variant=where.variant, bot_id=where.bot_id, status="done",
                          tournament_id=where.tournament_id, after_id=after, limit=batch)
        if not rows:
            return
        after = rows[-1].id
        yield [row for row in rows if where.admits(row)]


def decisions(record: MatchRecord) -> Iterator[tuple[int, int, Any, list[Any]]]:
    """Each asked decision of ``record``: ``(move number, seat, Observation, [Action])`` as the
    referee sent them.  A forfeited seat's moves were played without asking it, so they are
    not decisions; the events they made reach the seat's next asked decision, as on the wire."""
    game = make_game(record.game, variant=record.variant, num_players=record.num_players, settings=record.settings)
    state = game.new_initial_state(record.seed)
    seen = [0] * game.num_players
    for number, move in enumerate(record.moves):
        legal = state.legal_actions()
        if move.status is not MoveStatus.FORFEITED:
            events = state.events_for(move.seat, seen[move.seat])
            seen[move.seat] = len(state.events)
            observation = wire.observation_to_proto(record.game, state.observe(move.seat), events)
            yield number, move.seat, observation, wire.actions_to_proto(record.game, legal)
        state.apply(legal[move.index])


def _json(message: Any) -> str:
    return json.dumps(json_format.MessageToDict(message, preserving_proto_field_name=True), separators=(",", ":"))


def match_rows(match: MatchRow, record: MatchRecord, bots: Sequence[tuple[str, str]],
               seats: Collection[int] | None, report: luck.LuckReport | None) -> Iterator[dict[str, Any]]:
    """The rows of one match: its decisions by the ``seats`` given (every seat when ``None``).

    ``bots`` is each seat's (name, version); ``report`` its luck (``adjusted`` is null without).
    """
    game = make_game(record.game, variant=record.variant, num_players=record.num_players, settings=record.settings)
    results = luck.results_of(game, record.scores)
    adjusted = report.adjusted if report is not None else None
    for number, seat, observation, legal in decisions(record):
        if seats is not None and seat not in seats:
            continue
        move = record.moves[number]
        yield {"game": record.game, "variant": record.variant, "match_id": match.id,
               "tournament_id": match.tournament_id, "seat": seat, "bot": bots[seat][0], "bot_version": bots[seat][1],
               "decision": number, "observation": _json(observation),
               "legal_actions": "[" + ",".join(_json(action) for action in legal) + "]",
               "action_index": move.index, "action": move.action, "status": move.status.value,
               "elapsed_ms": move.elapsed_ms, "score": record.scores[seat], "rank": record.ranking[seat],
               "result": results[seat], "adjusted": None if adjusted is None else adjusted[seat],
               "finished_at": match.finished_at}


class _JsonLines:
    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.stream.writelines(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)

    def close(self) -> None:
        self.stream.flush()


class _Parquet:
    def __init__(self, path: Path) -> None:
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise ExportError("Parquet needs pyarrow: pip install 'arena[learn]' (or export --format jsonl)") from None
        self.pa = pa
        self.schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in COLUMNS])
        self.writer = pq.ParquetWriter(str(path), self.schema, compression="zstd")

    def write(self, rows: list[dict[str, Any]]) -> None:
        self.writer.write_table(self.pa.Table.from_pylist(rows, schema=self.schema))

    def close(self) -> None:
        self.writer.close()


@dataclass
class ExportSummary:
    matches: int = 0
    rows: int = 0
    skipped: int = 0
    """Matches the caller's rules left out, or whose record did not replay."""


def export(db: Database, where: MatchFilter, target: Path, fmt: str, *,
           shown: Callable[[list[MatchRow]], Collection[int]],
           seats_for: Callable[[MatchRow], Collection[int] | None] = lambda match: None,
           on_batch: Callable[[int], None] | None = None) -> ExportSummary:
    """Write the admitted matches' rows to ``target``.

    ``shown(batch)`` gives the ids of a batch's matches that may be exported; ``seats_for``
    the seats of a match whose decisions may be (``None``: all).  ``on_batch(n)`` is told after
    each batch of ``n`` matches read (a progress bar).  The file is written beside ``target``
    and renamed into place at the end: an interrupted export leaves no partial file.

    :raises ExportError: for an unknown format or a missing pyarrow.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown format {fmt!r} (formats: {', '.join(FORMATS)})")
    partial = target.with_name(f".{target.name}.partial")
    summary = ExportSummary()
    names: dict[int, tuple[str, str]] = {}
    stream = None
    try:
        if fmt == "jsonl":
            stream = partial.open("w", encoding="utf-8")
            writer: _JsonLines | _Parquet = _JsonLines(stream)
        else:
            writer = _Parquet(partial)
        pending: list[dict[str, Any]] = []
        for batch in played_matches(db, where):
            allowed = set(shown(batch))
            for match in batch:
                seats = seats_for(match) if match.id in allowed else ()
                try:
                    record = None if seats is not None and not seats else db.match_record(match.id)
                except Exception:  # noqa: BLE001 - an unreadable record is left out, not fatal
                    record = None
                if record is None:
                    summary.skipped += 1
                    continue
                for bot_id in match.bot_ids:
                    if bot_id not in names:
                        bot = db.bot(bot_id)
                        names[bot_id] = (bot.name, bot.version)
                try:
                    rows = list(match_rows(match, record, [names[b] for b in match.bot_ids], seats,
                                           db.luck_report(match.id)))
                except Exception:  # noqa: BLE001 - a record the engine no longer replays is left out, not fatal
                    summary.skipped += 1
                    continue
                summary.matches += 1
                summary.rows += len(rows)
                pending += rows
                if len(pending) >= BATCH_ROWS:
                    writer.write(pending)
                    pending = []
            if on_batch is not None:
                on_batch(len(batch))
        if pending or summary.rows == 0:
            writer.write(pending)
        writer.close()
        if stream is not None:
            stream.close()
            stream = None
        os.replace(partial, target)
    finally:
        if stream is not None:
            stream.close()
        partial.unlink(missing_ok=True)
    return summary


def read_rows(path: Path) -> Iterable[dict[str, Any]]:
    """The rows of an exported file, either format (for tests and small scripts)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq
        for batch in pq.ParquetFile(str(path)).iter_batches():
            yield from batch.to_pylist()
        return
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            yield json.loads(line)
