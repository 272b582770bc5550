"""``arena ratings``, ``h2h``, ``matches`` and ``show``: reading the league's results.

Registered on the ``arena`` group by :mod:`arena.cli.main`.  They only read: the database is
opened read-only (:func:`arena.cli.common.open_db`).  Every expected failure is a one-line
``Error: ...`` and exit status 1.
"""

from __future__ import annotations

import dataclasses
import json
import statistics
from pathlib import Path
from typing import Any

import click

from arena.cli.common import check_game, check_output_path, db_option, iso_time, open_db, print_faults, \
    print_match_log, print_result
from arena.cli.hints import arena_hint
from arena.cli.output import Column, console, emit, format_option
from arena.league.luck import LuckSummary, summaries
from arena.league.queries import (BotLookupError, Leaderboard, bot_labels, find_bot, h2h_matrix, leaderboard,
                                  players_text, rating_json, rating_model)
from arena.league.ratings import RatingRow, plan_ratings
from arena.league.storage import Database, StorageError
from referee.games import game_class
from referee.luck import LuckReport
from referee.result import MatchRecord, MoveStatus


def print_ratings(db: Database, game: str, variant: str, fmt: str, *, recompute: bool = False,
                  model: str | None = None) -> list[RatingRow]:
    """The up-to-date table under ``model`` (default: the game's, :func:`arena.league.queries.rating_model`),
    computed from the stored one and the results without writing, as the web server does."""
    board = ratings_board(db, game, variant, model, recompute=recompute)
    records = []
    for row, sep, los in zip(board.rows, board.separations, board.los_next):
        tied: list[int] | str = list(sep.tied_with) if fmt == "json" else " ".join(map(str, sep.tied_with))
        records.append(dict(rating_json(row), los_next=None if los is None else round(los, 4),
                            best_rank=sep.best, worst_rank=sep.worst, tied_with=tied,
                            ranks=f"{sep.best}" if sep.best == sep.worst else f"{sep.best}-{sep.worst}"))
    columns = (SCORE_COLUMNS if board.model == "score" else RATING_COLUMNS) \
        + (RATING_TIES_TEXT if fmt in ("table", "markdown") else RATING_TIES_DATA)
    if fmt not in ("table", "markdown"):  # the title names the model; data formats carry it in every row
        columns = [Column("model"), *columns]
    if game_class(game).lower_scores_win:  # Yaniv's penalty points: the table must say which way is better
        columns = [Column(c.key, "mean score (lower is better)", c.digits) if c.key == "mean_score" else c
                   for c in columns]
    emit(columns, records, fmt, title=f"{game} ({variant}) ratings: {board.described}")
    return board.rows


def ratings_board(db: Database, game: str, variant: str, model: str | None, *, recompute: bool = False) -> Leaderboard:
    """The leaderboard under ``model`` (TrueSkill from the stored table, or from every result with
    ``recompute``; the score model is always a full refit)."""
    model = model or rating_model(db, game, variant)
    plan = plan_ratings(db, game, variant, recompute=recompute) if model == "trueskill" else None
    return leaderboard(db, game, variant, model, plan=plan)


RATING_COLUMNS = [Column("rank"), Column("bot"), Column("version"), Column("mu", digits=3),
                  Column("sigma", digits=3), Column("conservative", "mu-3sigma", digits=3), Column("matches"),
                  Column("wins"), Column("mean_score"), Column("faults"), Column("los_next", "LOS next", digits=3)]
SCORE_COLUMNS = [Column("rank"), Column("bot"), Column("version"), Column("mu", "rating", digits=3),
                 Column("sigma", digits=3), Column("low", "95% low", digits=3), Column("high", "95% high", digits=3),
                 Column("matches"), Column("wins"), Column("mean_score"), Column("faults"),
                 Column("los_next", "LOS next", digits=3)]
