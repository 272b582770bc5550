"""A person plays in a real browser (Debian's Chromium through Playwright) against real sample
bots through the real referee: a whole Yahtzee game and a whole Gin Rummy hand by clicks, a
Jass trick by keyboard, a closed tab forfeiting after its timeouts.  Screenshots of every
game's board, as the person's seat and as the stored match's full table, go to the test's
temporary folder."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from arena.league.storage import Database
from referee.bots import bot_files_hash, resolve_bot

from .conftest import XSS_NAME, XSS_VERSION, write_commenter
from .play_helpers import PlayServer, Visitor, token_of

pytestmark = pytest.mark.slow
RANDOM = "sample:random_bot"
XSS_LABEL = f"{XSS_NAME}@{XSS_VERSION}"


def start_in_browser(page: Any, server: PlayServer, game: str, opponents: int, seat: int = 0,
                     settings: str = "", opponent: str = RANDOM) -> None:
    """Fill in the Play form like a person and start: the page is then the seat's table."""
    page.goto(f"{server.url}/play?game={game}")
    slots = page.locator("select[name=opponent]")
    for slot in range(slots.count()):
        slots.nth(slot).select_option(opponent if slot < opponents else "")
    page.locator("select[name=seat]").select_option(str(seat))
    page.locator("textarea[name=settings]").fill(settings)
    page.locator("#start").click()
    page.wait_for_url(f"{server.url}/play/*")


def wait_turn_or_end(page: Any, timeout: float = 20) -> bool:
    """Wait until the person has actions to click (True) or the match is over (False)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if page.locator("#result").is_visible():
            return False
        if page.locator("#actions:not(.sent) button").count() and page.locator("#actions-box").is_visible():
            return True
        page.wait_for_timeout(20)
    raise AssertionError("neither a decision nor the end came")


def finish(page: Any) -> tuple[str, str]:
    """The result box's text and the replay link, once the match is over."""
    page.locator("#result").wait_for(state="visible", timeout=20_000)
    assert page.locator("#status").get_attribute("data-status") == "done"
    link = page.locator("#replay-link")
    return page.locator("#result").inner_text(), str(link.get_attribute("href"))


def test_a_whole_yahtzee_game_by_clicks_against_a_bot_with_an_html_name(page: Any, tmp_path: Path) -> None:
    spec = resolve_bot(str(write_commenter(tmp_path / "xss_bot")))
    with Database(tmp_path / "ladder.db") as ladder:
        xss = ladder.register_bot(name=spec.name, version=spec.version, author=spec.author, language=spec.language,
                                  files_hash=bot_files_hash(spec), manifest=str(spec.manifest))
    with PlayServer(tmp_path) as server:
        start_in_browser(page, server, "yahtzee", 1, seat=1, opponent=f"bot:{xss.id}")
        assert page.locator("#players li").first.inner_text() == XSS_LABEL  # text, not markup
        clicks = 0
        while wait_turn_or_end(page):
            if clicks == 0:  # the first decision: pick two dice, and Enter sends their reroll
                page.screenshot(path=str(tmp_path / "play-yahtzee.png"), full_page=True)
                assert "your clock: " in page.locator("#clock").inner_text()
                dice = page.locator("#board svg.dice [data-value]")
                picked = sorted([dice.nth(0).get_attribute("data-value"), dice.nth(3).get_attribute("data-value")])
                dice.nth(0).click()
                dice.nth(3).click()
                assert page.locator("#actions button.selected").inner_text().endswith(f"reroll {' '.join(picked)}")
                page.keyboard.press("Enter")
                clicks += 1
                continue
            buttons = page.locator("#actions button")
            texts = buttons.all_inner_texts()
            choice = next((i for i, text in enumerate(texts) if " score " in f" {text} " or "score" in text), 0)
            buttons.nth(choice).click()
            clicks += 1
        text, replay = finish(page)
        assert clicks >= 14 and "(you)" in text
        with Database(server.config.db_path, readonly=True) as db:
            record = db.match_record(int(replay.rsplit("/", 1)[1]))
        assert record is not None and record.faults == []
        assert [m.action for m in record.moves if m.seat == 1][0] == f"reroll {' '.join(picked)}"
        page.goto(server.url + replay)
        page.locator("#step-counter[data-last]").wait_for(timeout=10_000)
        assert "with a person" in page.locator("h1").inner_text()
        assert page.dialogs == [] and page.errors == []


def test_a_whole_gin_rummy_hand_by_clicks_on_cards_and_buttons(page: Any, tmp_path: Path) -> None:
    with PlayServer(tmp_path) as server:
        start_in_browser(page, server, "gin_rummy", 1, settings="max_hands=1")
        card_clicks = button_clicks = 0
        while wait_turn_or_end(page):
            texts = [re.sub(r"^\d\. ", "", text) for text in page.locator("#actions button").all_inner_texts()]
            discards = [text.split()[1] for text in texts if text.startswith("discard ")]
            single = [card for card in discards if discards.count(card) == 1]
            if single:  # a card of the hand that only one action names: click the card itself
                page.locator(f"#board [data-card='{single[0]}']").first.click()
                card_clicks += 1
            else:
                page.locator("#actions button").first.click()
                button_clicks += 1
        text, replay = finish(page)
        assert card_clicks >= 3 and button_clicks >= 3 and "(you)" in text
        with Database(server.config.db_path, readonly=True) as db:
            record = db.match_record(int(replay.rsplit("/", 1)[1]))
        assert record is not None and record.faults == [] and record.termination in ("normal", "cap")
        assert sum(1 for move in record.moves if move.seat == 0) == card_clicks + button_clicks
        assert page.dialogs == [] and page.errors == []


