"""Database rows as plain JSON-able dicts: what the API returns and the pages render.

Every function reads only.  Text that came from bots (names, versions, authors, comments)
is passed through unchanged: escaping is the job of the templates (autoescape) and the
renderers, never of the data.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from arena.league.queries import bot_labels, h2h_matrix, iso_time, los_matrix, rating_json
from arena.league.ratings import rating_history, starting_rating
from arena.league.storage import BotRow, Database, MatchRow, NotFoundError, QueryInterrupted, TournamentRow
from arena.web.bot_output import shown_faults
from arena.league.luck import LuckSummary
from arena.web.deals import HELD_BACK, deal_settled, shown_luck, shown_seeds, tournament_seed
from arena.web.store import ReadOnlyStore
from referee.games import game_class, game_names

STATUSES = ("pending", "done", "failed")
PER_PAGE = 50
COUNT_CAP = 10_000
"""A filtered match list counts at most this many rows; beyond, it says "more than"."""
COUNT_SECONDS = 0.05
"""A filter that matches rarely may have to read the whole league to count: the count stops
after this long and the list says its total is unknown."""
MAX_OFFSET = 10_000
"""Numbered pages reach this many matches deep; further, the list pages by id (``before``)."""
HISTORY_POINTS = 1000
"""A bot's page shows its rating after its last this many rated matches of each game."""
LOS_MAX_BOTS = 50
"""The LOS matrix (page and JSON) holds the leaderboard's first this many bots: ``n`` bots make
``n * n`` cells (300 bots drew an 18 MB page with 1.5 s of CPU); the leaderboard gives every
bot's LOS over the next."""


class NotFound(LookupError):
    """Nothing at that address (a 404)."""


class BadRequest(ValueError):
    """A query parameter that cannot be read (a 400)."""


def is_whole_number(text: str) -> bool:
    """ASCII digits, not too many: ``str.isdigit`` also accepts "²", and ``int`` refuses both
    that and thousands of digits, which would be a 500 instead of a 400."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def ranks(ranking: list[int] | tuple[int, ...] | None) -> list[int] | None:
    """A stored 0-based ranking by seat as the API shows every rank: 1 is the best."""
    return None if ranking is None else [r + 1 for r in ranking]


def check_game(game: str | None, variant: str | None) -> None:
    """Unknown games and variants are 404s, not empty tables.

    :raises NotFound: for a game no engine plays, or a variant the game does not have.
    """
    if game is None:
        if variant is not None and all(variant not in game_class(name).variants for name in game_names()):
            raise NotFound(f"no game has a variant {variant!r}")
        return
    if game not in game_names():
        raise NotFound(f"unknown game {game!r} (games: {', '.join(game_names())})")
    variants = game_class(game).variants
    if variant is not None and variant not in variants:
        raise NotFound(f"{game} has no variant {variant!r} (variants: {', '.join(variants)})")


def lower_scores_win(game: str) -> bool:
    """Whether a lower mean score is better in ``game`` (Yaniv): the tables say so."""
    return game in game_names() and game_class(game).lower_scores_win


def bot_json(bot: BotRow) -> dict[str, Any]:
    return {"id": bot.id, "name": bot.name, "version": bot.version, "label": bot.label, "author": bot.author,
            "language": bot.language}


# --- games and ratings -----------------------------------------------------------------------------------
def games(db: Database) -> list[dict[str, Any]]:
    """Every (game, variant) with a played match, with its counts; then engines with none."""
    played = [{"game": game, "variant": variant, "matches": n} for game, variant, n, _ in db.game_totals()]
    seen = {r["game"] for r in played}
    return played + [{"game": name, "variant": None, "matches": 0} for name in game_names() if name not in seen]


def ratings(store: ReadOnlyStore, db: Database, game: str, variant: str) -> list[dict[str, Any]]:
    """The rating table as ``arena ratings --format json`` prints it, plus bot id and language.

    :raises NotFound: for an unknown game or variant.
    """
    check_game(game, variant)
    board = store.board(db, game, variant)
    return [dict(rating_json(r), bot_id=r.bot_id, language=r.language, los_next=None if los is None else round(los, 4))
            for r, los in zip(board.rows, board.los_next)]


def rating_model(store: ReadOnlyStore, db: Database, game: str, variant: str) -> dict[str, str]:
    """The model the game's leaderboard uses, by name and in words."""
    board = store.board(db, game, variant)
    return {"model": board.model, "described": board.described}


