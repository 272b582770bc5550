"""The web server's only access to the database: read-only connections and cached ratings.

Connections are opened with SQLite's ``mode=ro`` (:class:`arena.league.storage.Database`), so the
server cannot write even by mistake, and WAL lets it read while a tournament writes.
Request handlers run in a thread pool; each borrows an idle connection for its request,
with a time limit on its queries (:data:`QUERY_SECONDS`): a request that would read too much
ends in a clear error instead of keeping a core busy.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.league.queries import Leaderboard, current_table, rating_model, rating_signature, score_table
from arena.league.ratings import RatingPlan, RatingRow, plan_ratings
from arena.league.score_ratings import Accumulator, ScoreFit, current_estimator, extend, fit
from arena.league.storage import ConnectionPool, Database, QueryInterrupted

QUERY_SECONDS = 2.0
"""The longest a request may spend in the database."""
_CACHED_PLANS = 32
_CACHED_DERIVED = 256
"""Bot histories and head-to-head matrices (a few tens of kB each)."""
_CACHED_REPLAYS = 32
"""A 200-step replay is about 1 MB of JSON: at most this many are kept."""


class LruCache:
    """A small thread-safe least-recently-used map."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class QueryTooSlow(RuntimeError):
    """A request's queries ran past the time limit (a 503)."""


class ReadOnlyStore:
    """Pooled read-only connections to one database file.

    :raises StorageError: at construction, if the file is missing or not an arena database.
    """

    def __init__(self, path: str | Path, query_seconds: float = QUERY_SECONDS) -> None:
        self.path = Path(path)
        self.query_seconds = query_seconds
        self._pool = ConnectionPool(lambda: Database(self.path, readonly=True))
        self._plans = LruCache(_CACHED_PLANS)
        self._derived = LruCache(_CACHED_DERIVED)
        self.replays = LruCache(_CACHED_REPLAYS)
        """Encoded replays of played matches by ``(match id, view)``: a played match never changes."""
        self._score_sums: dict[tuple[str, str, str | None], Accumulator] = {}
        self._score_lock = threading.Lock()

    @contextmanager
    def connect(self) -> Iterator[Database]:
        """A connection for the length of one request; its queries stop at the time limit.

        :raises QueryTooSlow: if they ran past it (SQLite interrupts the running statement).
        """
        with self._pool.borrow() as db:
            try:
                with db.time_limit(self.query_seconds):
                    yield db
            except QueryInterrupted:
                raise QueryTooSlow(f"the database took longer than {self.query_seconds:g} s to answer this request; "
                                   f"narrow it (filters, a smaller page)") from None

    def ratings(self, db: Database, game: str, variant: str) -> RatingPlan:
        """The up-to-date ratings of a game, recomputed only when a match was played since.

        Results only grow (a played match never changes), so the count and largest id of
        the played matches identify the ratings.
        """
        return self._cached(db, game, variant)[0]

    def table(self, db: Database, game: str, variant: str) -> list[RatingRow]:
        """The up-to-date rating table (statistics included), cached like :meth:`ratings`."""
        return self._cached(db, game, variant)[1]

    def per_table(self, db: Database, game: str, variant: str, key: Hashable, compute: Callable[[], Any]) -> Any:
        """``compute()``, kept until a match of ``game``/``variant`` is played (as the ratings are):
        for what depends on a game's results only, such as a bot's rating history."""
        full = (game, variant, *rating_signature(db, game, variant), key)
        found = self._derived.get(full)
        if found is None:
            found = compute()
            self._derived.put(full, found)
        return found

    def board(self, db: Database, game: str, variant: str, model: str | None = None) -> Leaderboard:
        """The game's leaderboard under ``model`` (default: its own,
        :func:`arena.league.queries.rating_model`), cached like :meth:`ratings`."""
        model = model or rating_model(db, game, variant)
        if model != "score":
            return Leaderboard(model, self.table(db, game, variant))
        return self.per_table(db, game, variant, "score", lambda: self._score_board(db, game, variant))

    def _score_board(self, db: Database, game: str, variant: str) -> Leaderboard:
        with db.time_limit(None):  # once per table, as the TrueSkill plan
            fitted = self._score_fit(db, game, variant)
            return Leaderboard("score", score_table(db, game, variant, fitted), fitted)

    def _score_fit(self, db: Database, game: str, variant: str) -> ScoreFit:
        """The score model's fit, its sums extended by the matches played since the last one (a
        refit from scratch if a match below the last one read was played since: a resumed
        tournament).  A luck report measured later for a match already read (``arena luck``)
        counts from the next refit from scratch (a restart of the server)."""
        estimator = current_estimator(game)
        with self._score_lock:
            key = (game, variant, estimator)
            sums = self._score_sums.get(key)
            if sums is None or db.count_done(game, variant, up_to_id=sums.last_id) != sums.matches + sums.skipped:
                sums = Accumulator()
            self._score_sums[key] = extend(sums, db, game, variant, estimator)
            return fit(sums, estimator=estimator)

    def _cached(self, db: Database, game: str, variant: str) -> tuple[RatingPlan, list[RatingRow]]:
        key = (game, variant, *rating_signature(db, game, variant))
        found: tuple[RatingPlan, list[RatingRow]] | None = self._plans.get(key)
        if found is None:
            # Once per table, not per request, and a table being played may have many matches
            # to rate since its last stored ratings: not under the request's time limit.
            with db.time_limit(None):
                plan = plan_ratings(db, game, variant, keep_history=True)
                found = (plan, current_table(db, game, variant, plan))
            self._plans.put(key, found)
        return found

    def close(self) -> None:
        self._pool.close()
