"""Ladder commands: ``ladder run|add|pause|resume|remove|status`` (``docs/ladder.md``).

Registered on the ``arena`` group by :mod:`arena.cli`.  ``run`` is the long-running process;
the others only write (or read) the database, which the running process polls every second.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

from arena.cli.common import check_database_path, db_option, make_executor_factory, open_db
from arena.cli.hints import arena_hint
from arena.cli.output import Column, console, emit, format_option
from arena.cli.tournament import _expected
from arena.league.storage import Database, TournamentRow
from referee.untrusted import clean

ladder_option = click.option("--ladder", "ladder_name", default=None, metavar="NAME|ID",
                             help="Which ladder of the database (needed when it holds several).")


@click.group()
def ladder() -> None:
    """Run a ladder that keeps playing; add, pause and remove its entrants while it runs."""


@ladder.command("run")
@click.option("--config", "config_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The ladder's TOML config file (docs/ladder.md).")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite database file (default: the config's db).")
def run_command(config_path: Path, db_path: Path | None) -> None:
    """Run the config's ladders until Ctrl-C or SIGTERM.

    Each ladder plays duplicate sets chosen from the current ratings, as long as it has
    enough active entrants. Restarting with the same config carries on where it stopped
    (matches a killed run left unfinished are dropped). Stopping waits up to the config's
    stop_grace seconds for the running matches, then drops them.
    """
    from arena.runs.ladder import load_config, run_ladders

    try:
        config = load_config(config_path, db=db_path)
        check_database_path(config.db)
        factory = make_executor_factory(config.executor, config.scheduler, config.pin_cpus, announce=_say)
        with open_db(config.db, create=True) as db:
            run = run_ladders(db, config, lambda: factory(config.workers, config.keep_alive), say=_say)
            summary = run.summary
            _say(f"stopped: {summary.played} match(es) stored in {summary.elapsed_s:.1f} s "
                 f"({summary.per_minute:.1f}/min), {summary.failed} failed, {run.dropped_at_stop} dropped")
            for error in summary.errors[:5]:
                _say(f"  failed: {error}")
    except _expected() as error:
        raise click.ClickException(str(error)) from None


def _say(text: str) -> None:
    console.print(f"{time.strftime('%H:%M:%S')} {clean(text)}")
    sys.stdout.flush()


def _find(db: Database, name: str | None) -> TournamentRow:
    from arena.runs.ladder import find_ladder

    return find_ladder(db, name)


@ladder.command("add")
@click.argument("bots", nargs=-1, required=True, metavar="BOT...")
@ladder_option
@db_option
def add_command(bots: tuple[str, ...], ladder_name: str | None, db_path: Path) -> None:
    """Enter bots (manifests, folders of manifests, or host:port addresses) into a ladder.

    A paused or removed entrant given again is active again. The running ladder seats them
    within a second.
    """
    from arena.runs.ladder import enter_bots

    with open_db(db_path) as db:
        try:
            t = _find(db, ladder_name)
            for label, what in enter_bots(db, t, bots):
                console.print(f"{clean(label)}: {what}")
        except _expected() as error:
            raise click.ClickException(str(error)) from None


def _set_state(bots: tuple[str, ...], ladder_name: str | None, db_path: Path, state: str, reason: str) -> None:
    from arena.league.queries import BotLookupError, find_bot
    from arena.runs import ladder_store

    with open_db(db_path) as db:
        try:
            t = _find(db, ladder_name)
            entrants = {e.bot_id: e for e in ladder_store.entrants(db, t.id)}
            for text in bots:
                try:
                    row = find_bot(db, text)
                except BotLookupError as error:
                    raise click.ClickException(str(error)) from None
                if row.id not in entrants:
                    raise click.ClickException(f"bot {clean(row.label)} is not an entrant of ladder {t.name!r}")
                try:
                    ladder_store.set_state(db, t.id, row.id, state, reason)
                except ladder_store.EntrantStateError as error:
                    raise click.ClickException(f"cannot pause {clean(row.label)}: {error}") from None
                console.print(f"{clean(row.label)}: {state}")
        except _expected() as error:
            raise click.ClickException(str(error)) from None


@ladder.command("pause")
@click.argument("bots", nargs=-1, required=True, metavar="NAME[@VERSION]...")
@click.option("--reason", default="paused by hand", show_default=True, help="Shown by `arena ladder status`.")
@ladder_option
@db_option
def pause_command(bots: tuple[str, ...], reason: str, ladder_name: str | None, db_path: Path) -> None:
    """Stop seating entrants until resumed (their running matches finish)."""
    _set_state(bots, ladder_name, db_path, "paused", reason)


@ladder.command("resume")
@click.argument("bots", nargs=-1, required=True, metavar="NAME[@VERSION]...")
@ladder_option
@db_option
def resume_command(bots: tuple[str, ...], ladder_name: str | None, db_path: Path) -> None:
    """Seat paused (or removed) entrants again; auto-paused ones too, once fixed."""
    _set_state(bots, ladder_name, db_path, "active", "")


@ladder.command("remove")
@click.argument("bots", nargs=-1, required=True, metavar="NAME[@VERSION]...")
@ladder_option
@db_option
def remove_command(bots: tuple[str, ...], ladder_name: str | None, db_path: Path) -> None:
    """Take entrants out of a ladder; their played matches and ratings stay."""
    _set_state(bots, ladder_name, db_path, "removed", "removed by hand")


STATUS_COLUMNS = [Column("bot"), Column("state"), Column("matches"), Column("per_minute", "per min", digits=1),
                  Column("last_match", "last match"),
                  Column("mu", digits=1), Column("sigma", digits=1), Column("reason"), Column("role")]


@ladder.command("status")
@ladder_option
@format_option
@db_option
def status_command(ladder_name: str | None, fmt: str, db_path: Path) -> None:
    """What a ladder is doing: running or not, matches per minute and in flight, each entrant's
    matches, matches per minute, last match, state and why it is paused; why it waits, if
    it has too few active entrants for a table.

    Without --ladder, every ladder of the database, one after the other (json: an array of
    them when there are several; csv: a first column "ladder").
    """
    import json

    from arena.runs import ladder_store

    with open_db(db_path, readonly=True) as db:
        try:
            chosen = [_find(db, ladder_name)] if ladder_name is not None or len(ladder_store.ladders(db)) < 2 \
                else ladder_store.ladders(db)
        except _expected() as error:
            raise click.ClickException(str(error)) from None
        now = time.time()
        statuses = [_status(db, t, now, _ratings(db, t)) for t in chosen]
    if fmt == "json":
        click.echo(json.dumps(statuses[0] if len(statuses) == 1 else statuses, indent=1))
        return
    if fmt == "csv":
        several = len(statuses) > 1
        columns = [Column("ladder")] * several + STATUS_COLUMNS
        emit(columns, [{"ladder": status["ladder"], **row} for status in statuses for row in status["entrants"]],
             fmt)
        return
    for index, status in enumerate(statuses):
        if index:
            console.print()
        _print_status(status, fmt, db_path)


def _ratings(db: Database, t: TournamentRow) -> dict[int, tuple[float, float]]:
    """``bot -> (mu, sigma)`` under the ladder's rating model: TrueSkill's (a new version not rated
    yet: its prior), or the score model's refit."""
    from arena.league.ratings import current_ratings
    from arena.runs.ladder_store import ladder_rating

    if ladder_rating(t) == "score":
        from arena.league.score_ratings import refit

        return {bot: (r.mu, r.sigma) for bot, r in refit(db, t.game, t.variant).ratings.items()}
    return current_ratings(db, t.game, t.variant)