"""The score model's table: the rating in points per match relative to the rated bots' mean
and its 95 % interval; "LOS next" is the likelihood that a row is stronger than the row below."""
RATING_TIES_TEXT = [Column("ranks"), Column("tied_with")]
"""Where each bot may really stand (docs/ladder.md): a rank range and the ranks it is not separated from."""
RATING_TIES_DATA = [Column("best_rank"), Column("worst_rank"), Column("tied_with")]


@click.command()
@click.option("--game", required=True, help="Game name.")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@format_option
@click.option("--recompute", is_flag=True, help="Recompute from every stored result, in match-id order.")
@click.option("--rating", "model", type=click.Choice(["trueskill", "score"]), default=None,
              help="The rating model (default: the game's ladder's, else its newest tournament's, else trueskill).")
@db_option
def ratings(game: str, variant: str | None, fmt: str, recompute: bool, model: str | None, db_path: Path) -> None:
    """Ratings of one game and variant under its rating model, which the title names.

    TrueSkill (who won): best conservative rating (mu - 3 sigma) first.  The score model
    (luck-adjusted scores, refitted over every match; docs/ratings.md): best rating first, in
    points per match, with its 95% interval.  "LOS next" is the likelihood that a bot is
    stronger than the one below it; "ranks" and "tied with" show where each bot may really
    stand and which bots it is not yet separated from (order less than 95% sure; docs/ladder.md).
    """
    variant = check_game(game, variant)
    with open_db(db_path, readonly=True) as db:
        rows = print_ratings(db, game, variant, fmt, recompute=recompute, model=model)
    if not rows and fmt == "table":
        console.print(f"no played {game} ({variant}) matches in {db_path}")


@click.command()
@click.option("--game", required=True, help="Game name.")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@format_option
@db_option
def h2h(game: str, variant: str | None, fmt: str, db_path: Path) -> None:
    """Head-to-head: each row bot's mean result against each column bot (1 above, 0.5 tied, 0 below).

    Bots in the rating table's order, best first. Tables show the matrix; json and csv give
    one record per ordered pair of bots, in the same order.
    """
    variant = check_game(game, variant)
    with open_db(db_path, readonly=True) as db:
        matrix = h2h_matrix(db, game, variant)
    cells = matrix.cells
    ids = [bot.id for bot in matrix.bots]
    labels = {bot.id: bot.label for bot in matrix.bots}
    if fmt in ("json", "csv"):
        emit([Column("bot"), Column("opponent"), Column("matches"), Column("result")],
             [{"bot": labels[a], "opponent": labels[b], "matches": cells[a, b][0], "result": round(cells[a, b][1], 4)}
              for a in ids for b in ids if (a, b) in cells], fmt)
        return
    if not cells:
        console.print(f"no played {game} ({variant}) matches in {db_path}")
        return
    columns = [Column("bot")] + [Column(f"c{b}", labels[b]) for b in ids]
    rows = [{"bot": labels[a], **{f"c{b}": f"{cells[a, b][1]:.2f} ({cells[a, b][0]})" if (a, b) in cells
                                  else "-" for b in ids}} for a in ids]
    emit(columns, rows, fmt, title=f"{game} ({variant}) head to head: mean result (matches)")


MATCHES_PAGE = 50
"""``arena matches`` lists this many at a time unless told otherwise."""


@click.command()
@click.option("--tournament", "tournament_id", type=int, default=None, help="Only this tournament.")
@click.option("--game", default=None, help="Only this game.")
@click.option("--bot", "bot_name", default=None, help="Only matches of this bot (name or name@version).")
@click.option("--status", type=click.Choice(["pending", "done", "failed"]), default=None, help="Only this status.")
@click.option("--faults", "with_faults", is_flag=True, help="Only matches where some bot faulted.")
@click.option("--limit", type=click.IntRange(min=1), default=MATCHES_PAGE, show_default=True,
              help="At most this many matches, newest first (the output says how many there are in all).")
