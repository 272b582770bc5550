"""docs/learning.md's worked example, short: a league of heuristic Gin Rummy matches, exported,
imitated by a small numpy model (docs/examples/fit_gin_policy.py), packaged with the learned
kit, checked, and played against the random bot.

Small on purpose (6 matches of data, 20 epochs): it shows the pipeline works end to end and
that what it learns is the heuristic's play; the full example's figures (CPU time, win rate
over 200 matches) come from benchmarks/learned_gin.py.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from click.testing import CliRunner

pytest.importorskip("pettingzoo", reason="arena[learn] is not installed")

from arena import envs  # noqa: E402
from arena.cli import main  # noqa: E402
from arena.envs.policy import PolicyDecide  # noqa: E402
from arena.league.export import read_rows  # noqa: E402
from arena.resources import docs_dir, sample_bots_dir  # noqa: E402
from arena.sdk import random_decide  # noqa: E402
from referee import wire  # noqa: E402


def invoke(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def wins_against_random(decide: PolicyDecide, seeds: range) -> int:
    """Matches the policy wins against :func:`arena.sdk.random_decide`, seat 0 then 1 in turn,
    played in process on the protocol messages a bot is sent."""
    wins = 0
    for seed in seeds:
        table = envs.raw_env("gin_rummy", messages=True)
        table.reset(seed=seed)
        mine = f"seat_{seed % 2}"
        while not all(table.terminations.values()):
            agent = table.agent_selection
            message = table.message(agent)
            legal = wire.actions_to_proto("gin_rummy", table.legal_actions())
            index = decide(message, legal).action_index if agent == mine else random_decide(message, legal)
            table.step(table.legal_indices()[index])
        wins += table.rewards[mine] > 0
    return wins


@pytest.mark.slow
def test_a_model_fitted_on_an_exported_league_plays_as_a_bot_and_beats_random(tmp_path: Path) -> None:
    samples = sample_bots_dir() / "python"
    db, data, kit = tmp_path / "league.db", tmp_path / "heuristic.jsonl", tmp_path / "learned"
    invoke("tournament", "run", "--game", "gin_rummy", "--bot", str(samples / "gin_heuristic"), "--bot",
           str(samples / "random_bot"), "--rounds", "3", "--seed", "1", "--keep-alive", "--workers", "1",
           "--sandbox", "none", "--quiet", "--db", str(db))
    invoke("export", "--db", str(db), "--game", "gin_rummy", "--out", str(data))
    invoke("new-bot", str(kit), "--template", "learned")
    untrained = dict(np.load(kit / "model.npz"))
    fit = load(docs_dir() / "examples" / "fit_gin_policy.py", "fit_gin_policy")
    fit.main([str(data), "--bot", "gin-heuristic", "--out", str(kit / "model.npz"), "--epochs", "20"])
    x, mask, y, variant = fit.examples(read_rows(data), "gin-heuristic")
    trained = dict(np.load(kit / "model.npz"))
    assert variant == "standard" and str(trained["variant"]) == "standard" and len(y) > 100
    assert fit.accuracy(trained, x, mask, y) > max(0.6, fit.accuracy(untrained, x, mask, y) + 0.3)  # it learned
    output = invoke("check-bot", str(kit), "--sandbox", "none", "--matches", "1")
    assert "all checks passed" in output
    bot = load(kit / "bot.py", "learned_bot")  # the kit's own policy, on the trained model
    assert wins_against_random(PolicyDecide(bot.policy, game="gin_rummy"), range(100, 106)) >= 5