def test_a_jass_trick_by_keyboard(page: Any, tmp_path: Path) -> None:
    with PlayServer(tmp_path) as server:
        start_in_browser(page, server, "jass", 3, seat=0, settings="max_hands=1")
        keys = 0
        while "takes trick 1 " not in page.locator("#events").inner_text():
            assert wait_turn_or_end(page), "the match ended before a trick"
            before = page.locator("#actions button").count()
            if keys % 2:
                page.keyboard.press("ArrowDown")  # the selection moves down, then Enter sends it
                assert page.locator("#actions button.selected").get_attribute("data-index") == str(1 % before)
                page.keyboard.press("Enter")
            else:
                page.keyboard.press("1")
            keys += 1
            page.locator("#actions.sent, #actions-box[hidden]").first.wait_for(state="attached", timeout=5000)
            assert keys < 40
        page.screenshot(path=str(tmp_path / "play-jass-trick.png"), full_page=True)
        assert keys >= 1 and page.dialogs == [] and page.errors == []


def test_a_person_who_closes_the_tab_forfeits_after_the_timeouts(browser: Any, tmp_path: Path) -> None:
    with PlayServer(tmp_path, move_timeout=1.0) as server:
        context = browser.new_context()
        page = context.new_page()
        start_in_browser(page, server, "yahtzee", 1)
        assert wait_turn_or_end(page)
        page.close()  # nobody polls or answers any more: the referee's clock decides
        with Database(server.config.db_path, readonly=True) as db:
            (match,) = db.matches()
            end = time.monotonic() + 120  # a wait for the end, generous for a busy machine
            while db.match(match.id).status != "done":
                assert time.monotonic() < end, "the abandoned match did not end"
                time.sleep(0.2)
            record = db.match_record(match.id)
        context.close()
    assert record is not None and record.forfeited == [0] and record.ranking[0] == 1
    assert [f.kind.value for f in record.faults] == ["timeout"] * 3
    # "...; forfeited: seat 0 (human)", or "seat 1 (...) wins: seat 0 (human) forfeited (...)" when
    # the person was ahead on points when the tab closed.
    assert "forfeited: seat 0 (human)" in record.reason or "wins: seat 0 (human) forfeited" in record.reason


GAMES = [("yahtzee", 1, ""), ("gin_rummy", 1, "max_hands=1"), ("jass", 3, "max_hands=1"),
         ("yaniv", 2, "max_rounds=1"), ("yoninkan", 3, "games=1")]


@pytest.mark.parametrize(("game", "opponents", "settings"), GAMES)
def test_every_games_board_as_the_seat_and_as_the_stored_full_table(page: Any, tmp_path: Path, game: str,
                                                                    opponents: int, settings: str) -> None:
    with PlayServer(tmp_path) as server:
        start_in_browser(page, server, game, opponents, seat=1, settings=settings)
        assert wait_turn_or_end(page)
        board = page.locator("#board")
        assert board.locator("svg").count() > 0
        board.screenshot(path=str(tmp_path / f"play-{game}-seat.png"))
        page.screenshot(path=str(tmp_path / f"play-{game}-page.png"), full_page=True)
        token = token_of(page.url)
        person = Visitor(server)  # the browser's cookie: the same visitor plays on over HTTP
        for cookie in page.context.cookies():
            person.jar.set_cookie(_cookie(cookie))
        person.csrf = str(page.locator("#play").get_attribute("data-csrf"))
        final, _ = person.play_out(token)
        assert final["status"] == "done"
        page.goto(f"{server.url}/play/matches/{final['match_id']}")
        page.locator("#step-counter[data-last]").wait_for(timeout=10_000)
        last = page.locator("#step-counter").get_attribute("data-last")
        page.keyboard.press("End")
        page.locator(f"#step-counter[data-step='{last}']").wait_for(timeout=10_000)
        page.locator("#board").screenshot(path=str(tmp_path / f"play-{game}-table.png"))
        page.locator("#view").select_option("1")
        page.locator(f"#step-counter[data-step='{last}']").wait_for(timeout=10_000)
        assert page.locator("#board *").count() > 0
        page.locator("#board").screenshot(path=str(tmp_path / f"play-{game}-replay-seat.png"))
        assert page.dialogs == [] and page.errors == []


def _cookie(cookie: dict[str, Any]) -> Any:
    """A Playwright cookie as an http.cookiejar one."""
    import http.cookiejar

    return http.cookiejar.Cookie(0, cookie["name"], cookie["value"], None, False, cookie["domain"], True, False,
                                 cookie["path"], True, False, None, False, None, None, {})


def test_the_invitation_link_seats_a_second_person_in_another_browser(browser: Any, page: Any,
                                                                      tmp_path: Path) -> None:
    with PlayServer(tmp_path) as server:
        start_in_browser(page, server, "gin_rummy", 1, seat=1, settings="max_hands=1", opponent="invite")
        link = page.locator("#invite")
        link.wait_for(state="visible", timeout=10_000)
        assert link.inner_text() == server.url + str(link.get_attribute("href"))
        guest_context = browser.new_context()
        try:
            guest = guest_context.new_page()
            guest.goto(link.inner_text())
            guest.locator("#join").click()
            guest.wait_for_url(f"{server.url}/play/*")
            assert guest.locator("h1").inner_text().endswith("you are seat 0")
            guest.locator("#board svg").first.wait_for(timeout=10_000)  # the guest's own seat view
            assert guest.locator("#players li.you").inner_text() == "human (you)"
            guest.screenshot(path=str(tmp_path / "play-invited-guest.png"), full_page=True)
            assert not guest.locator("#invite-box").is_visible() and page.locator("#invite-box").is_visible()
        finally:
            guest_context.close()
        assert page.dialogs == [] and page.errors == []
