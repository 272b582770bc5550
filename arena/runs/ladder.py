"""The ladder service: leagues that keep playing until Ctrl-C or SIGTERM (``arena ladder run``).

One process runs every ladder of its config file (``docs/ladder.md``) through the shared run
loop (:mod:`arena.runs.loop`) and one executor.  Whenever a slot frees, :class:`LadderService`
hands the loop the next match of a ladder's current duplicate set; when a ladder's set is used
up it asks :func:`arena.scheduling.ladder.next_set` for the next one, from the current ratings,
and appends that set's matches to the database as pending rows.

Every second the service reads the entrants' states (``arena ladder add|pause|resume|remove``
write them from other terminals), drops queued matches of entrants no longer active, and
writes its status row (heartbeat, matches in flight, matches per minute) for ``arena ladder
status``.  After each stored batch it extends the ratings in match-id order up to the lowest
match still in play, so the table always equals a full recompute, and pauses any entrant
that forfeited (crashed, failed to start, ran out of faults) in more than half of its last
:data:`RECENT` matches.

Stopping: the first Ctrl-C or SIGTERM stops dispatching; matches in play get ``stop_grace``
seconds to finish and be stored, then are abandoned.  Matches not stored are deleted (never
half-stored: a result is one transaction), those whose worker died meanwhile (a SIGTERM to
the whole process group) too, and so are the pending rows a killed process left behind, on
the next start.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import secrets
import time
import tomllib
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.executors import Executor, JobResult, MatchJob
from arena.league.queries import counted
from arena.league import score_ratings
from arena.league.ratings import MU, SIGMA, current_ratings, update_ratings
from arena.league.score_ratings import MODELS
from arena.league.storage import BotRow, Database, ScheduledMatch, TournamentRow
from arena.runs import ladder_store as store
from arena.runs.ladder_store import RATE_WINDOW_S
from arena.runs.loop import RunSummary, run_loop
from arena.runs.tournament import TournamentError, runner_alive, expand_bots, register, spec_from_row
from arena.scheduling.ladder import SCORE_NEW_SIGMA, Entrant, Policy, count_before, next_set
from arena.scheduling.round_robin import SEED_LIMIT, ScheduleError, format_for
from referee.bots import BotSpec
from referee.games import game_class
from referee.games.base import SettingsError
from referee.match import MatchConfig, TimeControl
from referee.result import MatchRecord
from referee.sandbox import Limits, SandboxConfig, SandboxMode

LADDER_SEED_BITS = 63
"""A ladder's own seed, drawn when its config gives none: every set's choices and deals are a
hash of it and the set's number, so anyone who found it could deal every match ahead.  A
played match's seed is shown once settled (``arena.web.deals``), so the ladder's must be far too
large to search for from one (a 31-bit one, like a match's, could be)."""
NEW_LADDER_RATING = "score"
"""The rating model of a ladder created without a ``rating`` key: the score model orders
entrants in a fraction of TrueSkill's matches (docs/ratings.md).  A ladder created before the key
keeps TrueSkill (its options have no ``rating``)."""
RECENT = 20
"""Auto-pause looks at an entrant's last this many played matches of the ladder."""
REFRESH_S = 1.0
"""How often the running process reads the entrants' states and writes its status."""


class LadderError(TournamentError):
    """A ladder config or command that cannot work, told in one line."""


# --- the config file ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class LadderSpec:
    """One ``[[ladder]]`` of the config file."""

    name: str
    game: str
    variant: str
    seats: tuple[int, int]
    """The fewest and most seats per table (one number in the file for a fixed size)."""
    settings: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str, ...] = ()
    """Entered when the ladder is created (later entrants come with ``arena ladder add``)."""
    bosses: tuple[str, ...] = ()
    """Reference bots ("boss"): entered like ``bots`` and marked, whenever the ladder is opened,
    so they show as such and are never retired."""
    seed: int | None = None
    """Seeds every set's choices and deals; ``None``: a random one, drawn and stored when the
    ladder is created (a seed anyone knows lets a bot look its deal up from its first hand)."""
    rating: str | None = None
    """The rating model (``"score"`` or ``"trueskill"``); ``None``: ``"score"`` for a new ladder,
    and whatever an existing one uses (``"trueskill"`` for ladders created before the key)."""


