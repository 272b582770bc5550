"""Print a real exchange between the referee and a bot, for docs/protocol.md.

Runs a 2-player Yahtzee match (seed 42) in which seat 0 is a recording bot served in this
process and seat 1 the sample random bot, then prints the first StartMatch, two Decide
calls and the EndMatch in protobuf text format (scorecards cut to their filled boxes).

Usage: ``.venv/bin/python scripts/protocol_example.py``
"""

from __future__ import annotations

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

    def __init__(self) -> None:
        self.calls: list[tuple[str, object, object]] = []

    def Identify(self, request, context):  # type: ignore[no-untyped-def]
        reply = bot_pb2.BotInfo(name="example", version="1.0", author="docs", protocol_version=1, games=["yahtzee"])
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
        copy.observation.yahtzee.Clear()
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
    count = len(copy.legal_actions)
    if count > 3:
        kept = [copy.legal_actions[0], copy.legal_actions[1], copy.legal_actions[count - 1]]
        del copy.legal_actions[:]
        copy.legal_actions.extend(kept)
    texts = ", ".join(f"{i}: {a.text}" for i, a in enumerate(request.legal_actions))
    return copy, (f"# abridged: empty boxes and all but 3 of the {count} legal actions left out;\n"
                  f"# the whole list, by index: {texts}")


def main() -> None:
    recorder = Recorder()
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
        record = run_match(MatchConfig(game="yahtzee", seed=42, match_id="example-42"), bots)
    finally:
        server.stop(None)
    decides = [call for call in recorder.calls if call[0] == "Decide"]
    shown = [call for call in recorder.calls if call[0] in ("Identify", "StartMatch")] + decides[:1] + decides[1:2]
    shown += [call for call in recorder.calls if call[0] == "EndMatch"]
    for method, request, reply in shown:
        shown_request, note = _abridged(request)
        text = text_format.MessageToString(shown_request).rstrip()
        print(f"--- {method} request" + (f"\n{note}" if note else "") + f"\n{text}")
        print(f"--- {method} response\n{text_format.MessageToString(reply).rstrip() or '(empty)'}\n")
    print(f"# {len(decides)} Decide calls in all; result: {record.reason}; scores {record.scores}")


if __name__ == "__main__":
    main()
