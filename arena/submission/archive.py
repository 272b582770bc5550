"""Bot archives: :func:`pack` a bot folder for upload, :func:`unpack` what a stranger uploaded.

The submission server (issue 27) takes archives from anyone, so :func:`unpack` trusts nothing
in them.  docs/security.md ("Archives from strangers") states the same rules for authors:

- **Format** by the first bytes, never the file name: gzip (a tar.gz), a plain tar, or a zip.
- **Names**: no absolute path, no ``..`` component, no NUL, backslash, drive letter or other
  control character, no name twice, no file where a folder is needed; depth and length are
  limited.  ``.`` components and a leading ``./`` are harmless and dropped.
- **Kinds**: files and folders only.  Every link is refused (symbolic and hard, even one
  that points inside the tree: simpler than judging targets, and no bot needs one), and so
  are devices, FIFOs, sockets, sparse and encrypted members.  Modes become 0o644, or 0o755
  for a file with any execute bit and for folders: no set-uid, set-gid or sticky bit.
- **Limits** (:class:`ArchiveLimits`): bytes are counted as they are decompressed, never
  taken from headers (a zip bomb's headers lie); the decompressed tar stream is bounded
  before tarfile reads a header into memory, and a zip's central directory before zipfile
  reads it.
- **Layout**: ``bot.toml`` at the root, or inside the archive's one top folder when the root
  holds nothing else (what "compress this folder" makes); that folder becomes the bot's.
- **Skipped**: :data:`SKIPPED` names (version control, caches, virtual environments) are
  left out by :func:`pack`, :func:`unpack` and :func:`~referee.bot_tree.content_hash` alike, so the hash
  describes exactly the stored tree.
- **All or nothing**: members are written into a fresh folder beside ``dest`` and renamed
  into place only when every check has passed; on a refusal that folder is removed.

Each refusal is one :class:`ArchiveError` naming the member and the rule.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import io
import lzma
import os
import re
import shutil
import stat
import struct
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TypeVar

from referee.bot_tree import SKIPPED, BotTreeError, bot_tree, content_hash
from referee.bots import MANIFEST_NAME, BotSpec, BotSpecError, claims
from referee.untrusted import clean

MIB = 1024 * 1024
CHUNK = 64 * 1024
NAME_MAX = 255
"""Bytes in one file or folder name (Linux's limit; not configurable)."""
TAR_HEADER_ALLOWANCE = 4096
"""Decompressed tar bytes allowed per member beyond the contents (header, long-name and pax
records, padding)."""
ZIP_DIRECTORY_ALLOWANCE = 1024
"""Bytes of a zip's central directory allowed per member (a record is 46 bytes plus its name
and extra fields)."""


@dataclass(frozen=True)
class ArchiveLimits:
    """How much an archive may hold.  :func:`unpack` refuses anything beyond; :func:`pack`
    refuses to make such an archive, so that an author learns it before uploading."""

    max_archive_bytes: int = 50 * MIB
    """The archive itself, as uploaded."""
    max_unpacked_bytes: int = 50 * MIB
    """The files' contents added up, counted as they are decompressed."""
    max_files: int = 5_000
    """Members: files and folders, skipped ones included."""
    max_ratio: int = 100
    """Unpacked bytes per compressed byte, for the whole archive and for each zip member (a
    tar.gz is a single compressed stream, so only its whole counts)."""
    ratio_floor_bytes: int = 1 * MIB
    """Ratios are judged only beyond this many unpacked bytes: a small file of blanks
    compresses very well and is no bomb."""
    max_depth: int = 32
    """Names in a member's path, its own included."""
    max_path_length: int = 1024
    """Characters in a member's path."""


class ArchiveError(ValueError):
    """An archive refused: unsafe, over a limit, corrupt, or holding no bot this server takes."""


@dataclass(frozen=True)
class ServerPolicy:
    """What a submission server accepts beyond a safe archive."""

    languages: frozenset[str]
    """Manifest ``language`` values the server can build and run."""
    games: frozenset[str]
    """Games its ladder plays: a bot must claim one of them (``games = ["*"]`` claims all)."""


@dataclass(frozen=True)
class UnpackedBot:
    """A bot that :func:`unpack` accepted and put in place."""

    path: Path
    spec: BotSpec
    """Its manifest, read where it now lies."""
    content_hash: str
    """:func:`content_hash` of the tree: the same bot from a zip or a tar.gz has the same."""
    files: int
    size: int
    """Bytes of its files' contents."""


@dataclass(frozen=True)
class _Member:
    """One archive member as its format describes it (nothing checked yet)."""

    name: str
    kind: str
    """``file``, ``folder``, or a refused kind: a key of :data:`_REFUSED_KINDS`."""
    mode: int
    compressed: int | None
    """Its compressed size (zip members only), for the per-member ratio."""
    open: Callable[[], IO[bytes]]


_REFUSED_KINDS = {
    "symlink": "is a symbolic link (archives may hold no links)",
    "hardlink": "is a hard link (archives may hold no links)",
    "device": "is a device file",
    "fifo": "is a FIFO",
    "socket": "is a socket",
    "sparse": "is a sparse file",
    "encrypted": "is encrypted",
    "other": "is not a file or a folder",
}
_DRIVE = re.compile(r"^[A-Za-z]:")
_ZIP_END = struct.Struct("<4s4H2LH")
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_END = struct.Struct("<4sQ2H2L4Q")
_READ_ERRORS = (tarfile.TarError, zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, zlib.error,
                lzma.LZMAError, NotImplementedError, RuntimeError, struct.error, UnicodeError)
_T = TypeVar("_T")


def _show(name: str) -> str:
    """An attacker's member name, fit for a one-line message."""
    return repr(clean(name, 200))


@contextlib.contextmanager
def _reading(name: str | None = None) -> Iterator[None]:
    """Turn what the archive libraries raise on bad data into one :class:`ArchiveError`."""
    try:
        yield
    except ArchiveError:
        raise
    except _READ_ERRORS as error:
        where = f" at member {_show(name)}" if name is not None else ""
        raise ArchiveError(f"corrupt archive{where}: {clean(error, 200)}") from None


def _path_parts(name: str, limits: ArchiveLimits, what: str = "archive member") -> tuple[str, ...]:
    """The names along ``name``'s path, or an :class:`ArchiveError` for a path that could
    leave the bot's folder or that a file system would misread."""

    def refuse(rule: str) -> ArchiveError:
        return ArchiveError(f"{what} {_show(name)}: {rule}")

    if "\0" in name:
        raise refuse("its name holds a NUL character")
    if "\\" in name:
        raise refuse("its name holds a backslash (a Windows path separator)")
    if not name.isprintable():
        raise refuse("its name holds a control character or bytes that are not UTF-8")
    if name.startswith("/"):
        raise refuse("an absolute path")
    if _DRIVE.match(name):
        raise refuse("a drive letter")
    parts = tuple(part for part in name.split("/") if part not in ("", "."))
    if ".." in parts:
        raise refuse("a '..' component would leave the bot's folder")
    if len(name) > limits.max_path_length:
        raise refuse(f"a path longer than {limits.max_path_length:,} characters (limit max_path_length)")
    if len(parts) > limits.max_depth:
        raise refuse(f"a path more than {limits.max_depth} names deep (limit max_depth)")
    if any(len(part.encode()) > NAME_MAX for part in parts):
        raise refuse(f"a name longer than {NAME_MAX} bytes")
    return parts


class _Bounded:
    """A decompressed stream that refuses to give more than ``budget`` bytes: tarfile reads a
    header (a long name, a pax record) whole into memory, whatever size it claims."""

    def __init__(self, stream: IO[bytes], budget: int) -> None:
        self._stream = stream
        self._budget = budget
        self._count = 0

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(self._budget - self._count + 1 if size < 0 else size)
        self._count += len(data)
        if self._count > self._budget:
            raise ArchiveError(f"the archive unpacks to more than {self._budget:,} bytes of tar data "
                               f"(limit max_unpacked_bytes, plus {TAR_HEADER_ALLOWANCE:,} per member for headers)")
        return data


def _tar_kind(info: tarfile.TarInfo) -> str:
    if info.issparse():
        return "sparse"
    if info.isreg():
        return "file"
    if info.isdir():
        return "folder"
    if info.issym():
        return "symlink"
    if info.islnk():
        return "hardlink"
    if info.ischr() or info.isblk():
        return "device"
    return "fifo" if info.isfifo() else "other"


class _StrictTarInfo(tarfile.TarInfo):
    """A tar header that refuses damage: tarfile takes a bad header after the first, or data
    ending without the end-of-archive blocks, for the end of the archive, which would accept
    a damaged upload cut short."""

    @classmethod
    def fromtarfile(cls, tar: tarfile.TarFile) -> tarfile.TarInfo:
        try:
            return super().fromtarfile(tar)
        except (tarfile.InvalidHeaderError, tarfile.TruncatedHeaderError) as error:
            raise ArchiveError(f"corrupt archive: {clean(error, 200)} at byte {tar.offset:,} of the tar") from None
        except tarfile.EmptyHeaderError:
            raise ArchiveError("corrupt archive: the tar ends without its end-of-archive blocks") from None


def _tar_members(stream: IO[bytes], limits: ArchiveLimits) -> Iterator[_Member]:
    """A tar's members, read as one stream (never seeking back)."""
    budget = limits.max_unpacked_bytes + TAR_HEADER_ALLOWANCE * (limits.max_files + 3)
    with _reading(), tarfile.open(fileobj=_Bounded(stream, budget), mode="r|",
                                           tarinfo=_StrictTarInfo) as tar:  # type: ignore[call-overload]
        for info in tar:
            yield _Member(info.name, _tar_kind(info), info.mode, None,
                          lambda info=info: tar.extractfile(info))  # type: ignore[misc]


_ZIP_KINDS = {0: "file", stat.S_IFREG: "file", stat.S_IFDIR: "folder", stat.S_IFLNK: "symlink",
              stat.S_IFCHR: "device", stat.S_IFBLK: "device", stat.S_IFIFO: "fifo", stat.S_IFSOCK: "socket"}


def _check_zip_directory(data: bytes, limits: ArchiveLimits) -> None:
    """Refuse a zip whose central directory is larger than ``max_files`` members need, before
    zipfile reads the whole of it into memory.  Finds the end records as zipfile does."""
    end = len(data) - _ZIP_END.size
    if end < 0 or data[end:end + 4] != b"PK\x05\x06" or data[-2:] != b"\0\0":
        end = data.rfind(b"PK\x05\x06", max(0, len(data) - _ZIP_END.size - 0xFFFF))
    if end < 0 or end + _ZIP_END.size > len(data):
        raise ArchiveError("corrupt archive: the zip has no end-of-directory record")
    size = _ZIP_END.unpack_from(data, end)[5]
    locator = end - _ZIP64_LOCATOR.size
    if locator >= _ZIP64_END.size and data[locator:locator + 4] == b"PK\x06\x07":
        record = locator - _ZIP64_END.size
        if data[record:record + 4] == b"PK\x06\x06":
            size = _ZIP64_END.unpack_from(data, record)[8]
    allowed = limits.max_files * ZIP_DIRECTORY_ALLOWANCE
    if size > allowed:
        raise ArchiveError(f"the zip's central directory has {size:,} bytes, more than {limits.max_files:,} "
                           f"members need ({ZIP_DIRECTORY_ALLOWANCE:,} bytes each; limit max_files)")


def _too_many(limits: ArchiveLimits) -> ArchiveError:
    return ArchiveError(f"the archive has more than {limits.max_files:,} members, files and folders (limit max_files)")


def _zip_members(data: bytes, limits: ArchiveLimits) -> Iterator[_Member]:
    """A zip's members, in the order of its central directory."""
    _check_zip_directory(data, limits)
    with _reading():
        archive = zipfile.ZipFile(io.BytesIO(data))
    with archive:
        if len(archive.infolist()) > limits.max_files:
            raise _too_many(limits)  # before writing any of them
        for info in archive.infolist():
            mode = info.external_attr >> 16
            kind = "folder" if info.is_dir() else _ZIP_KINDS.get(stat.S_IFMT(mode), "other")
            if kind == "file" and info.flag_bits & 0x1:
                kind = "encrypted"
            # orig_filename: zipfile cuts ``filename`` at a NUL, hiding it from the name rules.
            yield _Member(info.orig_filename, kind, mode, info.compress_size,
                          lambda info=info: archive.open(info))  # type: ignore[misc]


def _members(data: bytes, limits: ArchiveLimits) -> Iterator[_Member]:
    """The members of a tar.gz, tar or zip, told apart by their first bytes."""
    if data[:2] == b"\x1f\x8b":
        return _tar_members(gzip.GzipFile(fileobj=io.BytesIO(data), mode="rb"), limits)
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return _zip_members(data, limits)
    if data[257:262] == b"ustar":
        return _tar_members(io.BytesIO(data), limits)
    raise ArchiveError("not a tar.gz, tar or zip archive (told by its first bytes, not its name)")


@dataclass
class _Tally:
    """What an archive held, and the names seen so far (to refuse twins and clashes)."""

    files: set[tuple[str, ...]] = dataclasses.field(default_factory=set)
    folders: set[tuple[str, ...]] = dataclasses.field(default_factory=set)
    """Named by a member, or holding one."""
    named_folders: set[tuple[str, ...]] = dataclasses.field(default_factory=set)
    members: int = 0
    written: int = 0
    """Files put on disk (skipped ones aside)."""
    size: int = 0

    def place(self, name: str, parts: tuple[str, ...], kind: str) -> None:
        """Record a member, or refuse it for clashing with an earlier one."""
        for depth in range(1, len(parts)):
            if parts[:depth] in self.files:
                raise ArchiveError(f"archive member {_show(name)}: {'/'.join(parts[:depth])!r} is a file, "
                                   f"not a folder")
        if parts in self.files or parts in self.named_folders:
            raise ArchiveError(f"archive member {_show(name)}: the name appears twice")
        if kind == "file" and parts in self.folders:
            raise ArchiveError(f"archive member {_show(name)}: earlier members made it a folder")
        self.folders.update(parts[:depth] for depth in range(1, len(parts)))
        if kind == "file":
            self.files.add(parts)
        else:
            self.named_folders.add(parts)
            self.folders.add(parts)


def _walk_archive(data: bytes, limits: ArchiveLimits, root: Path | None) -> _Tally:
    """Check every member of ``data`` and, unless ``root`` is None (a dry run), write it
    below ``root``, a fresh empty folder."""
    if len(data) > limits.max_archive_bytes:
        raise ArchiveError(f"the archive has {len(data):,} bytes, more than {limits.max_archive_bytes:,} "
                           f"(limit max_archive_bytes)")
    tally = _Tally()
    members = _members(data, limits)
    try:
        for member in members:
            tally.members += 1
            if tally.members > limits.max_files:
                raise _too_many(limits)
            parts = _path_parts(member.name, limits)
            if not parts and member.kind == "folder":
                continue  # the root itself: "." or "./"
            if member.kind in _REFUSED_KINDS:
                raise ArchiveError(f"archive member {_show(member.name)} {_REFUSED_KINDS[member.kind]}")
            if not parts:
                raise ArchiveError(f"archive member {_show(member.name)}: a file needs a name")
            tally.place(member.name, parts, member.kind)
            if SKIPPED.intersection(parts):
                continue
            target = root.joinpath(*parts) if root is not None else None
            if member.kind == "folder":
                if target is not None:
                    target.mkdir(parents=True, exist_ok=True)
            else:
                _write(member, target, tally, data, limits)
    finally:
        members.close()
    return tally


def _write(member: _Member, target: Path | None, tally: _Tally, data: bytes, limits: ArchiveLimits) -> None:
    """Copy one file member to ``target`` (or nowhere), counting its real bytes against the limits."""
    out = None
    if target is not None:
        target.parent.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        out = os.fdopen(os.open(target, flags, 0o600), "wb")
    size = 0
    with _reading(member.name):
        source = member.open()
    try:
        while True:
            with _reading(member.name):
                chunk = source.read(CHUNK)
            if not chunk:
                break
            size += len(chunk)
            tally.size += len(chunk)
            if tally.size > limits.max_unpacked_bytes:
                raise ArchiveError(f"the archive unpacks to more than {limits.max_unpacked_bytes:,} bytes "
                                   f"(limit max_unpacked_bytes), at member {_show(member.name)}")
            if member.compressed is not None and size > limits.ratio_floor_bytes \
                    and size > limits.max_ratio * member.compressed:
                raise ArchiveError(f"archive member {_show(member.name)} unpacks to more than {limits.max_ratio} "
                                   f"times its compressed size (limit max_ratio)")
            if tally.size > limits.ratio_floor_bytes and tally.size > limits.max_ratio * len(data):
                raise ArchiveError(f"the archive unpacks to more than {limits.max_ratio} times its own size "
                                   f"(limit max_ratio), at member {_show(member.name)}")
            if out is not None:
                out.write(chunk)
    finally:
        source.close()
        if out is not None:
            out.close()
    if target is not None:
        target.chmod(0o755 if member.mode & 0o111 else 0o644)
        tally.written += 1


def _bot_root(staging: Path) -> Path:
    """The folder holding the bot: ``staging``, or its one top folder moved beside it."""
    entries = list(staging.iterdir())
    if (staging / MANIFEST_NAME).exists() or len(entries) != 1 or not entries[0].is_dir():
        return staging
    moved = Path(tempfile.mkdtemp(prefix=staging.name.removesuffix(".part") + ".", suffix=".part",
                                  dir=staging.parent))
    try:
        entries[0].rename(moved)  # onto the empty folder: same depth as ``dest`` for the manifest's paths
    except BaseException:
        moved.rmdir()
        raise
    return moved


def _staged(data: bytes, dest: Path, limits: ArchiveLimits, inspect: Callable[[Path], _T]) -> tuple[_T, _Tally]:
    """Unpack into a fresh folder beside ``dest``, run ``inspect`` on the bot's root there,
    and rename it to ``dest``; on any error leave nothing behind."""
    dest = Path(dest)
    if dest.exists() or dest.is_symlink():
        raise FileExistsError(f"{dest} exists already")
    staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".part", dir=dest.parent))
    root = staging
    try:
        tally = _walk_archive(data, limits, staging)
        root = _bot_root(staging)
        try:
            result = inspect(root)
        except BotTreeError as error:
            raise ArchiveError(str(error)) from None
        for folder, _, _ in os.walk(root):
            os.chmod(folder, 0o755)  # mkdtemp made the root 0o700; a sandboxed bot's uid must read it
        root.rename(dest)
    except BaseException:
        for leftover in {staging, root}:
            shutil.rmtree(leftover, ignore_errors=True)
        raise
    if root != staging:
        staging.rmdir()  # emptied when its one top folder became the bot's root
    return result, tally


