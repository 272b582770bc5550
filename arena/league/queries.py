"""Read-only questions about the database that both the CLI and the web server ask.

Everything here only reads (the web server opens the database read-only): the rating table
is computed from the stored results with :func:`arena.league.ratings.plan_ratings`, which gives the
numbers ``arena ratings`` would store, in the same order.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from arena.league.ratings import (RatingPlan, RatingRow, Separation, head_to_head, plan_ratings, rating_table,
                                  separations, stronger_probability)
from arena.league.storage import BotRow, Database, MatchRow

if TYPE_CHECKING:
    from arena.league.score_ratings import ScoreFit

MODEL_TEXT = {"trueskill": "TrueSkill (who won), best conservative rating (mu − 3 sigma) first",
              "score": "score model (luck-adjusted scores, refitted over all matches), best rating first"}
"""How each rating model is named on pages and tables."""

def rating_json(row: RatingRow) -> dict[str, Any]:
    """One rating-table row as ``arena ratings --format json`` prints it (and the API serves it):
    TrueSkill's rows with their conservative rating, the score model's with their 95 % interval."""
    found: dict[str, Any] = {"rank": row.rank, "bot": row.bot, "version": row.version, "model": row.model,
                             "mu": round(row.mu, 4), "sigma": round(row.sigma, 4)}
    if row.model == "score":
        from arena.league.score_ratings import INTERVAL_Z

        found.update(low=round(row.mu - INTERVAL_Z * row.sigma, 4), high=round(row.mu + INTERVAL_Z * row.sigma, 4))
    else:
        found["conservative"] = round(row.conservative, 4)
    return found | {"matches": row.matches, "wins": row.wins, "mean_score": round(row.mean_score, 4),
                    "faults": row.faults}


def rating_model(db: Database, game: str, variant: str) -> str:
    """The rating model of ``game``/``variant``'s leaderboard: its ladder's (a live league), else
    that of its newest tournament that names one (``rating`` in the options), else TrueSkill (every
    league from before the score model)."""
    chosen: list[tuple[bool, int, str]] = []
    for tid, options in db.conn.execute("SELECT id, options FROM tournaments WHERE game = ? AND variant = ?",
                                        (game, variant)):
        found = json.loads(options) if options else {}
        if found.get("rating") in ("trueskill", "score"):
            chosen.append((found.get("kind") == "ladder", tid, found["rating"]))
        elif found.get("kind") == "ladder":
            chosen.append((True, tid, "trueskill"))
    return max(chosen)[2] if chosen else "trueskill"


def score_table(db: Database, game: str, variant: str, fit: ScoreFit) -> list[RatingRow]:
    """The score model's table (:mod:`arena.league.score_ratings`) with match statistics, best
    rating first."""
    stats = {bot: (s.matches, s.wins, s.score_sum / s.matches, s.faults)
             for bot, s in db.bot_stats(game, variant).items() if s.matches}
    bots = {r[0]: r[1:] for r in db.conn.execute("SELECT id, name, version, language FROM bots")}
    rows = []
    for bot_id, rating in fit.ratings.items():
        name, version, language = bots[bot_id]
        played, wins, mean, faults = stats.get(bot_id, (0, 0, 0.0, 0))
        rows.append(RatingRow(0, bot_id, name, version, rating.mu, rating.sigma, played, wins or 0, mean or 0.0,
                              faults or 0, language, "score"))
    rows.sort(key=lambda row: (-row.mu, row.bot))
    return [dataclasses.replace(row, rank=i + 1) for i, row in enumerate(rows)]


@dataclass(frozen=True)
class Leaderboard:
    """A game's rating table under one model, with how sure each order is."""

    model: str
    rows: list[RatingRow]
    fit: ScoreFit | None = None
    """The score model's fit (``None`` under TrueSkill)."""

    def los(self, a: RatingRow, b: RatingRow) -> float:
        """The likelihood that ``a`` is stronger than ``b``: the score model's LOS (covariances
        included), or TrueSkill's independent normals."""
        if self.fit is not None:
            return self.fit.los(a.bot_id, b.bot_id)
        return stronger_probability(a, b)

    @property
    def los_next(self) -> list[float | None]:
        """Each row's LOS over the row below it (``None`` for the last)."""
        return [self.los(row, below) for row, below in zip(self.rows, self.rows[1:])] + ([None] if self.rows else [])

    @property
    def separations(self) -> list[Separation]:
        return separations(self.rows, stronger=self.los)

    @property
    def described(self) -> str:
        """The model in words, with how many matches the score model adjusted for luck."""
        text = MODEL_TEXT[self.model]
        if self.fit is not None:
            text += (f"; {self.fit.adjusted} of {self.fit.matches} matches luck-adjusted"
                     + (f" ({self.fit.estimator})" if self.fit.estimator and self.fit.adjusted else "")
                     + (f", {self.fit.raw} raw (no luck report)" if self.fit.raw else ""))
        return text


