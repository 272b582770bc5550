"""Printing results for people and for programs: ``--format table|json|csv|markdown``.

A command builds its rows once, as dictionaries of typed values keyed in snake_case, and
:func:`emit` renders them:

* ``json``: a list of objects, numbers as numbers, lists as lists (docs/cli.md documents
  each command's shape);
* ``csv``: one row per object, one value per cell (a list value is written as a JSON list,
  a boolean as ``true``/``false`` like JSON's, not Python's ``True``);
* ``table`` (rich) and ``markdown``: the columns' human headers, floats rounded, text
  columns left-aligned and numbers right-aligned.

Text from bots is already cleaned where it enters arena (:mod:`referee.untrusted`); the
table console prints with markup off, so ``[bold]`` in a bot's name stays literal.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.table import Table

from referee.untrusted import clean

FORMATS = ("table", "json", "csv", "markdown")

console = Console(highlight=False, markup=False, emoji=False, soft_wrap=True,
                  width=None if sys.stdout.isatty() else 160)
"""Piped output is not squeezed to 80 columns: tables keep their natural width."""


@dataclass(frozen=True)
class Column:
    """One field of a command's rows."""

    key: str
    """The JSON and CSV key (snake_case)."""
    header: str = ""
    """The table and Markdown header (default: the key with spaces)."""
    digits: int = 2
    """Decimals shown for floats in table and Markdown output (JSON and CSV keep them all)."""

    @property
    def title(self) -> str:
        return self.header or self.key.replace("_", " ")


def format_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="Output format: a table for people; json, csv or markdown for programs and pages "
                             "(docs/cli.md).")(function)


def _cell(value: Any, digits: int) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    if isinstance(value, (list, tuple)):
        return " ".join(_cell(item, digits) for item in value)
    return clean(value)


def _csv_cell(value: Any) -> Any:
    """Lists, objects and booleans as JSON writes them; anything else as it is."""
    return json.dumps(value) if isinstance(value, (list, tuple, dict, bool)) else value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def emit(columns: Sequence[Column], rows: Sequence[dict[str, Any]], fmt: str, *, title: str = "",
         empty: str = "") -> None:
    """Print ``rows`` (dictionaries with every column's key) in ``fmt``.

    ``empty`` is said instead of an empty table (JSON and CSV print an empty list or just
    the header, so programs need no special case).
    """
    keys = [column.key for column in columns]
    if fmt == "json":
        click.echo(json.dumps([{key: row[key] for key in keys} for row in rows], indent=1))
        return
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(keys)
        for row in rows:
            writer.writerow([_csv_cell(row[key]) for key in keys])
        click.echo(out.getvalue(), nl=False)
        return
    if not rows and empty:
        console.print(empty)
        return
    numeric = [bool(rows) and all(_is_number(row[key]) or row[key] is None for row in rows) for key in keys]
    if fmt == "markdown":
        if title:
            click.echo(f"**{clean(title)}**\n")
        click.echo("| " + " | ".join(column.title for column in columns) + " |")
        click.echo("|" + "|".join(" ---: " if right else " :--- " for right in numeric) + "|")
        for row in rows:
            cells = [_cell(row[c.key], c.digits).replace("|", "\\|") for c in columns]
            click.echo("| " + " | ".join(cells) + " |")
        return
    table = Table(title=clean(title) or None, box=box.SIMPLE_HEAD, pad_edge=False)
    for column, right in zip(columns, numeric):
        table.add_column(column.title, justify="right" if right else "left", no_wrap=column.key in ("bot", "conservative"))
    for row in rows:
        table.add_row(*(_cell(row[c.key], c.digits) for c in columns))
    console.print(table)
