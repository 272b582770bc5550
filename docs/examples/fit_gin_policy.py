"""Fit a small policy that imitates one bot's Gin Rummy decisions (docs/learning.md, "From a
trained policy to a bot").

Reads a dataset written by ``arena export`` (JSON Lines or Parquet), keeps the decisions of
one bot, encodes each as the environment does (:mod:`arena.envs`: the codec's vector, the
action mask, the action's index in the fixed action space) and fits a one-hidden-layer
perceptron with a softmax over the legal actions, in numpy on the CPU (Adam, mini-batches).
It writes the model in the format of the ``learned`` starter kit (``w1 b1 w2 b2``, ``game``,
``variant``), so ``arena new-bot --template learned`` plays it unchanged::

    python fit_gin_policy.py heuristic.jsonl --bot gin-heuristic --out mybot/model.npz
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from google.protobuf import json_format

from arena.envs.codecs import make_codec
from arena.league.export import read_rows
from arena.v1 import bot_pb2
from referee.games import make_game


def examples(rows: Iterable[dict[str, Any]], bot: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """The bot's Gin Rummy decisions as (vectors, masks, action-space targets) and the variant."""
    vectors, masks, targets = [], [], []
    variant = ""
    codecs: dict[str, Any] = {}
    for row in rows:
        if row["bot"] != bot or row["game"] != "gin_rummy" or row["status"] != "ok":
            continue
        if variant and row["variant"] != variant:
            raise SystemExit(f"the dataset mixes variants {variant} and {row['variant']}: export one (--variant)")
        variant = row["variant"]
        codec = codecs.get(variant) or codecs.setdefault(variant, make_codec(make_game("gin_rummy", variant=variant)))
        message = json_format.Parse(row["observation"], bot_pb2.Observation())
        legal = [json_format.ParseDict(action, bot_pb2.Action()) for action in json.loads(row["legal_actions"])]
        observation = codec.decode(message)
        indices = codec.message_indices(observation, legal)
        mask = np.zeros(codec.num_actions, np.float32)
        mask[indices] = 1
        vectors.append(codec.encode(observation))
        masks.append(mask)
        targets.append(indices[row["action_index"]])
    if not targets:
        raise SystemExit(f"no decisions of bot {bot!r} in the dataset")
    return np.stack(vectors), np.stack(masks), np.array(targets), variant


def fit(x: np.ndarray, mask: np.ndarray, y: np.ndarray, *, hidden: int, epochs: int, seed: int,
        batch: int = 256, rate: float = 3e-3) -> dict[str, np.ndarray]:
    """Minimise the cross-entropy of a softmax over the legal actions (illegal ones masked out)."""
    rng = np.random.default_rng(seed)
    params = {"w1": rng.normal(0, np.sqrt(2 / x.shape[1]), (x.shape[1], hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0, np.sqrt(1 / hidden), (hidden, mask.shape[1])), "b2": np.zeros(mask.shape[1])}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = 0
    for _ in range(epochs):
        order = rng.permutation(len(y))
        for start in range(0, len(y), batch):
            rows = order[start:start + batch]
            xb, mb, yb = x[rows], mask[rows], y[rows]
            h = np.maximum(xb @ params["w1"] + params["b1"], 0)
            logits = np.where(mb > 0, h @ params["w2"] + params["b2"], -1e9)
            p = np.exp(logits - logits.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(yb)), yb] -= 1  # d(loss)/d(logits), summed over the batch
            dz = p / len(yb)
            dh = (dz @ params["w2"].T) * (h > 0)
            grads = {"w2": h.T @ dz, "b2": dz.sum(0), "w1": xb.T @ dh, "b1": dh.sum(0)}
            step += 1
            for k, g in grads.items():  # Adam
                m, v = moments[k]
                m[...] = 0.9 * m + 0.1 * g
                v[...] = 0.999 * v + 0.001 * g * g
                params[k] -= rate * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return {k: v.astype(np.float32) for k, v in params.items()}


def accuracy(params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> float:
    """How often the model's best legal action is the imitated bot's."""
    h = np.maximum(x @ params["w1"] + params["b1"], 0)
    chosen = np.argmax(np.where(mask > 0, h @ params["w2"] + params["b2"], -np.inf), axis=1)
    return float(np.mean(chosen == y)) if len(y) else float("nan")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("dataset", type=Path, help="the file arena export wrote (.jsonl or .parquet)")
    parser.add_argument("--bot", default="gin-heuristic", help="the bot to imitate (default: gin-heuristic)")
    parser.add_argument("--out", type=Path, required=True, help="the model file to write (model.npz)")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.process_time()
    x, mask, y, variant = examples(read_rows(args.dataset), args.bot)
    held = np.random.default_rng(args.seed).random(len(y)) < 0.1  # 10% held out, to see over-fitting
    params = fit(x[~held], mask[~held], y[~held], hidden=args.hidden, epochs=args.epochs, seed=args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(args.out, **params, game=np.array("gin_rummy"), variant=np.array(variant))
    trained, unseen = accuracy(params, x[~held], mask[~held], y[~held]), accuracy(params, x[held], mask[held], y[held])
    print(f"{len(y)} decisions of {args.bot} ({variant}); agrees with it on {trained:.1%} of the training decisions, "
          f"{unseen:.1%} of the {held.sum()} held out; {time.process_time() - started:.1f} s CPU; wrote {args.out}")


if __name__ == "__main__":
    main()
