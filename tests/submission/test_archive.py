"""Packing bot folders and unpacking strangers' archives (issue 27): every attack is a real
archive built here (with tarfile and zipfile, or patched bytes where they refuse to write
one), refused with one message that names the member and the rule, and leaves nothing on disk."""

from __future__ import annotations

import gzip
import io
import os
import shutil
import stat
import struct
import tarfile
import tempfile
import tomllib
import warnings
import zipfile
from collections.abc import Iterable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.submission.archive import (ArchiveError, ArchiveLimits, ServerPolicy, content_hash, extract, pack,
                                      unpack)

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bots"
MANIFEST = b'name = "tiny"\nversion = "1"\nlanguage = "python"\ncommand = ["{python}", "bot.py"]\ngames = ["yaniv"]\n'
BOT = b"print('hello')\n"
Entry = tuple[tarfile.TarInfo, bytes]


def tar_entry(name: str, data: bytes = b"", *, kind: bytes = tarfile.REGTYPE, mode: int = 0o644,
              linkname: str = "") -> Entry:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname, info.size = kind, mode, linkname, len(data)
    return info, data


def tar_gz(*entries: Entry, base: bool = True) -> bytes:
    """A tar.gz of ``entries``, after a valid bot (manifest and program) unless ``base`` is False."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        start = [tar_entry("bot.toml", MANIFEST), tar_entry("bot.py", BOT)] if base else []
        for info, data in [*start, *entries]:
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def zip_of(entries: Iterable[tuple[str | zipfile.ZipInfo, bytes]], *, base: bool = True,
           compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        start = [("bot.toml", MANIFEST), ("bot.py", BOT)] if base else []
        for name, data in [*start, *entries]:
            archive.writestr(name, data)
    return buffer.getvalue()


def zip_info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    return info


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    """Where an upload goes: a new folder in an otherwise empty one."""
    (tmp_path / "uploads").mkdir()
    return tmp_path / "uploads" / "bot"


def refused(data: bytes, dest: Path, limits: ArchiveLimits = ArchiveLimits(), *,
            policy: ServerPolicy | None = None) -> str:
    """The message unpack refuses ``data`` with, after checking that it left nothing on disk."""
    with pytest.raises(ArchiveError) as caught:
        unpack(data, dest, limits, policy=policy)
    assert list(dest.parent.iterdir()) == []
    return str(caught.value)


def files_below(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


# ---- names that would escape, or that a file system would misread -------------------------------

def test_an_absolute_path_is_refused(dest: Path) -> None:
    assert refused(tar_gz(tar_entry("/etc/evil", b"x")), dest) == "archive member '/etc/evil': an absolute path"


@pytest.mark.parametrize("name", ["../evil", "bot/../../evil", "a/./../../evil"])
def test_a_dot_dot_component_is_refused(dest: Path, name: str) -> None:
    message = refused(tar_gz(tar_entry(name, b"x")), dest)
    assert message == f"archive member {name!r}: a '..' component would leave the bot's folder"
    assert not (dest.parent.parent / "evil").exists()


def test_a_nul_in_a_name_is_refused(dest: Path) -> None:
    """zipfile cuts names at a NUL (when writing and reading), so the NUL is patched in."""
    data = zip_of([("evilXname.txt", b"x")]).replace(b"evilXname", b"evil\0name")
    assert refused(data, dest) == "archive member 'evil\ufffdname.txt': its name holds a NUL character"


def test_a_backslash_in_a_name_is_refused(dest: Path) -> None:
    message = refused(tar_gz(tar_entry("..\\..\\evil.txt", b"x")), dest)
    assert message == ("archive member '..\\\\..\\\\evil.txt': its name holds a backslash "
                       "(a Windows path separator)")


@pytest.mark.parametrize("name", ["C:/Windows/evil.txt", "c:evil.txt"])
def test_a_drive_letter_is_refused(dest: Path, name: str) -> None:
    assert refused(zip_of([(name, b"x")]), dest) == f"archive member {name!r}: a drive letter"


def test_a_control_character_in_a_name_is_refused_and_not_echoed(dest: Path) -> None:
    message = refused(tar_gz(tar_entry("evil\x1b[2J.txt", b"x")), dest)
    assert message == ("archive member 'evil\ufffd[2J.txt': its name holds a control character or bytes that are "
                       "not UTF-8")


def test_a_name_that_is_not_utf8_is_refused(dest: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT, encoding="latin-1") as tar:
        tar.addfile(tarfile.TarInfo("evil-\xff\xfe.txt"), io.BytesIO())  # the name's bytes: ff fe
    assert refused(buffer.getvalue(), dest) == \
        "archive member 'evil-\ufffd\ufffd.txt': its name holds a control character or bytes that are not UTF-8"


def test_a_name_twice_is_refused(dest: Path) -> None:
    message = refused(tar_gz(tar_entry("bot.py", b"print('second')\n")), dest)
    assert message == "archive member 'bot.py': the name appears twice"


def test_a_name_twice_in_a_zip_is_refused(dest: Path) -> None:
    with pytest.warns(UserWarning, match="Duplicate name"):
        data = zip_of([("bot.toml", b"name = 'other'\n")])
    assert refused(data, dest) == "archive member 'bot.toml': the name appears twice"


def test_a_file_where_a_folder_is_needed_is_refused(dest: Path) -> None:
    message = refused(tar_gz(tar_entry("lib", b"x"), tar_entry("lib/evil.py", b"x")), dest)
    assert message == "archive member 'lib/evil.py': 'lib' is a file, not a folder"


def test_a_file_where_a_folder_was_is_refused(dest: Path) -> None:
    message = refused(tar_gz(tar_entry("lib/a.py", b"x"), tar_entry("lib", b"x")), dest)
    assert message == "archive member 'lib': earlier members made it a folder"


def test_a_path_too_deep_or_too_long_is_refused(dest: Path) -> None:
    limits = ArchiveLimits(max_depth=3, max_path_length=20)
    assert refused(tar_gz(tar_entry("a/b/c/d.py", b"x")), dest, limits) == \
        "archive member 'a/b/c/d.py': a path more than 3 names deep (limit max_depth)"
    assert refused(tar_gz(tar_entry("a" * 21, b"x")), dest, limits) == \
        f"archive member {'a' * 21!r}: a path longer than 20 characters (limit max_path_length)"


# ---- links and special files -------------------------------------------------------------------

@pytest.mark.parametrize("target", ["/etc/passwd", "bot.py"])
def test_a_symbolic_link_is_refused_wherever_it_points(dest: Path, target: str) -> None:
    data = tar_gz(tar_entry("link", kind=tarfile.SYMTYPE, linkname=target))
    assert refused(data, dest) == "archive member 'link' is a symbolic link (archives may hold no links)"


def test_a_hard_link_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("copy", kind=tarfile.LNKTYPE, linkname="/etc/shadow"))
    assert refused(data, dest) == "archive member 'copy' is a hard link (archives may hold no links)"


def test_a_symbolic_link_in_a_zip_is_refused(dest: Path) -> None:
    data = zip_of([(zip_info("link", stat.S_IFLNK | 0o777), b"/etc/passwd")])
    assert refused(data, dest) == "archive member 'link' is a symbolic link (archives may hold no links)"


@pytest.mark.parametrize(("kind", "said"), [(tarfile.CHRTYPE, "is a device file"),
                                            (tarfile.BLKTYPE, "is a device file"), (tarfile.FIFOTYPE, "is a FIFO")])
def test_a_device_or_fifo_is_refused(dest: Path, kind: bytes, said: str) -> None:
    assert refused(tar_gz(tar_entry("dev", kind=kind)), dest) == f"archive member 'dev' {said}"


def test_a_socket_in_a_zip_is_refused(dest: Path) -> None:
    data = zip_of([(zip_info("sock", stat.S_IFSOCK | 0o644), b"")])
    assert refused(data, dest) == "archive member 'sock' is a socket"


def test_an_encrypted_zip_member_is_refused(dest: Path) -> None:
    data = bytearray(zip_of([("secret.py", b"x")], base=False))
    for start in (index for index in range(len(data)) if data[index:index + 4] == b"PK\x03\x04"):
        data[start + 6] |= 1  # general purpose flags: encrypted
    for start in (index for index in range(len(data)) if data[index:index + 4] == b"PK\x01\x02"):
        data[start + 8] |= 1
    assert refused(bytes(data), dest) == "archive member 'secret.py' is encrypted"


def test_set_uid_and_other_mode_bits_are_stripped(dest: Path) -> None:
    data = tar_gz(tar_entry("run.sh", b"#!/bin/sh\n", mode=0o6777), tar_entry("data.txt", b"x", mode=0o4666),
                  tar_entry("lib", kind=tarfile.DIRTYPE, mode=0o1777), tar_entry("lib/x.py", b"x", mode=0o600))
    unpack(data, dest)
    modes = {name: stat.S_IMODE((dest / name).stat().st_mode)
             for name in ("run.sh", "data.txt", "lib", "lib/x.py", ".")}
    assert modes == {"run.sh": 0o755, "data.txt": 0o644, "lib": 0o755, "lib/x.py": 0o644, ".": 0o755}


# ---- limits ------------------------------------------------------------------------------------

@pytest.mark.slow  # the tar.gz writes 5,000 files before the 5,001st member is refused
@pytest.mark.parametrize("form", ["tar.gz", "zip"])
def test_ten_thousand_files_are_refused(dest: Path, form: str) -> None:
    names = [f"data/{index:05}.txt" for index in range(10_000)]
    data = tar_gz(*(tar_entry(name, b"x") for name in names)) if form == "tar.gz" else \
        zip_of((name, b"x") for name in names)
    assert refused(data, dest) == "the archive has more than 5,000 members, files and folders (limit max_files)"


def test_a_zip_directory_larger_than_the_file_limit_needs_is_refused_before_it_is_read(dest: Path) -> None:
    data = zip_of([(f"{index:0200}.txt", b"x") for index in range(10)])
    size = 12 * 46 + 10 * len("0" * 200 + ".txt") + len("bot.toml") + len("bot.py")  # records of 46 bytes + names
    assert refused(data, dest, ArchiveLimits(max_files=2)) == \
        (f"the zip's central directory has {size:,} bytes, more than 2 members need (1,024 bytes each; "
         "limit max_files)")


def test_more_than_the_unpacked_size_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("table.bin", os.urandom(3000)))
    assert refused(data, dest, ArchiveLimits(max_unpacked_bytes=2000)) == \
        "the archive unpacks to more than 2,000 bytes (limit max_unpacked_bytes), at member 'table.bin'"


def test_an_archive_larger_than_the_upload_limit_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("table.bin", os.urandom(3000)))
    assert refused(data, dest, ArchiveLimits(max_archive_bytes=2000)) == \
        f"the archive has {len(data):,} bytes, more than 2,000 (limit max_archive_bytes)"


def test_a_tar_gz_that_compresses_too_well_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("zeros.bin", bytes(2 * 1024 * 1024)))
    assert refused(data, dest) == \
        "the archive unpacks to more than 100 times its own size (limit max_ratio), at member 'zeros.bin'"


def test_one_zip_member_that_compresses_too_well_is_refused(dest: Path) -> None:
    """The whole archive's ratio is fine (a large random member), one member's is not."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.toml", MANIFEST)
        archive.writestr("noise.bin", os.urandom(3 * 1024 * 1024), zipfile.ZIP_STORED)
        archive.writestr("zeros.bin", bytes(2 * 1024 * 1024), zipfile.ZIP_DEFLATED)
    assert refused(buffer.getvalue(), dest) == \
        "archive member 'zeros.bin' unpacks to more than 100 times its compressed size (limit max_ratio)"