def extract(data: bytes, dest: Path, limits: ArchiveLimits = ArchiveLimits()) -> str:
    """Unpack an archive to ``dest`` (a new folder) under the archive rules alone, without
    looking for a manifest; return its :func:`content_hash`.

    :raises ArchiveError: for an archive the rules refuse; then nothing is left on disk.
    :raises FileExistsError: if ``dest`` exists.
    """
    digest, _ = _staged(data, dest, limits, content_hash)
    return digest


def unpack(data: bytes, dest: Path, limits: ArchiveLimits = ArchiveLimits(), *,
           policy: ServerPolicy | None = None) -> UnpackedBot:
    """Unpack an uploaded bot to ``dest`` (a new folder): the archive rules, then a valid
    ``bot.toml`` at its root (or in its one top folder), then, given a ``policy``, a language
    and a game the server takes.

    :raises ArchiveError: for any refusal; then nothing is left on disk.
    :raises FileExistsError: if ``dest`` exists.
    """

    def inspect(root: Path) -> tuple[BotSpec, str]:
        spec = read_manifest(root)
        if policy is not None:
            check_accepted(spec, policy)
        return spec, content_hash(root)

    (spec, digest), tally = _staged(data, dest, limits, inspect)
    where = Path(dest).resolve()
    spec = dataclasses.replace(spec, directory=where, manifest=where / MANIFEST_NAME)
    return UnpackedBot(path=Path(dest), spec=spec, content_hash=digest, files=tally.written, size=tally.size)


