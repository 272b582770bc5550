"""How fast are the engines and the referee, and what does the referee cost over raw gRPC?

Prints, in one run on this machine:

1. engine speed: random games per second per game, in process (no gRPC);
2. referee speed: decisions per second in a real match over gRPC against a trivial bot
   process (it always answers index 0), Unix-socket transport as the referee uses;
3. raw grpcio: unary ping-pong calls per second between two processes over the same kind of
   socket, with request and response sizes equal to the match's mean DecideRequest and
   DecideResponse sizes, and the ratio referee / raw.

Usage: ``.venv/bin/python benchmarks/referee_speed.py [--seconds 5] [--game yahtzee]``
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.v1 import bot_pb2  # noqa: E402
from referee import wire  # noqa: E402
from referee.bots import BotSpec  # noqa: E402
from referee.games import game_names, make_game  # noqa: E402
from referee.match import MatchConfig, TimeControl, run_match  # noqa: E402
from referee.result import MatchRecord  # noqa: E402
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


def engine_speed(game_name: str, seconds: float) -> tuple[float, float]:
    """Random games per second and decisions per second, in process."""
    game = make_game(game_name)
    rng = random.Random(0)
    games = decisions = 0
    end = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < end:
        state = game.new_initial_state(rng.randrange(2**31))
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            decisions += 1
        games += 1
    took = time.perf_counter() - start
    return games / took, decisions / took


def mean_message_sizes(record: MatchRecord) -> tuple[float, float]:
    """Mean DecideRequest and DecideResponse sizes of the match, rebuilt through the engine."""
    game = make_game(record.game, variant=record.variant, num_players=record.num_players, settings=record.settings)
    state = game.new_initial_state(record.seed)
    seen = [0] * record.num_players
    request_sizes, response_sizes = [], []
    for move in record.moves:
        legal = state.legal_actions()
        events = state.events_for(move.seat, seen[move.seat])
        seen[move.seat] = len(state.events)
        request = bot_pb2.DecideRequest(
            match_id=record.match_id, observation=wire.observation_to_proto(record.game, state.observe(move.seat), events),
            legal_actions=wire.actions_to_proto(record.game, legal), time_left_ms=11000, bank_left_ms=10000)
        request_sizes.append(request.ByteSize())
        response_sizes.append(bot_pb2.DecideResponse(action_index=move.index).ByteSize())
        state.apply(legal[move.index])
    return sum(request_sizes) / len(request_sizes), sum(response_sizes) / len(response_sizes)


def referee_speed(game_name: str, folder: Path, matches: int,
                  sandbox: SandboxConfig = SandboxConfig()) -> tuple[float, MatchRecord, float]:
    """Decisions per second over ``matches`` real matches (start-up excluded) and start-up time."""
    folder.chmod(0o755)  # the sandbox's unprivileged user reads the bot from here
    (folder / "bot.py").write_text(TRIVIAL_BOT.format(root=str(ROOT)))
    (folder / "bot.toml").write_text('name = "trivial"\ncommand = ["{python}", "bot.py"]\n')
    from referee.match import BotConnection

    spec = BotSpec.from_manifest(folder)
    n = make_game(game_name).num_players
    started = time.perf_counter()
    connections = [BotConnection(spec, 20, sandbox) for _ in range(n)]
    startup = (time.perf_counter() - started) / n
    decisions = 0
    took = 0.0
    try:
        for seed in range(matches):
            begin = time.perf_counter()
            record = run_match(MatchConfig(game=game_name, seed=seed, time_control=TimeControl()), connections)
            took += time.perf_counter() - begin
            decisions += len(record.moves)
    finally:
        for connection in connections:
            connection.close()
    return decisions / took, record, startup


def raw_ping_pong(request_size: int, response_size: int, folder: Path, seconds: float) -> float:
    """Unary calls per second of a bare grpcio client/server pair over a Unix socket."""
    (folder / "ping.py").write_text(PING_SERVER.format())
    address = f"unix://{folder / 'ping.sock'}"
    server = subprocess.Popen([sys.executable, str(folder / "ping.py"), str(response_size)],
                              env={"ARENA_BOT_ADDRESS": address, "PATH": "/usr/bin:/bin"})
    try:
        channel = grpc.insecure_channel(address)
        grpc.channel_ready_future(channel).result(timeout=20)
        ping = channel.unary_unary("/bench.Ping/Ping", request_serializer=None, response_deserializer=None)
        payload = b"y" * request_size
        for _ in range(200):
            ping(payload, timeout=5)
        calls = 0
        start = time.perf_counter()
        end = start + seconds
        while time.perf_counter() < end:
            ping(payload, timeout=5)
            calls += 1
        took = time.perf_counter() - start
        channel.close()
        return calls / took
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per engine / ping-pong measurement")
    parser.add_argument("--game", default="yahtzee", help="game of the referee measurement")
    parser.add_argument("--matches", type=int, default=20, help="matches of the referee measurement")
    args = parser.parse_args()

    print("engine speed (random play, in process)")
    for name in game_names():
        games, decisions = engine_speed(name, args.seconds)
        print(f"  {name:12s} {games:10.1f} games/s  {decisions:12.0f} decisions/s")

    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        folder = Path(tmp)
        rate, record, startup = referee_speed(args.game, folder, args.matches)
        request_size, response_size = mean_message_sizes(record)
        raw = raw_ping_pong(round(request_size), round(response_size), folder, args.seconds)
    print(f"referee, {args.game}, trivial bot processes over Unix sockets ({args.matches} matches)")
    print(f"  bot start-up (process + health + identify): {startup * 1000:.0f} ms per bot")
    print(f"  mean DecideRequest {request_size:.0f} bytes, DecideResponse {response_size:.0f} bytes")
    print(f"  referee:        {rate:9.0f} decisions/s")
    print(f"  raw grpcio:     {raw:9.0f} calls/s (same sizes, same transport)")
    print(f"  ratio referee / raw: {rate / raw:.2f}")


if __name__ == "__main__":
    main()
