"""How fast are the engines and the referee, and what does the referee cost over raw gRPC?

Prints, in one run on this machine:

1. engine speed: random games per second per game, in process (no gRPC);
2. referee speed: decisions per second in a real match over gRPC against a trivial bot
   process (it always answers index 0), Unix-socket transport as the referee uses;
3. raw grpcio: unary ping-pong calls per second between two processes over the same kind of
   socket, with request and response sizes equal to the match's mean DecideRequest and
   DecideResponse sizes, and the ratio referee / raw;
4. the same bots sent a recorded match's requests again, with no engine or referee work
   between calls: what parsing and answering a real request costs a Python bot over the raw
   ping-pong, so the most any referee could reach with these bots;
5. the referee's own CPU time per decision, with seats that answer in process.

The referee, the raw ping-pong and the recorded requests alternate in ``--rounds`` windows of
equal length (the bots and the ping server stay up), and each ratio is the median of the
per-round ratios, so that the load of a shared machine falls on all alike.

Usage: ``.venv/bin/python benchmarks/referee_speed.py [--games yahtzee gin_rummy] [--rounds 5]``
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.v1 import bot_pb2  # noqa: E402
from referee import wire  # noqa: E402
from referee.bots import BotSpec  # noqa: E402
from referee.client import CallResult  # noqa: E402
from referee.games import game_names, make_game  # noqa: E402
from referee.match import BotConnection, MatchConfig, TimeControl, run_match  # noqa: E402
from referee.result import MatchRecord, require_no_startup_forfeits  # noqa: E402
from referee.sandbox import SandboxConfig  # noqa: E402

TRIVIAL_BOT = """
import sys
sys.path.insert(0, {root!r})
from arena.sdk import run_bot
run_bot(lambda observation, legal: 0, name="trivial", version="1")
"""

PING_SERVER = """
import os, signal, sys, threading
from concurrent import futures
import grpc
size = int(sys.argv[1])
reply = b"x" * size
def pong(request, context):
    return reply
handler = grpc.method_handlers_generic_handler("bench.Ping", {{
    "Ping": grpc.unary_unary_rpc_method_handler(pong, request_deserializer=None, response_serializer=None)}})
server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
server.add_generic_rpc_handlers((handler,))
server.add_insecure_port(os.environ["ARENA_BOT_ADDRESS"])
server.start()
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *a: stop.set())
stop.wait()
"""


def engine_speed(game_name: str, seconds: float) -> tuple[float, float, float]:
    """Random games per second, decisions per wall second and decisions per CPU second, in
    process (CPU time is what a loaded machine does not distort)."""
    game = make_game(game_name)
    rng = random.Random(0)
    games = decisions = 0
    end = time.perf_counter() + seconds
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() < end:
        state = game.new_initial_state(rng.randrange(2**31))
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            decisions += 1
        games += 1
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    return games / took, decisions / took, decisions / cpu


def recorded_requests(record: MatchRecord) -> list[tuple[int, bytes]]:
    """``(seat, DecideRequest bytes)`` of every decision of the match, rebuilt through the engine."""
    game = make_game(record.game, variant=record.variant, num_players=record.num_players, settings=record.settings)
    state = game.new_initial_state(record.seed)
    encoder = wire.DecideEncoder(record.game, record.match_id)
    seen = [0] * record.num_players
    requests = []
    for move in record.moves:
        legal = state.legal_actions()
        events = state.events_for(move.seat, seen[move.seat])
        seen[move.seat] = len(state.events)
        requests.append((move.seat, encoder.decide_request(
            decision_number=0, observation=state.observe(move.seat), events=events, legal_actions=legal,
            time_left_ms=11000, bank_left_ms=10000)))
        state.apply(legal[move.index])
    return requests


def mean_message_sizes(record: MatchRecord) -> tuple[float, float]:
    """Mean DecideRequest and DecideResponse sizes of the match."""
    requests = recorded_requests(record)
    responses = [bot_pb2.DecideResponse(action_index=move.index).ByteSize() for move in record.moves]
    return sum(len(r) for _, r in requests) / len(requests), sum(responses) / len(responses)


class _InstantClient:
    """Answers Decide in process with a random legal index (it parses the request for the
    count, a cost :func:`own_cpu_per_decision` measures and takes off)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, request: bytes, timeout: float) -> CallResult:
        count = len(bot_pb2.DecideRequest.FromString(request).legal_actions)
        return CallResult(response=bot_pb2.DecideResponse(action_index=self.rng.randrange(count)), elapsed=1e-4)

    def call(self, method: str, request: Any, timeout: float) -> CallResult:
        return CallResult(response=None, elapsed=1e-4)

    def close(self) -> None:
        pass


class _InstantBot(BotConnection):
    """A seat whose bot answers instantly, in process: what is left is the referee's own work."""

    def __init__(self, spec: BotSpec, rng: random.Random) -> None:  # no process, no channel
        self.spec = spec
        self.process = None
        self.client = _InstantClient(rng)  # type: ignore[assignment]
        self.info = bot_pb2.BotInfo(name=spec.name, version="1", protocol_version=1, games=["*"])


