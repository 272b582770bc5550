"""The staging folders an upload killed mid-unpack leaves are removed when ``arena serve
--uploads`` starts, once old enough, and nothing else is.

The leftovers are real: a process unpacks an archive with the upload code and is killed
(SIGKILL, as a server would be) while its files are in the staging folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from arena.league.storage import Database
from arena.submission.archive import pack
from arena.submission.submissions import STALE_STAGING_S

from .test_upload import ROOT, RANDOM_BOT, free_port

KILLED_MID_UNPACK = """
import os, signal, sys
from pathlib import Path
from arena.submission.archive import ArchiveLimits, _staged
dest = Path(sys.argv[1])
_staged(Path(sys.argv[2]).read_bytes(), dest, ArchiveLimits(), lambda root: os.kill(os.getpid(), signal.SIGKILL))
"""


def killed_upload(incoming: Path, archive: Path, name: str) -> Path:
    """The staging folder of an unpack killed before its rename (what a killed server leaves)."""
    before = set(incoming.iterdir())
    result = subprocess.run([sys.executable, "-c", KILLED_MID_UNPACK, str(incoming / name), str(archive)], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == -signal.SIGKILL, result.stderr
    (left,) = set(incoming.iterdir()) - before
    assert left.name.startswith(f".{name}.") and left.name.endswith(".part") and (left / "bot.toml").is_file()
    return left


def age(path: Path, seconds: float) -> None:
    stamp = time.time() - seconds
    os.utime(path, (stamp, stamp), follow_symlinks=False)


def test_serve_removes_old_staging_leftovers_and_nothing_else(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    Database(db).close()
    data = tmp_path / "data"
    incoming = data / "incoming"
    incoming.mkdir(parents=True)
    archive = tmp_path / "bot.tar.gz"
    archive.write_bytes(pack(RANDOM_BOT))
    old = killed_upload(incoming, archive, "0123456789abcdef")
    (old / "locked").mkdir()
    (old / "locked" / "file").write_text("x")
    (old / "locked").chmod(0o555)  # a read-only folder inside does not stop the removal
    age(old, STALE_STAGING_S + 60)
    fresh = killed_upload(incoming, archive, "fedcba9876543210")  # maybe another server's, unpacking now
    age(fresh, STALE_STAGING_S - 300)
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "keep").write_text("keep")
    decoys = [incoming / "abcdef0123456789", incoming / ".notes.part", incoming / ".link.part", incoming / ".x.partial",
              data / "bots" / ".y.part", data / ".z.part"]
    decoys[0].mkdir()
    decoys[1].write_text("a file, not a folder")
    decoys[2].symlink_to(outside, target_is_directory=True)
    decoys[3].mkdir()
    decoys[4].mkdir(parents=True)
    decoys[5].mkdir()
    for path in [*decoys, outside]:
        age(path, 10 * STALE_STAGING_S)

    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(db), "--port", str(port),
                                "--accounts", "--uploads", "--data-dir", str(data)],
                               cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None
        # Read up to the removal's line before the Ctrl-C, which could otherwise interrupt the
        # server between its announcements.
        guard = threading.Timer(60, process.kill)  # a missing line ends the wait, not the suite
        guard.start()
        lines = [process.stdout.readline() for _ in range(4)]
        guard.cancel()
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    assert lines[2].startswith("uploads: at "), lines
    said = f"uploads: removed 1 staging folder(s) an interrupted upload left in {incoming}\n"
    assert lines[3] == said, lines
    assert not old.exists() and (fresh / "bot.toml").is_file()
    assert all(path.exists() or path.is_symlink() for path in decoys), decoys
    assert (outside / "keep").read_text() == "keep" and decoys[2].is_symlink()
