"""``arena sprt``: is the new version of a bot stronger than the previous one?

It plays the two on duplicate pairs with the tournament machinery (the local executor's
worker processes, :func:`~arena.executors.play_job`, the same sandbox and time control) and
feeds each pair to the SPRT of :mod:`arena.submission.sprt` until it answers
(docs/sprt.md).  Exit codes: 0 stronger, 1 not stronger, 2 stopped undecided (--max-pairs
reached, or Ctrl-C); an ``Error:`` line, a usage error included, exits 3.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click
from rich.markup import escape

from arena.cli.common import make_time_control, parse_settings, sandbox_options, time_control_options
from arena.submission.normalized_sprt import TESTS, PairTest
from arena.submission.sprt import Verdict
from arena.submission.sprt_runs import MAX_PAIRS
from referee.sandbox import SandboxConfig

EXIT_STRONGER, EXIT_NOT_STRONGER, EXIT_UNDECIDED, EXIT_ERROR = 0, 1, 2, 3


class SprtError(click.ClickException):
    """An ``Error:`` line that exits 3, apart from the verdicts' 0, 1 and 2."""

    exit_code = EXIT_ERROR


class _SprtCommand(click.Command):
    """Usage errors (a missing or malformed option) exit 3 as well: 2 means undecided here."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)
        except click.UsageError as error:
            error.exit_code = EXIT_ERROR
            raise


def _describe(test: PairTest) -> str:
    """``LLR 1.23 [-2.94, 2.94] · score 56.3% (Elo +44) · pentanomial 1 3 8 5 3``, then the
    normalised test's estimate (``· nElo +31``)."""
    lower, upper = test.bounds
    score, elo = test.score, test.elo
    shown = "-" if score is None or elo is None else f"{100 * score:.1f}% (Elo {elo:+.0f})"
    nelo = getattr(test, "nelo", None)
    return (f"LLR {test.llr:.2f} [{lower:.2f}, {upper:.2f}] · score {shown} · "
            f"pentanomial {' '.join(str(c) for c in test.counts)}"
            + (f" · nElo {nelo:+.0f}" if nelo is not None else ""))


@click.command("sprt", cls=_SprtCommand)
@click.option("--game", "game_name", required=True, help="Game name (see `arena games`).")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE", help="A game setting; repeatable.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="MANIFEST|ADDRESS",
              help="Twice: the new version, then the previous one (bot.toml, its folder, or host:port).")
@click.option("--test", "test_name", type=click.Choice(TESTS), default=TESTS[0], show_default=True,
              help="normalized: bounds in normalised Elo, on luck-adjusted pair results where the game has a luck "
                   "estimator (else plain points); logistic: the older test, bounds in logistic Elo.")
@click.option("--elo0", type=float, default=0.0, show_default=True,
              help="H0: NEW is this much stronger (in the test's Elo).")
