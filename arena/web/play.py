"""People at the table: matches in which a visitor plays a seat against bots (``serve --play``).

Each match runs in a thread of the web server through the real referee
(:class:`referee.match.MatchRunner`): the bots are started from their manifests under the
configured sandbox, exactly as ``arena play`` starts them, and the person's seat is a
:class:`~arena.web.play_seat.HumanSeat`, a gRPC bot on loopback.  What the page gets is
drawn from that seat's own observation (``State.observe(seat)``) and the events it may see,
taken by the referee's ``on_state`` hook; never from the full state.

Matches are stored in a database of their own (``--play-db``), one tournament of format
``play`` per match, with the person as the bot ``human`` (language ``human``): the ladder's
database stays read-only and its ratings can never see a human match.  Limits keep one
visitor from exhausting the server: open matches per visitor, and matches running at once.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.league.storage import Database, ScheduledMatch, StorageError
from arena.resources import sample_bots_dir
from arena.web.data import BadRequest, NotFound, is_whole_number
from arena.web.play_seat import HUMAN_NAME, HumanSeat
from arena.web.renderers import RenderContext, play_help, render_seat, renderer_for, teams_of
from arena.web.replay import to_jsonable
from referee.bots import BotSpec, BotSpecError, bot_files_hash
from referee.games import game_class, game_names, make_game
from referee.games.base import SettingsError, State
from referee.match import MatchConfig, MatchRunner, TimeControl
from referee.result import MatchRecord
from referee.sandbox import SandboxConfig

PLAY_FORMAT = "play"
"""The tournament format that marks a match with a person in it."""
EVENTS_KEPT = 60
"""The latest events a page is sent (all of them are in the stored replay)."""
FINISHED_KEPT = 200
"""Finished matches kept in memory for their pages (the store has them all)."""
GONE_GRACE = 5.0
"""Seconds a seat whose page said it was closing (``pagehide``) waits for that page, or a
reloaded one, to ask again before it leaves."""


def same_file(first: Path, second: Path) -> bool:
    """Whether two paths name one file: the same after resolving links, or one file under two
    names (a hard link)."""
    if first.resolve() == second.resolve():
        return True
    try:
        return first.samefile(second)
    except OSError:  # one of them does not exist (yet)
        return False


class LimitReached(Exception):
    """A visitor may not open another match now; the message says why."""


@dataclass(frozen=True)
class PlayConfig:
    """How ``serve --play`` runs matches with people."""

    db_path: Path
    """The database that stores the matches with people (created if missing)."""
    ladder: Path | None = None
    """The served database: its bots that can be started are offered as opponents."""
    max_open_per_visitor: int = 1
    max_running: int = 2
    move_timeout: float = 120.0
    """The person's seconds per decision; bots keep ``time_control.move_timeout``."""
    absent_timeout: float = 30.0
    """Seconds a decision waits without a sign of the person's page (it asks at least every
    3 s while open) before the seat leaves, as "Leave" does: a closed tab forfeits in about
    this long rather than after ``max_faults`` whole move timeouts (docs/play.md)."""
    time_control: TimeControl = TimeControl()
    sandbox: SandboxConfig = SandboxConfig()


@dataclass(frozen=True)
class Opponent:
    """A bot a visitor may play against: ``key`` is what the form sends."""

    key: str
    label: str
    spec: BotSpec
    files_hash: str | None = None
    """As registered in the ladder (sample bots are hashed when stored)."""


def opponents(config: PlayConfig, game: str) -> list[Opponent]:
    """The sample bots, then the ladder's bots that play ``game`` and can be started here: their
    manifest is still there with the registered name, version and files."""
    found: list[Opponent] = []
    samples = sample_bots_dir() / "python"
    for manifest in sorted(samples.glob("*/bot.toml")):
        try:
            spec = BotSpec.from_manifest(manifest)
        except BotSpecError:
            continue
        if spec.plays(game):
            found.append(Opponent(f"sample:{manifest.parent.name}", f"{spec.label} (sample)", spec))
    if config.ladder is not None:
        with Database(config.ladder, readonly=True) as db:
            rows = db.bots()
        for row in rows:
            if not row.manifest or not Path(row.manifest).is_file():
                continue
            try:
                spec = BotSpec.from_manifest(Path(row.manifest))
            except BotSpecError:
                continue
            # Only the bot that was registered (and rated), not whatever its folder holds now.
            if (spec.name, spec.version) == (row.name, row.version) and spec.plays(game) \
                    and bot_files_hash(spec) == row.files_hash:
                found.append(Opponent(f"bot:{row.id}", row.label, spec, row.files_hash))
    return found


