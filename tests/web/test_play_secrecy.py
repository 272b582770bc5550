"""Nothing the server sends while a match with a person runs lets anyone rebuild what a seat may
not see (issue 34, item 1): a whole short match of every game through the real server, the
real Play routes and real sample bots, with a person answering over HTTP and a stranger
reading every public route of the Play area at each decision.  No answer names the match's
seed (it gives every hand, the stock and the future dice), and none names a card hidden from
the person's seat at that moment (worked out from the engine's true state)."""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.web_auth import AccountsConfig
from games.yoninkan.rules_check import hidden_from
from referee.games import gin_rummy_melds as gm

from .play_helpers import PlayServer, Visitor, token_of
from .test_boards import _jass_hidden, _yaniv_hidden
from .test_play import FORM, RANDOM, assert_only_the_seats_view

pytestmark = pytest.mark.slow


def _gin_hidden(state: Any, seat: int) -> set[str]:
    """The stock, and the other hand but for the cards it took from the discards (public)."""
    other = state.hands[1 - seat] & ~state.took[1 - seat]
    return {gm.TEXTS[card] for card in state.stock} | {gm.TEXTS[c] for c in range(52) if other >> c & 1}


def _match_ids(listing: str) -> list[int]:
    return [int(found) for found in re.findall(r'href="/play/matches/(\d+)"', listing)]


def _read_public_routes(stranger: Visitor) -> None:
    """What any visitor may fetch while the match runs: the list, each match page and replay."""
    _, _, listing = stranger.request("/play/matches")
    for match_id in _match_ids(listing):
        stranger.request(f"/play/matches/{match_id}")
        for view in ("table", "0", "1"):
            stranger.request(f"/api/play/matches/{match_id}/replay?view={view}")


def _names_the_seed(text: str, seed: int) -> bool:
    return re.search(rf"(?<![\d.]){seed}(?![\d.])", text) is not None


@pytest.mark.parametrize(("game", "settings", "opponents", "seat", "hidden_of"), [
    ("gin_rummy", "max_hands=1", 1, 0, _gin_hidden),
    ("jass", "max_hands=1", 3, 2, _jass_hidden),
    ("yahtzee", "", 1, 1, None),  # dice, no cards: its secret is the seed (the dice to come)
    ("yaniv", "max_rounds=1,max_turns_per_round=16", 1, 1, _yaniv_hidden),
    ("yoninkan", "games=2", 3, 2, hidden_from),
])
def test_nothing_sent_while_a_person_plays_gives_away_the_seed_or_a_hidden_card(
        tmp_path: Path, game: str, settings: str, opponents: int, seat: int, hidden_of: Any) -> None:
    with PlayServer(tmp_path) as server:
        person, stranger = Visitor(server), Visitor(server)
        status, url, body = person.start(game, [RANDOM] * opponents, seat=seat, settings=settings)
        assert status == 200, body
        token = token_of(url)
        person.request(f"/play/{token}")

        def choose(state: dict[str, Any]) -> int:
            _read_public_routes(stranger)
            person.request("/play/matches")  # the person may look around too
            return len(state["pending"]["actions"]) - 1

        final, states = person.play_out(token, choose=choose)
        assert final["status"] == "done", final
        with Database(server.config.db_path, readonly=True) as db:
            match = db.match(final["match_id"])
            record = db.match_record(match.id)
        assert record is not None and record.seed == match.seed
        while_running = person.seen + stranger.seen
        assert any(f"/play/matches/{match.id}" in text for text in stranger.seen)  # the stranger saw it listed
        assert not [text[:200] for text in while_running if _names_the_seed(text, match.seed)]
        # Once it is over, its page gives the seed (the deal can be replayed).
        assert _names_the_seed(stranger.request(f"/play/matches/{match.id}")[2], match.seed)
    if hidden_of is not None:
        # A short match (Yoninkan's deal is random at Play) may give the seat only a decision or two.
        assert_only_the_seats_view(record, seat, final["players"], states, while_running, hidden_of, at_least=1)


def test_an_invitation_is_refused_to_its_openers_account_in_another_browser(tmp_path: Path) -> None:
    """With --accounts, the opener cannot take the invited seat from a second browser while
    signed in; a second browser that is not signed in can (docs/play.md says so)."""
    with PlayServer(tmp_path, accounts=AccountsConfig()) as server:
        with Database(server.ladder) as db:
            token = accounts.add_user(db, "ann")[1]
        signed_in = {"Authorization": f"Bearer {token}"}
        host = Visitor(server)
        host.form("gin_rummy")
        fields = [("csrf", host.csrf), ("game", "gin_rummy"), ("seat", "0"), ("settings", "max_hands=1"),
                  ("opponent", "invite")]
        status, url, body = host.request("/play", urllib.parse.urlencode(fields).encode(), {**FORM, **signed_in})
        assert status == 200, body
        invite = host.state(token_of(url))["invite"]
        for account in (signed_in, {}):  # the opener's account, then a browser not signed in
            browser = Visitor(server)  # a fresh cookie: to the server, another visitor
            browser.form("gin_rummy")
            form = urllib.parse.urlencode({"csrf": browser.csrf}).encode()
            status, url, body = browser.request(invite, form, {**FORM, **account})
            if account:
                assert status == 429 and "your own match" in body
            else:
                assert status == 200 and browser.state(token_of(url))["seat"] == 1


def test_the_play_database_may_not_be_the_served_one(tmp_path: Path) -> None:
    """Under any spelling: the same path, another path to it, a symbolic or a hard link."""
    from click.testing import CliRunner

    from arena.cli import main
    from arena.league.storage import StorageError
    from arena.web.play import PlayConfig, PlayManager

    ladder = tmp_path / "ladder.db"
    Database(ladder).close()
    (tmp_path / "sub").mkdir()
    (tmp_path / "symlink.db").symlink_to(ladder)
    (tmp_path / "hardlink.db").hardlink_to(ladder)
    spellings = [ladder, tmp_path / "sub" / ".." / "ladder.db", tmp_path / "symlink.db", tmp_path / "hardlink.db"]
    for play_db in spellings:
        with pytest.raises(StorageError, match="is the served database"):
            PlayManager(PlayConfig(db_path=play_db, ladder=ladder))
    result = CliRunner().invoke(main, ["serve", "--db", str(ladder), "--play", "--play-db", str(spellings[2])])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "is the served database" in result.output and "give --play-db another file" in result.output