@dataclass(frozen=True)
class ServiceConfig:
    """The whole config file."""

    db: Path
    ladders: tuple[LadderSpec, ...]
    workers: int = 2
    executor: str = "local"
    scheduler: str | None = None
    pin_cpus: bool = True
    keep_alive: bool = True
    stop_grace: float = 5.0
    time_control: TimeControl = TimeControl()
    sandbox: SandboxConfig = SandboxConfig()


_TOP_KEYS = {"db", "workers", "executor", "scheduler", "pin_cpus", "keep_alive", "stop_grace", "time_control",
             "sandbox", "ladder"}
_LADDER_KEYS = {"name", "game", "variant", "seats", "settings", "bots", "bosses", "seed", "rating"}
_TIME_KEYS = {"move_timeout", "time_bank", "max_faults", "startup_timeout"}
_SANDBOX_KEYS = {"mode", *(f.name for f in dataclasses.fields(Limits))}


def _check_keys(table: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise LadderError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")


def _typed(table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, default: Any) -> Any:
    value = table.get(key, default)
    if value is not default and (not isinstance(value, kind) or isinstance(value, bool) and kind is not bool):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise LadderError(f"{where}: {key} must be {names}, got {value!r}")
    return value


def load_config(path: Path, *, db: Path | None = None) -> ServiceConfig:
    """Read and check a ladder config file; relative paths are relative to its folder.

    :raises LadderError: for a missing or malformed file, an unknown key, a bad value, game,
        variant, setting or seat range.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise LadderError(f"cannot read {path}: {error.strerror or error}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise LadderError(f"{path} is not valid TOML: {error}") from None
    where = str(path)
    _check_keys(data, _TOP_KEYS, where)
    base = path.resolve().parent
    db_text = _typed(data, "db", str, where, None)
    if db is None and db_text is None:
        raise LadderError(f"{where}: no database: set db = \"ladder.db\" (or give --db)")
    workers = _typed(data, "workers", int, where, 2)
    if workers < 1:
        raise LadderError(f"{where}: workers must be at least 1, got {workers}")
    executor = _typed(data, "executor", str, where, "local")
    if executor not in ("local", "dask"):
        raise LadderError(f"{where}: executor must be \"local\" or \"dask\", got {executor!r}")
    scheduler = _typed(data, "scheduler", str, where, None)
    if scheduler is not None and executor != "dask":
        raise LadderError(f"{where}: scheduler needs executor = \"dask\"")
    grace = float(_typed(data, "stop_grace", (int, float), where, 5.0))
    if grace < 0:
        raise LadderError(f"{where}: stop_grace must be at least 0, got {grace:g}")
    tc = _typed(data, "time_control", dict, where, {})
    _check_keys(tc, _TIME_KEYS, f"{where} [time_control]")
    defaults = TimeControl()
    timing = {key: float(_typed(tc, key, (int, float), f"{where} [time_control]", getattr(defaults, key)))
              for key in ("move_timeout", "time_bank", "startup_timeout")}
    max_faults = _typed(tc, "max_faults", int, f"{where} [time_control]", defaults.max_faults)
    if min(timing.values()) <= 0 and timing["time_bank"] != 0 or max_faults < 1:
        raise LadderError(f"{where} [time_control]: times must be positive and max_faults at least 1")
    sandbox = _typed(data, "sandbox", dict, where, {})
    _check_keys(sandbox, _SANDBOX_KEYS, f"{where} [sandbox]")
    mode = _typed(sandbox, "mode", str, f"{where} [sandbox]", "auto")
    if mode not in ("auto", "bwrap", "none"):
        raise LadderError(f"{where} [sandbox]: mode must be auto, bwrap or none, got {mode!r}")
    limits = {key: _typed(sandbox, key, int, f"{where} [sandbox]", None) for key in _SANDBOX_KEYS - {"mode"}}
    if any(value is not None and value < 1 for value in limits.values()):
        raise LadderError(f"{where} [sandbox]: limits must be at least 1")
    ladder_tables = _typed(data, "ladder", list, where, [])
    if not ladder_tables:
        raise LadderError(f"{where}: no [[ladder]]: add one with at least game = \"...\"")
    ladders = tuple(_ladder_spec(table, f"{where} [[ladder]] {i + 1}", base) for i, table in enumerate(ladder_tables))
    names = [ladder.name for ladder in ladders]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise LadderError(f"{where}: two ladders are named {twice[0]!r}; give each its own name")
    first: dict[tuple[str, str], str] = {}
    for ladder in ladders:
        other = first.setdefault((ladder.game, ladder.variant), ladder.name)
        if other != ladder.name:
            # Two ladders of one game and variant would each rate past the other's matches
            # in play and force full recomputes of the shared ratings.
            raise LadderError(f"{where}: ladders {other!r} and {ladder.name!r} both play {ladder.game} "
                              f"({ladder.variant}); one ladder per game and variant")
    return ServiceConfig(
        db=db if db is not None else base / db_text, ladders=ladders, workers=workers, executor=executor,
        scheduler=scheduler, pin_cpus=_typed(data, "pin_cpus", bool, where, True),
        keep_alive=_typed(data, "keep_alive", bool, where, True), stop_grace=grace,
        time_control=TimeControl(move_timeout=timing["move_timeout"], time_bank=timing["time_bank"],
                                 max_faults=max_faults, startup_timeout=timing["startup_timeout"]),
        sandbox=SandboxConfig(SandboxMode(mode), Limits(**{k: v for k, v in limits.items() if v is not None})))


def _ladder_spec(table: Any, where: str, base: Path) -> LadderSpec:
    if not isinstance(table, dict):
        raise LadderError(f"{where}: must be a table")
    _check_keys(table, _LADDER_KEYS, where)
    game = _typed(table, "game", str, where, None)
    if game is None:
        raise LadderError(f"{where}: no game")
    try:
        cls = game_class(game)
    except SettingsError as error:
        raise LadderError(f"{where}: {error}") from None
    variant = _typed(table, "variant", str, where, cls.variants[0])
    if variant not in cls.variants:
        raise LadderError(f"{where}: {game} has no variant {variant!r} (variants: {', '.join(cls.variants)})")
    seats = table.get("seats")
    fixed = sum(len(t) for t in cls.teams) if cls.teams else 2 if cls.max_players == 2 else None
    if seats is None:
        low = high = fixed if fixed is not None else max(cls.min_players, 2)
        if fixed is None:
            high = cls.max_players
    elif isinstance(seats, int) and not isinstance(seats, bool):
        low = high = seats
    elif (isinstance(seats, list) and len(seats) == 2
          and all(isinstance(s, int) and not isinstance(s, bool) for s in seats)):
        low, high = seats
    else:
        raise LadderError(f"{where}: seats must be a number or [fewest, most], got {seats!r}")
    if fixed is not None and (low, high) != (fixed, fixed):
        raise LadderError(f"{where}: {game} is played at tables of {fixed}")
    if not 2 <= low <= high or not cls.min_players <= low or high > cls.max_players:
        raise LadderError(f"{where}: seats {low}-{high} is outside what {game} seats "
                          f"({cls.min_players}-{cls.max_players}; at least 2 to be rated)")
    settings = _typed(table, "settings", dict, where, {})
    try:
        for size in {low, high}:
            cls(variant=variant, num_players=size, settings=settings)
    except SettingsError as error:
        raise LadderError(f"{where}: {error}") from None
    lists = {}
    for key in ("bots", "bosses"):
        given = _typed(table, key, list, where, [])
        if not all(isinstance(b, str) for b in given):
            raise LadderError(f"{where}: {key} must be a list of manifests, folders or addresses")
        lists[key] = tuple(b if ":" in b and not (base / b).exists() else str(base / b) for b in given)
    name = _typed(table, "name", str, where, f"{game} {variant} ladder")
    rating = _typed(table, "rating", str, where, None)
    if rating not in (None, *MODELS):
        raise LadderError(f"{where}: rating must be one of {', '.join(MODELS)}, got {rating!r}")
    return LadderSpec(name=name, game=game, variant=variant, seats=(low, high), settings=dict(settings),
                      bots=lists["bots"], bosses=lists["bosses"], seed=_typed(table, "seed", int, where, None),
                      rating=rating)


# --- one ladder ----------------------------------------------------------------------------------
def find_ladder(db: Database, name: str | None) -> TournamentRow:
    """The ladder called ``name`` (or with that id); the only one when ``name`` is ``None``.

    :raises LadderError: if there is none, or several and no name.
    """
    found = store.ladders(db)
    if name is None:
        if len(found) == 1:
            return found[0]
        if not found:
            raise LadderError(f"no ladder in {db.path}; start one with `arena ladder run --config FILE`")
        raise LadderError(f"{len(found)} ladders in {db.path}; say which with --ladder "
                          f"({', '.join(repr(t.name) for t in found)})")
    for ladder in found:
        if ladder.name == name or str(ladder.id) == name:
            return ladder
    raise LadderError(f"no ladder {name!r} in {db.path} (ladders: {', '.join(repr(t.name) for t in found) or 'none'})")


def enter_bots(db: Database, ladder: TournamentRow, texts: Sequence[str]) -> list[tuple[str, str]]:
    """Register and enter bots given as manifests, folders or addresses: ``(label, what changed)``.

    :raises TournamentError: for an argument that names no bot, or one that does not play the game.
    :raises StorageError: for a bot registered before with other files.
    """
    return enter_specs(db, ladder, expand_bots(texts, ladder.game)[0])


def enter_specs(db: Database, ladder: TournamentRow, specs: Sequence[BotSpec]) -> list[tuple[str, str]]:
    """Register each bot and add it to ``ladder``: ``(label, change)`` for each.

    :raises BotConflictError: if a bot's files differ from those registered for its name and version.
    """
    done = []
    for spec in specs:
        row = register(db, spec)
        done.append((row.label, store.add_entrant(db, ladder.id, row.id, spec.address)))
    return done


def enter_bosses(db: Database, ladder: TournamentRow, texts: Sequence[str]) -> None:
    """Mark the bots ``texts`` name as the ladder's reference bots, entering those that are not
    entrants yet (one removed by hand stays removed: it is still marked)."""
    present = {e.bot_id for e in store.entrants(db, ladder.id)}
    for spec in expand_bots(texts, ladder.game)[0]:
        row = register(db, spec)
        if row.id not in present:
            store.add_entrant(db, ladder.id, row.id, spec.address)
        store.set_boss(db, ladder.id, row.id)


def open_ladder(db: Database, spec: LadderSpec, config: ServiceConfig) -> tuple[TournamentRow, bool]:
    """The ladder's tournament row, created (with the config's bots entered) if new; its time
    control, sandbox and seats are the config's, and its bosses are entered and marked
    (:func:`enter_bosses`).  Returns it and whether it was created.

    :raises LadderError: if a ladder of that name plays another game.
    """
    options = {"kind": "ladder", "seats": list(spec.seats), "keep_alive": config.keep_alive,
               "sandbox": config.sandbox.to_dict(), "format": "ladder"}
    if spec.rating is not None:
        options["rating"] = spec.rating
    tc = dataclasses.asdict(config.time_control)
    existing = [t for t in store.ladders(db) if t.name == spec.name]
    if existing:
        ladder = existing[0]
        if (ladder.game, ladder.variant) != (spec.game, spec.variant):
            raise LadderError(f"ladder {spec.name!r} in {db.path} plays {ladder.game} ({ladder.variant}), "
                              f"not {spec.game} ({spec.variant}); give this one another name")
        merged = {**ladder.options, **options}
        with db.transaction():
            db.conn.execute("UPDATE tournaments SET options = ?, time_control = ?, table_size = ? WHERE id = ?",
                            (_json(merged), _json(tc), spec.seats[1], ladder.id))
        enter_bosses(db, db.tournament(ladder.id), spec.bosses)
        return db.tournament(ladder.id), False
    bots, _ = expand_bots(spec.bots, spec.game)  # a bad bot is an error before the ladder is created
    expand_bots(spec.bosses, spec.game)
    cls = game_class(spec.game)
    kind = "teams" if cls.teams else "two_seat" if cls.max_players == 2 else "free_for_all"
    tid = db.create_tournament(name=spec.name, game=spec.game, variant=spec.variant,
                               settings=dict(cls(variant=spec.variant, num_players=spec.seats[0],
                                                 settings=spec.settings).settings),
                               format=kind, table_size=spec.seats[1], rounds=0, duplicate=True,
                               seed=secrets.randbits(LADDER_SEED_BITS) if spec.seed is None else spec.seed,
                               time_control=tc, options={"rating": NEW_LADDER_RATING, **options, "addresses": {}},
                               bot_ids=[], matches=[])
    enter_specs(db, db.tournament(tid), bots)
    enter_bosses(db, db.tournament(tid), spec.bosses)
    return db.tournament(tid), True


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class Ladder:
    """One running ladder: its queue of the current set, its matches in play, its bookkeeping."""

    def __init__(self, db: Database, tournament: TournamentRow, sandbox: SandboxConfig, requested: SandboxConfig,
                 say: Callable[[str], None], policy: Policy = Policy()) -> None:
        self.db = db
        self.t = tournament
        self.cls = game_class(tournament.game)
        self.seats: tuple[int, int] = tuple(tournament.options["seats"])  # type: ignore[assignment]
        self.tc = TimeControl(**tournament.time_control)
        self.sandbox = sandbox
        self.requested = requested
        self.say = say
        self.rating = store.ladder_rating(tournament)
        self.policy = dataclasses.replace(policy, new_sigma=SCORE_NEW_SIGMA) \
            if self.rating == score_ratings.MODEL and policy.new_sigma == Policy().new_sigma else policy
        self.scores = score_ratings.Accumulator()
        """The score model's sums over the played matches up to the lowest in play (score ladders)."""
        self.queue: deque[MatchJob] = deque()
        self.stopping = False
        self.lost: list[int] = []
        """Matches that failed after the stop began (their worker was killed with the ladder): dropped."""
        self.in_play: dict[int, tuple[int, ...]] = {}
        """Match id -> bot ids by seat, for every match appended and not yet back."""
        self.specs: dict[int, tuple[BotSpec, str]] = {}
        """Per active entrant: how to reach it and its registered files hash (checked where it starts)."""
        self.active: list[store.EntrantRow] = []
        self.last_forfeit: dict[int, str] = {}
        self.recent: dict[int, deque[tuple[float, bool]]] = {}
        """Per bot, when each of its last :data:`RECENT` matches here finished and whether it forfeited."""
        self.stored_at: deque[float] = deque()
        """When each match stored in the last :data:`RATE_WINDOW_S` was stored."""
        self.waiting = ""
        """Why no set is scheduled (too few active entrants), or empty."""
        self.number = int(db.conn.execute("SELECT COALESCE(MAX(round) + 1, 0) FROM matches WHERE tournament_id = ?",
                                          (tournament.id,)).fetchone()[0])
        now = time.time()
        self.times: dict[int, list[float]] = {}
        seatings: dict[int, list[int]] = {}
        for match_id, bot, finished, duration, forfeited in db.conn.execute(
                "SELECT m.id, s.bot_id, m.finished_at, m.duration_s, s.forfeited FROM matches m JOIN match_seats s"
                " ON s.match_id = m.id WHERE m.tournament_id = ? AND m.status = 'done' ORDER BY m.id, s.seat",
                (tournament.id,)):
            seatings.setdefault(match_id, []).append(bot)
            self.recent.setdefault(bot, deque(maxlen=RECENT)).append((finished or now, bool(forfeited)))
            started = (finished or now) - (duration or 0.0)
            if started > now - policy.window:
                self.times.setdefault(bot, []).append(started)
        self.before: Counter[tuple[int, int]] = count_before(list(seatings.values()))
        if self.rating == score_ratings.MODEL:
            score_ratings.extend(self.scores, db, tournament.game, tournament.variant,
                                 score_ratings.current_estimator(tournament.game))

    # --- entrants ------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the entrants' states; reach new ones; drop queued matches of those not active."""
        addresses: dict[str, str] | None = None
        positions: dict[int, tuple[int, BotRow]] = {}
        active = []
        for entrant in store.entrants(self.db, self.t.id):
            if entrant.state != "active":
                continue
            if entrant.bot_id not in self.specs:
                if addresses is None:  # only a new (or resumed) entrant needs where and how to reach it
                    addresses = self.db.tournament(self.t.id).options.get("addresses", {})
                    positions = {row.id: (i, row) for i, row in enumerate(self.db.tournament_bots(self.t.id))}
                position, row = positions[entrant.bot_id]
                try:
                    self.specs[entrant.bot_id] = (spec_from_row(row, addresses.get(str(position))), row.files_hash)
                except TournamentError as error:
                    self.pause(entrant.bot_id, entrant.label, f"cannot be started: {error}")
                    continue
            active.append(entrant)
        self.active = active
        ids = {e.bot_id for e in active}
        dropped = [job.match_id for job in self.queue if not set(self.in_play[job.match_id]) <= ids]
        if dropped:
            self.queue = deque(job for job in self.queue if job.match_id not in dropped)
            for match_id in dropped:
                del self.in_play[match_id]
            store.drop_pending(self.db, self.t.id, dropped)

    def pause(self, bot_id: int, label: str, reason: str) -> None:
        self.specs.pop(bot_id, None)
        try:
            store.set_state(self.db, self.t.id, bot_id, "paused", reason)
        except store.EntrantStateError:  # removed meanwhile (`arena ladder remove`): it stays out
            return
        self.say(f"ladder {self.t.name}: paused {label}: {reason}")

    # --- scheduling ----------------------------------------------------------------------------
    def take(self, free: int) -> list[MatchJob]:
        """Up to ``free`` jobs: the rest of the current set, or the next set's first ones."""
        if not self.queue:
            self._schedule()
        return [self.queue.popleft() for _ in range(min(free, len(self.queue)))]

    def _schedule(self) -> None:
        low, high = self.seats
        n = len(self.active)
        if not self.can_seat():
            return
        size_rng = random.Random(f"ladder-size:{self.t.seed}:{self.number}")
        size = size_rng.randint(low, min(high, n)) if not self.cls.teams and self.cls.max_players > 2 else None
        ratings, stronger = self._ratings()
        entrants = [Entrant(e.bot_id, *ratings.get(e.bot_id, (MU, SIGMA)), joined=e.active_since,
                            times=tuple(self.times.get(e.bot_id, ()))) for e in self.active]
        now = time.time()
        try:
            fmt = format_for(min_players=self.cls.min_players, max_players=self.cls.max_players,
                             teams=self.cls.teams, num_bots=n, table_size=size)
            chosen = next_set(entrants, fmt, now=now, seed=self.t.seed, number=self.number, policy=self.policy,
                              before=self.before, stronger=stronger)
        except ScheduleError as error:
            self._wait(f"cannot schedule: {error}")
            return
        matches = [ScheduledMatch(tuple(seats), chosen.seed % SEED_LIMIT, self.number, self.number, rotation)
                   for rotation, seats in enumerate(chosen.seatings)]
        ids = store.append_matches(self.db, self.t, matches)
        self.number += 1
        count_before([m.seats for m in matches], self.before)
        cutoff = now - self.policy.window
        for match in matches:
            for bot in set(match.seats):
                self.times[bot] = [t for t in self.times.get(bot, []) if t > cutoff] + [now]
        for match_id, match in zip(ids, matches):
            self.in_play[match_id] = match.seats
            self.queue.append(MatchJob(
                match_id, MatchConfig(game=self.t.game, variant=self.t.variant, settings=self.t.settings,
                                      seed=match.seed, match_id=str(match_id), time_control=self.tc,
                                      sandbox=self.sandbox),
                tuple(self.specs[b][0] for b in match.seats), tuple(self.specs[b][1] for b in match.seats), 1,
                self.requested))

    def can_seat(self) -> bool:
        """Whether the active entrants fill a table; if not, say why (once)."""
        self._wait(store.waiting_note(store.table_needs(self.t), len(self.active)))
        return not self.waiting

    def _wait(self, why: str) -> None:
        """Note why the ladder plays nothing (``""``: it plays), and say so when that changes:
        a ladder that idles says why on stdout, not only in ``status``."""
        if why != self.waiting:
            self.say(f"ladder {self.t.name}: {why or 'playing'}")
        self.waiting = why

    # --- results -------------------------------------------------------------------------------
    def results(self, results: Sequence[JobResult], stored: set[int]) -> None:
        """Take back this ladder's results: rate what is stored, pause entrants that keep forfeiting."""
        mine = [r for r in results if r.match_id in self.in_play]
        if not mine:
            return
        seated: set[int] = set()
        now = time.time()
        for result in mine:
            bots = self.in_play.pop(result.match_id)
            if self.stopping and result.match_id not in stored:
                self.lost.append(result.match_id)
            if result.match_id in stored and result.record is not None:
                seated.update(bots)
                self.stored_at.append(now)
                self._note_forfeits(bots, result.record, result.match_id)
        self.update_ratings()
        active = {e.bot_id: e for e in self.active}
        for bot in sorted(seated & set(active)):
            since = [lost for finished, lost in self.recent[bot] if finished >= active[bot].active_since]
            if 2 * sum(since) > RECENT:  # counted since it was last resumed: a fixed bot starts afresh
                last = self.last_forfeit.get(bot, "")
                self.pause(bot, active[bot].label, f"forfeited {sum(since)} of its last {len(since)} "
                                                   f"matches" + (f" (last: {last})" if last else ""))

    def _note_forfeits(self, bots: Sequence[int], record: MatchRecord, match_id: int) -> None:
        """Add one stored match to its bots' recent outcomes; keep why a seat forfeited: the
        fault's kind and the match, never its detail, which may quote the bot (the reason is
        public on the ladder's page; ``arena show`` and the bot's author see the detail)."""
        for seat, bot in enumerate(bots):
            self.recent.setdefault(bot, deque(maxlen=RECENT)).append((time.time(), seat in record.forfeited))
        for seat in record.forfeited:
            faults = [f for f in record.faults if f.seat == seat]
            self.last_forfeit[bots[seat]] = f"{faults[-1].kind.value if faults else 'forfeited'} in match {match_id}"

    def per_minute(self, since: float) -> float:
        """Matches stored per minute over the last :data:`RATE_WINDOW_S` (or since ``since``)."""
        now = time.time()
        while self.stored_at and self.stored_at[0] < now - RATE_WINDOW_S:
            self.stored_at.popleft()
        return 60.0 * len(self.stored_at) / min(RATE_WINDOW_S, max(now - since, 1.0))

    def update_ratings(self) -> None:
        """Extend the ratings in id order up to the lowest match still in play (the stored
        TrueSkill table always, so it stays readable whatever the model; the score model's sums
        too on a score ladder)."""
        before = min(self.in_play, default=None)
        update_ratings(self.db, self.t.game, self.t.variant, before_id=before)
        if self.rating == score_ratings.MODEL:
            score_ratings.extend(self.scores, self.db, self.t.game, self.t.variant,
                                 score_ratings.current_estimator(self.t.game), before_id=before)

    def _ratings(self) -> tuple[dict[int, tuple[float, float]], Any]:
        """What the scheduler sees: ``bot -> (mu, sigma)`` and the LOS function, or ``None`` for
        TrueSkill's independent normals.  The score model's ratings are given in units of the
        game's noise (:data:`arena.scheduling.ladder.SCORE_NEW_SIGMA`); an entrant it has not
        rated yet is new (sigma above any mark) and even with everyone (LOS 0.5)."""
        if self.rating != score_ratings.MODEL:
            return current_ratings(self.db, self.t.game, self.t.variant), None  # a new version: its prior
        fitted = score_ratings.fit(self.scores)
        unit = fitted.noise if fitted.bots and fitted.noise > 0 else 1.0
        rated = {bot: (r.mu / unit, r.sigma / unit) for bot, r in fitted.ratings.items()}
        ratings = {e.bot_id: rated.get(e.bot_id, (0.0, 1e9)) for e in self.active}

        def stronger(a: int, b: int) -> float:
            return fitted.los(a, b) if a in rated and b in rated else 0.5
        return ratings, stronger

    def drop_queue(self) -> None:
        """Stopping: forget the matches not started (their rows are deleted)."""
        self.stopping = True
        ids = [job.match_id for job in self.queue]
        self.queue.clear()
        for match_id in ids:
            del self.in_play[match_id]
        store.drop_pending(self.db, self.t.id, ids)