@click.option("--elo1", type=float, default=10.0, show_default=True, help="H1: NEW is this much stronger.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Chance of calling NEW stronger under H0.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="Chance of calling NEW not stronger under H1.")
@click.option("--max-pairs", type=click.IntRange(min=1), default=MAX_PAIRS, show_default=True,
              help="Stop undecided (exit 2) after this many pairs.")
@click.option("--workers", type=click.IntRange(min=1), default=lambda: min(4, os.cpu_count() or 1),
              show_default="CPU count, at most 4", help="Referee worker processes.")
@click.option("--keep-alive", is_flag=True,
              help="Start each bot once per worker and reuse it across matches (faster, less isolated).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the pairs' deals.")
@time_control_options
@sandbox_options
def sprt(game_name: str, variant: str | None, settings: tuple[str, ...], bots: tuple[str, ...], test_name: str,
         elo0: float, elo1: float, alpha: float, beta: float, max_pairs: int, workers: int, keep_alive: bool, seed: int,
         move_timeout: float, time_bank: float, max_faults: int, startup_timeout: float,
         sandbox: SandboxConfig) -> None:
    """Is NEW (the first --bot) stronger than OLD (the second)? A sequential probability ratio
    test on duplicate pairs (one deal, sides swapped), as Stockfish's fishtest runs it.

    Prints the log-likelihood ratio after every pair and stops as soon as it crosses a bound.
    Exits 0 if NEW is stronger (H1: +elo1), 1 if not (H0: +elo0), 2 if it stopped undecided
    (--max-pairs, Ctrl-C). The same bot twice is allowed: that is how you check the test."""
    from arena.runs.progress import RichProgress
    from arena.executors import MatchJob
    from arena.executors.local import LocalExecutor
    from arena.runs.loop import counting_signals
    from arena.runs.preflight import preflight
    from arena.submission.normalized_sprt import new_test
    from arena.submission.pairs import PairingError, PairLayout, PairResult, pair_layout, play_pairs
    from referee.bots import BotSpecError, resolve_bot
    from referee.games import game_class
    from referee.games.base import SettingsError
    from referee.match import MatchConfig

    try:
        if len(bots) != 2:
            raise SprtError(f"give --bot twice, the new version then the previous one (got {len(bots)})")
        layout = pair_layout(game_name)
        test = new_test(game_name, test_name, elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
        layout.check(test)
        specs = [resolve_bot(text) for text in bots]
        tc = make_time_control(move_timeout, time_bank, max_faults, startup_timeout)
        config = MatchConfig(game=game_name, variant=variant, settings=parse_settings(settings), seed=seed,
                             time_control=tc, sandbox=sandbox)
        game_class(game_name)(variant=variant, num_players=layout.num_players, settings=config.settings)
        for spec in specs:
            if not spec.plays(game_name):
                raise BotSpecError(f"bot {spec.label} does not play {game_name} (its manifest lists "
                                   f"{', '.join(spec.games)})")
    except (SettingsError, BotSpecError, PairingError, ValueError) as error:
        raise SprtError(str(error)) from None
    checks = preflight(specs, game_name, startup_timeout=startup_timeout, sandbox=sandbox)
    broken = [f"{role} {check.spec.label} {check.problem}" for role, check in zip(("NEW", "OLD"), checks)
              if check.problem is not None]
    if broken:
        raise SprtError("bot not ready: " + "; ".join(broken))
    new, old = (check.spec for check in checks)
    unit = "normalised Elo" if test_name == "normalized" else "Elo"
    click.echo(f"sprt: NEW {new.label} against OLD {old.label}, {game_name}, duplicate pairs from seed {seed}; "
               f"H0 {unit} {elo0:+g}, H1 {unit} {elo1:+g}, alpha {alpha:g}, beta {beta:g}, at most {max_pairs} pairs")
    click.echo(f"test: {test.describe()}")

    def make_job(match_id: int, seating: PairLayout, match: int, deal: int) -> MatchJob:
        seats = seating.seats(match, new, old)
        return MatchJob(match_id, MatchConfig(game=game_name, variant=variant, settings=config.settings, seed=deal,
                                              match_id=str(match_id), time_control=tc, sandbox=sandbox), seats)

    bar = RichProgress("pairs") if sys.stderr.isatty() else None

    def on_pair(pair: PairResult) -> None:
        points = f"{pair.points:g}" if pair.points is not None else "not counted (" + "; ".join(pair.errors) + ")"
        faults = (f" · {pair.faults} fault{'' if pair.faults == 1 else 's'} ({', '.join(pair.fault_notes)})"
                  if pair.faults else "")
        line = f"pair {pair.index + 1} (seed {pair.seed}): NEW {points}{faults} · {_describe(test)}"
        if pair.adjusted is not None:
            line += f" · adjusted margin {pair.adjusted:+.2f} (raw {pair.raw:+.2f})"
        elif pair.raw is not None:
            line += f" · margin {pair.raw:+.2f}"
        if bar is not None:
            bar.note(escape(line))  # the bar's console reads markup; an error text may hold brackets
            bar.advance(pair.points is not None, pair.faults)
        else:
            click.echo(line)

    with counting_signals() as presses:  # from before the workers start, as in run_loop
        executor = LocalExecutor(min(workers, 2 * max_pairs), keep_alive=keep_alive)
        if bar is not None:
            bar.start(max_pairs, 0)
        try:
            ending = play_pairs(test, layout, make_job, max_pairs=max_pairs, executor=executor, on_pair=on_pair,
                                stopping=lambda: presses[0] > 0, seed=seed)
        except PairingError as error:
            raise SprtError(str(error)) from None
        finally:
            if bar is not None:
                bar.stop()
            executor.close(abandon=True)
    verdict = test.verdict
    lower, upper = test.bounds
    if verdict is Verdict.STRONGER:
        click.echo(f"verdict: NEW is stronger (H1): LLR {test.llr:.2f} >= {upper:.2f} after {test.pairs} pairs")
        sys.exit(EXIT_STRONGER)
    if verdict is Verdict.NOT_STRONGER:
        click.echo(f"verdict: NEW is not stronger (H0): LLR {test.llr:.2f} <= {lower:.2f} after {test.pairs} pairs")
        sys.exit(EXIT_NOT_STRONGER)
    why = "interrupted" if ending == "interrupted" else f"--max-pairs {max_pairs} reached"
    early = f"; no verdict before {test.min_pairs} pairs" if test.pairs < test.min_pairs else ""
    click.echo(f"verdict: undecided ({why}): LLR {test.llr:.2f} [{lower:.2f}, {upper:.2f}] after {test.pairs} "
               f"pairs{early}")
    sys.exit(EXIT_UNDECIDED)