def los(store: ReadOnlyStore, db: Database, game: str, variant: str) -> dict[str, Any]:
    """The likelihood of superiority of each of the leaderboard's first :data:`LOS_MAX_BOTS` bots
    over every other of them, in its order: ``los[i][j]`` is the probability that bot ``i`` is
    stronger than bot ``j`` (``None`` on the diagonal); ``bots_total`` counts every rated bot.
    Kept until a match of the game is played, as the ratings are.

    :raises NotFound: for an unknown game or variant.
    """
    check_game(game, variant)

    def compute() -> dict[str, Any]:
        board = store.board(db, game, variant)
        return {"game": game, "variant": variant, "model": board.model, "described": board.described,
                "bots": [{"id": r.bot_id, "label": f"{r.bot}@{r.version}", "rank": r.rank}
                         for r in board.rows[:LOS_MAX_BOTS]],
                "bots_total": len(board.rows),
                "los": [[None if p is None else round(p, 4) for p in line] for line in los_matrix(board, LOS_MAX_BOTS)]}
    return store.per_table(db, game, variant, "los", compute)


def head_to_head(store: ReadOnlyStore, db: Database, game: str, variant: str) -> dict[str, Any]:
    """The head-to-head matrix (cached until a match of the game is played).

    :raises NotFound: for an unknown game or variant.
    """
    check_game(game, variant)
    matrix = store.per_table(db, game, variant, "h2h",
                             lambda: h2h_matrix(db, game, variant, store.table(db, game, variant)))
    return {"bots": [bot_json(b) for b in matrix.bots],
            "cells": [{"bot": a, "opponent": b, "matches": n, "result": round(result, 4)}
                      for (a, b), (n, result) in sorted(matrix.cells.items())]}


def bot(store: ReadOnlyStore, db: Database, bot_id: int) -> dict[str, Any]:
    """A bot, with its rating and rating history in every game it played, and where that history
    starts (its prior: a new version starts from its previous version's rating)."""
    try:
        row = db.bot(bot_id)
    except NotFoundError:
        raise NotFound(f"no bot {bot_id}") from None
    result = []
    for game, variant in db.bot_games(bot_id):
        plan = store.ratings(db, game, variant)
        mine = next((r for r in store.table(db, game, variant) if r.bot_id == bot_id), None)
        history = store.per_table(db, game, variant, ("history", bot_id),
                                  lambda: rating_history(db, game, variant, bot_id, plan, limit=HISTORY_POINTS))
        start, _ = starting_rating(db, game, variant, bot_id)
        result.append({"game": game, "variant": variant,
                       "rating": None if mine is None else rating_json(mine),
                       "start": {"mu": round(start.mu, 4), "sigma": round(start.sigma, 4)},
                       "history_cut": plan.counts.get(bot_id, 0) > len(history),
                       "history": [{"match": m, "mu": round(mu, 4), "sigma": round(sigma, 4)}
                                   for m, mu, sigma in history]})
    return {"bot": bot_json(row), "games": result}


# --- tournaments -----------------------------------------------------------------------------------------
def _tournament_json(db: Database, t: TournamentRow) -> dict[str, Any]:
    counts = db.match_counts(t.id)
    return {"id": t.id, "name": t.name, "game": t.game, "variant": t.variant, "format": t.options.get("format", t.format),
            "status": t.status, "created_at": iso_time(t.created_at), "finished_at": iso_time(t.finished_at),
            "progress": {**counts, "total": sum(counts.values())}}


def tournaments(db: Database) -> list[dict[str, Any]]:
    return [_tournament_json(db, t) for t in reversed(db.tournaments())]


def tournament(db: Database, tid: int) -> dict[str, Any]:
    """A tournament's settings, entrants, standings, progress and latest finished matches.

    Each part is read from running totals or through an index: nothing here grows with the
    tournament's matches (a ladder's never stop).
    """
    try:
        t = db.tournament(tid)
    except NotFoundError:
        raise NotFound(f"no tournament {tid}") from None
    data = _tournament_json(db, t)
    labels = bot_labels(db)
    played = db.matches(tournament_id=tid, status="done", limit=10, newest_first=True)
    seeds = shown_seeds(db, played)
    luck = shown_luck(db, seeds)
    data.update(settings=t.settings, table_size=t.table_size, rounds=t.rounds, duplicate=t.duplicate,
                seed=tournament_seed(db, t),
                time_control=t.time_control, keep_alive=bool(t.options.get("keep_alive")),
                entrants=[bot_json(b) for b in db.tournament_bots(tid)],
                standings=standings(db, tid, labels),
                lower_scores_win=lower_scores_win(t.game),
                latest=[match_json(m, labels, seeds, luck) for m in played])
    return data