@pytest.mark.parametrize(("declared", "said"), [
    (1024, "corrupt archive at member 'bomb': Bad CRC-32 for file 'bomb'"),
    (0x7FFF_FFFF, "archive member 'bomb' unpacks to more than 100 times its compressed size (limit max_ratio)"),
])
def test_a_zip_bomb_whose_headers_lie_about_its_size_is_refused(dest: Path, declared: int, said: str) -> None:
    """60 MiB of zeros, more than the 50 MiB limit, in a zip whose headers (local and central)
    claim another size: the bytes are counted as they come, never taken from a header."""
    bomb = bytes(60 * 1024 * 1024)
    data = bytearray(zip_of([("bomb", bomb)], base=False))
    real = struct.pack("<L", len(bomb))
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    assert data[local + 22:local + 26] == real and data[central + 24:central + 28] == real
    data[local + 22:local + 26] = data[central + 24:central + 28] = struct.pack("<L", declared)
    assert zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("bomb").file_size == declared
    assert refused(bytes(data), dest) == said


def test_a_tar_header_cannot_make_the_reader_hold_more_than_the_limits(dest: Path) -> None:
    """tarfile reads a pax record whole into memory; the decompressed stream is bounded first."""
    info, data = tar_entry("bot.py", BOT)
    info.pax_headers = {"comment": "x" * (2 * 1024 * 1024)}
    limits = ArchiveLimits(max_unpacked_bytes=1024 * 1024, max_files=10)
    assert refused(tar_gz((info, data), base=False), dest, limits) == \
        ("the archive unpacks to more than 1,101,824 bytes of tar data (limit max_unpacked_bytes, plus 4,096 "
         "per member for headers)")