def own_cpu_per_decision(game_name: str, spec: BotSpec, seconds: float) -> tuple[float, float]:
    """The referee's own CPU time per decision in real matches, Decide and StartMatch and
    EndMatch answered in process; and the part of it that was parsing requests for the answer
    (taken off already).  Median of windows: CPU time is what a loaded machine distorts least."""
    rng = random.Random(0)
    seats = [_InstantBot(spec, rng) for _ in range(make_game(game_name).num_players)]
    per_window, parse = [], []
    seed = 0
    for _ in range(5):
        begin = time.process_time()
        records = []
        while time.process_time() - begin < seconds / 5:
            records.append(run_match(MatchConfig(game=game_name, seed=seed), seats))
            seed += 1
        took = time.process_time() - begin
        require_no_startup_forfeits(records)
        assert all(r.finished and not r.faults for r in records), [r.faults[:2] for r in records if r.faults][:2]
        requests = [request for record in records[:3] for _, request in recorded_requests(record)]
        parse_begin = time.process_time()
        for request in requests:
            len(bot_pb2.DecideRequest.FromString(request).legal_actions)
        parse.append((time.process_time() - parse_begin) / len(requests))
        per_window.append(took / sum(len(r.moves) for r in records) - parse[-1])
    return statistics.median(per_window), statistics.median(parse)


def write_trivial_bot(folder: Path) -> BotSpec:
    folder.chmod(0o755)  # the sandbox's unprivileged user reads the bot from here
    (folder / "bot.py").write_text(TRIVIAL_BOT.format(root=str(ROOT)))
    (folder / "bot.toml").write_text('name = "trivial"\ncommand = ["{python}", "bot.py"]\n')
    return BotSpec.from_manifest(folder)


def referee_rate(game_name: str, connections: list[BotConnection], matches: int,
                 first_seed: int = 0) -> tuple[float, MatchRecord]:
    """Decisions per second over ``matches`` real matches with ready bots (start-up excluded)."""
    decisions = 0
    took = 0.0
    records = []
    for seed in range(first_seed, first_seed + matches):
        begin = time.perf_counter()
        record = run_match(MatchConfig(game=game_name, seed=seed, time_control=TimeControl()), connections)
        took += time.perf_counter() - begin
        decisions += len(record.moves)
        records.append(record)
    require_no_startup_forfeits(records)
    assert all(r.finished and not r.faults for r in records), [r.faults[:2] for r in records if r.faults][:2]
    return decisions / took, records[-1]


def referee_speed(game_name: str, folder: Path, matches: int,
                  sandbox: SandboxConfig = SandboxConfig()) -> tuple[float, MatchRecord, float]:
    """Decisions per second over ``matches`` real matches (start-up excluded) and start-up time."""
    spec = write_trivial_bot(folder)
    n = make_game(game_name).num_players
    started = time.perf_counter()
    connections = [BotConnection(spec, 20, sandbox) for _ in range(n)]
    startup = (time.perf_counter() - started) / n
    try:
        rate, record = referee_rate(game_name, connections, matches)
    finally:
        for connection in connections:
            connection.close()
    return rate, record, startup


class PingPong:
    """A bare grpcio server process and a channel to it, over a Unix socket."""

    def __init__(self, request_size: int, response_size: int, folder: Path) -> None:
        (folder / "ping.py").write_text(PING_SERVER.format())
        address = f"unix://{folder / f'ping-{request_size}.sock'}"
        self.server = subprocess.Popen([sys.executable, str(folder / "ping.py"), str(response_size)],
                                       env={"ARENA_BOT_ADDRESS": address, "PATH": "/usr/bin:/bin"})
        self.channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(self.channel).result(timeout=20)
        self.ping = self.channel.unary_unary("/bench.Ping/Ping", request_serializer=None, response_deserializer=None)
        self.payload = b"y" * request_size
        for _ in range(200):
            self.ping(self.payload, timeout=5)

    def rate(self, seconds: float) -> float:
        """Unary calls per second for ``seconds``."""
        calls = 0
        start = time.perf_counter()
        end = start + seconds
        while time.perf_counter() < end:
            self.ping(self.payload, timeout=5)
            calls += 1
        return calls / (time.perf_counter() - start)

    def close(self) -> None:
        self.channel.close()
        self.server.terminate()
        self.server.wait()


def raw_ping_pong(request_size: int, response_size: int, folder: Path, seconds: float) -> float:
    """Unary calls per second of a bare grpcio client/server pair over a Unix socket."""
    ping = PingPong(request_size, response_size, folder)
    try:
        return ping.rate(seconds)
    finally:
        ping.close()


