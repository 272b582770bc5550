"""Fixtures for the web tests: a database from real short tournaments, the server on a free
loopback port, and Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, Self
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOTS = ROOT / "sample_bots" / "python"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
XSS_NAME = "<script>alert(1)</script>"
XSS_VERSION = "<i>1</i>"
XSS_AUTHOR = '<b onmouseover="alert(3)">author</b>'
XSS_TOURNAMENT = "<script>alert(4)</script> cup"


def arena(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the real ``arena`` CLI in a subprocess."""
    result = subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True, cwd=ROOT,
                            timeout=300)
    if check and result.returncode != 0:
        raise AssertionError(f"arena {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


def write_commenter(folder: Path) -> Path:
    """The HTML-named bot whose every move carries an HTML comment (readable by the sandbox's user)."""
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    shutil.copy(Path(__file__).with_name("commenter_bot.py"), folder / "bot.py")
    (folder / "bot.toml").write_text(
        f"name = '{XSS_NAME}'\nversion = '{XSS_VERSION}'\nauthor = '{XSS_AUTHOR}'\nlanguage = 'python'\n"
        "command = ['{python}', 'bot.py']\ngames = ['*']\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def played_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a real Yahtzee tournament (3 bots, tables of 2) and a real Gin Rummy one."""
    folder = tmp_path_factory.mktemp("web-db")
    xss = write_commenter(folder / "xss_bot")
    db = folder / "arena.db"
    common = ["--rounds", "1", "--workers", "1", "--keep-alive", "--quiet", "--db", str(db)]
    arena("tournament", "run", "--game", "yahtzee", "--bot", str(SAMPLE_BOTS / "yahtzee_heuristic"),
          "--bot", str(SAMPLE_BOTS / "random_bot"), "--bot", str(xss), "--table-size", "2", "--seed", "3", *common)
    arena("tournament", "run", "--game", "gin_rummy", "--bot", str(SAMPLE_BOTS / "gin_heuristic"), "--bot", str(xss),
          "--seed", "4", "--name", XSS_TOURNAMENT, *common)
    return db


LONG_NAME = "random-bot-with-a-rather-long-name-{}"
"""The copies of the random bot in :func:`every_game_db`: long names, to test that columns fit."""


def random_copies(folder: Path, count: int) -> list[Path]:
    """``count`` copies of the random sample bot under different (long) names."""
    source = SAMPLE_BOTS / "random_bot"
    copies = []
    for number in range(1, count + 1):
        bot = folder / f"random{number}"
        bot.mkdir(parents=True)
        bot.chmod(0o755)
        shutil.copy(source / "bot.py", bot / "bot.py")
        manifest = (source / "bot.toml").read_text(encoding="utf-8")
        (bot / "bot.toml").write_text(manifest.replace('name = "random"', f'name = "{LONG_NAME.format(number)}"'),
                                      encoding="utf-8")
        copies.append(bot)
    return copies


@pytest.fixture(scope="session")
def every_game_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a real short tournament of every game (each game's heuristic sample bot
    against copies of the random bot), then an eight-seat Yahtzee one (tournament 6)."""
    folder = tmp_path_factory.mktemp("every-game-db")
    db = folder / "arena.db"
    copies = random_copies(folder / "bots", 8)
    common = ["--rounds", "1", "--workers", "1", "--keep-alive", "--quiet", "--seed", "5", "--db", str(db)]
    heuristics = {"gin_rummy": "gin_heuristic", "jass": "jass_heuristic", "yahtzee": "yahtzee_heuristic",
                  "yaniv": "yaniv_heuristic", "yoninkan": "yoninkan_heuristic"}
    for game, heuristic in heuristics.items():
        seats = 4 if game in ("jass", "yoninkan") else 2
        bots = [str(SAMPLE_BOTS / heuristic), *map(str, copies[:seats - 1])]
        arena("tournament", "run", "--game", game, *[a for bot in bots for a in ("--bot", bot)], *common)
    arena("tournament", "run", "--game", "yahtzee", *[a for bot in copies for a in ("--bot", str(bot))],
          "--table-size", "8", "--name", "eight seats", *common)
    return db


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """The real app under uvicorn in a thread, on a free loopback port."""

    def __init__(self, db: Path, play: Any = None, *, stop_seconds: float = 10, accounts: Any = None,
                 uploads: Any = None, hide_replays: bool = False, export_max_matches: int | None = None) -> None:
        """``play``: a :class:`arena.web.play.PlayConfig` for the Play area; ``stop_seconds``:
        how long leaving waits for the server (and its matches) to stop; ``accounts``: an
        :class:`arena.submission.web_auth.AccountsConfig` for sign-in and API tokens; ``uploads``:
        an :class:`arena.submission.web_submit.UploadsConfig` for bot uploads; ``hide_replays``:
        as ``arena serve --hide-replays``; ``export_max_matches``: as ``--export-max-matches``."""
        import uvicorn

        from arena.web import create_app

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        limits = {} if export_max_matches is None else {"export_max_matches": export_max_matches}
        app = create_app(db, play, accounts=accounts, uploads=uploads, hide_replays=hide_replays, **limits)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.stop_seconds = stop_seconds

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(self.stop_seconds)


@pytest.fixture(scope="module")
def server(played_db: Path) -> Iterator[Server]:
    with Server(played_db) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium (``./dev`` and ``.ci/run`` install it)."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (./dev test does)")
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    """A fresh page that records every JavaScript dialog (there must be none) and page error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.dialogs = []
    page.errors = []

    def on_dialog(dialog: object) -> None:
        page.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="session")
def boards_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with real short tournaments of the games only arena hosts: Jass (two
    teams), Yaniv (tables of 3) and Yoninkan (tables of 4), each with the HTML-named bot."""
    from arena.resources import random_bot_copies

    folder = tmp_path_factory.mktemp("boards-db")
    xss = write_commenter(folder / "xss_bot")
    (extra,) = random_bot_copies(folder, 1)
    db = folder / "arena.db"
    common = ["--rounds", "1", "--workers", "1", "--keep-alive", "--quiet", "--db", str(db)]
    arena("tournament", "run", "--game", "jass", "--bot", str(SAMPLE_BOTS / "jass_heuristic"), "--bot", str(xss),
          "--setting", "target=1000", "--setting", "max_hands=3", "--seed", "5", *common)
    arena("tournament", "run", "--game", "yaniv", "--bot", str(SAMPLE_BOTS / "yaniv_heuristic"), "--bot",
          str(SAMPLE_BOTS / "random_bot"), "--bot", str(xss), "--table-size", "3", "--setting", "max_rounds=4",
          "--seed", "6", *common)
    arena("tournament", "run", "--game", "yoninkan", "--bot", str(SAMPLE_BOTS / "yoninkan_heuristic"), "--bot",
          str(SAMPLE_BOTS / "random_bot"), "--bot", str(xss), "--bot", str(extra), "--setting", "games=2",
          "--seed", "7", *common)
    return db