def read_manifest(root: Path) -> BotSpec:
    """The ``bot.toml`` at an unpacked bot's root, read as the referee will read it.

    :raises ArchiveError: if it is missing or :class:`BotSpec` refuses it; the message names
        it ``bot.toml``, not by the server's folder.
    """
    manifest = root / MANIFEST_NAME
    if not manifest.is_file():
        raise ArchiveError(f"no {MANIFEST_NAME} at the archive's root, or in its one top folder")
    try:
        return BotSpec.from_manifest(manifest)
    except BotSpecError as error:
        raise ArchiveError(clean(str(error).replace(str(manifest), MANIFEST_NAME), 500)) from None


def check_accepted(spec: BotSpec, policy: ServerPolicy) -> None:
    """Refuse a bot in a language the server cannot build, or for no game its ladder plays.

    :raises ArchiveError: saying what the server takes.
    """
    if spec.language not in policy.languages:
        named = f"language {spec.language!r}" if spec.language else "no language"
        raise ArchiveError(f"{MANIFEST_NAME} names {named}; this server builds "
                           f"{', '.join(sorted(policy.languages)) or 'no language'}")
    if not any(claims(spec.games, game) for game in policy.games):
        claimed = ", ".join(repr(clean(game, 64)) for game in spec.games[:10])
        raise ArchiveError(f"{MANIFEST_NAME} claims games {claimed}; this ladder plays "
                           f"{', '.join(sorted(policy.games)) or 'no game'}")


