"""The Node.js, C++ and Go sample bots, played for real through the referee.

They need building first: ``./dev build-bots`` (``./dev test`` runs it). A missing
build fails these tests with that instruction; they are never skipped.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from referee.bots import BotProcess, BotSpec, resolve_bot
from referee.client import BotClient
from referee.match import BotConnection, MatchConfig, TimeControl, run_match
from referee.result import FaultKind, MatchRecord, MoveStatus
from referee.sandbox import SandboxConfig, SandboxMode

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOTS = ROOT / "sample_bots"
PYTHON_RANDOM = SAMPLE_BOTS / "python" / "random_bot"
TIME = TimeControl(move_timeout=1.0, time_bank=10.0, startup_timeout=30)
GIN_SETTINGS = {"max_hands": 4}
"""Random players rarely reach the target score: a cap keeps a match to a few hundred moves."""

BUILT = {
    "node": SAMPLE_BOTS / "node" / "node_modules" / "@grpc" / "grpc-js" / "package.json",
    "cpp": SAMPLE_BOTS / "cpp" / "build" / "random_bot",
    "go": SAMPLE_BOTS / "go" / "build" / "random_bot",
}
RANDOM = {
    "node": SAMPLE_BOTS / "node" / "random_bot",
    "cpp": SAMPLE_BOTS / "cpp" / "random_bot",
    "go": SAMPLE_BOTS / "go" / "random_bot",
}
NODE_HEURISTIC = SAMPLE_BOTS / "node" / "yahtzee_heuristic"


def built(language: str, folder: Path) -> BotSpec:
    """The bot's spec, or a test failure telling how to build it."""
    artifact = BUILT[language]
    if not artifact.exists():
        pytest.fail(f"the {language} sample bots are not built ({artifact.relative_to(ROOT)} is missing): "
                    "run ./dev build-bots first", pytrace=False)
    return resolve_bot(str(folder))


def connect(stack: ExitStack, spec: BotSpec) -> BotConnection:
    """A running bot, closed when ``stack`` closes."""
    connection = BotConnection(spec, TIME.startup_timeout)
    stack.callback(connection.close)
    return connection


def assert_clean(record: MatchRecord) -> None:
    assert record.faults == [], record.faults
    assert record.finished and record.forfeited == []
    assert all(move.status is MoveStatus.OK for move in record.moves)


@pytest.mark.parametrize("language", sorted(RANDOM))
@pytest.mark.parametrize("game", ["yahtzee", "gin_rummy"])
def test_random_bot_plays_a_clean_match_against_the_python_one(language: str, game: str) -> None:
    settings = GIN_SETTINGS if game == "gin_rummy" else {}
    bots = [built(language, RANDOM[language]), resolve_bot(str(PYTHON_RANDOM))]
    record = run_match(MatchConfig(game=game, settings=settings, seed=5, time_control=TIME), bots)
    assert_clean(record)
    assert any(move.seat == 0 for move in record.moves)


@pytest.mark.slow
def test_mixed_language_table_finishes_without_faults_and_replays_identically() -> None:
    specs = [resolve_bot(str(PYTHON_RANDOM))] + [built(language, RANDOM[language]) for language in ("node", "cpp", "go")]
    config = MatchConfig(game="yahtzee", seed=21, time_control=TIME)
    first = run_match(config, specs)
    assert_clean(first)
    assert sorted({move.seat for move in first.moves}) == [0, 1, 2, 3]
    with ExitStack() as stack:  # the same bots kept running between matches must replay it too
        second = run_match(config, [connect(stack, spec) for spec in specs])
    assert [(m.seat, m.index) for m in second.moves] == [(m.seat, m.index) for m in first.moves]
    assert second.scores == first.scores


@pytest.mark.slow
def test_node_yahtzee_heuristic_beats_random_by_a_wide_margin_in_both_variants() -> None:
    scores: dict[str, list[tuple[float, float]]] = {"yahtzee": [], "yams": []}
    with ExitStack() as stack:  # one process per bot for all the matches, as a tournament keeps them
        bots = [connect(stack, built("node", folder)) for folder in (NODE_HEURISTIC, RANDOM["node"])]
        for variant, seeds in (("yahtzee", range(4)), ("yams", range(2))):
            for seed in seeds:
                record = run_match(MatchConfig(game="yahtzee", variant=variant, seed=seed, time_control=TIME), bots)
                assert_clean(record)
                scores[variant].append((record.scores[0], record.scores[1]))
    for variant, pairs in scores.items():
        assert all(mine > theirs for mine, theirs in pairs), (variant, pairs)
        margin = statistics.mean(mine - theirs for mine, theirs in pairs)
        assert margin >= 80, (variant, pairs)


@pytest.mark.parametrize("language", sorted(RANDOM))
def test_random_bot_identifies_itself_and_exits_cleanly_on_sigterm(language: str) -> None:
    # Unsandboxed: in the sandbox, SIGTERM ends bwrap and the kernel kills the rest at once,
    # so only outside it does the bot's own SIGTERM handling show.
    spec = built(language, RANDOM[language])
    process = BotProcess(spec, SandboxConfig(SandboxMode.NONE))
    try:
        with BotClient(process.address) as client:
            assert client.wait_serving(30, process.alive) is None
            reply = client.identify(5)
            assert reply.ok, reply.detail
            assert reply.response.name == spec.name and list(reply.response.games) == ["*"]
            assert reply.response.protocol_version == 1
        started = time.monotonic()
        os.killpg(process.process.pid, signal.SIGTERM)
        assert process.process.wait(timeout=3) == 0
        assert time.monotonic() - started < 2.0
    finally:
        process.stop()


@pytest.mark.parametrize("language", sorted(RANDOM))
def test_random_bot_without_an_address_exits_with_status_2_and_says_why(language: str) -> None:
    spec = built(language, RANDOM[language])
    assert spec.command is not None and spec.directory is not None
    env = {key: value for key, value in os.environ.items() if key != "ARENA_BOT_ADDRESS"}
    result = subprocess.run(list(spec.command), cwd=spec.directory, env=env, capture_output=True, text=True,
                            timeout=30, check=False)
    assert result.returncode == 2
    assert "ARENA_BOT_ADDRESS" in result.stderr


def test_node_sdk_turns_a_throwing_decide_into_error_faults_not_a_crash() -> None:
    built("node", RANDOM["node"])
    bots = [resolve_bot(str(Path(__file__).parent / "bots" / "node_throws")), resolve_bot(str(PYTHON_RANDOM))]
    record = run_match(MatchConfig(game="yahtzee", seed=2, time_control=TIME), bots)
    assert record.finished
    assert [fault.kind for fault in record.faults] == [FaultKind.ERROR] * TIME.max_faults
    assert "deliberately broken" in record.faults[0].detail
    assert record.forfeited == [0]