def leaderboard(db: Database, game: str, variant: str, model: str | None = None, *,
                plan: RatingPlan | None = None, fit: ScoreFit | None = None) -> Leaderboard:
    """The leaderboard of ``game``/``variant`` under ``model`` (default: :func:`rating_model`);
    ``plan`` or ``fit`` if already computed."""
    model = model or rating_model(db, game, variant)
    if model == "score":
        from arena.league.score_ratings import refit

        fit = fit or refit(db, game, variant)
        return Leaderboard(model, score_table(db, game, variant, fit), fit)
    return Leaderboard(model, current_table(db, game, variant, plan))


def los_matrix(board: Leaderboard, limit: int | None = None) -> list[list[float | None]]:
    """``[i][j]``: the LOS of row ``i`` over row ``j`` of ``board`` (``None`` on the diagonal),
    over its first ``limit`` rows (``None``: all)."""
    rows = board.rows[:limit]
    return [[None if i == j else board.los(a, b) for j, b in enumerate(rows)] for i, a in enumerate(rows)]



def current_table(db: Database, game: str, variant: str,
                  plan: RatingPlan | None = None) -> list[RatingRow]:
    """The up-to-date rating table without writing anything (``plan`` if already computed)."""
    plan = plan or plan_ratings(db, game, variant)
    return rating_table(db, game, variant, plan.final)


def rating_signature(db: Database, game: str, variant: str) -> tuple[int, int]:
    """``(played matches, largest played id)``: the ratings change exactly when this does."""
    return db.game_signature(game, variant)


@dataclass(frozen=True)
class Matrix:
    """Head-to-head results: ``cells[a, b]`` is bot ``a``'s mean result against bot ``b``."""

    bots: list[BotRow]
    """Every bot that met another, in the rating table's order (best first)."""
    cells: dict[tuple[int, int], tuple[int, float]]
    """``(bot id, bot id) -> (matches, mean result)`` (1 ranked above, 0.5 tied, 0 below)."""


def h2h_matrix(db: Database, game: str, variant: str, table: list[RatingRow] | None = None) -> Matrix:
    """The head-to-head results of ``game``'s ``variant``, its bots in the order of ``table``
    (the rating table; computed if not given), so the matrix reads as the leaderboard does."""
    cells = head_to_head(db, game, variant)
    order = {row.bot_id: rank for rank, row in enumerate(table if table is not None
                                                           else current_table(db, game, variant))}
    bots = sorted((db.bot(b) for b in {a for a, _ in cells}),
                  key=lambda bot: (order.get(bot.id, len(order)), bot.label))
    return Matrix(bots, {pair: (cell.matches, cell.result) for pair, cell in cells.items()})


class BotLookupError(LookupError):
    """No bot, or several versions, answer to a name; the message says which."""


def find_bot(db: Database, text: str) -> BotRow:
    """The bot called ``text`` (a name with a single version, or ``name@version``).

    :raises BotLookupError: if there is none, or the name has several versions.
    """
    found = [b for b in db.bots() if text in (b.name, b.label)]
    if not found:
        raise BotLookupError(f"no bot {text!r} in {db.path}")
    if len(found) > 1:
        raise BotLookupError(f"{text!r} names {len(found)} versions ({', '.join(b.label for b in found)}); "
                             f"give name@version")
    return found[0]


def bot_labels(db: Database) -> dict[int, str]:
    """Every bot's ``name@version`` by id."""
    return {bot.id: bot.label for bot in db.bots()}


def players_text(match: MatchRow, labels: dict[int, str]) -> str:
    """``"a@1 #1, b@1 #2"``: the bots by seat, with their rank once the match is played."""
    parts = []
    for seat, bot in enumerate(match.bot_ids):
        text = labels.get(bot, f"bot {bot}")
        if match.ranking is not None:
            text += f" #{match.ranking[seat] + 1}"
        parts.append(text)
    return ", ".join(parts)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun in agreement, as every count the CLI and the web app print:
    ``"1 match"``, ``"16 matches"``, ``"1 win"`` (``plural`` when adding "s" is wrong)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def age_text(seconds: float) -> str:
    """How long ago, as ``arena ladder status`` and the ladder page say it: ``"42 s ago"``,
    ``"5 min ago"``, ``"3 h ago"``."""
    whole = max(0, int(seconds))
    return f"{whole} s ago" if whole < 120 else f"{whole // 60} min ago" if whole < 7200 else f"{whole // 3600} h ago"


def seeds_to_play(db: Database, tournament_id: int, limit: int, *, failed: bool) -> frozenset[int] | None:
    """The seeds of tournament ``tournament_id``'s matches that may still be played: pending ones
    (waiting or under way) and, with ``failed``, failed ones (``arena tournament resume`` plays
    those again); ``None`` when there are more than ``limit`` of them (read through the
    tournament's index of matches by status, so at most ``limit + 1`` rows are read)."""
    statuses = "'pending', 'failed'" if failed else "'pending'"
    rows = db.conn.execute(f"SELECT seed FROM matches WHERE tournament_id = ? AND status IN ({statuses}) LIMIT ?",
                           (tournament_id, limit + 1)).fetchall()
    return None if len(rows) > limit else frozenset(row[0] for row in rows)


def iso_time(stamp: float | None) -> str | None:
    """A stored Unix time as ISO 8601 in UTC with its offset (``2026-11-26T00:10:00+00:00``)."""
    return None if stamp is None else datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds")