# --- the service ---------------------------------------------------------------------------------
class LadderService:
    """Every ladder of one config as a :class:`arena.runs.loop.JobSource`."""

    def __init__(self, db: Database, ladders: Sequence[Ladder]) -> None:
        self.db = db
        self.ladders = list(ladders)
        self.turn = 0
        self.stopping = False
        self.started = time.time()
        self.refreshed = 0.0

    def take(self, free: int) -> list[MatchJob]:
        jobs: list[MatchJob] = []
        for _ in range(len(self.ladders)):
            if len(jobs) >= free:
                break
            ladder = self.ladders[self.turn % len(self.ladders)]
            self.turn += 1
            jobs += ladder.take(free - len(jobs))
        return jobs

    def exhausted(self) -> bool:
        return self.stopping

    def stop(self) -> None:
        self.stopping = True
        for ladder in self.ladders:
            ladder.drop_queue()

    def after_poll(self, results: Sequence[JobResult], stored: Sequence[int]) -> None:
        now = time.time()
        for ladder in self.ladders:
            ladder.results(results, set(stored))
        if now - self.refreshed >= REFRESH_S or results:
            self.refreshed = now
            if not self.stopping:
                for ladder in self.ladders:
                    ladder.refresh()
            self.write_status(os.getpid())

    def write_status(self, pid: int | None) -> None:
        for ladder in self.ladders:
            queued = {job.match_id for job in ladder.queue}
            store.write_status(self.db, ladder.t.id, pid=pid, started_at=self.started,
                               in_flight=sum(1 for m in ladder.in_play if m not in queued),
                               per_minute=ladder.per_minute(self.started), note=ladder.waiting)