def replay_rate(connections: list[BotConnection], requests: list[tuple[int, bytes]], seconds: float) -> float:
    """Decide calls per second when the same bots get a recorded match's requests again, with
    no engine and no referee work between calls: the most any referee could reach with them."""
    calls = 0
    start = time.perf_counter()
    for seat, request in itertools.cycle(requests):
        reply = connections[seat].client.decide(request, 5)
        assert reply.ok, reply.detail
        calls += 1
        if time.perf_counter() - start >= seconds:
            break
    return calls / (time.perf_counter() - start)


def interleaved_ratio(game_name: str, folder: Path, matches: int, rounds: int) -> dict[str, Any]:
    """Referee and raw ping-pong in alternation, ``rounds`` times, each raw window as long as the
    referee window before it: the median of the per-round ratios holds on a shared machine."""
    spec = write_trivial_bot(folder)
    n = make_game(game_name).num_players
    started = time.perf_counter()
    connections = [BotConnection(spec, 20) for _ in range(n)]
    startup = (time.perf_counter() - started) / n
    ping = None
    rows = []
    try:
        warm_until, seed = time.perf_counter() + 2.0, 10_000
        while time.perf_counter() < warm_until:  # warm up: a worker caches each roll's or card's actions once
            referee_rate(game_name, connections, 1, first_seed=seed)
            seed += 1
        _, record = referee_rate(game_name, connections, 1)
        request_size, response_size = mean_message_sizes(record)
        requests = recorded_requests(record)
        ping = PingPong(round(request_size), round(response_size), folder)
        for number in range(rounds):
            begin = time.perf_counter()
            ref, _ = referee_rate(game_name, connections, matches, first_seed=number * matches)
            window = time.perf_counter() - begin
            raw = ping.rate(window)
            floor = replay_rate(connections, requests, window)
            rows.append({"referee": ref, "raw": raw, "floor": floor, "ratio": ref / raw, "floor_ratio": floor / raw,
                         "load": os.getloadavg()[0]})
    finally:
        for connection in connections:
            connection.close()
        if ping is not None:
            ping.close()
    own, parse = own_cpu_per_decision(game_name, spec, 3.0)
    return {"game": game_name, "startup_s": startup, "request_bytes": request_size, "response_bytes": response_size,
            "rounds": rows, "ratio": statistics.median(r["ratio"] for r in rows),
            "floor_ratio": statistics.median(r["floor_ratio"] for r in rows), "own_cpu_s": own, "parse_cpu_s": parse}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine measurement")
    parser.add_argument("--games", nargs="+", default=["yahtzee", "gin_rummy"], help="games of the referee measurement")
    parser.add_argument("--matches", type=int, default=5, help="matches per referee window")
    parser.add_argument("--rounds", type=int, default=5, help="referee / raw windows, alternating")
    parser.add_argument("--no-engines", action="store_true", help="skip the in-process engine speeds")
    parser.add_argument("--cpu", type=int, default=None,
                        help="run on this one CPU, with the bots and the ping server (as a tournament worker runs "
                             "with its bots): the referee and the raw baseline alike")
    args = parser.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})  # inherited by the bot and ping-server processes started below

    if not args.no_engines:
        print(f"engine speed (random play, in process; load {os.getloadavg()[0]:.1f})")
        for name in game_names():
            games, decisions, cpu = engine_speed(name, args.seconds)
            print(f"  {name:12s} {games:9.1f} games/s  {decisions:9.0f} decisions/s wall  "
                  f"{cpu:9.0f} decisions/s of CPU time", flush=True)

    for game_name in args.games:
        with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
            result = interleaved_ratio(game_name, Path(tmp), args.matches, args.rounds)
        where = f"all on CPU {args.cpu}" if args.cpu is not None else "on any CPU"
        print(f"referee, {game_name}, trivial bot processes over Unix sockets ({where}), {args.rounds} rounds of "
              f"{args.matches} matches, each followed by raw grpcio for as long")
        print(f"  bot start-up (process + health + identify): {result['startup_s'] * 1000:.0f} ms per bot")
        print(f"  mean DecideRequest {result['request_bytes']:.0f} bytes, DecideResponse "
              f"{result['response_bytes']:.0f} bytes")
        for row in result["rounds"]:
            print(f"  referee {row['referee']:7.0f} decisions/s   raw {row['raw']:7.0f} calls/s   "
                  f"same bots, recorded requests {row['floor']:7.0f} calls/s   ratio {row['ratio']:.2f}   "
                  f"load {row['load']:.1f}")
        print(f"  ratio referee / raw, median of rounds: {result['ratio']:.2f}")
        print(f"  ratio same bots with recorded requests / raw (no referee work at all): {result['floor_ratio']:.2f}")
        print(f"  referee's own CPU per decision, bots answering in process: {result['own_cpu_s'] * 1e6:.0f} us "
              f"(after taking off {result['parse_cpu_s'] * 1e6:.0f} us of parsing for the answer)", flush=True)


if __name__ == "__main__":
    main()