def standings(db: Database, tid: int, labels: dict[int, str]) -> list[dict[str, Any]]:
    """Each entrant's played matches of tournament ``tid``: wins (first places, shared ones
    included), mean rank (1 is best), mean score and faults; most wins first, then best mean
    rank.  A bot filling two seats of a match (its team's) counts that match once.

    Read from the running totals the writer keeps (:meth:`Database.tournament_bot_stats`), so a
    ladder's page costs the same after a million matches as after ten."""
    table = [{"bot_id": bot_id, "bot": labels.get(bot_id, f"bot {bot_id}"), "matches": s.matches, "wins": s.wins,
              "mean_rank": round(s.rank_sum / s.matches + 1, 4), "mean_score": round(s.score_sum / s.matches, 4),
              "faults": s.faults}
             for bot_id, s in db.tournament_bot_stats(tid).items()]
    table.sort(key=lambda row: (-row["wins"], row["mean_rank"], row["bot"]))
    return table


# --- matches ---------------------------------------------------------------------------------------------
def match_json(match: MatchRow, labels: dict[int, str], seeds: Mapping[int, int],
               luck: Mapping[int, LuckSummary]) -> dict[str, Any]:
    """A match as the lists show it; its seed only if ``seeds`` has it (:func:`.deals.shown_seeds`:
    never while its deal may still be played), and each seat's ``result``, ``luck`` and
    ``adjusted`` result only if ``luck`` has it (:func:`.deals.shown_luck`: where the seed is
    shown and a report is stored; else ``null``, as ``luck_estimator``)."""
    measured = luck.get(match.id) if match.id in seeds else None
    seats = []
    for seat, bot_id in enumerate(match.bot_ids):
        seats.append({"seat": seat, "bot_id": bot_id, "bot": labels.get(bot_id, f"bot {bot_id}"),
                      "score": match.scores[seat] if match.scores else None,
                      "rank": match.ranking[seat] + 1 if match.ranking else None,  # 1 is best
                      "faults": match.faults[seat] if match.faults else 0,
                      "forfeited": bool(match.forfeited and seat in match.forfeited),
                      "result": measured.result[seat] if measured else None,
                      "luck": measured.luck[seat] if measured else None,
                      "adjusted": measured.adjusted[seat] if measured else None})
    return {"id": match.id, "tournament_id": match.tournament_id, "game": match.game, "variant": match.variant,
            "round": match.round + 1, "deal": match.deal, "rotation": match.rotation, "seed": seeds.get(match.id),
            "luck_estimator": measured.estimator if measured else None,
            "settings": match.settings, "status": match.status, "termination": match.termination,
            "reason": match.reason, "duration_s": match.duration_s, "finished_at": iso_time(match.finished_at),
            "faults": sum(match.faults or ()), "seats": seats}


@dataclass(frozen=True)
class MatchFilter:
    """The match list's filters, read from query parameters."""

    game: str | None = None
    variant: str | None = None
    bot: int | None = None
    status: str | None = None
    faults: bool | None = None
    tournament: int | None = None
    page: int = 1
    before: int | None = None
    """Keyset paging: matches with a smaller id (older), as the "older" link asks."""
    after: int | None = None
    """Keyset paging: matches with a larger id (newer), as the "newer" link asks."""

    @classmethod
    def parse(cls, params: Any) -> MatchFilter:
        """From a mapping of query parameters; empty values mean "any".

        :raises BadRequest: for a value that is not a number, status or yes/no.
        """
        def number(name: str, minimum: int = 1) -> int | None:
            text = params.get(name) or ""
            if not text:
                return None
            if not is_whole_number(text) or int(text) < minimum:
                raise BadRequest(f"{name} must be a whole number of at least {minimum}")
            return int(text)

        status = params.get("status") or None
        if status is not None and status not in STATUSES:
            raise BadRequest(f"status must be one of {', '.join(STATUSES)}")
        faults_text = params.get("faults") or ""
        if faults_text not in ("", "yes", "no"):
            raise BadRequest("faults must be yes or no")
        page, before, after = number("page") or 1, number("before"), number("after")
        if before is not None and after is not None:
            raise BadRequest("give before or after, not both")
        if (before is not None or after is not None) and page != 1:
            raise BadRequest("page cannot be combined with before or after")
        if (page - 1) * PER_PAGE > MAX_OFFSET:
            raise BadRequest(f"page is at most {MAX_OFFSET // PER_PAGE + 1}; further pages follow the "
                             f"older link (before=ID)")
        return cls(game=params.get("game") or None, variant=params.get("variant") or None, bot=number("bot"),
                   status=status, faults={"": None, "yes": True, "no": False}[faults_text],
                   tournament=number("tournament"), page=page, before=before, after=after)

    def query(self, **changes: Any) -> dict[str, str]:
        """These filters (with ``changes``) as query parameters, for links."""
        values = {"game": self.game, "variant": self.variant, "bot": self.bot, "status": self.status,
                  "faults": None if self.faults is None else "yes" if self.faults else "no",
                  "tournament": self.tournament, "page": self.page if self.page != 1 else None,
                  "before": self.before, "after": self.after}
        values.update(changes)
        return {k: str(v) for k, v in values.items() if v is not None}


