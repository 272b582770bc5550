"""``arena new-bot``: a starter kit, a bot folder that builds and runs outside arena's repository.

A kit is a sample random bot's little sibling, made from the shipped sample bots and SDKs
(:mod:`arena.resources`) rather than from a second copy of their code: the random bot's
source with a new identity (name, games), the language's SDK and the .proto files it needs,
a ``bot.toml`` and a README saying how to build, run, debug by address and check it. Every
kit passes ``arena check-bot`` and goes through ``arena submit`` as ``arena new-bot`` made it
(tests/languages/test_starter_kits.py, tests/submission/test_submit_languages.py): a compiled
kit's manifest has a ``[build]`` step (:data:`BUILD_STEP`) that arena runs in the sandbox before
its first match, here and on a server, whose bot folder is read-only; the Node.js kit's
dependencies are installed by ``new-bot`` itself (:func:`install_dependencies`) and uploaded
with it, since a build has no network.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from arena.resources import proto_files, sample_bots_dir
from referee.games import game_class

LANGUAGES = ("python", "node", "cpp", "go")
TEMPLATES = ("random", "learned")
"""``random``: the language's random bot; ``learned``: a Python bot that plays a saved model
(:mod:`arena.authoring.learned_kit`)."""
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
"""Bot names a kit accepts: they go into source code as string literals, so nothing to escape."""
VERSION = "0.1"
DEBUG_ADDRESS = "127.0.0.1:50051"


class StarterKitError(ValueError):
    """A kit that cannot be written (bad name or game, a folder that is not empty)."""


@dataclass(frozen=True)
class LearnedModel:
    """The configuration a learned kit's untrained model is shaped for (the caller reads the
    sizes from the game's codec, :mod:`arena.envs`, a part this layer may not import)."""

    game: str
    variant: str
    vector_size: int
    num_actions: int


@dataclass(frozen=True)
class Identity:
    """What the kit's bot says about itself, in its manifest and in ``Identify``."""

    name: str
    games: tuple[str, ...]


def _replace_once(text: str, old: str, new: str, source: Path) -> str:
    """``text`` with its one ``old`` replaced: a sample that changed shape fails loudly."""
    if text.count(old) != 1:
        raise RuntimeError(f"starter kit: expected {old!r} once in {source}; update arena/authoring/starter_kit.py")
    return text.replace(old, new)


def _source(path: Path, identity: Identity) -> str:
    """A sample random bot's source, its opening line saying which games the kit's bot plays."""
    text = path.read_text(encoding="utf-8")
    if identity.games == ("*",):
        return text
    return _replace_once(text, "a uniformly random legal action, in every game.",
                         f"a uniformly random legal action, in {', '.join(identity.games)}.", path)


def _quoted(items: tuple[str, ...], quote: str) -> str:
    return ", ".join(f"{quote}{item}{quote}" for item in items)


def _manifest(identity: Identity, language: str, command: list[str]) -> str:
    games = _quoted(identity.games, '"')
    step = BUILD_STEP[language]
    argv = _quoted(("{build}/bot",) if step else tuple(command), '"')
    hint = f"build = {json.dumps(BUILD[language])}\n" if BUILD[language] and not step else ""  # a JSON string is a TOML one
    table = (f"\n# Run by arena in its sandbox before the first match (check-bot, play, a server): it writes\n"
             f"# the program into $ARENA_BUILD, which {{build}} names above.\n[build]\ncommand = {json.dumps(step)}\n"
             if step else "")
    return (f"# Made by `arena new-bot`: see README.md. The name, version and games must agree with\n"
            f"# what the bot reports through Identify.\n"
            f'name = "{identity.name}"\nversion = "{VERSION}"\nauthor = ""\nlanguage = "{language}"\n'
            f"command = [{argv}]\ngames = [{games}]\n{hint}{table}")


# --- each language: the files, and how to build and run the bot ----------------------------------
def _python_files(identity: Identity, samples: Path) -> dict[str, str]:
    source = samples / "python" / "random_bot" / "bot.py"
    code = _replace_once(_source(source, identity),
                         'name="random", version="1.0", author="arena", games=["*"]',
                         f'name="{identity.name}", version="{VERSION}", author="", '
                         f'games=[{_quoted(identity.games, chr(34))}]', source)
    return {"bot.py": code, "bot.toml": _manifest(identity, "python", ["{python}", "bot.py"])}


