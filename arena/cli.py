"""The ``arena`` command line: play, replay and check bots here; tournaments, ratings and
the demo in :mod:`arena.cli_tournament`; the web server in :mod:`arena.cli_web`.

Commands stay thin: they parse options, call the referee or the scheduler, and print.
Expected failures (bad game, missing manifest, a bot that does not start) are one-line
errors with a non-zero exit, never tracebacks.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from arena.cli_common import make_time_control, parse_settings, print_result, sandbox_options, time_control_options
from referee.bots import BotSpecError, BotStartError, resolve_bot
from referee.games import game_class, game_names
from referee.games.base import SettingsError
from referee.match import BotConnection, MatchConfig, run_match
from referee.replay import replay
from referee.result import MatchRecord
from referee.sandbox import SandboxConfig

console = Console(highlight=False, soft_wrap=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arena")
def main() -> None:
    """arena: run bots written in any language against each other in card and dice games.

    Bots are gRPC servers (see docs/protocol.md). Give a bot as its manifest (bot.toml or
    its folder), which the referee starts and stops, or as the address of a running bot
    (host:port or unix:///path).
    """


@main.command()
def games() -> None:
    """List the games, their variants, seat counts and settings."""
    for name in game_names():
        cls = game_class(name)
        console.print(f"[bold]{name}[/bold]: variants {', '.join(cls.variants)}; "
                      f"{cls.min_players}-{cls.max_players} players (default {cls.default_players})")
        for setting in cls.settings_spec:
            console.print(f"    --setting {setting.name}=  {setting.help} (default {setting.default})")


@main.command()
@click.option("--game", "game_name", required=True, help="Game name (see `arena games`).")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE", help="A game setting; repeatable.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="MANIFEST|ADDRESS",
              help="A bot, once per seat in seat order: bot.toml, its folder, or host:port.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the match's random generator.")
@time_control_options
@sandbox_options
@click.option("--log-out", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Write the full match record (JSON) here, for `arena replay`.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result, not the move log.")
def play(game_name: str, variant: str | None, settings: tuple[str, ...], bots: tuple[str, ...], seed: int,
         move_timeout: float, time_bank: float, max_faults: int, startup_timeout: float, sandbox: SandboxConfig,
         log_out: Path | None, quiet: bool) -> None:
    """Play one match and print its log and result.

    A bot that does not start is an error here (a tournament records it as a forfeit)."""
    try:
        cls = game_class(game_name)
        specs = [resolve_bot(text) for text in bots]
        config = MatchConfig(game=game_name, variant=variant, settings=parse_settings(settings), seed=seed,
                             time_control=make_time_control(move_timeout, time_bank, max_faults, startup_timeout),
                             sandbox=sandbox)
        cls(variant=variant, num_players=len(specs), settings=config.settings)  # fail before starting bots
        for spec in specs:
            if not spec.plays(game_name):
                raise BotSpecError(f"bot {spec.name} does not play {game_name} (its manifest lists "
                                   f"{', '.join(spec.games)})")
    except (SettingsError, BotSpecError) as error:
        raise click.ClickException(str(error)) from None
    connections: list[BotConnection] = []
    try:
        for spec in specs:
            connections.append(BotConnection(spec, startup_timeout, sandbox))
        record = run_match(config, connections, on_line=None if quiet else console.print)
    except BotStartError as error:
        raise click.ClickException(str(error)) from None
    finally:
        for connection in connections:
            connection.close()
    if log_out is not None:
        log_out.write_text(record.dumps() + "\n", encoding="utf-8")
    if not record.finished:
        raise click.ClickException(f"match {record.match_id} did not finish: {record.reason}")
    print_result(console, record, f"{record.game} ({record.variant}), seed {record.seed}: {record.reason}")
    if log_out is not None:
        console.print(f"match record written to {log_out}")


@main.command("replay")
@click.argument("record_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay_command(record_file: Path) -> None:
    """Replay a match record (from `play --log-out`) through the engine and check its result.

    Exits 0 when every move and the final result match, 1 otherwise.
    """
    try:
        record = MatchRecord.from_json(json.loads(record_file.read_text(encoding="utf-8")))
        report = replay(record)
    except (ValueError, OSError) as error:  # json, format and settings errors are ValueErrors
        raise click.ClickException(f"cannot replay {record_file}: {error}") from None
    if report.ok:
        console.print(f"replay OK: {len(record.moves)} moves, result matches "
                      f"(scores {', '.join(f'{s:g}' for s in record.scores)}; ranking {record.ranking})")
        return
    for problem in report.problems:
        console.print(f"replay MISMATCH: {problem}")
    sys.exit(1)


@main.command("check-bot")
@click.argument("bot")
@click.option("--game", "only", multiple=True, help="Check only this game (repeatable); default: every game it claims.")
@click.option("--matches", type=click.IntRange(min=1), default=2, show_default=True,
              help="Matches per game; the bot takes each seat in turn.")
@click.option("--seed", type=int, default=0, show_default=True)
@time_control_options
@sandbox_options
def check_bot_command(bot: str, only: tuple[str, ...], matches: int, seed: int, move_timeout: float,
                      time_bank: float, max_faults: int, startup_timeout: float, sandbox: SandboxConfig) -> None:
    """Check a bot before submitting it: health, identity, and short matches of every game
    it claims against random bots. BOT is a manifest, its folder, or an address.

    Prints protocol errors, illegal answers, decision latency (median, p99) and time-bank
    use. Exits 1 if anything failed.
    """
    from arena.check_bot import check_bot

    try:
        spec = resolve_bot(bot)
    except BotSpecError as error:
        raise click.ClickException(str(error)) from None
    tc = make_time_control(move_timeout, time_bank, max_faults, startup_timeout)
    report = check_bot(spec, matches=matches, seed=seed, time_control=tc, only=list(only) or None, sandbox=sandbox)
    console.print(f"bot: {report.bot}")
    if report.identity:
        console.print(f"identity: {report.identity} (ready in {report.startup_s:.2f} s)")
    if report.games:
        table = Table(title="matches against random bots")
        for column in ("game", "matches", "decisions", "median ms", "p99 ms", "bank used s", "faults"):
            table.add_column(column, justify="left" if column == "game" else "right")
        for game in report.games:
            table.add_row(game.game, str(game.matches), str(game.decisions), f"{game.median_ms:.1f}",
                          f"{game.percentile(0.99):.1f}", f"{game.bank_used_s:.2f}", str(len(game.faults)))
        console.print(table)
    for problem in report.problems:
        console.print(f"FAIL: {problem}")
    for game in report.games:
        for problem in game.aborted:
            console.print(f"FAIL: {game.game}: match aborted: {problem}")
        for fault in game.faults:
            at = f" at decision {fault.decision}" if fault.decision is not None else ""
            console.print(f"FAIL: {game.game}: {fault.kind.value}{at}: {fault.detail}")
    if not report.ok:
        console.print("check-bot: FAILED")
        sys.exit(1)
    console.print("check-bot: all checks passed")


def _register_tournament_commands() -> None:
    """Tournament, rating and demo commands live in :mod:`arena.cli_tournament`."""
    from arena import cli_tournament

    for name in ("tournament", "ratings", "h2h", "matches", "show", "demo"):
        main.add_command(getattr(cli_tournament, name), name)


def _register_web_commands() -> None:
    """``serve`` lives in :mod:`arena.cli_web` (the web app itself is imported only when it runs)."""
    from arena import cli_web

    main.add_command(cli_web.serve, "serve")


_register_tournament_commands()
_register_web_commands()

if __name__ == "__main__":
    main()