def _status(db: Database, t: TournamentRow, now: float, ratings: dict[int, tuple[float, float]]) -> dict[str, Any]:
    """One ladder's status as ``--format json`` prints it."""
    from arena.league.queries import age_text
    from arena.runs import ladder_store
    from arena.runs.tournament import runner_alive

    head = ladder_store.overview(db, t, now=now, alive=runner_alive, ratings=ratings)
    rows = [{**{k: v for k, v in e.items() if k not in ("bot_id", "last_match_at", "boss")},
             "role": "boss" if e["boss"] else "",
             "last_match": None if e["last_match_at"] is None else age_text(now - e["last_match_at"])}
            for e in head.pop("entrants")]
    return {**head, "entrants": rows}


def _more_entrants_hint(status: dict[str, Any], db_path: Path) -> str:
    """How to give a waiting ladder the entrants it needs: resume a paused one, or add one."""
    if not status["note"].startswith("waiting"):
        return ""
    paused = [e["bot"] for e in status["entrants"] if e["state"] == "paused"]
    words = ("resume", paused[0]) if paused else ("add", "BOT")
    return f"; `{arena_hint('ladder', *words, '--ladder', status['ladder'], '--db', db_path)}`"


def _print_status(status: dict[str, Any], fmt: str, db_path: Path) -> None:
    """One ladder's status as a table (or Markdown): a head line, why it waits, its entrants."""
    from arena.league.queries import counted

    if fmt == "table":
        state = (f"running in process {status['pid']}: {status['matches_per_minute']:.1f} matches/min, "
                 f"{status['in_flight']} in flight" if status["running"] else "not running")
        console.print(f"ladder {clean(status['ladder'])} (id {status['id']}, {status['game']} {status['variant']}): "
                      f"{state}; {counted(status['matches_done'], 'match', 'matches')} played, "
                      f"{status['matches_failed']} failed; ratings: {status['rating']} model")
        if status["note"]:
            console.print(f"{clean(status['note'])}{_more_entrants_hint(status, db_path)}", style="bold")
    emit(STATUS_COLUMNS, status["entrants"], fmt, title=status["ladder"] if fmt == "markdown" else "",
         empty="no entrants yet: `arena ladder add BOT`")
