"""``arena sprt`` as a user runs it: real bots, real matches, its exit codes and its errors."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.submission.sprt import MIN_PAIRS

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_bots" / "python"
GIN_HEURISTIC, RANDOM_BOT = str(SAMPLES / "gin_heuristic"), str(SAMPLES / "random_bot")
PAIR_LINE = re.compile(r"^pair (\d+) \(seed \d+\): NEW ([\d.]+) · LLR (-?[\d.]+) \[-2\.94, 2\.94\]", re.M)


def invoke(*args: str):
    return CliRunner().invoke(main, ["sprt", *args], catch_exceptions=False)


def test_heuristic_is_stronger_than_random_at_gin(tmp_path: Path) -> None:
    result = invoke("--game", "gin_rummy", "--bot", GIN_HEURISTIC, "--bot", RANDOM_BOT, "--workers", "2",
                    "--keep-alive", "--max-pairs", "40", "--seed", "3")
    assert result.exit_code == 0, result.output
    pairs = PAIR_LINE.findall(result.output)
    assert [int(n) for n, _, _ in pairs] == list(range(1, len(pairs) + 1)) and len(pairs) <= 40
    assert all(float(points) >= 1 for _, points, _ in pairs)  # it never loses a pair to random moves
    # It stops at the first pair past MIN_PAIRS whose LLR reaches the upper bound.
    stop = next(int(n) for n, _, llr in pairs if int(n) >= MIN_PAIRS and float(llr) >= 2.94)
    assert len(pairs) == stop
    assert "fault" not in result.output  # the bots really played: no start-up forfeit
    assert result.output.strip().splitlines()[-1].startswith(f"verdict: NEW is stronger (H1): LLR ")
    assert "\ntest: normalized GSPRT on " in result.output  # new runs use the new test, and say so


def test_the_same_bot_twice_stops_at_max_pairs_undecided() -> None:
    result = invoke("--game", "yahtzee", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--workers", "1",
                    "--max-pairs", "2")
    assert result.exit_code == 2, result.output
    assert len(PAIR_LINE.findall(result.output)) == 2
    assert "verdict: undecided (--max-pairs 2 reached): LLR " in result.output
    assert result.output.rstrip().endswith(f"after 2 pairs; no verdict before {MIN_PAIRS} pairs")


def test_the_logistic_test_is_still_available() -> None:
    result = invoke("--game", "yahtzee", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--workers", "1",
                    "--max-pairs", "1", "--test", "logistic")
    assert result.exit_code == 2, result.output
    assert "H0 Elo +0, H1 Elo +10" in result.output
    assert "\ntest: logistic pentanomial SPRT (the test before luck adjustment)\n" in result.output


def test_jass_plays_team_against_team() -> None:
    result = invoke("--game", "jass", "--bot", str(SAMPLES / "jass_heuristic"), "--bot", RANDOM_BOT, "--workers", "2",
                    "--max-pairs", "1")
    assert result.exit_code == 2, result.output
    assert len(PAIR_LINE.findall(result.output)) == 1 and "fault" not in result.output


def test_ctrl_c_stops_undecided() -> None:
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "sprt", "--game", "yahtzee", "--bot", RANDOM_BOT,
                                "--bot", RANDOM_BOT, "--workers", "1"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("pair 1 "):
                process.send_signal(signal.SIGINT)
                break
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 2, err
    assert "verdict: undecided (interrupted)" in out and "Traceback" not in err


@pytest.mark.parametrize(("args", "text"), [
    (["--game", "yoninkan", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--test", "logistic"],
     "the logistic test needs NEW and OLD head to head"),
    (["--game", "gin_rummy", "--bot", RANDOM_BOT], "give --bot twice"),
    (["--game", "chess", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT], "unknown game 'chess'"),
    (["--game", "gin_rummy", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--elo0", "5", "--elo1", "5"],
     "elo0 (5) must be below elo1 (5)"),
    (["--game", "gin_rummy", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--alpha", "0.7"], "alpha must be between"),
    (["--game", "gin_rummy", "--bot", str(SAMPLES / "yahtzee_heuristic"), "--bot", RANDOM_BOT],
     "does not play gin_rummy"),
    (["--game", "gin_rummy", "--bot", "no/such/bot", "--bot", RANDOM_BOT], "no/such/bot"),
    (["--game", "gin_rummy", "--variant", "nine", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT], "nine"),
    (["--game", "gin_rummy", "--bot", "127.0.0.1:9", "--bot", RANDOM_BOT, "--startup-timeout", "0.5"],
     "bot not ready: NEW 127.0.0.1:9"),
])
def test_bad_input_is_one_error_line(args: list[str], text: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 3, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and text in lines[0], result.output


@pytest.mark.parametrize("args", [["--bot", RANDOM_BOT, "--bot", RANDOM_BOT], ["--game", "yahtzee", "--bot", RANDOM_BOT,
                                  "--bot", RANDOM_BOT, "--max-pairs", "0"]])
def test_usage_errors_exit_3_not_2_which_means_undecided(args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 3, result.output
    assert "Error: " in result.output and "Traceback" not in result.output


def test_a_bot_name_with_control_characters_is_shown_cleaned(tmp_path: Path) -> None:
    folder = tmp_path / "evil"
    folder.mkdir()
    (folder / "bot.py").write_text("", encoding="utf-8")
    (folder / "bot.toml").write_text('name = "evil\\u001b[31m[bold]x"\nversion = "1"\nlanguage = "python"\n'
                                     'command = ["{python}", "bot.py"]\ngames = ["yahtzee"]\n', encoding="utf-8")
    result = invoke("--game", "gin_rummy", "--bot", str(folder), "--bot", RANDOM_BOT)
    assert result.exit_code == 3, result.output
    assert "\x1b" not in result.output and "does not play gin_rummy" in result.output


def test_yoninkan_plays_each_deal_then_replays_it_with_old_alone() -> None:
    result = invoke("--game", "yoninkan", "--bot", str(SAMPLES / "yoninkan_heuristic"), "--bot", RANDOM_BOT,
                    "--workers", "2", "--keep-alive", "--max-pairs", "2", "--seed", "4")
    assert result.exit_code == 2, result.output
    assert "\ntest: normalized GSPRT on plain pair results (yoninkan/1 not used: it adds variance here" in result.output
    pairs = PAIR_LINE.findall(result.output)
    assert len(pairs) == 2 and "fault" not in result.output
    assert result.output.count("· margin ") == 2 and "adjusted margin" not in result.output

