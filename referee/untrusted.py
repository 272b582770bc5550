"""Text that comes from bots: names, versions, comments, error output.

Bots are untrusted, and their text is shown in terminals, logs and web pages.  Whatever a
bot writes passes through :func:`clean` where it enters arena, so no control character
(a terminal escape sequence, a bidirectional override, a newline forging a log line)
reaches a screen.  Markup is a display matter: the CLI prints with rich markup off and the
web pages escape HTML.
"""

from __future__ import annotations

REPLACEMENT = "\ufffd"


def clean(text: object, limit: int | None = None) -> str:
    """``text`` as one printable line: whitespace becomes a space, other non-printable
    characters become U+FFFD, and the result is cut to ``limit`` characters.

    >>> clean("evil\\x1b[2J name\\n2")
    'evil\\ufffd[2J name 2'
    """
    value = str(text)
    if limit is not None:
        value = value[:limit]
    if value.isprintable():
        return value
    return "".join(ch if ch.isprintable() else " " if ch.isspace() else REPLACEMENT for ch in value)