@click.option("--all", "show_all", is_flag=True, help="Every match: no --limit.")
@click.option("--before", "before_id", type=click.IntRange(min=1), default=None, metavar="ID",
              help="Older matches: those with ids below ID; the next page, as the previous page's `next:` says.")
@click.option("--after", "after_id", type=click.IntRange(min=1), default=None, metavar="ID",
              help="Newer matches: those with ids above ID (the --limit just above it), as /api/matches?after=ID.")
@format_option
@db_option
def matches(tournament_id: int | None, game: str | None, bot_name: str | None, status: str | None,
            with_faults: bool, limit: int, show_all: bool, before_id: int | None, after_id: int | None, fmt: str,
            db_path: Path) -> None:
    """List matches, newest first: players by seat with their rank, scores and how it ended.

    Shows --limit matches at a time and says how many there are. Pages go by match id, as
    the web's /matches pages do: --before ID lists the older ones (the next page: the
    output names the ID), --after ID the newer ones; --all lists every one.
    """
    if before_id is not None and after_id is not None:
        raise click.ClickException("give --before ID (older matches) or --after ID (newer ones), not both")
    if game is not None:
        check_game(game, None)
    with open_db(db_path, readonly=True) as db:
        if tournament_id is not None:
            try:
                db.tournament(tournament_id)
            except StorageError as error:
                raise click.ClickException(str(error)) from None
        bot_id = None
        if bot_name is not None:
            try:
                bot_id = find_bot(db, bot_name).id
            except BotLookupError as error:
                raise click.ClickException(str(error)) from None
        where: dict[str, Any] = {"tournament_id": tournament_id, "game": game, "bot_id": bot_id, "status": status,
                                 "faults": True if with_faults else None}
        total = db.count_matches(**where)
        if after_id is not None:  # the ids just above it, shown newest first
            found_matches = db.matches(**where, after_id=after_id, limit=None if show_all else limit)[::-1]
            above = total - db.count_matches(**where, before_id=after_id + 1)
            skipped, older = above - len(found_matches), total - above
        else:
            found_matches = db.matches(**where, before_id=before_id, limit=None if show_all else limit,
                                       newest_first=True)
            left = db.count_matches(**where, before_id=before_id) if before_id is not None else total
            skipped, older = total - left, left - len(found_matches)
        labels = bot_labels(db)
        measured = summaries(db, [m.id for m in found_matches])
    page = MatchPage(total=total, skipped=skipped, shown=len(found_matches),
                     next_before=found_matches[-1].id if found_matches and older else None,
                     prev_after=found_matches[0].id if found_matches and skipped else None)
    rows = [{"id": m.id, "tournament": m.tournament_id, "game": m.game, "variant": m.variant, "seed": m.seed,
             "round": m.round + 1, "players": [labels[b] for b in m.bot_ids],
             "ranking": [rank + 1 for rank in m.ranking] if m.ranking else None,
             "scores": list(m.scores) if m.scores else None, "forfeited": list(m.forfeited or ()),
             "faults": sum(m.faults) if m.faults else 0, "status": m.status, "reason": m.reason or "",
             "finished": iso_time(m.finished_at), **luck_fields(measured.get(m.id))}
            for m in found_matches]
    filters = [("--tournament", tournament_id), ("--game", game), ("--bot", bot_name), ("--status", status)]
    options = [word for name, value in filters if value is not None for word in (name, value)]
    options += ["--faults"] if with_faults else []
    next_hint = None if page.next_before is None else arena_hint(
        "matches", *options, *(["--limit", limit] if limit != MATCHES_PAGE else []), "--before", page.next_before,
        *(["--format", fmt] if fmt != "table" else []), "--db", db_path)
    if fmt == "json":
        click.echo(json.dumps({"total": page.total, "shown": page.shown, "truncated": page.next_before is not None,
                               "next_before": page.next_before, "prev_after": page.prev_after,
                               "matches": [{column.key: row[column.key] for column in MATCH_COLUMNS_DATA}
                                           for row in rows]}, indent=1))
        return
    if fmt == "csv":  # one value per cell: a row per seat
        seat_rows = [{"match": row["id"], "tournament": row["tournament"], "game": row["game"],
                      "variant": row["variant"], "seed": row["seed"], "round": row["round"], "seat": seat, "bot": bot,
                      "rank": row["ranking"][seat] if row["ranking"] else None,
                      "score": row["scores"][seat] if row["scores"] else None,
                      "forfeited": seat in row["forfeited"], "status": row["status"], "reason": row["reason"],
                      "finished": row["finished"], "luck_estimator": row["luck_estimator"],
                      **{key: row[key][seat] if row[key] else None for key in ("result", "luck", "adjusted")}}
                     for row in rows for seat, bot in enumerate(row["players"])]
        emit([Column(key) for key in ("match", "tournament", "game", "variant", "seed", "round", "seat", "bot", "rank",
                                      "score", "forfeited", "status", "reason", "finished", "luck_estimator",
                                      "result", "luck", "adjusted")], seat_rows, fmt)
        if page.next_before is not None or page.skipped:
            click.echo(page.text() + (f"; next: {next_hint}" if next_hint else ""), err=True)
        return
    for row, match in zip(rows, found_matches):
        row["players"] = players_text(match, labels)
        row["game"] = f"{row['game']}/{row['variant']}"
    wanted = ", ".join(f"{name.lstrip('-')} {value}" for name, value in filters if value is not None)
    wanted += (", " if wanted else "") + "faults" if with_faults else ""
    emit(MATCH_COLUMNS, rows, fmt, title="matches",
         empty=f"no matches{' with ' + wanted if wanted else ''}{' before match ' + str(before_id) if before_id else ''}"
               f"{' after match ' + str(after_id) if after_id else ''} in {db_path}")
    if rows and (page.next_before is not None or page.skipped):
        console.print(page.text() + (f"; next: `{next_hint}`" if next_hint else ""))