def _node_files(identity: Identity, samples: Path) -> dict[str, str]:
    node = samples / "node"
    source = node / "random_bot" / "bot.js"
    code = _source(source, identity)
    code = _replace_once(code, "require('../sdk')", "require('./sdk')", source)
    code = _replace_once(code, "{ name: 'random-node', version: '1.0', author: 'arena', games: ['*'], decide }",
                         f"{{ name: '{identity.name}', version: '{VERSION}', author: '', "
                         f"games: [{_quoted(identity.games, chr(39))}], decide }}", source)
    files = {name: (node / name).read_text(encoding="utf-8") for name in ("sdk.js", "package.json", "package-lock.json")}
    return files | _proto_files() | {"bot.js": code, "bot.toml": _manifest(identity, "node", ["node", "bot.js"])}


CPP_CMAKE = """\
# Builds build/bot from main.cc and the `arena_bot` library (sdk/: the SDK, and the protocol's
# C++ code generated from proto/arena/v1/*.proto). Needs Debian's gRPC and protobuf packages
# (README.md).
cmake_minimum_required(VERSION 3.16)
project(arena_bot_{target} LANGUAGES CXX)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
set(ARENA_PROTO_ROOT "${{CMAKE_CURRENT_SOURCE_DIR}}/proto")
add_subdirectory(sdk)
add_executable(bot main.cc)
target_link_libraries(bot PRIVATE arena_bot)
"""


def _cpp_files(identity: Identity, samples: Path) -> dict[str, str]:
    cpp = samples / "cpp"
    source = cpp / "random_bot" / "main.cc"
    code = _replace_once(_source(source, identity), '{"random-cpp", "1.0", "arena", {"*"}}',
                         f'{{"{identity.name}", "{VERSION}", "", {{{_quoted(identity.games, chr(34))}}}}}', source)
    sdk = {f"sdk/{path.name}": path.read_text(encoding="utf-8")
           for path in sorted((cpp / "sdk").iterdir()) if path.is_file()}
    cmake = CPP_CMAKE.format(target=re.sub(r"[^A-Za-z0-9_]", "_", identity.name))
    return sdk | _proto_files(health=False) | {"main.cc": code, "CMakeLists.txt": cmake,
                                               "bot.toml": _manifest(identity, "cpp", ["build/bot"])}


def _go_files(identity: Identity, samples: Path) -> dict[str, str]:
    go = samples / "go"
    source = go / "random_bot" / "main.go"
    code = _replace_once(_source(source, identity),
                         'arenabot.Info{Name: "random-go", Version: "1.0", Author: "arena", Games: []string{"*"}}',
                         f'arenabot.Info{{Name: "{identity.name}", Version: "{VERSION}", Author: "", '
                         f'Games: []string{{{_quoted(identity.games, chr(34))}}}}}', source)
    sdk = {f"arenabot/{path.name}": path.read_text(encoding="utf-8") for path in sorted((go / "arenabot").glob("*.go"))}
    return sdk | _proto_files(health=False) | {"main.go": code, "build.sh": (go / "build.sh").read_text(encoding="utf-8"),
                                               "bot.toml": _manifest(identity, "go", ["build/bot"])}


def _proto_files(health: bool = True) -> dict[str, str]:
    """The protocol under ``proto/`` (and gRPC health for Node.js, whose library lacks it)."""
    return {f"proto/{relative}": path.read_text(encoding="utf-8") for relative, path in proto_files().items()
            if health or relative.parts[0] != "grpc"}


