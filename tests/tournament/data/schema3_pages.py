"""What a schema-3 league shows: the fixture's expected pages, replays and ratings.

``python -m tests.tournament.data.schema3_pages DB OUT.json`` wrote ``schema3_expected.json``
from ``schema3.sql`` with arena at commit 5ba8e93 (schema 3, before schema 4); the test of
schema 4's migration (``test_schema4.py``) computes the same from the migrated file.
"""

from __future__ import annotations

import hashlib
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from arena.league.ratings import RatingRow, plan_ratings, rating_history, rating_table
from arena.league.storage import Database
from referee.replay import replay
from tests.web.conftest import Server


def digest(data: Any) -> str:
    text = data if isinstance(data, (str, bytes)) else json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _old_repr(row: RatingRow) -> str:
    """A TrueSkill row as arena wrote it before rows named their model (issue 35), so the digests
    taken then still compare: the numbers must not change, only the field was added."""
    assert row.model == "trueskill", row
    return repr(row).replace(", model='trueskill'", "")


def league_view(path: Path) -> dict[str, Any]:
    """Per match: the record, its replay (every state seen) and its pages, as digests; the
    ratings and every bot's rating history; read through a read-only connection and the web app."""
    view: dict[str, Any] = {"records": {}, "replays": {}, "pages": {}, "ratings": {}, "histories": {}}
    with Database(path, readonly=True) as db:
        matches = db.matches()
        for m in matches:
            record = db.match_record(m.id)
            view["records"][str(m.id)] = None if record is None else digest(record.dumps())
            if record is not None:
                states: list[str] = []
                report = replay(record, lambda n, state: states.append(repr(state.observe(0))))
                view["replays"][str(m.id)] = digest([report.problems, states])
        for game, variant in db.game_variants():
            plan = plan_ratings(db, game, variant)
            view["ratings"][f"{game}/{variant}"] = digest([_old_repr(r) for r in rating_table(db, game, variant)])
            for bot in db.bots():
                view["histories"][f"{game}/{variant}/{bot.id}"] = digest(
                    rating_history(db, game, variant, bot.id, plan))
        bots = [b.id for b in db.bots()]
        games = db.game_variants()
    urls = ["/", "/matches", "/tournaments", "/api/matches"] + [f"/bots/{b}" for b in bots]
    urls += [f"/games/{g}/{v}" for g, v in games] + [f"/games/{g}/{v}/h2h" for g, v in games]
    for m in matches:
        urls += [f"/matches/{m.id}", f"/api/matches/{m.id}"]
        if m.status != "pending":
            urls += [f"/api/matches/{m.id}/replay", f"/api/matches/{m.id}/replay?view=0"]
    with Server(path) as server:
        for url in urls:
            try:
                with urllib.request.urlopen(server.url + url, timeout=30) as response:
                    view["pages"][url] = digest(response.read())
            except urllib.error.HTTPError as error:  # a record held back, say: the same before and after
                view["pages"][url] = f"HTTP {error.code}"
    return view


if __name__ == "__main__":
    Path(sys.argv[2]).write_text(json.dumps(league_view(Path(sys.argv[1])), indent=1, sort_keys=True) + "\n")