INVITE = "invite"
"""The opponent key of a second person, who joins through an invitation link."""


@dataclass(frozen=True)
class Choice:
    """A checked request for a match: the game, its seats and who sits where."""

    game: str
    variant: str
    settings: dict[str, Any]
    seat: int
    """The seat of the person who opens the match."""
    seats: tuple[Opponent | None, ...]
    """Who sits where: a bot, or ``None`` for a person (the opener, and an invited one)."""

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def people(self) -> list[int]:
        return [seat for seat, bot in enumerate(self.seats) if bot is None]

    @property
    def bots(self) -> list[Opponent]:
        return [bot for bot in self.seats if bot is not None]


def parse_choice(config: PlayConfig, form: Mapping[str, str], opponent_keys: list[str]) -> Choice:
    """Check the form's game, variant, settings, seat and opponents.

    :raises BadRequest: with a message for the visitor, for anything that cannot be played.
    """
    game = form.get("game", "")
    if game not in game_names():
        raise BadRequest(f"unknown game {game!r}; choose one of {', '.join(game_names())}")
    cls = game_class(game)
    variant = form.get("variant") or cls.variants[0]
    settings: dict[str, str] = {}
    for line in form.get("settings", "").replace(",", "\n").splitlines():
        if not line.strip():
            continue
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise BadRequest(f"setting {line.strip()!r} is not NAME=VALUE")
        settings[key.strip()] = value.strip()
    keys = [key for key in opponent_keys if key]
    if not keys:
        raise BadRequest("choose at least one opponent")
    if keys.count(INVITE) > 1:
        raise BadRequest("one invited person at most")
    available: dict[str, Opponent | None] = {o.key: o for o in opponents(config, game)}
    available[INVITE] = None
    unknown = [key for key in keys if key not in available]
    if unknown:
        raise BadRequest(f"opponent {unknown[0]!r} is not a bot that plays {game} here")
    num_players = len(keys) + 1
    seat_text = form.get("seat", "0")
    if not is_whole_number(seat_text) or int(seat_text) >= num_players:
        raise BadRequest(f"your seat must be a number from 0 to {num_players - 1}")
    try:
        engine = make_game(game, variant=variant, num_players=num_players, settings=settings)
    except SettingsError as error:
        raise BadRequest(str(error)) from None
    seats = [available[k] for k in keys]
    seats.insert(int(seat_text), None)
    return Choice(game, engine.variant, dict(engine.settings), int(seat_text), tuple(seats))