@dataclasses.dataclass(frozen=True)
class MatchPage:
    """Where a page of ``arena matches`` sits in the whole listing."""

    total: int
    """Matches with these filters, all pages together."""
    skipped: int
    """Newer matches than this page's (on the pages before it)."""
    shown: int
    next_before: int | None
    """The ``--before`` of the next (older) page, ``None`` on the last one."""
    prev_after: int | None
    """The ``--after`` of the newer page, ``None`` on the first one."""

    def text(self) -> str:
        """``50 of 60 matches`` on the first page, ``matches 51 to 60 of 60`` on the next."""
        if not self.skipped:
            return f"{self.shown} of {self.total} matches"
        return f"matches {self.skipped + 1} to {self.skipped + self.shown} of {self.total}"


MATCH_COLUMNS = [Column("id"), Column("tournament"), Column("game"), Column("round"), Column("seed"),
                 Column("players"), Column("status"), Column("scores", digits=0), Column("luck", digits=1),
                 Column("reason")]
MATCH_COLUMNS_DATA = [Column(key) for key in ("id", "tournament", "game", "variant", "seed", "round", "players",
                                              "ranking", "scores", "forfeited", "faults", "status", "reason",
                                              "finished", "luck_estimator", "result", "luck", "adjusted")]


def luck_fields(summary: LuckSummary | None) -> dict[str, Any]:
    """A match's ``luck_estimator`` and its ``result``, ``luck`` and ``adjusted`` lists by seat
    (docs/luck.md), all ``None`` when it has no luck report: never zeros."""
    if summary is None:
        return {"luck_estimator": None, "result": None, "luck": None, "adjusted": None}
    return {"luck_estimator": summary.estimator, "result": list(summary.result), "luck": list(summary.luck),
            "adjusted": list(summary.adjusted)}


@click.command()
@click.argument("match_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the full match record as JSON.")
@click.option("--luck", "luck_json", is_flag=True,
              help="Print the match's luck report as JSON, its chance events included (null without one; docs/luck.md).")