# ---- corrupt or foreign data -----------------------------------------------------------------------

def test_a_truncated_tar_gz_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("noise.bin", os.urandom(100_000)))
    message = refused(data[:len(data) // 2], dest)
    assert message.startswith("corrupt archive") and "Compressed file ended" in message


def test_a_damaged_tar_header_after_the_first_is_refused(dest: Path) -> None:
    """tarfile itself would take it for the end of the archive and give the members before it."""
    raw = bytearray(gzip.decompress(tar_gz(tar_entry("lib.py", b"x"))))
    header = raw.find(b"lib.py")
    raw[header + 148:header + 156] = b"0000000\0"  # its checksum
    assert refused(gzip.compress(bytes(raw)), dest) == \
        f"corrupt archive: bad checksum at byte {header:,} of the tar"


def test_a_tar_cut_short_between_members_is_refused(dest: Path) -> None:
    """Cut after a file's data or after a folder's header: tarfile would end quietly at the latter."""
    raw = gzip.decompress(tar_gz(tar_entry("lib", kind=tarfile.DIRTYPE)))
    assert refused(raw[:raw.find(b"bot.py") + 1024], dest) == "corrupt archive: unexpected end of data"
    assert refused(raw[:raw.find(b"lib/") + 512], dest) == \
        "corrupt archive: the tar ends without its end-of-archive blocks"


def test_a_damaged_zip_is_refused(dest: Path) -> None:
    data = bytearray(zip_of([("noise.bin", os.urandom(100_000))], compression=zipfile.ZIP_STORED))
    start = data.find(b"PK\x01\x02")
    data[start:start + 4] = b"XXXX"
    assert refused(bytes(data), dest) == "corrupt archive: Bad magic number for central directory"


@pytest.mark.parametrize("data", [b"just some text, not an archive" * 20, b"BZh91AY&SY" + bytes(100)])
def test_what_is_not_a_tar_gz_tar_or_zip_is_refused_whatever_its_name(dest: Path, data: bytes) -> None:
    assert refused(data, dest) == "not a tar.gz, tar or zip archive (told by its first bytes, not its name)"


# ---- the manifest and what the server accepts ------------------------------------------------------

def test_an_archive_without_a_manifest_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("bot.py", BOT), base=False)
    assert refused(data, dest) == "no bot.toml at the archive's root, or in its one top folder"


def test_an_invalid_manifest_is_refused_without_naming_the_servers_folders(dest: Path) -> None:
    data = tar_gz(tar_entry("bot.toml", b'name = "x"\n'), base=False)
    assert refused(data, dest) == "bot manifest bot.toml has no 'command'"


def test_a_manifest_asking_for_the_servers_folders_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("bot.toml", MANIFEST + b'[sandbox]\nread_only = ["/home"]\n'), base=False)
    assert refused(data, dest).startswith(
        "bot manifest bot.toml: [sandbox] read_only '/home' is /home, outside the folders")