FILES = {"python": _python_files, "node": _node_files, "cpp": _cpp_files, "go": _go_files}
EXECUTABLE = {"build.sh"}
BUILD = {
    "python": None,
    "node": "npm ci --ignore-scripts --no-audit --no-fund",
    "cpp": 'cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j"$(nproc)"',
    "go": "./build.sh",
}
"""The command that builds a kit by hand, run in its folder (tests run exactly these): for the
Node.js kit the install of its dependencies, which ``new-bot`` runs; for C++ and Go a build
into ``build/``, to run the bot yourself (debugging by address), while arena builds it by
:data:`BUILD_STEP`."""
BUILD_STEP = {
    "python": None,
    "node": None,
    "cpp": ["sh", "-c", 'cmake -S . -B "$ARENA_BUILD" -DCMAKE_BUILD_TYPE=Release && '
                        'cmake --build "$ARENA_BUILD" -j"$(nproc)"'],
    "go": ["./build.sh"],
}
"""A kit's ``[build] command``, run by arena in the sandbox with the bot's folder read-only:
it writes the program into ``$ARENA_BUILD``, and the manifest's command is ``{build}/bot``."""
RUN = {"python": "{python} bot.py", "node": "node bot.js", "cpp": "build/bot", "go": "build/bot"}
PACKAGES = {
    "python": None,
    "node": "nodejs npm",
    "cpp": "g++ make cmake pkg-config libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc",
    "go": "golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev "
          "golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev",
}
"""Debian packages a kit needs to build (the same ones sample_bots/build.sh installs)."""
EDIT = {
    "python": "`bot.py`: replace `random_decide` with your own `decide(observation, legal_actions) -> index` "
              "(`observation` is an `arena.v1.Observation`, `legal_actions` a list of `arena.v1.Action`)",
    "node": "`bot.js`: `decide(observation, legalActions)` returns an index into `legalActions` "
            "(plain objects with the .proto field names; `sdk.js` explains the details)",
    "cpp": "`main.cc`: `Decide(observation, legal_actions)` returns an index into `legal_actions` "
           "(the generated protobuf classes; `sdk/arena_bot.h` explains the details)",
    "go": "`main.go`: `decide(observation, legal)` returns an index into `legal` "
          "(the generated structs; `arenabot/arenabot.go` explains the details)",
}


def readme(identity: Identity, language: str) -> str:
    """The kit's README.md: build, run, debug by address, check."""
    games = "every game" if identity.games == ("*",) else ", ".join(identity.games)
    game = "yahtzee" if identity.games == ("*",) else identity.games[0]
    others = " --bot ." * (max(2, game_class(game).min_players) - 1)  # Jass and Yoninkan seat exactly four
    if identity.games == ("*",):
        rules, rules_command = "of each game its `docs/rules/GAME.md`", "`arena docs` lists the pages"
    else:
        rules, rules_command = f"its `docs/rules/{game}.md`", f"`arena docs rules/{game}` the rules"
    python = sys.executable
    run = RUN[language].replace("{python}", python)
    parts = [f"# {identity.name}\n",
             f"An arena bot in {language} that plays a uniformly random legal action in {games}, made by "
             f"`arena new-bot`. Make it yours in {EDIT[language]}. The protocol is arena's `docs/protocol.md` "
             f"and the rules {rules} (`arena docs protocol` prints it, {rules_command}); `arena proto --out DIR` "
             "writes the .proto files.\n",
             "Keep `name`, `version` and `games` in `bot.toml` in agreement with what the code reports.\n",
             "## Build\n"]
    if BUILD[language] is None:
        parts.append("Nothing to build. The referee runs `bot.py` with its own Python (`{python}` in `bot.toml`), "
                     "which has the `arena` SDK.\n")
    elif BUILD_STEP[language] is None:  # Node.js: its dependencies, installed by new-bot
        parts.append(f"Needs the Debian packages `{PACKAGES[language]}` "
                     f"(as root: `apt-get install -y --no-install-recommends {PACKAGES[language]}`). `arena new-bot` "
                     f"installed the dependencies into `node_modules/`; `arena submit` uploads them with the bot (a "
                     f"server's build has no network). After changing `package.json`, in this folder:\n\n"
                     f"```sh\n{BUILD[language]}\n```\n")
    else:
        parts.append(f"Needs the Debian packages `{PACKAGES[language]}` "
                     f"(as root: `apt-get install -y --no-install-recommends {PACKAGES[language]}`). arena builds the "
                     f"bot itself: the `[build]` step in `bot.toml` runs in its sandbox before the first match "
                     f"(`arena check-bot`, `arena play`, `arena submit`'s start check, and the server after an "
                     f"upload), writes the program into `$ARENA_BUILD` and keeps it until the files change. To run "
                     f"the bot yourself (below, debugging by address), build it into `build/` by hand, in this "
                     f"folder:\n\n```sh\n{BUILD[language]}\n```\n")
    parts += ["## Check and play\n",
              "Run these with arena's command (`arena` in the environment where it is installed; in a checkout of "
              "arena, `./dev arena`). The referee starts the bot itself, in its sandbox:\n",
              "```sh\narena check-bot .  # health, identity, short matches against random bots\n"
              f"arena play --game {game} --bot .{others}  "
              "# one match against itself: a line per hand or round; -v: every move\n```\n",
              "## Debug by address\n",
              "Start the bot yourself, in a terminal where you see what it prints (and can attach a debugger), on an "
              "address of your choice, and give the referee that address instead of the folder:\n",
              f"```sh\nARENA_BOT_ADDRESS={DEBUG_ADDRESS} {run}\n```\n"]
    if language == "python":
        parts.append(f"(`{python}` is the Python that has arena installed; from a checkout of arena, "
                     "`/path/to/arena/dev python bot.py` runs the same.)\n")
    parts += ["and, in another terminal:\n",
              f"```sh\narena check-bot {DEBUG_ADDRESS}\n"
              f"arena play --game {game} --bot {DEBUG_ADDRESS}{others}\n```\n",
              "A bot given by address is not started, sandboxed or stopped by the referee: stop it with Ctrl-C.\n"]
    return "\n".join(parts)


