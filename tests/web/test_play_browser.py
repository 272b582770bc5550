"""A person plays in a real browser (Debian's Chromium through Playwright) against real sample
bots through the real referee: a whole Yahtzee game and a whole Gin Rummy hand by clicks, a
Jass trick by keyboard, a closed tab forfeiting within seconds.  Screenshots of every
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
        assert page.locator("#players li").first.inner_text() == f"seat 0: {XSS_LABEL}"  # text, not markup
        clicks = 0
        while wait_turn_or_end(page):
            if clicks == 0:  # the first decision: pick two dice, and Enter sends their reroll
                page.screenshot(path=str(tmp_path / "play-yahtzee.png"), full_page=True)
                assert "your clock: " in page.locator("#clock").inner_text()
                dice = page.locator("#board svg.dice [data-value]")
                picked = sorted([dice.nth(0).get_attribute("data-value"), dice.nth(3).get_attribute("data-value")])
                # 36 legal actions, grouped: one Reroll button over the dice, then the boxes to score
                assert page.locator("#reroll[disabled]").count() == 1
                assert page.locator("#actions li.rerolls button").count() == 1
                assert page.locator("#actions li.scores button").count() <= 13
                assert "dice" in page.locator("#how").inner_text() and "card" not in page.locator("#how").inner_text()
                dice.nth(0).click()
                dice.nth(3).click()
                assert page.locator("#actions button.selected").inner_text() == f"1. Reroll {' '.join(picked)}"
                assert page.locator("#actions li.scores button").first.inner_text().startswith("2. score ")
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
            events = page.locator("#events").inner_text()
            if keys % 2:
                page.keyboard.press("ArrowDown")  # the selection moves down, then Enter sends it
                assert page.locator("#actions button.selected").get_attribute("data-index") == str(1 % before)
                page.keyboard.press("Enter")
            else:
                page.keyboard.press("1")
            keys += 1
            # Sent: the page marks it or, when the next decision is this seat's too (the trump choice,
            # then the lead), the move is already among the events.
            page.wait_for_function("events => document.querySelector('#actions.sent, #actions-box[hidden]') !== null"
                                   " || document.querySelector('#events').innerText !== events", arg=events,
                                   timeout=30000)
            assert keys < 40
        page.screenshot(path=str(tmp_path / "play-jass-trick.png"), full_page=True)
        assert keys >= 1 and page.dialogs == [] and page.errors == []


def test_a_person_who_closes_the_tab_forfeits_within_seconds_not_after_the_move_timeouts(browser: Any,
                                                                                       tmp_path: Path) -> None:
    """The closing page's beacon (pagehide) makes the seat leave after a short grace, as Leave
    does, although each decision would wait 120 s: not 3 x 120 s (docs/play.md, "A closed tab")."""
    with PlayServer(tmp_path, move_timeout=120.0, absent_timeout=60.0) as server:
        context = browser.new_context()
        page = context.new_page()
        start_in_browser(page, server, "yahtzee", 1)
        assert wait_turn_or_end(page)
        page.close(run_before_unload=True)  # as a person closes the tab: pagehide, then nobody asks
        closed = time.monotonic()
        with Database(server.config.db_path, readonly=True) as db:
            (match,) = db.matches()
            while db.match(match.id).status != "done":
                assert time.monotonic() - closed < 60, "the abandoned match did not end long before its 120 s clock"
                time.sleep(0.2)
            record = db.match_record(match.id)
        context.close()
    assert record is not None and record.forfeited == [0] and record.ranking[0] == 1
    assert [f.kind.value for f in record.faults] == ["error"] * 3  # left, not timed out
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
            assert guest.locator("#players li.you").inner_text() == "seat 0: human (you)"
            guest.screenshot(path=str(tmp_path / "play-invited-guest.png"), full_page=True)
            assert not guest.locator("#invite-box").is_visible() and page.locator("#invite-box").is_visible()
        finally:
            guest_context.close()
        assert page.dialogs == [] and page.errors == []


def test_the_jass_table_marks_playable_cards_says_why_not_asks_before_leaving_and_ranks_teams(
        page: Any, tmp_path: Path) -> None:
    with PlayServer(tmp_path) as server:
        page.goto(f"{server.url}/play?game=jass")
        assert page.locator("p.games a.current").inner_text() == "jass"
        page.set_viewport_size({"width": 1280, "height": 300})  # the events panel (80vh high) overflows
        start_in_browser(page, server, "jass", 3, seat=0, settings="max_hands=1")
        reason = ""
        for _ in range(10):  # a decision at a time, until a card of the hand cannot follow
            assert wait_turn_or_end(page), "the hand ended with every card playable"
            blocked = page.locator("#board .blocked")
            plays = [t for t in page.locator("#actions button").all_inner_texts() if " play " in f" {t[3:]}"]
            assert page.locator("#board .playable").count() == len(plays)
            if blocked.count() and plays:  # (while choosing the trump, every card waits: "first choose")
                blocked.first.click(position={"x": 4, "y": 30})  # cards overlap: the visible edge
                reason = page.locator("#card-note").inner_text()
                break
            page.keyboard.press("1")
            page.locator("#actions.sent, #actions-box[hidden]").first.wait_for(state="attached", timeout=5000)
        assert "you must follow" in reason or "under-trump" in reason, reason
        assert page.locator("#actions-box").is_visible()  # a refused card sends nothing
        assert re.fullmatch(r"your clock: \d+ s \(then 2 s of time bank\)", page.locator("#clock").inner_text())
        assert page.locator("#players li").all_inner_texts()[:2] == ["seat 0: human (you)", "seat 1: random@1.0"]
        aside = page.locator("#play aside")
        assert aside.evaluate("a => a.scrollHeight > a.clientHeight")
        assert aside.evaluate("a => a.scrollTop + a.clientHeight >= a.scrollHeight - 2")  # the newest event shows
        page.screenshot(path=str(tmp_path / "play-jass-why-not.png"), full_page=True)
        assert not page.locator("#leave-confirm").is_visible()
        page.locator("#leave").click()
        assert page.locator("#leave-confirm").is_visible() and page.locator("#actions-box").is_visible()
        page.locator("#leave-no").click()
        assert page.locator("#leave").is_visible()
        page.locator("#leave").click()
        page.locator("#leave-yes").click()
        text, _ = finish(page)
        places = page.locator("#result ol.ranks li")
        assert [places.nth(i).get_attribute("data-place") for i in range(places.count())] in (["1", "2"], ["1", "1"])
        assert all(line.split()[1] == "team" for line in places.all_inner_texts())
        assert "(forfeited)" in text and "#3" not in text
        page.goto(server.url + str(page.locator(".rules-link").first.get_attribute("href")))  # opens a new tab
        assert "Jass" in page.locator("article.rules h1").inner_text()
        assert page.dialogs == [] and page.errors == []


def test_the_form_offers_only_the_seats_of_the_players_chosen_and_keeps_a_refused_choice(page: Any,
                                                                                     tmp_path: Path) -> None:
    with PlayServer(tmp_path) as server:
        page.goto(f"{server.url}/play?game=yaniv")
        seats = page.locator("select[name=seat] option:not([disabled])")
        slots = page.locator("select[name=opponent]")
        for slot in range(1, slots.count()):
            slots.nth(slot).select_option("")
        assert seats.all_inner_texts() == ["seat 0", "seat 1"]  # you and the one opponent
        slots.nth(1).select_option(RANDOM)
        assert seats.all_inner_texts() == ["seat 0", "seat 1", "seat 2"]
        page.locator("select[name=seat]").select_option("2")
        page.locator("textarea[name=settings]").fill("max_rounds=many")
        page.locator("#start").click()
        page.locator("#form-error").wait_for()
        assert "max_rounds" in page.locator("#form-error").inner_text()
        assert page.locator("textarea[name=settings]").input_value() == "max_rounds=many"
        assert page.locator("select[name=seat]").input_value() == "2"
        assert page.locator("select[name=opponent]").nth(1).input_value() == RANDOM
        page.screenshot(path=str(tmp_path / "play-form-refused.png"), full_page=True)
        assert page.dialogs == [] and page.errors == []
