"""Stored luck reports as the CLI and the web app read them, and measuring the ones missing.

Every played match keeps its luck report per estimator version (``match_luck``,
:data:`arena.league.storage.LUCK_SCHEMA`; :mod:`referee.luck` measures it).  Lists show each
match's newest version, read without the report's steps (:func:`summaries`); ``arena luck``
measures the played matches that have no report from a game's current estimator
(:func:`measure_missing`), one committed report at a time, so it can be stopped and run again.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from arena.league.storage import NEWEST_LUCK_FIRST, Database, NotFoundError, StorageError
from referee import luck

BATCH = 200
"""Ids read per query while measuring (each report is still committed on its own)."""


@dataclass(frozen=True)
class LuckSummary:
    """A match's luck per seat, without the steps: what lists show."""

    estimator: str
    """``"game/version"``, the estimator that measured it."""
    result: tuple[float, ...]
    """Per seat: the result the luck is taken from (score relative to the table, :mod:`referee.luck`)."""
    luck: tuple[float, ...]
    adjusted: tuple[float, ...]


def summaries(db: Database, match_ids: Collection[int]) -> dict[int, LuckSummary]:
    """The newest stored luck of each of ``match_ids`` that has one (a file older than schema 12
    has none).  Reads only the per-seat lists of each report, not its steps."""
    if not match_ids or not db.has_luck:
        return {}
    found: dict[int, LuckSummary] = {}
    ids = sorted(set(match_ids))
    for start in range(0, len(ids), 500):  # SQLite's limit on bound parameters
        chunk = ids[start:start + 500]
        rows = db.conn.execute(
            "SELECT match_id, estimator, json_extract(report, '$.result'), luck, json_extract(report, '$.adjusted')"
            f" FROM match_luck WHERE match_id IN ({', '.join('?' * len(chunk))})"
            f" ORDER BY match_id, {NEWEST_LUCK_FIRST}", chunk)
        for match_id, estimator, result, seats, adjusted in rows:
            if match_id in found:
                continue
            try:
                found[match_id] = LuckSummary(estimator, *(tuple(float(x) for x in json.loads(text))
                                                           for text in (result, seats, adjusted)))
            except (TypeError, ValueError):  # a damaged row: shown as no report, never as zeros
                continue
    return found


@dataclass(frozen=True)
class Measured:
    """One match :func:`measure_missing` took up."""

    match_id: int
    error: str | None
    """Why it has no report (an aborted match, a record the estimator cannot replay); ``None``
    when its report was stored."""


def current_estimators(games: Collection[str]) -> tuple[dict[str, luck.Estimator], dict[str, str]]:
    """The current estimator of each of ``games``, and why each game without one has none."""
    found: dict[str, luck.Estimator] = {}
    missing: dict[str, str] = {}
    for game in games:
        try:
            found[game] = luck.estimator_for(game)
        except luck.LuckError as error:
            missing[game] = str(error)
        except ModuleNotFoundError as error:  # its module is not written yet; any other import error is a bug
            if error.name is None or not error.name.startswith("referee.luck."):
                raise
            missing[game] = f"no luck estimator for game {game!r} in this version of arena"
    return found, missing


def count_missing(db: Database, estimator: luck.Estimator) -> int:
    """Played matches of ``estimator``'s game with no report from its version."""
    row = db.conn.execute(
        "SELECT COUNT(*) FROM matches WHERE game = ? AND status = 'done' AND NOT EXISTS"
        " (SELECT 1 FROM match_luck WHERE match_id = matches.id AND estimator = ?)",
        (estimator.game, estimator.name)).fetchone()
    return int(row[0])


def measure_missing(db: Database, estimator: luck.Estimator) -> Iterator[Measured]:
    """Measure and store, oldest first, each played match of ``estimator``'s game that has no
    report from its version; yield each as it is committed.

    Each report is its own transaction and never replaces a stored one
    (:meth:`Database.store_luck`), so stopping at any point loses at most the match being
    measured, and a second run takes up only what the first left.  A match whose luck cannot
    be measured is yielded with the reason and stays without a report.
    """
    after = 0
    while True:
        ids = db.matches_without_luck(estimator.name, after_id=after, limit=BATCH)
        if not ids:
            return
        for match_id in ids:
            after = match_id
            try:
                record = db.match_record(match_id)
            except (NotFoundError, StorageError) as error:
                yield Measured(match_id, str(error))
                continue
            if record is None:
                yield Measured(match_id, "it has no record")
                continue
            try:
                report = luck.analyse(record, estimator)
            except luck.LuckError as error:
                yield Measured(match_id, str(error))
                continue
            except Exception as error:  # noqa: BLE001 - an estimator's bug costs one match its report, not the run
                yield Measured(match_id, f"the estimator failed: {type(error).__name__}: {error}")
                continue
            db.store_luck(match_id, json.dumps(report.to_json(), separators=(",", ":")))
            yield Measured(match_id, None)