def pack(folder: Path, limits: ArchiveLimits = ArchiveLimits()) -> bytes:
    """A bot folder as a deterministic tar.gz: members in name order, zero mtimes, owners and
    gzip time, modes 0o644 or 0o755, so the same folder always gives the same bytes.

    :raises ArchiveError: if the folder has no ``bot.toml``, holds what :func:`unpack` would
        refuse (a link outside, a bad name, a special file), or is over ``limits``.
    """
    folder = Path(folder)
    if not (folder / MANIFEST_NAME).is_file():
        raise ArchiveError(f"no {MANIFEST_NAME} in {clean(folder, 200)}: a bot folder holds its manifest")
    try:
        entries = bot_tree(folder)
    except BotTreeError as error:
        raise ArchiveError(str(error)) from None
    if len(entries) > limits.max_files:
        raise ArchiveError(f"the folder has {len(entries):,} files and folders, more than {limits.max_files:,} "
                           f"(limit max_files)")
    buffer = io.BytesIO()
    size = 0
    with gzip.GzipFile(fileobj=buffer, mode="wb", filename="", mtime=0) as compressed, \
            tarfile.open(fileobj=compressed, mode="w", format=tarfile.PAX_FORMAT) as tar:  # type: ignore[call-overload]
        for name, source, executable in entries:
            _path_parts(name, limits, "file")
            info = tarfile.TarInfo(name)  # uid, gid, owner names and mtime are 0 or "" already
            info.mode = 0o755 if executable else 0o644
            if source is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
                continue
            with source.open("rb") as stream:
                info.size = os.fstat(stream.fileno()).st_size
                size += info.size
                if size > limits.max_unpacked_bytes:
                    raise ArchiveError(f"the folder's files hold more than {limits.max_unpacked_bytes:,} bytes "
                                       f"(limit max_unpacked_bytes), at file {_show(name)}")
                tar.addfile(info, stream)
    data = buffer.getvalue()
    _walk_archive(data, limits, None)  # what the server would refuse, refused here first
    return data
