"""Print a real exchange between the referee and a bot, for docs/protocol.md.

Runs a 2-player match (Yahtzee, seed 42, by default) in which seat 0 is a recording bot
served in this process and seat 1 the sample random bot, then prints Identify, StartMatch,
the chosen Decide calls (the first two by default) and the EndMatch in protobuf text format
(scorecards cut to their filled boxes, long lists of legal actions to three).

Usage: ``.venv/bin/python scripts/protocol_example.py [--game G] [--seed N] [--decides 0,1]``
(docs/protocol.md: the worked example as is; its Yahtzee section ``--decides 30 --show none``;
its Gin Rummy section ``--game gin_rummy --seed 3 --decides 0,2 --show StartMatch,EndMatch``).
"""

from __future__ import annotations

import argparse
import sys
from concurrent import futures
from pathlib import Path

import grpc
from google.protobuf import text_format
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.v1 import bot_pb2, bot_pb2_grpc  # noqa: E402
from referee.bots import BotSpec, resolve_bot  # noqa: E402
from referee.match import MatchConfig, run_match  # noqa: E402


class Recorder(bot_pb2_grpc.BotServicer):
    """Plays the last legal action (a score when one is offered) and keeps every request."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.calls: list[tuple[str, object, object]] = []

    def Identify(self, request, context):  # type: ignore[no-untyped-def]
        reply = bot_pb2.BotInfo(name="example", version="1.0", author="docs", protocol_version=1, games=[self.game])
        self.calls.append(("Identify", request, reply))
        return reply

    def StartMatch(self, request, context):  # type: ignore[no-untyped-def]
        reply = bot_pb2.StartMatchResponse()
        self.calls.append(("StartMatch", request, reply))
        return reply

    def Decide(self, request, context):  # type: ignore[no-untyped-def]
        reply = bot_pb2.DecideResponse(action_index=len(request.legal_actions) - 1)
        self.calls.append(("Decide", request, reply))
        return reply

    def EndMatch(self, request, context):  # type: ignore[no-untyped-def]
        reply = bot_pb2.EndMatchResponse()
        self.calls.append(("EndMatch", request, reply))
        return reply


def _abridged(request: object) -> tuple[object, str]:
    """The request cut short for the page: scorecards to their filled boxes, the legal actions
    to the first two and the last, with a note saying so."""
    if isinstance(request, bot_pb2.EndMatchRequest):
        copy = bot_pb2.EndMatchRequest()
        copy.CopyFrom(request)
        events = len(copy.observation.events)
        del copy.observation.events[1:]
        getattr(copy.observation, copy.observation.WhichOneof("game")).Clear()
        return copy, (f"# abridged: the final observation's typed view and all but the first of its {events} "
                      f"events left out")
    if not isinstance(request, bot_pb2.DecideRequest):
        return request, ""
    copy = bot_pb2.DecideRequest()
    copy.CopyFrom(request)
    for card in copy.observation.yahtzee.cards:
        filled = [box for box in card.boxes if box.filled]
        del card.boxes[:]
        card.boxes.extend(filled)
    cut = ["empty boxes"] if copy.observation.HasField("yahtzee") else []
    count = len(copy.legal_actions)
    if count > 3:
        kept = [copy.legal_actions[0], copy.legal_actions[1], copy.legal_actions[count - 1]]
        del copy.legal_actions[:]
        copy.legal_actions.extend(kept)
        cut.append(f"all but 3 of the {count} legal actions")
    if not cut:
        return copy, ""
    texts = ", ".join(f"{i}: {a.text}" for i, a in enumerate(request.legal_actions))
    return copy, (f"# abridged: {' and '.join(cut)} left out;\n"
                  f"# the whole list, by index: {texts}")


def main() -> None:
    parser = argparse.ArgumentParser(description="Print a real referee-bot exchange.")
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--decides", default="0,1", help="which of seat 0's Decide calls to print, from 0")
    parser.add_argument("--show", default="Identify,StartMatch,EndMatch",
                        help="the other calls to print, or 'none'")
    args = parser.parse_args()
    recorder = Recorder(args.game)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    bot_pb2_grpc.add_BotServicer_to_server(recorder, server)
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        bots = [BotSpec.from_address(f"127.0.0.1:{port}", name="example"),
                resolve_bot(str(ROOT / "sample_bots" / "python" / "random_bot"))]
        record = run_match(MatchConfig(game=args.game, seed=args.seed, match_id=f"example-{args.seed}"), bots)
    finally:
        server.stop(None)
    decides = [call for call in recorder.calls if call[0] == "Decide"]
    others = args.show.split(",")
    shown = [call for call in recorder.calls if call[0] in ("Identify", "StartMatch") and call[0] in others]
    shown += [decides[int(number)] for number in args.decides.split(",")]
    shown += [call for call in recorder.calls if call[0] == "EndMatch" and call[0] in others]
    for method, request, reply in shown:
        shown_request, note = _abridged(request)
        text = text_format.MessageToString(shown_request).rstrip()
        print(f"--- {method} request" + (f"\n{note}" if note else "") + f"\n{text}")
        print(f"--- {method} response\n{text_format.MessageToString(reply).rstrip() or '(empty)'}\n")
    print(f"# {len(decides)} Decide calls in all; result: {record.reason}; scores {record.scores}")


if __name__ == "__main__":
    main()
