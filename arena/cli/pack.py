"""``arena pack``: a bot folder as the tar.gz a server takes, checked here as the server checks
it (``arena submit`` packs the same way before it uploads)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import click

from referee.bots import BotSpec


def packed_bot(folder: Path) -> tuple[bytes, BotSpec, str]:
    """``folder`` packed (:func:`arena.submission.archive.pack`), then unpacked into a scratch
    folder as a server unpacks an upload for no ladder (the archive rules and default limits,
    a valid ``bot.toml``, a language the server builds, a bot name it can store): the archive,
    the manifest and the content hash the server will give it.

    :raises click.ClickException: with what the server would refuse.
    """
    from arena.submission.accounts import NAME_PATTERN
    from arena.submission.archive import ArchiveError, ServerPolicy, pack, unpack
    from arena.submission.submissions import LANGUAGES
    from referee.games import game_names

    scratch = tempfile.mkdtemp(prefix="arena-pack-")
    try:
        data = pack(folder)
        bot = unpack(data, Path(scratch) / "bot", policy=ServerPolicy(LANGUAGES, frozenset(game_names())))
    except ArchiveError as error:
        # A path under the scratch folder would puzzle: the server's folder is elsewhere too.
        reason = str(error).replace(str(Path(scratch).resolve()), "<the server's uploads>")
        raise click.ClickException(f"{folder} cannot be submitted: {reason}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if not NAME_PATTERN.fullmatch(bot.spec.name):
        raise click.ClickException(f"{folder} cannot be submitted: bot.toml's name {bot.spec.name[:40]!r} is not a "
                                   f"submitted bot's name (2 to 32 characters: ASCII letters, digits, '.', '_' and "
                                   f"'-', starting with a letter or digit)")
    return data, bot.spec, bot.content_hash


@click.command("pack")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The file to write [default: NAME-VERSION.tar.gz in the current folder].")
def pack_command(folder: Path, output: Path | None) -> None:
    """Pack the bot in FOLDER into the tar.gz a server's upload form takes.

    Leaves out what a server never stores (.git, __pycache__, .venv and the like) and refuses,
    with the reason, what it would refuse: links outside the folder, special files, a missing
    or invalid bot.toml, a language it does not build, a name it cannot store, an archive over
    the default limits (docs/submitting.md). The same files always give the same bytes.
    """
    data, spec, digest = packed_bot(folder)
    target = output or Path(f"{spec.name}-{spec.version or '0'}.tar.gz")
    try:
        target.write_bytes(data)
    except OSError as error:
        raise click.ClickException(f"cannot write {target}: {error.strerror or error}") from None
    click.echo(f"wrote {target}: {spec.label}, {len(data):,} bytes, content hash {digest}")