POLICY = ServerPolicy(languages=frozenset({"python", "node"}), games=frozenset({"yaniv", "jass"}))


def test_a_language_the_server_cannot_build_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("bot.toml", MANIFEST.replace(b'"python"', b'"cobol"')), base=False)
    assert refused(data, dest, policy=POLICY) == "bot.toml names language 'cobol'; this server builds node, python"


def test_a_game_the_ladder_does_not_play_is_refused(dest: Path) -> None:
    data = tar_gz(tar_entry("bot.toml", MANIFEST.replace(b'["yaniv"]', b'["chess", "go\\u001b[2J"]')), base=False)
    assert refused(data, dest, policy=POLICY) == \
        "bot.toml claims games 'chess', 'go\ufffd[2J'; this ladder plays jass, yaniv"


def test_a_bot_the_server_accepts_is_put_in_place(dest: Path) -> None:
    bot = unpack(tar_gz(), dest, policy=POLICY)
    assert (bot.path, bot.spec.name, bot.spec.directory, bot.files, bot.size) == \
        (dest, "tiny", dest.resolve(), 2, len(MANIFEST) + len(BOT))
    assert files_below(dest) == {"bot.toml": MANIFEST, "bot.py": BOT}
    assert [path.name for path in dest.parent.iterdir()] == ["bot"]