def matches(db: Database, where: MatchFilter, per_page: int = PER_PAGE,
            count_seconds: float = COUNT_SECONDS) -> dict[str, Any]:
    """One page of matches, newest first, with the total for paging and the keyset links.

    ``next_before`` / ``prev_after`` are the ids the older / newer links pass on (``None`` at
    either end); with ``before`` or ``after`` no rows are skipped, so every page costs the same.
    ``total`` is exact when the running totals give it, else counted up to :data:`COUNT_CAP`
    (``total_capped`` says the count stopped there), or ``None`` when counting took longer
    than ``count_seconds``.

    :raises NotFound: for an unknown game or variant in the filters.
    """
    check_game(where.game, where.variant)
    filters = {"tournament_id": where.tournament, "game": where.game, "variant": where.variant,
               "bot_id": where.bot, "status": where.status, "faults": where.faults}
    try:
        with db.time_limit(count_seconds):
            counted: int | None = db.count_matches(**filters, cap=COUNT_CAP)
    except QueryInterrupted:
        counted = None
    capped = counted is None or counted > COUNT_CAP
    total = None if counted is None else min(counted, COUNT_CAP)
    if where.after is not None:  # the newer page: the next ids up, shown newest first
        rows = db.matches(**filters, limit=per_page + 1, after_id=where.after)
        newer = len(rows) > per_page
        rows = rows[:per_page][::-1]
        older = bool(rows)
    else:
        rows = db.matches(**filters, limit=per_page + 1, offset=(where.page - 1) * per_page, newest_first=True,
                          before_id=where.before)
        older = len(rows) > per_page
        rows = rows[:per_page]
        newer = where.before is not None or where.page > 1
    labels = bot_labels(db)
    seeds = shown_seeds(db, rows)
    luck = shown_luck(db, seeds)
    keyset = where.before is not None or where.after is not None
    return {"total": total, "total_capped": capped, "page": None if keyset else where.page, "per_page": per_page,
            "pages": None if total is None else max(1, -(-total // per_page)),
            "next_before": rows[-1].id if rows and older else None,
            "prev_after": rows[0].id if rows and newer else None,
            "matches": [match_json(m, labels, seeds, luck) for m in rows]}


def match(db: Database, match_id: int, readable: Collection[int] | None) -> dict[str, Any]:
    """A match with its full record: moves (comments, times, statuses) and faults, whose
    details show for the ``readable`` seats only (:func:`.bot_output.match_readable`;
    ``None``: all), and its luck report, steps included (``None`` without one).  While its deal
    may still be played (:mod:`.deals`) the record and the luck are held back: ``record`` and
    ``luck`` are ``None`` and ``held_back`` says why."""
    try:
        row = db.match(match_id)
        record = db.match_record(match_id)
    except NotFoundError:
        raise NotFound(f"no match {match_id}") from None
    settled = deal_settled(db, row)
    seeds = {row.id: row.seed} if settled else {}
    data = match_json(row, bot_labels(db), seeds, shown_luck(db, seeds))
    report = db.luck_report(match_id) if settled and record is not None else None
    data["luck"] = None if report is None else report.to_json()
    data["held_back"] = None if settled or record is None else HELD_BACK
    data["record"] = None if record is None or not settled else {
        "players": record.players, "termination": record.termination, "reason": record.reason,
        "scores": record.scores, "ranking": ranks(record.ranking), "duration_s": record.duration_s,
        "bank_used": record.bank_used, "time_control": record.time_control,
        "moves": [m.to_json() for m in record.moves],
        "faults": shown_faults([f.to_json() for f in record.faults], readable)}
    return data