@dataclass
class PlaySession:
    """One match with a person: what its page shows, all from the person's seat."""

    token: str
    visitor: str
    """Whose seat this is; empty for an invited seat nobody has taken yet."""
    choice: Choice
    players: list[str]
    seat_number: int
    changed: threading.Condition = field(default_factory=threading.Condition)
    status: str = "starting"
    """``starting``, ``running``, ``done`` or ``failed``."""
    version: int = 0
    """Grows with every change, for long polling."""
    board: str = ""
    observation: Any = None
    seat_view: Any = None
    """The seat's latest observation itself (:attr:`observation` is its JSON form)."""
    events: list[str] = field(default_factory=list)
    to_play: int | None = None
    result: dict[str, Any] | None = None
    match_id: int | None = None
    finished_at: float | None = None
    seat: HumanSeat | None = None
    invite: str | None = None
    """The token that lets a second person take this seat (an invited seat), or that the
    opener shares (the opener's session): ``/play/join/{invite}``."""
    host: str = ""
    """The token of the opener's session (a match's sessions share it)."""
    absent_timeout: float = 30.0
    """As :attr:`PlayConfig.absent_timeout`."""
    last_seen: float | None = None
    """``time.monotonic()`` of the page's latest request; ``None`` until someone sits here."""
    gone: bool = False
    """The page said it was closing and no request came since."""
    account: str = ""
    """The signed-in account of whoever holds this seat (``--accounts``), else empty."""
    _seen_events: int = 0

    @property
    def open(self) -> bool:
        return self.status in ("starting", "running")

    @property
    def stamp(self) -> int:
        """Grows with every change of the view or of the pending decision (for long polling)."""
        return self.version + (self.seat.changes if self.seat is not None else 0)

    def seen(self, *, closing: bool = False) -> None:
        """The person's page asked for the seat's view or moved (``closing``: it said it was
        being closed, which may be a reload)."""
        self.last_seen, self.gone = time.monotonic(), closing

    def absent(self, since: float) -> bool:
        """Whether the person has gone, for a decision open since ``since``: no sign of the page
        for :attr:`absent_timeout` seconds (or :data:`GONE_GRACE` after it said it was closing).
        A seat nobody has taken yet (an invitation) waits on the move clock alone."""
        if self.last_seen is None:
            return False
        quiet = time.monotonic() - max(self.last_seen, since)
        return quiet > (GONE_GRACE if self.gone else self.absent_timeout)

    def watch(self, state: State[Any, Any]) -> None:
        """The referee's ``on_state`` hook: keep the person's seat's view (and nothing else)."""
        seat = self.seat_number
        observation = state.observe(seat)
        events = state.events_for(seat, self._seen_events)
        self._seen_events = len(state.events)
        board = str(render_seat(renderer_for(self.choice.game), observation,
                                RenderContext(tuple(self.players), seat)))
        to_play = None if state.is_terminal() else state.current_player()
        with self.changed:
            self.board, self.observation, self.to_play = board, to_jsonable(observation), to_play
            self.seat_view = observation
            self.events = (self.events + [event.text for event in events])[-EVENTS_KEPT:]
            self.status = "running"
            self.version += 1
            self.changed.notify_all()

    def snapshot(self) -> dict[str, Any]:
        """The page's data: the seat's view, its pending decision and clock, the result."""
        with self.changed:
            pending = self.seat.pending if self.seat is not None else None
            left = 0 if pending is None else max(0, round((pending.deadline - time.monotonic()) * 1000))
            return {"token": self.token, "status": self.status, "version": self.stamp, "game": self.choice.game,
                    "variant": self.choice.variant, "seat": self.seat_number, "players": self.players,
                    "teams": teams_of(self.choice.game),
                    "to_play": self.to_play, "board": self.board, "observation": self.observation,
                    "events": self.events, "result": self.result, "match_id": self.match_id,
                    "invite": f"/play/join/{self.invite}" if self.invite and self.token == self.host and self.open
                    else None,
                    "pending": None if pending is None else {
                        "number": pending.number, "ms_left": left, "bank_ms": pending.bank_ms,
                        "actions": [{"index": i, "text": text} for i, text in enumerate(pending.actions)],
                        **play_help(renderer_for(self.choice.game), self.seat_view, pending.actions)}}


