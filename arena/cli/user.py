"""``arena user``: the accounts of people who submit bots (:mod:`arena.submission.accounts`).

A token is printed once, when it is made (``add``, ``rotate``); the database keeps only
its hash, so a lost token is replaced, never shown again.
"""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.common import db_option, iso_time, open_db
from arena.cli.output import Column, emit, format_option
from arena.submission import accounts

USER_COLUMNS = [Column("name"), Column("admin"), Column("disabled"), Column("token_id", "token id"),
                Column("created"), Column("token_created", "token created")]


@click.group("user")
def user_group() -> None:
    """Add, list, disable users and rotate their tokens (docs/security.md, "Accounts and tokens")."""


def _print_token(name: str, token: str, what: str) -> None:
    click.echo(f"{what} {name}; token:")
    click.echo(token)
    click.echo("Keep it secret: only its hash is stored, so it cannot be shown again "
               "(`arena user rotate` makes a new one).")


@user_group.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="The user may administer the arena.")
@db_option
def user_add(name: str, admin: bool, db_path: Path) -> None:
    """Add the user NAME and print their token, once (DB is created if missing)."""
    try:
        accounts.check_name(name)  # before the file is created
        with open_db(db_path, create=True) as db:
            user, token = accounts.add_user(db, name, admin=admin)
    except accounts.AccountError as error:
        raise click.ClickException(str(error)) from None
    _print_token(user.name, token, "added admin" if admin else "added user")


@user_group.command("list")
@format_option
@db_option
def user_list(fmt: str, db_path: Path) -> None:
    """List the users (never their tokens: only the public token id)."""
    with open_db(db_path, readonly=True) as db:
        found = accounts.users(db) if accounts.has_accounts(db) else []
    rows = [{"name": u.name, "admin": u.admin, "disabled": u.disabled, "token_id": u.token_id,
             "created": iso_time(u.created_at), "token_created": iso_time(u.token_created_at)} for u in found]
    emit(USER_COLUMNS, rows, fmt, title="users", empty=f"no users in {db_path}")


@user_group.command("disable")
@click.argument("name")
@db_option
def user_disable(name: str, db_path: Path) -> None:
    """Stop NAME authenticating: their token is refused and their web sessions end."""
    with open_db(db_path) as db:
        try:
            user = accounts.disable_user(db, name)
        except accounts.AccountError as error:
            raise click.ClickException(str(error)) from None
    click.echo(f"disabled {user.name}")


@user_group.command("rotate")
@click.argument("name")
@db_option
def user_rotate(name: str, db_path: Path) -> None:
    """Give NAME a new token (printed once); the old one and their web sessions stop working."""
    with open_db(db_path) as db:
        try:
            user, token = accounts.rotate_token(db, name)
        except accounts.AccountError as error:
            raise click.ClickException(str(error)) from None
    _print_token(user.name, token, "new token for")