def test_an_existing_destination_is_left_alone(dest: Path) -> None:
    dest.mkdir()
    (dest / "mine.txt").write_text("keep")
    with pytest.raises(FileExistsError):
        unpack(tar_gz(), dest)
    assert files_below(dest) == {"mine.txt": b"keep"} and [path.name for path in dest.parent.iterdir()] == ["bot"]


# ---- layout, hashing and the same bot in either format ---------------------------------------------

def test_a_zipped_folder_and_a_tar_of_its_contents_are_the_same_bot(tmp_path: Path) -> None:
    """``mybot/...`` (what "compress this folder" makes) and a tar.gz of the bare files, with
    ``./`` names, other modes and order, unpack to the same tree and content hash."""
    zipped = zip_of([("mybot/", b""), ("mybot/bot.toml", MANIFEST), ("mybot/lib/util.py", b"x = 1\n"),
                     ("mybot/bot.py", BOT)], base=False)
    tarred = tar_gz(tar_entry(".", kind=tarfile.DIRTYPE), tar_entry("./bot.py", BOT, mode=0o600),
                    tar_entry("./lib/util.py", b"x = 1\n", mode=0o664), tar_entry("./bot.toml", MANIFEST), base=False)
    one, two = unpack(zipped, tmp_path / "one"), unpack(tarred, tmp_path / "two")
    three = unpack(gzip.decompress(tarred), tmp_path / "three")  # a plain tar
    assert files_below(one.path) == files_below(two.path) == files_below(three.path) == \
        {"bot.toml": MANIFEST, "bot.py": BOT, "lib/util.py": b"x = 1\n"}
    assert one.content_hash == two.content_hash == three.content_hash == content_hash(one.path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["one", "three", "two"]


def test_the_hash_tells_contents_names_and_the_executable_bit_apart(tmp_path: Path) -> None:
    hashes = {unpack(data, tmp_path / str(index)).content_hash for index, data in enumerate([
        tar_gz(), tar_gz(tar_entry("x", b"1")), tar_gz(tar_entry("x", b"2")), tar_gz(tar_entry("y", b"1")),
        tar_gz(tar_entry("x", b"1", mode=0o755)), tar_gz(tar_entry("x", kind=tarfile.DIRTYPE))])}
    assert len(hashes) == 6


def test_version_control_and_caches_are_not_unpacked_nor_hashed(tmp_path: Path) -> None:
    data = zip_of([(".git/config", b"[core]\n"), ("__pycache__/bot.cpython-311.pyc", b"\0"),
                   ("lib/.venv/bin/python", b"")])
    bot = unpack(data, tmp_path / "bot")
    assert files_below(bot.path) == {"bot.toml": MANIFEST, "bot.py": BOT}
    assert bot.content_hash == unpack(tar_gz(), tmp_path / "plain").content_hash


# ---- pack ---------------------------------------------------------------------------------------

def sample_bot_folders() -> list[Path]:
    return sorted(manifest.parent for manifest in SAMPLES.glob("*/*/bot.toml"))


@pytest.mark.parametrize("folder", sample_bot_folders(), ids=lambda folder: folder.relative_to(SAMPLES).as_posix())
def test_every_sample_bot_packs_and_unpacks_to_its_own_content_hash(tmp_path: Path, folder: Path) -> None:
    data = pack(folder)
    assert extract(data, tmp_path / "bot") == content_hash(tmp_path / "bot") == content_hash(folder)
    manifest = tomllib.loads((folder / "bot.toml").read_text(encoding="utf-8"))
    (tmp_path / "uploads").mkdir()
    if "read_only" in manifest.get("sandbox", {}):
        # It reads the shared SDK or build folder beside it: not a self-contained submission.
        assert "[sandbox] read_only" in refused(data, tmp_path / "uploads" / "bot")
    else:
        bot = unpack(data, tmp_path / "uploads" / "bot")
        assert (bot.content_hash, bot.spec.name) == (content_hash(folder), manifest["name"])


def test_the_sample_bots_include_every_language() -> None:
    assert {folder.parent.name for folder in sample_bot_folders()} == {"python", "search", "node", "cpp", "go"}


def test_pack_is_deterministic_whatever_the_times_and_the_order_of_creation(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, order, when in ((first, ["bot.toml", "bot.py", "lib/b.py", "lib/a.py"], 1_000_000),
                                (second, ["lib/a.py", "lib/b.py", "bot.py", "bot.toml"], 2_000_000)):
        for name in order:
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(MANIFEST if name == "bot.toml" else name.encode())
            os.utime(folder / name, (when, when))
    (second / "__pycache__").mkdir()
    (second / "__pycache__" / "bot.pyc").write_bytes(b"\0")
    assert pack(first) == pack(first) == pack(second)
    with tarfile.open(fileobj=io.BytesIO(pack(first))) as tar:
        members = tar.getmembers()
    assert [member.name for member in members] == ["bot.py", "bot.toml", "lib", "lib/a.py", "lib/b.py"]
    owners = {(member.mtime, member.uid, member.gid, member.uname, member.gname) for member in members}
    assert owners == {(0, 0, 0, "", "")}
    assert gzip.decompress(pack(first)) and pack(first)[4:8] == bytes(4)  # no gzip time


def bot_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mybot"
    folder.mkdir()
    (folder / "bot.toml").write_bytes(MANIFEST)
    (folder / "bot.py").write_bytes(BOT)
    return folder


def test_pack_refuses_a_link_out_of_the_folder(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    (tmp_path / "secret").write_text("organiser's")
    (folder / "data").symlink_to(tmp_path / "secret")
    with pytest.raises(ArchiveError, match=r"^file 'data' is a link to .*/secret, outside the bot's folder$"):
        pack(folder)


def test_pack_copies_a_link_to_a_file_inside_the_folder(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    (folder / "main.py").symlink_to("bot.py")
    extract(pack(folder), tmp_path / "out")
    assert not (tmp_path / "out" / "main.py").is_symlink() and (tmp_path / "out" / "main.py").read_bytes() == BOT
    assert content_hash(tmp_path / "out") == content_hash(folder)


def test_pack_refuses_what_unpack_would_so_the_author_learns_before_uploading(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path)
    with pytest.raises(ArchiveError, match="^the folder has 2 files and folders, more than 1 "):
        pack(folder, ArchiveLimits(max_files=1))
    (folder / "zeros.bin").write_bytes(bytes(2 * 1024 * 1024))
    with pytest.raises(ArchiveError, match="^the archive unpacks to more than 100 times its own size"):
        pack(folder)
    (folder / "zeros.bin").unlink()
    (folder / "evil\\name.py").write_bytes(b"")
    with pytest.raises(ArchiveError, match="^file 'evil.*name.py': its name holds a backslash"):
        pack(folder)


def test_pack_needs_a_manifest(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_bytes(BOT)
    with pytest.raises(ArchiveError, match="^no bot.toml in .*: a bot folder holds its manifest$"):
        pack(tmp_path)


# ---- any name at all ----------------------------------------------------------------------------

NAME_PIECES = st.sampled_from(["..", ".", "", "a", "b", "bot.toml", "C:", "\\", "\x00", "\x1b", "é", " ", "~"])
NAMES = st.one_of(st.lists(NAME_PIECES, max_size=6).map("/".join),
                  st.text(st.characters(blacklist_categories=("Cs",)), max_size=40))


@settings(max_examples=150, deadline=None)
@given(names=st.lists(NAMES, min_size=1, max_size=4), form=st.sampled_from(["tar.gz", "zip"]))
def test_no_member_name_reaches_outside_the_destination(names: list[str], form: str) -> None:
    """Whatever the names, unpack accepts or refuses with an ArchiveError, and writes nothing
    but ``dest`` beside it (no link, no file elsewhere)."""
    with tempfile.TemporaryDirectory() as base:
        uploads = Path(base, "uploads")
        uploads.mkdir()
        Path(base, "outside").write_text("untouched")
        dest = uploads / "bot"
        if form == "tar.gz":
            data = tar_gz(*(tar_entry(name, b"x") for name in names))
        else:
            with zipfile.ZipFile(buffer := io.BytesIO(), "w") as archive, warnings.catch_warnings():
                warnings.simplefilter("ignore")  # zipfile warns of a name written twice
                for name in [*(name for name in names if name.split("\0")[0]), "bot.toml"]:  # zipfile fails on ""
                    archive.writestr(name, b"" if name.endswith("/") else MANIFEST if name == "bot.toml" else b"x")
            data = buffer.getvalue()
        try:
            unpack(data, dest)
        except ArchiveError:
            assert list(uploads.iterdir()) == []
        else:
            assert list(uploads.iterdir()) == [dest]
            for folder, folders, files in os.walk(dest):
                for name in folders + files:
                    path = Path(folder, name)
                    assert not path.is_symlink() and path.resolve().is_relative_to(dest.resolve())
        assert sorted(os.listdir(base)) == ["outside", "uploads"] and Path(base, "outside").read_text() == "untouched"
        shutil.rmtree(uploads)
