"""``arena serve --hide-replays`` over a real server: every route that serves a match's record
or moves answers 404 to anonymous visitors and to other authors, and serves admins and the
authors of a bot that sat in the match (signed in, or with a Bearer token); lists and results
stay public.

The league: a real Yahtzee tournament (tables of 2) of ``ant``, ``bee`` and ``cat``.  bob
submitted ``ant`` (a real upload through :func:`receive`, then marked ``active`` on a ladder as
the worker's entry step marks it: the worker itself would play validation matches for minutes);
carol submitted ``dog``, which never played; alice is an admin."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.archive import pack
from arena.submission.submissions import receive
from arena.submission.web_auth import AccountsConfig
from tournament.helpers import write_bot

from .conftest import Server, arena
from .test_sign_in import Client


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], dict[str, int]]:
    """The league file, the users' tokens, and a match of each kind: ``ant`` (ant sat in it)
    and ``no_ant`` (bee against cat)."""
    folder = tmp_path_factory.mktemp("hidden")
    bots = [write_bot(folder / "bots" / name, name) for name in ("ant", "bee", "cat", "dog")]
    db = folder / "league.db"
    arena("tournament", "run", "--game", "yahtzee", *[a for bot in bots[:3] for a in ("--bot", str(bot))],
          "--table-size", "2", "--rounds", "1", "--workers", "1", "--sandbox", "none", "--seed", "3", "--quiet",
          "--db", str(db))
    tokens = {}
    with Database(db) as conn:
        for name in ("alice", "bob", "carol"):
            tokens[name] = accounts.add_user(conn, name, admin=name == "alice")[1]
        for author, bot in (("bob", bots[0]), ("carol", bots[3])):
            sub, _ = receive(conn, folder / "data", accounts.user(conn, author), pack(bot))
            with conn.transaction():
                # As if uploaded for a ladder and entered (only such a submission claims a league bot).
                conn.conn.execute("UPDATE submissions SET state = 'active', ladder = 'league' WHERE id = ?", (sub.id,))
        matches = {}
        for match_id, names in conn.conn.execute(
                "SELECT s.match_id, group_concat(b.name) FROM match_seats s JOIN bots b ON b.id = s.bot_id"
                " GROUP BY s.match_id ORDER BY s.match_id"):
            matches.setdefault("ant" if "ant" in names.split(",") else "no_ant", match_id)
    assert set(matches) == {"ant", "no_ant"}
    return db, tokens, matches


@pytest.fixture(scope="module")
def hidden(league) -> Iterator[Server]:
    with Server(league[0], accounts=AccountsConfig(), hide_replays=True) as running:
        yield running


RECORD_ROUTES = ["/matches/{}", "/api/matches/{}", "/api/matches/{}/replay?view=table",
                 "/api/matches/{}/replay?view=0&from=0&count=5"]
"""Every route of the league that serves a record or its moves."""


def status_of(client: Client, path: str, token: str = "") -> int:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.request("GET", path, headers=headers)[0]


def test_records_are_for_admins_and_authors_of_a_seated_bot_only(hidden: Server, league) -> None:
    _, tokens, matches = league
    anonymous, bob, carol, alice = Client(hidden), Client(hidden), Client(hidden), Client(hidden)
    for client, name in ((bob, "bob"), (carol, "carol"), (alice, "alice")):
        assert client.sign_in(name, tokens[name])[0] == 303
    # An admin first, so the replays are cached: a kept replay must be no less hidden.
    for route in RECORD_ROUTES:
        for match in matches.values():
            path = route.format(match)
            assert status_of(alice, path) == 200, path
            assert status_of(Client(hidden), path, tokens["alice"]) == 200, path
    for route in RECORD_ROUTES:
        ant, no_ant = route.format(matches["ant"]), route.format(matches["no_ant"])
        assert status_of(bob, ant) == 200 and status_of(Client(hidden), ant, tokens["bob"]) == 200, ant
        for client, token in ((anonymous, ""), (carol, ""), (Client(hidden), tokens["carol"]), (bob, ""),
                              (Client(hidden), tokens["bob"])):
            for path in ((no_ant,) if client is bob or token == tokens["bob"] else (ant, no_ant)):
                status, _, body = client.request("GET", path, headers={"Authorization": f"Bearer {token}"}
                                                 if token else {})
                assert status == 404 and "hidden on this server" in body, (path, token[:10])
                assert '"moves"' not in body and '"steps"' not in body
    status, _, body = anonymous.request("GET", f"/api/matches/{matches['ant']}",
                                        headers={"Authorization": "Bearer arena_nonsense"})
    assert status == 401  # a bad token is refused as everywhere, not taken for a stranger
    assert status_of(anonymous, "/api/matches/99999") == 404 and status_of(anonymous, "/matches/99999") == 404


def test_lists_and_results_stay_public(hidden: Server, league) -> None:
    _, _, matches = league
    anonymous = Client(hidden)
    status, _, body = anonymous.request("GET", "/api/matches")
    listed = {m["id"]: m for m in json.loads(body)["matches"]}
    assert status == 200 and set(matches.values()) <= set(listed)
    assert all(s["rank"] is not None and s["score"] is not None for s in listed[matches["ant"]]["seats"])
    for path in ("/matches", "/", "/tournaments/1", "/api/tournaments/1", "/games/yahtzee/yahtzee",
                 "/api/games/yahtzee/yahtzee/ratings"):
        status, _, body = anonymous.request("GET", path)
        assert status == 200, path
    assert f'href="/matches/{matches["ant"]}"' in anonymous.request("GET", "/matches")[2]


def test_without_the_option_records_are_public(league) -> None:
    db, _, matches = league
    with Server(db, accounts=AccountsConfig()) as server:
        for route in RECORD_ROUTES:
            assert status_of(Client(server), route.format(matches["no_ant"])) == 200, route
    with Server(db, hide_replays=True) as server:  # without accounts there is nobody to show them to
        for route in RECORD_ROUTES:
            assert status_of(Client(server), route.format(matches["ant"])) == 404, route


@pytest.mark.slow
def test_the_play_areas_records_are_hidden_too(tmp_path: Path) -> None:
    """A match with a person records the league's bots' moves as any other."""
    from .play_helpers import PlayServer, Visitor, token_of

    with PlayServer(tmp_path, accounts=AccountsConfig(), hide_replays=True) as server:
        with Database(server.ladder) as db:
            admin = accounts.add_user(db, "alice", admin=True)[1]
        person = Visitor(server)
        status, url, body = person.start("yahtzee", ["sample:random_bot"], seat=1)
        assert status == 200, body
        final, _ = person.play_out(token_of(url))
        match_id = final["match_id"]
        for path in (f"/play/matches/{match_id}", f"/api/play/matches/{match_id}/replay?view=1"):
            status, _, body = person.request(path)
            assert status == 404 and "hidden on this server" in body, path
            status, _, body = person.request(path, headers={"Authorization": f"Bearer {admin}"})
            assert status == 200, path
        status, _, listing = person.request("/play/matches")
        assert status == 200 and f'href="/play/matches/{match_id}"' in listing
