"""``valtti club``: a club's accounts from the command line (docs/HOSTING.md, "A club"): make
an administrator, e.g. before the server is first opened, or when the only one forgot their
password."""

from __future__ import annotations

import asyncio

import click

from valtti.cli.common import fail, main


@main.group()
def club() -> None:
    """A club's accounts (valtti serve --club)."""


@club.command()
@click.argument("name")
@click.option(
    "--db",
    "db_url",
    metavar="URL",
    help="The server's database (as valtti serve --db); default: its default database.",
)
@click.password_option(
    "--password",
    prompt="Password",
    help="The password (asked for, unseen, unless given; an existing member keeps theirs).",
)
def admin(name: str, db_url: str | None, password: str) -> None:
    """Make NAME an administrator: a new member with the password, or an existing one."""
    from valtti.web.club.accounts import Accounts
    from valtti.web.db.club import ClubStore
    from valtti.web.db.store import Store
    from valtti.web.referee.errors import RoomError
    from valtti.web.server import SettingError, database_url

    try:
        url, shown = database_url(db_url)
    except SettingError as e:
        raise click.BadParameter(str(e), param_hint="--db") from None
    store = Store(url)
    try:
        clubs = ClubStore(store)
        found = clubs.member_by_name(name.strip())
        if found is not None:
            clubs.set_admin(found[0].id)
            clubs.set_disabled(found[0].id, False)
            click.echo(f"{found[0].name} is an administrator of the club at {shown}")
            return
        try:
            member = asyncio.run(Accounts(clubs).add(name, password, admin=True))
        except RoomError as e:
            fail(f"valtti club admin: {e.message}", 2)
        click.echo(f"{member.name} is a new administrator of the club at {shown}")
    finally:
        store.close()
