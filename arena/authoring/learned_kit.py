"""``arena new-bot --template learned``: a Python bot that plays a saved model.

The kit's ``bot.py`` loads ``model.npz`` (numpy arrays, no deep-learning framework) and serves
it with :func:`arena.envs.policy.run_policy`, which hands the model what the environment gave
it in training (the codec's vector and action mask) and maps its choice to the legal action
the referee asked for.  The kit ships an untrained model of the right shape (small seeded
random weights), so ``arena check-bot`` passes before any training; docs/learning.md trains
a real one and overwrites the file.

The model format, which ``bot.py`` and the worked example's fit script share: ``w1``
(vector size x hidden), ``b1``, ``w2`` (hidden x actions), ``b2``, float32, one ReLU layer;
and ``game`` and ``variant``, the configuration it was trained on, as text.
"""

from __future__ import annotations

import io
from typing import Final

import numpy as np

HIDDEN: Final = 64
"""Hidden units of the kit's untrained model."""
GAMES: Final = ("gin_rummy",)
"""Games whose codec decodes protocol observations (:meth:`arena.envs.codec.Codec.decode`)."""

BOT: Final = '''\
"""A bot that plays a model trained in arena.envs: {games}.

model.npz holds a one-hidden-layer perceptron over the environment's observation vector
(w1, b1, w2, b2) and the game and variant it was trained on.  arena.envs.policy turns each
Decide request into the environment's observation (vector, action mask, message) and the
model's action-space index into the legal action to play; an illegal choice is printed to
the bot's output and replaced by a random legal action.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from arena.envs.policy import run_policy

MODEL = np.load(Path(__file__).with_name("model.npz"), allow_pickle=False)
W1, B1, W2, B2 = (MODEL[name] for name in ("w1", "b1", "w2", "b2"))


def policy(observation: dict) -> int:
    """The legal action of highest score: the model's choice, never an illegal one."""
    hidden = np.maximum(observation["observation"] @ W1 + B1, 0)
    logits = hidden @ W2 + B2
    return int(np.argmax(np.where(observation["action_mask"] == 1, logits, -np.inf)))


if __name__ == "__main__":
    run_policy(policy, game=str(MODEL["game"]), variant=str(MODEL["variant"]),
               name="{name}", version="{version}", author="")
'''


def untrained_model(game: str, variant: str, vector_size: int, num_actions: int, *, seed: int = 0) -> bytes:
    """An ``.npz`` of the kit's format with small seeded random weights (it plays legal
    moves, badly), to be replaced by a trained one."""
    rng = np.random.default_rng(seed)
    arrays = {"w1": rng.normal(0, 0.05, (vector_size, HIDDEN)).astype(np.float32),
              "b1": np.zeros(HIDDEN, np.float32),
              "w2": rng.normal(0, 0.05, (HIDDEN, num_actions)).astype(np.float32),
              "b2": np.zeros(num_actions, np.float32), "game": np.array(game), "variant": np.array(variant)}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


def readme(name: str, game: str, variant: str, python: str) -> str:
    """The kit's README.md: what the files are, how to train, check, play and submit."""
    return f"""# {name}

An arena bot that plays a saved model: {game}, variant {variant}, made by `arena new-bot --template
learned`. `model.npz` is **untrained** (small random weights): it plays legal moves, badly, until
you replace it with a trained one. docs/learning.md (`arena docs learning`, "From a trained policy
to a bot") trains one that beats the random bot, from a league's exported matches.

- `bot.py` loads `model.npz` and serves it with `arena.envs.policy.run_policy`: the model gets
  the vector and action mask of `arena.envs` (exactly what `env.observe()` gave it in training)
  and returns an index of the environment's action space. Change the forward pass there if your
  model differs.
- `model.npz`: `w1` (vector x hidden), `b1`, `w2` (hidden x actions), `b2` (float32), `game`,
  `variant`. Any numpy file of that shape works; no PyTorch is needed to play.

Keep `name`, `version` and `games` in `bot.toml` in agreement with what the code reports.

## Check, play, submit

Run these with arena's command (`arena` where it is installed; in a checkout of arena, `./dev arena`):

```sh
arena check-bot .  # health, identity, short matches against random bots
arena play --game {game} --variant {variant} --bot . --bot .  # one match against itself, a line per hand
arena pack .  # the archive a ladder receives; arena submit uploads it
```

## Debug by address

```sh
ARENA_BOT_ADDRESS=127.0.0.1:50051 {python} bot.py
```

and, in another terminal, `arena check-bot 127.0.0.1:50051`.
"""


def learned_files(name: str, version: str, game: str, variant: str, vector_size: int,
                  num_actions: int, python: str) -> dict[str, str | bytes]:
    """Every file of the kit by its relative path."""
    manifest = (f"# Made by `arena new-bot --template learned`: see README.md. The name, version and games\n"
                f"# must agree with what the bot reports through Identify.\n"
                f'name = "{name}"\nversion = "{version}"\nauthor = ""\nlanguage = "python"\n'
                f'command = ["{{python}}", "bot.py"]\ngames = ["{game}"]\n')
    return {"bot.py": BOT.replace("{games}", game).replace("{name}", name).replace("{version}", version),
            "bot.toml": manifest, "model.npz": untrained_model(game, variant, vector_size, num_actions),
            "README.md": readme(name, game, variant, python)}