@dataclass
class ServiceRun:
    """What :func:`run_ladders` did."""

    summary: RunSummary
    dropped_at_start: dict[str, int]
    """Per ladder: pending matches a previous process left behind (killed), deleted at start."""
    dropped_at_stop: int = 0
    """Matches abandoned at the stop (still running after ``stop_grace``), deleted."""


def run_ladders(db: Database, config: ServiceConfig, make_executor: Callable[[], Executor],
                say: Callable[[str], None] = lambda text: None) -> ServiceRun:
    """Run the config's ladders until Ctrl-C or SIGTERM; see the module docstring.

    :raises LadderError: if another process runs one of them, or the config does not fit the database.
    :raises SandboxError: if the sandbox is bwrap and bwrap does not work here.
    """
    requested = config.sandbox
    sandbox = requested.resolved()
    rows = []
    for spec in config.ladders:
        tournament, created = open_ladder(db, spec, config)
        if runner_alive(tournament.runner_pid):
            raise LadderError(f"ladder {spec.name!r} is being run by process {tournament.runner_pid}")
        rows.append((tournament, created))
    dropped = {}
    ladders = []
    for tournament, created in rows:
        dropped[tournament.name] = store.drop_pending(db, tournament.id)
        update_ratings(db, tournament.game, tournament.variant)
        db.set_tournament_status(tournament.id, "running", runner_pid=os.getpid())
        ladder = Ladder(db, db.tournament(tournament.id), sandbox, requested, say)
        ladder.refresh()
        ladders.append(ladder)
        say(f"ladder {tournament.name!r} ({tournament.game}, {tournament.variant}): "
            f"{'created' if created else 'resumed'}, {counted(len(ladder.active), 'active entrant')}"
            + (f"; {counted(dropped[tournament.name], 'unfinished match', 'unfinished matches')} of the last run"
               " dropped" if dropped[tournament.name] else ""))
        ladder.can_seat()  # too few entrants for a table: said now, not only in `status`
    service = LadderService(db, ladders)
    run = ServiceRun(RunSummary(0, 0, 0), dropped)
    start = time.monotonic()
    try:
        service.write_status(os.getpid())
        run_loop(db, service, run.summary, make_executor, grace=config.stop_grace,
                 on_stopping=lambda n: say(f"stopping: waiting up to {config.stop_grace:g} s for "
                                           f"{counted(n, 'running match', 'running matches')}"))
    finally:
        run.summary.elapsed_s = time.monotonic() - start
        for ladder in ladders:
            run.dropped_at_stop += store.drop_pending(db, ladder.t.id)
            lost = store.drop_pending(db, ladder.t.id, ladder.lost, failed=True)
            run.dropped_at_stop += lost
            run.summary.failed -= lost
            run.summary.errors = [e for e in run.summary.errors
                                  if not any(e.startswith(f"match {m}:") for m in ladder.lost)]
            update_ratings(db, ladder.t.game, ladder.t.variant)
            db.set_tournament_status(ladder.t.id, "stopped")
        service.write_status(None)
    return run