def install_dependencies(folder: Path, language: str) -> str:
    """Install the kit's dependencies in ``folder`` (the Node.js kit's ``npm ci``: a build on a
    server has no network, so they are uploaded with the bot); ``""``, or why it failed."""
    command = BUILD[language] if language == "node" else None
    if command is None:
        return ""
    if shutil.which("npm") is None:
        return f"npm is not installed (Debian: apt-get install -y {PACKAGES[language]})"
    try:
        done = subprocess.run(command.split(), cwd=folder, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{command} failed: {error}"
    if done.returncode != 0:
        lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        return f"{command} failed (exit {done.returncode}): {lines[-1] if lines else 'no output'}"
    return ""


def write_starter_kit(folder: Path, language: str, *, name: str | None = None, games: tuple[str, ...] = ("*",),
                      model: LearnedModel | None = None) -> list[Path]:
    """Write a kit into ``folder`` (created; it must be empty or missing) and return its files:
    the language's random bot, or with ``model`` the ``learned`` template (Python, one game).

    :raises StarterKitError: for an unknown language, a bad name, a folder with files in it, or
        a learned kit for another language or game than it supports.
    """
    if language not in FILES:
        raise StarterKitError(f"unknown language {language!r} (choose from {', '.join(LANGUAGES)})")
    if model is not None and language != "python":
        raise StarterKitError("the learned template is a Python bot (--language python)")
    from arena.authoring import learned_kit  # here: numpy is heavy for `arena --help`, which imports this module
    if model is not None and model.game not in learned_kit.GAMES:
        raise StarterKitError(f"the learned template plays {', '.join(learned_kit.GAMES)} for now (the games whose "
                              f"codec decodes protocol observations), not {model.game}")
    folder = Path(folder)
    name = name if name is not None else folder.resolve().name
    if not NAME.match(name):
        raise StarterKitError(f"bot name {name!r}: use letters, digits, '_', '.' and '-' (set it with --name)")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise StarterKitError(f"{folder} exists and is not an empty folder")
    identity = Identity(name=name, games=tuple(games))
    files: dict[str, str | bytes]
    if model is not None:
        files = learned_kit.learned_files(name, VERSION, model.game, model.variant, model.vector_size,
                                          model.num_actions, sys.executable)
    else:
        files = {**FILES[language](identity, sample_bots_dir()), "README.md": readme(identity, language)}
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)  # a root referee runs sandboxed bots as another user, who must read it
    written = []
    for relative, text in sorted(files.items()):
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        if relative in EXECUTABLE:
            path.chmod(0o755)
        written.append(path)
    return written


def copy_proto_files(out: Path) -> list[Path]:
    """``arena proto --out``: the protocol and gRPC health's .proto files under ``out``."""
    written = []
    for relative, path in proto_files().items():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        written.append(target)
    return written
