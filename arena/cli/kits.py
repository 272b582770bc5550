"""``arena new-bot``, ``arena proto`` and ``arena docs``: what a bot author needs from an installed arena."""

from __future__ import annotations

from pathlib import Path

import click

from arena.authoring.starter_kit import (BUILD, BUILD_STEP, LANGUAGES, TEMPLATES, LearnedModel, StarterKitError,
                                        copy_proto_files, install_dependencies, write_starter_kit)
from arena.cli.hints import arena_hint
from arena.resources import doc_pages, docs_dir
from referee.games import game_names


@click.command("new-bot")
@click.argument("folder_text", metavar="FOLDER")
@click.option("--language", type=click.Choice(LANGUAGES), default=None,
              help="The bot's language (required, but python for --template learned).")
@click.option("--game", "game", default=None,
              help="The game it plays (default: every game; gin_rummy for --template learned).")
@click.option("--name", default=None, help="Its name (default: the folder's name).")
@click.option("--template", type=click.Choice(TEMPLATES), default="random", show_default=True,
              help="random: plays random legal moves; learned: a Python bot that plays a saved numpy model "
                   "(docs/learning.md).")
@click.option("--variant", default=None, help="--template learned: the variant its model plays (default: the "
                                              "game's first).")
def new_bot(folder_text: str, language: str | None, game: str | None, name: str | None, template: str,
            variant: str | None) -> None:
    """Write a starter kit into FOLDER: a bot that plays random legal moves, its manifest, the
    SDK and .proto files it needs, and a README on building, running, debugging and checking it.

    The kit builds and runs outside arena's repository; `arena check-bot FOLDER` passes and
    `arena submit FOLDER` uploads it as written: the C++ and Go kits have a build step that
    arena runs itself, and the Node.js kit's dependencies are installed here (npm ci).
    With --template learned: a Python bot that loads model.npz (untrained until you train it,
    docs/learning.md) and plays it through arena.envs.
    """
    if not folder_text.strip():
        raise click.BadParameter("give a folder name", param_hint="FOLDER")
    folder = Path(folder_text)
    if game is not None and game not in game_names():
        raise click.BadParameter(f"unknown game {game!r} (choose from {', '.join(game_names())})",
                                 param_hint="--game")
    model = None
    if template == "learned":
        language = language or "python"
        game = game or "gin_rummy"
        model = _learned_model(game, variant)
    elif variant is not None:
        raise click.BadParameter("only a learned kit has a variant (--template learned)", param_hint="--variant")
    if language is None:
        raise click.UsageError("Missing option '--language'.")
    try:
        written = write_starter_kit(folder, language, name=name, games=(game,) if game else ("*",), model=model)
    except StarterKitError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:
        raise click.ClickException(f"cannot write the bot to {folder}: {error.strerror or error}") from None
    click.echo(f"wrote a {language} bot to {folder} ({len(written)} files)")
    if BUILD[language] and not BUILD_STEP[language]:
        click.echo(f"installing its dependencies: {BUILD[language]}")
        failed = install_dependencies(folder, language)
        if failed:
            raise click.ClickException(f"{failed}; the bot is written: run it in {folder} before checking the bot")
    click.echo("next:" + (" (arena runs the [build] step of bot.toml itself, before the first match)"
                          if BUILD_STEP[language] else ""))
    click.echo(f"  {arena_hint('check-bot', folder)}")
    click.echo(f"{folder / 'README.md'} has the rest: debugging by address, playing a match, ...")


def _learned_model(game: str, variant: str | None) -> LearnedModel:
    """The sizes of ``game``'s codec, for the learned kit's untrained model."""
    from arena.envs.codecs import make_codec
    from referee.games import make_game
    from referee.games.base import SettingsError

    try:
        configured = make_game(game, variant=variant)
    except SettingsError as error:
        raise click.BadParameter(str(error), param_hint="--variant") from None
    codec = make_codec(configured)
    return LearnedModel(game, configured.variant, codec.vector_size, codec.num_actions)


@click.command("proto")
@click.option("--out", "out_text", required=True, metavar="FOLDER",
              help="The folder to write into (created); files already there are replaced.")
def proto(out_text: str) -> None:
    """Write the protocol's .proto files (arena/v1/*.proto and grpc/health/v1/health.proto) to
    generate a bot's gRPC code in another language."""
    if not out_text.strip():
        raise click.BadParameter("give a folder name", param_hint="--out")
    out = Path(out_text)
    if out.exists() and not out.is_dir():
        raise click.BadParameter(f"{out} is a file, not a folder", param_hint="--out")
    try:
        written = copy_proto_files(out)
    except OSError as error:
        raise click.ClickException(f"cannot write to {out}: {error.strerror or error}") from None
    click.echo(f"wrote {len(written)} .proto files to {out}:")
    for path in written:
        click.echo(f"  {path}")


@click.command("docs")
@click.argument("name", required=False)
@click.option("--path", "show_path", is_flag=True,
              help="Print the page's file name instead of its text (without NAME: the docs folder).")
def docs(name: str | None, show_path: bool) -> None:
    """Print a page of arena's documentation (Markdown), e.g. `arena docs protocol` or
    `arena docs rules/jass`; without NAME, list the pages and where they are.

    The pages ship with arena, so kits and .proto files that cite `docs/NAME.md` can be read
    from a pip-installed arena too."""
    pages = doc_pages()
    if name is None and show_path:
        click.echo(str(docs_dir()))
        return
    if name is None:
        click.echo(f"arena's documentation, in {docs_dir()} (`arena docs NAME` prints a page):")
        width = max(map(len, pages))
        for page, path in pages.items():
            title = path.read_text(encoding="utf-8").partition("\n")[0].lstrip("# ")
            click.echo(f"  {page:<{width}}  {title}")
        return
    key = name.removeprefix("docs/").removesuffix(".md")
    if key not in pages:
        raise click.BadParameter(f"no page {name!r} (choose from {', '.join(pages)})", param_hint="NAME")
    click.echo(str(pages[key]) if show_path else pages[key].read_text(encoding="utf-8"), nl=show_path)
