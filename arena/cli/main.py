"""The ``arena`` group: its error handling, ``arena games``, and the registration of every
command group, one module each: :mod:`arena.cli.play` (play, replay, check-bot),
:mod:`arena.cli.tournament` (tournament, demo), :mod:`arena.cli.results` (ratings, h2h,
matches, show), :mod:`arena.cli.luck`, :mod:`arena.cli.db`, :mod:`arena.cli.kits` (new-bot, proto, docs), :mod:`arena.cli.pack`, :mod:`arena.cli.submit`
and :mod:`arena.cli.web` (serve).

Commands stay thin: they parse options, call the referee or the scheduler, and print.
Expected failures (bad game, missing manifest, a bot that does not start) are one-line
errors with a non-zero exit, never tracebacks.
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any

import click
from rich.console import Console

from arena.cli.output import Column, emit, format_option
from arena.league.storage import INTEGRITY_HINT
from referee.games import game_class, game_names
from referee.games.base import player_count_text

console = Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


DB_META = "arena.db"
"""``ctx.meta`` key: the database file a command opened, named in errors about it."""


class _Guarded(click.Group):
    """The ``arena`` group: whatever goes wrong ends in one ``Error:`` line, never a traceback.

    A damaged database file shows up as :class:`sqlite3.DatabaseError` wherever a query
    first touches the damage; it is named with the command to check it.  A constraint the
    schema enforces (:class:`sqlite3.IntegrityError`) refuses a change without damage: that
    is a bug of ours, said so.  Any other
    unexpected exception is reported as an internal error (``ARENA_DEBUG=1`` shows the
    traceback).
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if any("\x00" in arg for arg in args):  # only reachable from Python: argv cannot hold NUL
            raise click.UsageError("an argument contains a NUL byte", ctx)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except sqlite3.IntegrityError as error:  # a change the schema refused: arena's bug, not damage
            if os.environ.get("ARENA_DEBUG"):
                raise
            path = ctx.meta.get(DB_META, "the database")
            raise click.ClickException(f"{path} refused a change ({error}), which was not made: a bug in arena, "
                                       "please report it (set ARENA_DEBUG=1 for the traceback)") from None
        except sqlite3.DatabaseError as error:
            path = ctx.meta.get(DB_META, "the database")
            raise click.ClickException(f"cannot read {path}: {error}; it may be damaged: "
                                       + INTEGRITY_HINT.format(path=path)) from None
        except Exception as error:  # noqa: BLE001 - the last line of defence
            if os.environ.get("ARENA_DEBUG"):
                raise
            where = f" while using {ctx.meta[DB_META]} (if damaged, {INTEGRITY_HINT.format(path=ctx.meta[DB_META])})" \
                if DB_META in ctx.meta else ""
            text = " ".join(str(error).split())[:300]
            raise click.ClickException(f"internal error{where}: {type(error).__name__}: {text} "
                                       f"(set ARENA_DEBUG=1 for the traceback)") from None


@click.group(cls=_Guarded, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arena")
def main() -> None:
    """arena: run bots written in any language against each other in card and dice games.

    Bots are gRPC servers (see docs/protocol.md). Give a bot as its manifest (bot.toml or
    its folder), which the referee starts and stops, or as the address of a running bot
    (host:port or unix:///path).
    """


@main.command()
@format_option
def games(fmt: str) -> None:
    """List the games, their variants, seat counts and settings."""
    if fmt == "csv":  # one value per cell: a row per game and variant (settings: use json)
        emit([Column(key) for key in ("game", "variant", "min_players", "max_players", "default_players")],
             [{"game": name, "variant": variant, "min_players": game_class(name).min_players,
               "max_players": game_class(name).max_players, "default_players": game_class(name).default_players}
              for name in game_names() for variant in game_class(name).variants], fmt)
        return
    if fmt == "json":
        rows = []
        for name in game_names():
            cls = game_class(name)
            settings = [{"name": s.name, "default": s.default, "help": s.help, "minimum": s.minimum,
                         "maximum": s.maximum, "choices": list(s.choices) if s.choices else None}
                        for s in cls.settings_spec]
            rows.append({"game": name, "variants": list(cls.variants), "min_players": cls.min_players,
                         "max_players": cls.max_players, "default_players": cls.default_players,
                         "teams": [list(team) for team in cls.teams] if cls.teams else None, "settings": settings})
        emit([Column(key) for key in ("game", "variants", "min_players", "max_players", "default_players", "teams",
                                      "settings")], rows, fmt)
        return
    if fmt == "markdown":
        emit([Column("game"), Column("variants"), Column("players"), Column("settings")],
             [{"game": name, "variants": ", ".join(game_class(name).variants),
               "players": player_count_text(game_class(name).min_players, game_class(name).max_players),
               "settings": ", ".join(f"{s.name}={s.default}" for s in game_class(name).settings_spec)}
              for name in game_names()], fmt, title="games")
        return
    for name in game_names():
        cls = game_class(name)
        console.print(name, style="bold", end="")
        console.print(f": variants {', '.join(cls.variants)}; "
                      f"{player_count_text(cls.min_players, cls.max_players)} (default {cls.default_players})")
        for setting in cls.settings_spec:
            console.print(f"    --setting {setting.name}=  {setting.help} (default {setting.default})")


def _register_commands() -> None:
    """Every command group lives in its own module of :mod:`arena.cli`; the web app itself is
    imported only when ``serve`` runs, the tournament runner only by the commands that run one."""
    from arena.cli import (db, export, kits, ladder, luck, pack, play, results, sprt, submissions, submit, tournament,
                           user, web)

    for command, name in ((play.play, "play"), (play.replay_command, "replay"), (play.check_bot_command, "check-bot"),
                          (tournament.tournament, "tournament"), (tournament.demo, "demo"), (ladder.ladder, "ladder"),
                          (results.ratings, "ratings"), (results.h2h, "h2h"), (results.matches, "matches"),
                          (results.show, "show"), (luck.luck_command, "luck"), (db.db_group, "db"), (sprt.sprt, "sprt"),
                          (user.user_group, "user"),
                          (pack.pack_command, "pack"), (submit.submit, "submit"), (submissions.submissions_group, "submissions"),
                          (kits.new_bot, "new-bot"), (kits.proto, "proto"), (kits.docs, "docs"), (web.serve, "serve"),
                          (export.export_command, "export")):
        main.add_command(command, name)


_register_commands()