class PlayManager:
    """Opens, runs, limits and stores the matches with people."""

    def __init__(self, config: PlayConfig) -> None:
        """:raises StorageError: if the play database is the served one, or not usable."""
        self.config = config
        if config.ladder is not None and same_file(config.db_path, config.ladder):
            raise StorageError(f"--play-db {config.db_path} is the served database {config.ladder}: matches with "
                               "people must be stored apart, or the league's pages would show them (their seeds "
                               "too) and its ratings could count them; give --play-db another file, or leave it "
                               "out for the default (DB's name + '.play.db')")
        Database(config.db_path).close()  # created (or checked) before anything listens
        self._lock = threading.Lock()
        self._sessions: dict[str, PlaySession] = {}
        self._threads: list[threading.Thread] = []
        self._closing = False

    def session(self, token: str, visitor: str) -> PlaySession | None:
        """The visitor's match ``token`` (another visitor's is as good as missing)."""
        with self._lock:
            found = self._sessions.get(token)
        return found if found is not None and found.visitor and secrets.compare_digest(found.visitor, visitor) \
            else None

    def join(self, invite: str, visitor: str, account: str = "") -> PlaySession:
        """Give ``visitor`` (signed in as ``account``, if any) the invited seat of ``invite``
        (again, if it is theirs already).  The opener may not take it: neither with the same
        cookie nor, when the opener was signed in, under the same account from another browser.
        Nothing tells two cookies of one person apart, so this is a guard against taking
        one's own seat by mistake, not a proof of two people (docs/play.md).

        :raises LimitReached: if the visitor (or the account) opened the match, or has too many
            open matches.
        :raises NotFound: if there is no such invitation, or another visitor took it.
        """
        with self._lock:
            found = next((s for s in self._sessions.values() if s.invite == invite and s.host != s.token), None)
            if found is None or (found.visitor and found.visitor != visitor) or not found.open:
                raise NotFound("no such invitation, or it has been taken or has ended")
            if found.visitor == visitor:
                return found
            host = self._sessions[found.host]
            if host.visitor == visitor or (host.account and host.account == account):
                raise LimitReached("this is your own match: send the link to someone else")
            self._check_open_limit(visitor)
            found.visitor, found.account = visitor, account
            return found

    def _check_open_limit(self, visitor: str) -> None:
        mine = sum(1 for s in self._sessions.values() if s.open and s.visitor == visitor)
        if mine >= self.config.max_open_per_visitor:
            raise LimitReached(f"you already have {mine} open match{'es' if mine > 1 else ''} "
                               f"(at most {self.config.max_open_per_visitor}); finish it first")

    def open_sessions(self, visitor: str) -> list[PlaySession]:
        """The visitor's matches under way (the form links back to them)."""
        with self._lock:
            return [s for s in self._sessions.values() if s.open and s.visitor == visitor]

    def open(self, visitor: str, choice: Choice, account: str = "") -> PlaySession:
        """Start a match for ``visitor``, signed in as ``account`` if any.

        :raises LimitReached: if the visitor has too many open matches, or the server too many running.
        """
        with self._lock:
            if self._closing:
                raise LimitReached("the server is shutting down")
            self._check_open_limit(visitor)
            running = len({s.host for s in self._sessions.values() if s.open})
            if running >= self.config.max_running:
                raise LimitReached(f"{running} matches are running, the most this server allows; "
                                   "try again in a while")
            players = [HUMAN_NAME if bot is None else bot.spec.label for bot in choice.seats]
            token = secrets.token_urlsafe(18)
            invite = secrets.token_urlsafe(18) if len(choice.people) > 1 else None
            sessions = [PlaySession(token if seat == choice.seat else secrets.token_urlsafe(18),
                                    visitor if seat == choice.seat else "", choice, players, seat,
                                    invite=invite, host=token, absent_timeout=self.config.absent_timeout,
                                    last_seen=time.monotonic() if seat == choice.seat else None,
                                    account=account if seat == choice.seat else "")
                        for seat in choice.people]
            for session in sessions:
                self._sessions[session.token] = session
            self._forget_old()
        session = next(s for s in sessions if s.token == token)
        thread = threading.Thread(target=self._run, args=(sessions,), name=f"arena-play-{token[:6]}",
                                  daemon=True)
        self._threads = [t for t in self._threads if t.is_alive()] + [thread]
        thread.start()
        return session

    def _forget_old(self) -> None:
        finished = sorted((s for s in self._sessions.values() if not s.open), key=lambda s: s.finished_at or 0)
        for old in finished[:max(0, len(finished) - FINISHED_KEPT)]:
            del self._sessions[old.token]

    def _run(self, sessions: list[PlaySession]) -> None:
        """Play the match through the referee, then store it (runs in its own thread)."""
        choice = sessions[0].choice
        record: MatchRecord | None = None
        match_id: int | None = None
        try:
            for session in sessions:
                session.seat = HumanSeat(choice.game, session.changed)
                session.seat.absent = session.absent
                if self._closing:
                    session.seat.close()
            match_id, seed = self._schedule(choice)
            people = {session.seat_number: session.seat for session in sessions}
            bots = [bot.spec if bot is not None
                    else BotSpec.from_address(people[seat].address, name=HUMAN_NAME)  # type: ignore[union-attr]
                    for seat, bot in enumerate(choice.seats)]
            config = MatchConfig(game=choice.game, variant=choice.variant, settings=choice.settings, seed=seed,
                                 match_id=f"play-{match_id}", time_control=self.config.time_control,
                                 sandbox=self.config.sandbox,
                                 seat_move_timeouts={seat: self.config.move_timeout for seat in choice.people})

            def watch(state: State[Any, Any]) -> None:
                for session in sessions:
                    session.watch(state)

            record = MatchRunner(config, bots, on_state=watch).run()
            self._store(match_id, record)
            outcome: dict[str, Any] = {"scores": record.scores, "ranking": record.ranking, "reason": record.reason,
                                       "forfeited": record.forfeited, "termination": record.termination}
            status = "done" if record.termination != "aborted" else "failed"
        except Exception as error:  # noqa: BLE001 - told on the visitor's page; the server goes on
            outcome, status = {"reason": f"the match could not be played: {error}"}, "failed"
        finally:
            for session in sessions:
                if session.seat is not None:
                    session.seat.close()
        for session in sessions:
            with session.changed:
                session.result, session.status, session.finished_at = outcome, status, time.time()
                session.match_id = match_id if record is not None and status == "done" else None
                session.version += 1
                session.changed.notify_all()

    def _schedule(self, choice: Choice) -> tuple[int, int]:
        """Register the players and insert the match as pending: ``(match id, seed)``."""
        seed = secrets.randbelow(2**31)
        with Database(self.config.db_path) as db:
            human = db.register_bot(name=HUMAN_NAME, version="", language="human", files_hash="human")
            ids = []
            for opponent in choice.seats:
                if opponent is None:
                    ids.append(human.id)
                    continue
                spec = opponent.spec
                row = db.register_bot(name=spec.name, version=spec.version, author=spec.author,
                                      language=spec.language, files_hash=opponent.files_hash or bot_files_hash(spec),
                                      manifest=str(spec.manifest) if spec.manifest else None)
                ids.append(row.id)
            tc = self.config.time_control
            tid = db.create_tournament(
                name=f"{HUMAN_NAME} at seat {', '.join(map(str, choice.people))}", game=choice.game,
                variant=choice.variant,
                settings=choice.settings, format=PLAY_FORMAT, table_size=choice.num_players, rounds=1,
                duplicate=False, seed=seed, time_control={"move_timeout": tc.move_timeout, "time_bank": tc.time_bank,
                                                          "max_faults": tc.max_faults,
                                                          "human_move_timeout": self.config.move_timeout},
                options={"human_seats": choice.people}, bot_ids=sorted(set(ids)),
                matches=[ScheduledMatch(tuple(ids), seed, 0, 0, 0)])
            db.set_tournament_status(tid, "running")
            return db.matches(tournament_id=tid)[0].id, seed

    def _store(self, match_id: int, record: MatchRecord) -> None:
        with Database(self.config.db_path) as db:
            tid = db.match(match_id).tournament_id
            if record.termination == "aborted":
                db.mark_failed(match_id, record.reason or "aborted", record)
            else:
                db.store_result(match_id, record)
            if tid is not None:
                db.set_tournament_status(tid, "finished" if record.termination != "aborted" else "failed")

    def close(self) -> None:
        """Stop waiting for people (their seats forfeit at once) and let the matches end."""
        with self._lock:
            self._closing = True
            sessions = list(self._sessions.values())
        for session in sessions:
            if session.seat is not None:
                session.seat.close()
        for thread in self._threads:
            thread.join(30)
