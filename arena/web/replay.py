"""The replay viewer's data: a stored match re-simulated through the engine, step by step.

:func:`referee.replay.replay` applies the recorded decisions from the recorded seed (and
checks them), so every step shows what the referee decided, not what the record claims.
Step ``n`` is the state after the first ``n`` moves.  For a seat, a step carries exactly
``State.observe(seat)`` and the events that seat may see; for the full table, every seat's
observation and every event (private ones marked with who saw them).  Each step also
carries the game renderer's drawing (server-made HTML/SVG, every text escaped).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Collection
from typing import Any

from arena.league.queries import bot_labels
from arena.league.storage import Database, NotFoundError
from arena.web.bot_output import shown_faults
from arena.web.data import BadRequest, NotFound, is_whole_number, ranks
from arena.web.deals import HELD_BACK, deal_settled
from arena.web.renderers import RenderContext, render_seat, render_table, renderer_for
from referee.games.base import Event, SettingsError, State
from referee.games.cards import Card
from referee.replay import StopReplay, replay
from referee.result import MatchRecord


_SCALARS = frozenset({type(None), bool, int, float, str})
_FIELDS: dict[type, tuple[str, ...]] = {}


def to_jsonable(value: Any) -> Any:
    """An observation (dataclasses, tuples, cards, enums) as plain JSON values; cards as text."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else to_jsonable(v) for v in value]
    if kind is Card:
        return str(value)
    names = _FIELDS.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: to_jsonable(getattr(value, name)) for name in names}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (frozenset, set)):
        return sorted(to_jsonable(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return str(value)


def parse_view(text: str | None, num_players: int) -> int | None:
    """``"table"`` (or nothing) is the full table, ``None``; a seat number is that seat.

    :raises BadRequest: for anything else.
    """
    if text in (None, "", "table"):
        return None
    if not is_whole_number(text) or int(text) >= num_players:
        raise BadRequest(f"view must be 'table' or a seat from 0 to {num_players - 1}")
    return int(text)


PRIVATE_MOVE = "a move this seat does not see"
"""What a seat's view says of another seat's private move that told it nothing."""


def _saw_the_action(events: list[Event], mover: int, seat: int) -> bool:
    """Whether ``seat`` saw the action ``mover`` took, from the move's ``events``: the engine
    logs each decision as an event carrying the action, visible to the seats that see it (a
    Yoninkan show only to the two partners).  A move without such an event counts as unseen."""
    return any(e.action is not None and e.seat == mover and e.visible(seat) for e in events)


def _as_seen(events: list[Event], mover: int, seat: int) -> str:
    """A private move as ``seat`` saw it: the mover's events it may see ("shows two cards to seat
    0"), else :data:`PRIVATE_MOVE`."""
    prefix = f"seat {mover} "
    texts = [e.text.removeprefix(prefix) for e in events if e.seat == mover and e.visible(seat)]
    return "; ".join(texts) or PRIVATE_MOVE


def replay_steps(record: MatchRecord, seat: int | None, players: list[str] | None = None, *, start: int = 0,
                 count: int | None = None, readable: Collection[int] | None = None) -> dict[str, Any]:
    """Steps ``start`` to ``start + count`` of ``record`` (all by default) seen from ``seat``
    (``None``: the full table), and ``total_steps``.  Fault details show for the seats of
    ``readable`` only (``None``: every seat; :mod:`.bot_output`).

    A seat's view shows another seat's private move (Yoninkan's show, seen by the partners
    only) as that seat saw it: the action's text gives way to the events it saw of the move
    (``private`` is then true), and no other seat's move carries its index (the index among
    that seat's legal actions tells where the card sits in its hand), so the move header, the
    moves list and the JSON behind them tell a seat only what it saw.

    Only the requested steps are observed and drawn, and the engine stops after the last of
    them, so the viewer shows the first steps at once and fetches the rest while the reader
    looks.  ``problems`` (where the record and the engine disagree) is complete on the page
    that reaches the end of the match, and empty on earlier pages.
    """
    stop = None if count is None else start + count
    players = players or list(record.players)
    renderer = renderer_for(record.game)
    ctx = RenderContext(tuple(players), seat)
    faults: dict[int, list[dict[str, Any]]] = {}
    shown = shown_faults([fault.to_json() for fault in record.faults], readable)
    for fault in shown:
        if fault["decision"] is not None:
            faults.setdefault(fault["decision"], []).append(fault)
    steps: list[dict[str, Any]] = []
    seen = [0]

    def on_state(number: int, state: State[Any, Any]) -> None:
        new = state.events[seen[0]:]
        seen[0] = len(state.events)
        if stop is not None and number >= stop:
            raise StopReplay  # the requested steps are drawn
        if number < start:
            return
        if seat is None:
            events = [{"seat": e.seat, "text": e.text,
                       "visible_to": None if e.visible_to is None else sorted(e.visible_to)} for e in new]
            observations = [state.observe(s) for s in range(record.num_players)]
            view: Any = [to_jsonable(o) for o in observations]
            html = render_table(renderer, observations, ctx)
        else:
            events = [{"seat": e.seat, "text": e.text} for e in new if e.visible(seat)]
            observation = state.observe(seat)
            view = to_jsonable(observation)
            html = render_seat(renderer, observation, ctx)
        step: dict[str, Any] = {"step": number, "to_play": state.current_player(), "events": events,
                                "observation": view, "html": str(html), "move": None, "outcome": None}
        if number:
            move = record.moves[number - 1]
            # Another seat's index among its legal actions tells where its card sits in its hand.
            index = move.index if seat is None or seat == move.seat else None
            step["move"] = {"number": number - 1, "seat": move.seat, "player": players[move.seat],
                            "index": index, "action": move.action, "private": False,
                            "status": move.status.value, "elapsed_ms": move.elapsed_ms, "comment": move.comment,
                            "faults": faults.get(number - 1, [])}
            if seat is not None and not _saw_the_action(new, move.seat, seat):
                step["move"].update(action=_as_seen(new, move.seat, seat), private=True)
        if state.is_terminal():
            outcome = state.outcome()
            step["outcome"] = {"scores": list(outcome.scores), "ranking": ranks(outcome.ranking),
                               "detail": outcome.detail}
        steps.append(step)

    try:
        report = replay(record, on_state)
        problems = [] if report.stopped else report.problems
    except SettingsError as error:
        problems = [str(error)]
    return {"game": record.game, "variant": record.variant, "seat": seat, "players": players,
            "renderer": renderer.__name__.rsplit(".", 1)[-1], "problems": problems,
            "faults": [f for f in shown if f["decision"] is None],
            "scores": record.scores, "ranking": ranks(record.ranking), "start": start,
            "total_steps": len(record.moves) + 1,
            "steps": steps}


def match_replay(db: Database, match_id: int, view: str | None, *, readable: Collection[int] | None, start: int = 0,
                 count: int | None = None) -> dict[str, Any]:
    """The replay of a stored match (its players labelled as in the database), with the fault
    details of the ``readable`` seats (:func:`.bot_output.readable_seats`; ``None``: every seat's)
    and, in the full table's view only, its luck report (``None`` in a seat's view, or without one:
    a step's text and move tell what another seat drew).

    :raises NotFound: for an unknown match, one that has no record yet, or one whose deal may
        still be played (:mod:`.deals`).
    :raises BadRequest: for a view that is neither ``table`` nor a seat.
    """
    try:
        match = db.match(match_id)
        record = db.match_record(match_id)
    except NotFoundError:
        raise NotFound(f"no match {match_id}") from None
    if record is None:
        raise NotFound(f"match {match_id} has no record ({match.status})")
    if not deal_settled(db, match):
        raise NotFound(f"match {match_id}'s replay is held back: {HELD_BACK}")
    labels = bot_labels(db)
    players = [labels.get(bot, name) for bot, name in zip(match.bot_ids, record.players)]
    seat = parse_view(view, record.num_players)
    report = db.luck_report(match_id) if seat is None else None  # a seat's view: luck reads the full state
    return dict(replay_steps(record, seat, players, start=start, count=count, readable=readable),
                match_id=match_id, status=match.status, luck=None if report is None else report.to_json())