@click.option("--out", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Write the match record to this file (for `arena replay`).")
@click.option("--verbose", "-v", is_flag=True, help="Every move with its time and comment, and the deals, draws "
                                                    "and hand ends it caused (the full table's view).")
@db_option
def show(match_id: int, as_json: bool, luck_json: bool, out: Path | None, verbose: bool, db_path: Path) -> None:
    """Show one match: its set-up, result, each seat's luck and adjusted result, faults, each
    seat's decision times and a line per hand (round, battle); -v for every move."""
    if out is not None:
        check_output_path(out, "--out", database=db_path)
    if luck_json and (as_json or out is not None):
        raise click.ClickException("--luck prints the luck report alone: give it without --json and --out")
    with open_db(db_path, readonly=True) as db:
        try:
            match = db.match(match_id)
            record = db.match_record(match_id)
        except (StorageError, ValueError) as error:
            raise click.ClickException(str(error)) from None
        players = players_text(match, bot_labels(db))
        report = db.luck_report(match_id)
    if luck_json:
        click.echo(json.dumps(None if report is None else report.to_json(), indent=1))
        return
    if out is not None:
        if record is None:
            raise click.ClickException(f"match {match_id} has no record ({match.status})")
        out.write_text(record.dumps() + "\n", encoding="utf-8")
        console.print(f"match record written to {out}")
        return
    if as_json:
        if record is None:
            raise click.ClickException(f"match {match_id} has no record ({match.status})")
        click.echo(record.dumps())
        return
    console.print(f"match {match.id} (tournament {match.tournament_id}, round {match.round + 1}, deal {match.deal}, "
                  f"rotation {match.rotation}): {match.game} ({match.variant}), seed {match.seed}, {match.status}")
    if match.settings:
        console.print("settings: " + ", ".join(f"{k}={v}" for k, v in sorted(match.settings.items())))
    console.print(f"players: {players}")
    if record is None:
        if match.reason:
            console.print(f"reason: {match.reason}")
        return
    if record.scores:
        print_result(console, record, f"result: {record.reason}")
        print_luck(record, report)
    else:
        print_faults(console, record)
    emit([Column("seat"), Column("bot"), Column("decisions"), Column("median_ms", "median ms", digits=1),
          Column("p99_ms", "p99 ms", digits=1), Column("max_ms", "max ms", digits=1)],
         decision_times(record), "table", title="decision times")
    console.print(f"{len(record.moves)} moves in {record.duration_s:.2f} s" + (":" if verbose else "; summary:"))
    print_match_log(console, record, verbose=verbose)


def print_luck(record: MatchRecord, report: LuckReport | None) -> None:
    """Each seat's result, luck and adjusted result (docs/luck.md), or that none is stored."""
    if report is None:
        console.print("luck: not measured (`arena luck` measures the matches of games with an estimator)")
        return
    emit([Column("seat"), Column("bot"), Column("score", digits=0), Column("result"), Column("luck"),
          Column("adjusted")],
         [{"seat": seat, "bot": name, "score": record.scores[seat], "result": report.result[seat],
           "luck": report.luck[seat], "adjusted": report.adjusted[seat]} for seat, name in enumerate(record.players)],
         "table", title=f"luck ({report.estimator}, {len(report.steps)} chance events; adjusted = result - luck)")


def decision_times(record: MatchRecord) -> list[dict[str, Any]]:
    """Per seat: how many decisions its bot answered, and their median, 99th percentile and
    longest time (moves the fallback played for a forfeited seat are left out)."""
    from arena.authoring.check_bot import percentile

    rows = []
    for seat, name in enumerate(record.players):
        times = sorted(m.elapsed_ms for m in record.moves if m.seat == seat and m.status is not MoveStatus.FORFEITED)
        rows.append({"seat": seat, "bot": name, "decisions": len(times),
                     "median_ms": statistics.median(times) if times else None,
                     "p99_ms": percentile(times, 0.99) if times else None,
                     "max_ms": times[-1] if times else None})
    return rows


