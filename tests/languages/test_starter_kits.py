"""``arena new-bot``: every language's starter kit builds with the command its README gives,
outside the repository, and passes ``arena check-bot`` in the bubblewrap sandbox, which
shows it nothing of arena but the referee's Python, so a kit that reached back into the
repository would fail. Debugging by address is played through as the README says.

Building needs the toolchains sample_bots/build.sh installs (``./dev test`` runs it); the
Node.js kit runs ``npm ci``, like the Node.js sample bots.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.authoring.starter_kit import BUILD, BUILD_STEP, DEBUG_ADDRESS, LANGUAGES, write_starter_kit
from arena.cli import main
from arena.resources import doc_pages
from referee.games import game_names
from referee.sandbox import BWRAP

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_GO_CACHE = ROOT / "sample_bots" / "go" / "build" / "gocache"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def build(kit: Path, language: str) -> None:
    """Run the kit's build command exactly as its README gives it."""
    command = BUILD[language]
    if command is None:
        return
    assert f"```sh\n{command}\n```" in (kit / "README.md").read_text(encoding="utf-8")
    env = dict(os.environ)
    if language == "go" and SAMPLE_GO_CACHE.is_dir():
        env["GOCACHE"] = str(SAMPLE_GO_CACHE)  # compiled gRPC packages from the sample build: minutes saved
    done = subprocess.run(["bash", "-c", command], cwd=kit, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def sandbox() -> str:
    if BWRAP is None:
        pytest.fail("bubblewrap is missing: ./dev installs it (apt-get install bubblewrap)", pytrace=False)
    return "bwrap"


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_starter_kit_builds_outside_the_repository_and_passes_check_bot(tmp_path: Path, language: str) -> None:
    kit = tmp_path / f"my-{language}-bot"
    result = invoke("new-bot", str(kit), "--language", language)
    assert result.exit_code == 0, result.output
    manifest = tomllib.loads((kit / "bot.toml").read_text(encoding="utf-8"))
    assert manifest["name"] == f"my-{language}-bot" and manifest["games"] == ["*"]
    assert "sandbox" not in manifest  # needs no folder outside its own
    if BUILD_STEP[language]:  # built by arena, in the sandbox, into $ARENA_BUILD
        assert manifest["build"] == {"command": BUILD_STEP[language]} and manifest["command"] == ["{build}/bot"]
    else:
        assert manifest.get("build") == BUILD[language]  # named in the error if the program is missing
    if language == "node":  # new-bot installed its dependencies
        assert (kit / "node_modules" / "@grpc" / "grpc-js").is_dir()
    # As new-bot made it, with no step by hand: check-bot runs the build step, as a server would.
    result = invoke("check-bot", str(kit), "--sandbox", sandbox(), "--startup-timeout", "30", "--matches", "1")
    assert result.exit_code == 0, result.output
    assert f"my-{language}-bot 0.1" in result.output  # the identity it reports is the manifest's
    assert not (kit / "build").exists()  # the sandbox showed the folder read-only
    if language == "go":  # and the README's build by hand, to run the bot yourself
        build(kit, language)
        assert (kit / "build" / "bot").is_file()


def test_kit_for_one_game_claims_only_that_game_and_plays_it(tmp_path: Path) -> None:
    kit = tmp_path / "gin"
    result = invoke("new-bot", str(kit), "--language", "python", "--game", "gin_rummy", "--name", "ginny")
    assert result.exit_code == 0, result.output
    assert tomllib.loads((kit / "bot.toml").read_text(encoding="utf-8"))["games"] == ["gin_rummy"]
    assert "random legal action, in gin_rummy." in (kit / "bot.py").read_text(encoding="utf-8")
    result = invoke("check-bot", str(kit), "--matches", "1")
    assert result.exit_code == 0, result.output
    assert "ginny 0.1" in result.output and "games: gin_rummy" in result.output
    assert "yahtzee" not in result.output


def test_every_kit_readme_says_how_to_build_run_debug_and_check(tmp_path: Path) -> None:
    for language in LANGUAGES:
        kit = tmp_path / language
        write_starter_kit(kit, language)
        readme = (kit / "README.md").read_text(encoding="utf-8")
        for heading in ("## Build", "## Check and play", "## Debug by address"):
            assert heading in readme, (language, heading)
        assert "arena check-bot ." in readme and f"ARENA_BOT_ADDRESS={DEBUG_ADDRESS}" in readme
        assert f"arena check-bot {DEBUG_ADDRESS}" in readme
    for game in game_names():  # the docs a kit README names are pages `arena docs` has
        write_starter_kit(kit := tmp_path / f"python-{game}", "python", games=(game,))
        readme = (kit / "README.md").read_text(encoding="utf-8")
        assert set(re.findall(r"`arena docs ([^`]+)`", readme)) == {"protocol", f"rules/{game}"}
        assert f"`docs/rules/{game}.md`" in readme and {"protocol", f"rules/{game}"} <= set(doc_pages())


def test_new_bot_refuses_a_folder_with_files_a_bad_name_and_an_unknown_game(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine\n", encoding="utf-8")
    result = invoke("new-bot", str(tmp_path / "taken"), "--language", "python")
    assert result.exit_code == 1 and "not an empty folder" in result.output
    assert (tmp_path / "taken" / "notes.txt").read_text(encoding="utf-8") == "mine\n"
    result = invoke("new-bot", str(tmp_path / "x"), "--language", "python", "--name", 'evil"; rm -rf /')
    assert result.exit_code == 1 and "bot name" in result.output and not (tmp_path / "x").exists()
    result = invoke("new-bot", str(tmp_path / "y"), "--language", "python", "--game", "chess")
    assert result.exit_code == 2 and "unknown game" in result.output and not (tmp_path / "y").exists()
    result = invoke("new-bot", str(tmp_path / "z"), "--language", "cobol")
    assert result.exit_code == 2 and not (tmp_path / "z").exists()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_debugging_by_address_as_the_python_kit_readme_says(tmp_path: Path) -> None:
    kit = tmp_path / "debugged"
    write_starter_kit(kit, "python")
    readme = (kit / "README.md").read_text(encoding="utf-8")
    line = f"ARENA_BOT_ADDRESS={DEBUG_ADDRESS} {sys.executable} bot.py"
    assert line in readme  # the interpreter that has arena, not the system's python
    address = f"127.0.0.1:{free_port()}"
    bot = subprocess.Popen(["bash", "-c", line.replace(DEBUG_ADDRESS, address)], cwd=kit,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        result = invoke("check-bot", address, "--game", "yahtzee", "--matches", "1", "--startup-timeout", "20")
        assert result.exit_code == 0, result.output
        assert "debugged 0.1" in result.output
        assert bot.poll() is None  # a bot given by address is the author's to stop
    finally:
        bot.terminate()
        bot.wait(timeout=10)
    assert bot.returncode == 0  # stopped cleanly on SIGTERM


def test_kits_are_made_from_the_sample_bots_not_a_second_copy(tmp_path: Path) -> None:
    samples = ROOT / "sample_bots"
    same = {"node": ["sdk.js", "package.json", "package-lock.json"], "cpp": ["sdk/arena_bot.h", "sdk/arena_bot.cc",
            "sdk/CMakeLists.txt"], "go": ["arenabot/arenabot.go", "build.sh"]}
    for language, files in same.items():
        kit = tmp_path / language
        write_starter_kit(kit, language)
        for name in files:
            assert (kit / name).read_bytes() == (samples / language / name).read_bytes(), (language, name)
        assert os.access(kit / "build.sh", os.X_OK) or language != "go"
    for proto in (ROOT / "proto" / "arena" / "v1").glob("*.proto"):
        assert (tmp_path / "go" / "proto" / "arena" / "v1" / proto.name).read_bytes() == proto.read_bytes()


def readme_commands(readme: str, program: str) -> list[str]:
    """The README's shell lines that run ``program`` (its comment cut off)."""
    return [line.partition("  #")[0] for line in readme.splitlines() if line.startswith(f"{program} ")]


ARENA = Path(sys.executable).with_name("arena")
"""The installed command, as a kit's user runs it."""


@pytest.mark.slow
@pytest.mark.parametrize("game", game_names())
def test_the_python_kit_readme_play_commands_run_through_the_real_cli(tmp_path: Path, game: str) -> None:
    """Each game's kit README: `arena play` against itself, then with the bot by address, as
    written (four seats where the game needs four: issue 25's Jass kit gave two)."""
    kit = tmp_path / "kit"
    write_starter_kit(kit, "python", games=(game,))
    readme = (kit / "README.md").read_text(encoding="utf-8")
    itself, by_address = readme_commands(readme, "arena play")
    assert f"--game {game} " in itself and DEBUG_ADDRESS in by_address and "-v: every move" in readme
    [start] = readme_commands(readme, f"ARENA_BOT_ADDRESS={DEBUG_ADDRESS}")
    address = f"127.0.0.1:{free_port()}"
    bot = subprocess.Popen(["bash", "-c", start.replace(DEBUG_ADDRESS, address)], cwd=kit,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for line in (itself, by_address.replace(DEBUG_ADDRESS, address)):
            done = subprocess.run([str(ARENA), *shlex.split(line)[1:]], cwd=kit, capture_output=True, text=True,
                                  timeout=600)
            assert done.returncode == 0, f"{line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
            assert f"{game} (" in done.stdout and "kit@0.1" in done.stdout
    finally:
        bot.terminate()
        bot.wait(timeout=10)


def test_every_kit_readme_gives_the_same_play_commands_as_the_python_kit(tmp_path: Path) -> None:
    """The commands do not depend on the language, so the Python kit's test covers them all."""
    for game in ("*", *game_names()):
        games = (game,)
        commands = set()
        for language in LANGUAGES:
            write_starter_kit(kit := tmp_path / f"{language}-{game.strip('*')}", language, name="kit", games=games)
            commands.add(tuple(readme_commands((kit / "README.md").read_text(encoding="utf-8"), "arena ")))
        assert len(commands) == 1, (game, commands)


@pytest.mark.slow
def test_learned_kit_plays_its_model_in_the_sandbox_as_written_and_packs(tmp_path: Path) -> None:
    """``--template learned``: the untrained model plays legal moves through arena.envs.policy
    in the bubblewrap sandbox (which must show the bot the referee's engines and numpy), and
    ``arena pack`` takes the kit, model file included."""
    kit = tmp_path / "learner"
    result = invoke("new-bot", str(kit), "--template", "learned")
    assert result.exit_code == 0, result.output
    manifest = tomllib.loads((kit / "bot.toml").read_text(encoding="utf-8"))
    assert manifest["games"] == ["gin_rummy"] and manifest["command"] == ["{python}", "bot.py"]
    assert "sandbox" not in manifest  # needs no folder outside its own
    assert sorted(p.name for p in kit.iterdir()) == ["README.md", "bot.py", "bot.toml", "model.npz"]
    result = invoke("check-bot", str(kit), "--sandbox", sandbox(), "--startup-timeout", "30", "--matches", "1")
    assert result.exit_code == 0, result.output
    assert "learner 0.1" in result.output and "games: gin_rummy" in result.output
    assert "illegal" not in result.output
    result = invoke("pack", str(kit), "--output", str(tmp_path / "learner.tar.gz"))
    assert result.exit_code == 0, result.output
    import tarfile
    with tarfile.open(tmp_path / "learner.tar.gz") as archive:
        assert {"bot.py", "bot.toml", "model.npz", "README.md"} <= {Path(n).name for n in archive.getnames()}


def test_learned_template_refuses_other_languages_and_games(tmp_path: Path) -> None:
    result = invoke("new-bot", str(tmp_path / "a"), "--template", "learned", "--language", "go")
    assert result.exit_code == 1 and "learned template is a Python bot" in result.output
    result = invoke("new-bot", str(tmp_path / "b"), "--template", "learned", "--game", "yaniv")
    assert result.exit_code == 1 and "plays gin_rummy for now" in result.output
    result = invoke("new-bot", str(tmp_path / "c"), "--template", "learned", "--variant", "rummy500")
    assert result.exit_code == 2 and "no variant 'rummy500'" in result.output
    result = invoke("new-bot", str(tmp_path / "d"), "--language", "python", "--variant", "oklahoma")
    assert result.exit_code == 2 and "only a learned kit has a variant" in result.output
    result = invoke("new-bot", str(tmp_path / "e"))
    assert result.exit_code == 2 and "Missing option '--language'" in result.output
    assert not any(tmp_path.iterdir())
