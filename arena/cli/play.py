"""``arena play``, ``replay`` and ``check-bot``: matches played (or replayed) here and now,
with no database.

Registered on the ``arena`` group by :mod:`arena.cli.main`.  Expected failures (bad game,
missing manifest, a bot that does not start) are one-line errors with a non-zero exit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from arena.cli.common import (forfeit_texts, make_time_control, output_path_problem, parse_settings,
                              print_match_log, print_result, print_seats, sandbox_options, save_record,
                              time_control_options)
from arena.cli.output import Column, emit, format_option
from referee.bots import BotSpecError, resolve_bot
from referee.games import game_class
from referee.games.base import SettingsError
from referee.result import MatchRecord
from referee.sandbox import SandboxConfig

console = Console(highlight=False, markup=False, emoji=False, soft_wrap=True)


@click.command()
@click.option("--game", "game_name", required=True, help="Game name (see `arena games`).")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE", help="A game setting; repeatable.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="MANIFEST|ADDRESS",
              help="A bot, once per seat in seat order: bot.toml, its folder, or host:port.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the match's random generator.")
@time_control_options
@sandbox_options
@click.option("--log-out", type=click.Path(path_type=Path), default=None,
              help="Write the full match record (JSON) here, for `arena replay`.")
@click.option("--verbose", "-v", is_flag=True, help="Print every move and what it caused, as the match goes.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result: no seats, no summary.")
@format_option
def play(game_name: str, variant: str | None, settings: tuple[str, ...], bots: tuple[str, ...], seed: int,
         move_timeout: float, time_bank: float, max_faults: int, startup_timeout: float, sandbox: SandboxConfig,
         log_out: Path | None, verbose: bool, quiet: bool, fmt: str) -> None:
    """Play one match and print who sat where, a line per hand (or round, or battle) and the
    result; -v prints every move, --format json|csv prints only the result, for programs.

    A bot that forfeits (it does not become ready, its process dies, or it faults
    --max-faults times) ranks last, as in a tournament: the match is played, its record
    written and its result printed, and the command then exits 1 saying who forfeited and why."""
    from referee.match import MatchConfig, run_match  # grpc: imported by the commands that play only

    try:
        if log_out is not None and (problem := output_path_problem(log_out)) is not None:
            raise click.ClickException(f"--log-out {log_out}: {problem}")
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
    people = fmt in ("table", "markdown")
    if people and not quiet:
        print_seats(console, [spec.label for spec in specs])
    record = run_match(config, specs, on_line=console.print if verbose and people else None)
    if people and not quiet and not verbose and record.finished:
        print_match_log(console, record, verbose=False)
    errors = []
    why: str | None = None
    if log_out is not None:
        written, why = save_record(record, log_out)
        if why is not None:
            errors.append(f"could not write the match record to {log_out} ({why}); "
                          + (f"it is in {written} instead" if written else "nor could it be saved anywhere else"))
    if not record.finished:
        errors.insert(0, f"match {record.match_id} did not finish: {record.reason}")
        raise click.ClickException("; ".join(errors))
    if people:
        print_result(console, record, f"{record.game} ({record.variant}), seed {record.seed}: {record.reason}")
        if log_out is not None and why is None:
            console.print(f"match record written to {log_out}")
    else:
        emit([Column(key) for key in ("seat", "bot", "rank", "score", "faults", "forfeited")],
             [{"seat": seat, "bot": record.players[seat], "rank": record.ranking[seat] + 1,
               "score": record.scores[seat], "faults": sum(1 for fault in record.faults if fault.seat == seat),
               "forfeited": seat in record.forfeited}
              for seat in range(record.num_players)], fmt)
    errors[:0] = forfeit_texts(record)
    if errors:
        raise click.ClickException("; ".join(errors))


@click.command("replay")
@click.argument("record_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay_command(record_file: Path) -> None:
    """Replay a match record (from `play --log-out`) through the engine and check its result.

    Exits 0 when every move and the final result match, 1 otherwise.
    """
    from referee.replay import replay  # the engines' replay needs the wire format (protobuf)

    try:
        record = MatchRecord.from_json(json.loads(record_file.read_text(encoding="utf-8")))
        report = replay(record)
    except (ValueError, OSError) as error:  # json, format, field and settings errors are ValueErrors
        raise click.ClickException(f"cannot replay {record_file}: {error}") from None
    except RecursionError:
        raise click.ClickException(f"cannot replay {record_file}: its JSON is nested too deeply") from None
    if report.ok:
        scores = ", ".join(f"{score:g}" for score in record.scores)
        ranks = ", ".join(str(rank + 1) for rank in record.ranking)
        console.print(f"replay OK: {len(record.moves)} moves, result matches (by seat: scores {scores}; ranks {ranks})")
        return
    for problem in report.problems:
        console.print(f"replay MISMATCH: {problem}")
    sys.exit(1)


@click.command("check-bot")
@click.argument("bot")
@click.option("--game", "only", multiple=True, help="Check only this game (repeatable); default: every game it claims.")
@click.option("--matches", type=click.IntRange(min=1), default=2, show_default=True,
              help="Matches per game; the bot takes each seat in turn.")
@click.option("--seed", type=int, default=0, show_default=True)
@time_control_options
@sandbox_options
@format_option
def check_bot_command(bot: str, only: tuple[str, ...], matches: int, seed: int, move_timeout: float,
                      time_bank: float, max_faults: int, startup_timeout: float, sandbox: SandboxConfig,
                      fmt: str) -> None:
    """Check a bot before submitting it: health, identity, and short matches of every game
    it claims against random bots. BOT is a manifest, its folder, or an address.

    Prints protocol errors, illegal answers, decision latency (median, p99) and time-bank
    use. Exits 1 if anything failed.
    """
    from arena.authoring.check_bot import check_bot

    try:
        spec = resolve_bot(bot)
    except BotSpecError as error:
        raise click.ClickException(str(error)) from None
    tc = make_time_control(move_timeout, time_bank, max_faults, startup_timeout)
    report = check_bot(spec, matches=matches, seed=seed, time_control=tc, only=list(only) or None, sandbox=sandbox)
    if fmt in ("json", "csv"):
        games = [{"game": g.game, "matches": g.matches, "decisions": g.decisions, "median_ms": round(g.median_ms, 3),
                  "p99_ms": round(g.percentile(0.99), 3), "bank_used_s": round(g.bank_used_s, 3),
                  "faults": [fault.to_json() for fault in g.faults], "aborted": list(g.aborted)}
                 for g in report.games]
        if fmt == "json":
            click.echo(json.dumps({"bot": report.bot, "identity": report.identity,
                                   "startup_s": round(report.startup_s, 3), "ok": report.ok,
                                   "problems": list(report.problems), "games": games,
                                   "output": list(report.output)}, indent=1))
        else:  # one row per game, faults counted
            emit([Column(key) for key in ("game", "matches", "decisions", "median_ms", "p99_ms", "bank_used_s",
                                          "faults", "aborted")],
                 [{**game, "faults": len(game["faults"]), "aborted": len(game["aborted"])} for game in games], fmt)
        if not report.ok:
            sys.exit(1)
        return
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
    if report.output:
        console.print("the bot's last output (stdout and stderr), after its first failure:")
        for line in report.output:
            console.print(f"  | {line}")
    if not report.ok:
        console.print("check-bot: FAILED")
        sys.exit(1)
    console.print("check-bot: all checks passed")
