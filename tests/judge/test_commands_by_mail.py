"""Every judge command, proven by mail: scenarios read from
tests/judge/data/commands/*.toml, each a list of mails processed in order
through the real store and processing (one transaction per mail, one
reply), with what each mail must cause checked on the real database.

A scenario:

    [[scenario]]
    name = "..."
    prelude = "seven"          # optional: mails from preludes.toml run first
    vars = { settings = "" }   # optional: $names replaced in the prelude's mails
    now = "2026-03-02T12:00Z"  # optional: the time every mail is processed at
    limits = { failed_signons_per_power_hour = 20 }  # optional: the judge's limits changed
    flags = ["NO_DRAW"]        # optional: DPJudge RULE flags on the variant, as an
                               # imported map's file would set them

    [[scenario.mail]]
    from = "france@players.test"
    body = '''SIGNON france@g pw'''
    now = "..."                # optional, this mail only
    reply = ["substring", ...] # in the one reply to the sender
    reply_lacks = ["..."]      # not in it
    reply_subject = "Re: ..."  # the reply's subject, exactly
    attached = ["g-F1901M.png", ...]  # the reply's attachments, exactly (default: none)
    sections = 3               # the reply answers this many commands
    sent = [{ subject = "...", to = ["a@x", ...], has = ["..."], lacks = ["..."],
              attached = ["g-F1901M.png", ...], headers = { List-Id = "..." } }]
    not_sent = ["subject part"]  # no new mail has a subject containing it
    only_reply = true          # the reply is the only mail this one caused
    game = { status = "active", phase = "S1901M", result = "..." }  # name: see below
                               # also deadline = "<ISO time>", exists = false
    members = [{ address = "a@x", status = "active", power = "FRANCE", ... }]
                               # any Member field; absent = true/false
    orders = { FRANCE = ["A PAR - BUR", ...] }   # on file now, in this order
    lines = { bids = { EGYPT = ["1: A KHM H"] } }  # a kind's lines on file now, likewise
    phases = 1                 # phase records of the game
    press = 2                  # press rows of the game

To read what a scenario sends as its players receive it, set
JUDGE_SCENARIO_MAILS to a directory: each mail is written there as text
(its recipients, subject and attachments' names over its body), with its
PNG attachments beside it, under a folder per scenario.

The game checked is game.name if given, else the scenario's 'game', else
its prelude's.

A prelude's mails are run and checked by the first scenario (in each test
process) that names it with the same vars, now, limits and flags; the
others start from a copy of the SQLite database it left.

'to' lists the recipients of the new mails whose subject contains 'subject',
exactly (an address twice when it got two); 'has' and 'lacks' are checked
on each such mail ('among' = [addresses] narrows the check to the mails to
those addresses).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tomllib
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from functools import lru_cache
from pathlib import Path
from string import Template
from typing import Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from engine.flags import in_force
from judge import games
from judge.config import Config, Limits
from judge.intake.store import store_inbound
from judge.models import FiledLines, Game, Member, Outbox, PhaseRecord, Press, as_utc
from judge.processing import process_mail
from tests.judge.cheap_passwords import cheap_passwords

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data" / "commands"
PRELUDES: dict[str, Any] = tomllib.loads(
    (DATA / "preludes.toml").read_text())
# a scenario's player sends more mails in a moment than the reply throttle allows
CONFIG = Config(name="TESTJUDGE", address="judge@judge.test",
                limits=Limits(replies_per_hour=1000))
DEFAULT_NOW = "2026-03-02T12:00:00+00:00"  # a Monday


def scenarios_in(data: Path) -> list[Any]:
    """Every scenario of the data files in ``data``, each named by its file."""
    found = []
    for path in sorted(data.glob("*.toml")):
        if path.name == "preludes.toml":
            continue
        for scenario in tomllib.loads(path.read_text())["scenario"]:
            found.append(pytest.param(scenario, id=f"{path.stem}: {scenario['name']}"))
    return found


@dataclass(frozen=True)
class Sent:
    to: tuple[str, ...]
    subject: str
    kind: str
    raw: bytes  # the message as sent

    # Most mails a scenario causes (the results, with a map, to every player)
    # are never looked into: parsing every one whole, attachments and all, was
    # a quarter of the scenarios' time, so a mail is read when it is checked.
    @property
    def body(self) -> str:
        return _read(self.raw).body

    @property
    def files(self) -> tuple[str, ...]:
        """The attachments' file names."""
        return _read(self.raw).files

    @property
    def headers(self) -> dict[str, str]:
        """The List-* headers."""
        return _read(self.raw).headers


@dataclass(frozen=True)
class _Read:
    body: str
    files: tuple[str, ...]
    headers: dict[str, str]


@lru_cache(maxsize=64)
def _read(raw: bytes) -> _Read:
    msg = message_from_bytes(raw, policy=policy.default)
    part = msg.get_body(("plain",))
    body = part.get_content().replace("\r\n", "\n") if part is not None else ""
    files = tuple(str(p.get_filename()) for p in msg.iter_attachments())
    # only the List-* headers are parsed, not every header of the mail
    lists = {k: str(msg[k]).strip() for k in msg if k.lower().startswith("list-")}
    return _Read(body, files, lists)


def _subject(raw: bytes) -> str:
    """The subject, read from the header block alone."""
    head = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0]
    return str(BytesHeaderParser(policy=policy.default).parsebytes(head)["Subject"])


def _when(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _raw(sender: str, subject: str, body: str, number: int) -> bytes:
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    msg["To"] = CONFIG.address
    msg["Subject"] = subject
    msg["Message-ID"] = f"<mail-{number}@players.test>"
    msg.set_content(body)
    return msg.as_bytes()


def _new_mails(engine: Engine, after: int) -> tuple[list[Sent], int]:
    with Session(engine) as session:
        rows = session.exec(select(Outbox).where(col(Outbox.id) > after)
                            .order_by(col(Outbox.id))).all()
        out = []
        last = after
        for row in rows:
            out.append(Sent(tuple(json.loads(row.recipients)), _subject(row.raw),
                            row.kind, row.raw))
            last = max(last, row.id or 0)
        return out, last


def _check_reply(mail: dict[str, Any], sent: list[Sent], where: str) -> None:
    replies = [m for m in sent if m.kind == "reply"]
    assert len(replies) == 1, f"{where}: {len(replies)} replies: {[m.subject for m in sent]}"
    reply = replies[0]
    assert reply.to == (mail["from"],), where
    if "reply_subject" in mail:
        assert reply.subject == mail["reply_subject"], f"{where}: {reply.subject!r}"
    for text in mail.get("reply", []):
        assert text in reply.body, f"{where}: {text!r} not in the reply:\n{reply.body}"
    for text in mail.get("reply_lacks", []):
        assert text not in reply.body, f"{where}: {text!r} in the reply:\n{reply.body}"
    assert list(reply.files) == mail.get("attached", []), f"{where}: {reply.files}"
    if "sections" in mail:
        answered = [line for line in reply.body.splitlines() if line.startswith("> ")]
        assert len(answered) == mail["sections"], f"{where}:\n{reply.body}"
    if mail.get("only_reply"):
        assert len(sent) == 1, f"{where}: {[(m.to, m.subject) for m in sent]}"


def _check_sent(mail: dict[str, Any], sent: list[Sent], where: str) -> None:
    others = [m for m in sent if m.kind != "reply"]
    for expect in mail.get("sent", []):
        matching = [m for m in others if expect["subject"] in m.subject]
        if "among" in expect:  # only these recipients' copies are checked
            matching = [m for m in matching if set(m.to) & set(expect["among"])]
        got = sorted(a for m in matching for a in m.to)
        if "to" in expect:
            assert got == sorted(expect["to"]), (
                f"{where}: {expect['subject']!r} went to {got}; all: "
                f"{[(m.to, m.subject) for m in others]}")
        else:
            assert matching, f"{where}: no {expect['subject']!r}: {[m.subject for m in others]}"
        for m in matching:
            if "attached" in expect:
                assert list(m.files) == expect["attached"], f"{where}: {m.files}"
            for name, value in expect.get("headers", {}).items():
                assert m.headers.get(name) == value, f"{where}: {name}: {m.headers}"
            for text in expect.get("has", []):
                assert text in m.body, f"{where}: {text!r} not in mail to {m.to}:\n{m.body}"
            for text in expect.get("lacks", []):
                assert text not in m.body, f"{where}: {text!r} in mail to {m.to}:\n{m.body}"
    for subject in mail.get("not_sent", []):
        hit = [(m.to, m.subject) for m in others if subject in m.subject]
        assert not hit, f"{where}: unexpected {hit}"


_STATE_KEYS = ("game", "members", "orders", "lines", "phases", "press")


def _check_state(engine: Engine, mail: dict[str, Any], game_name: str, where: str) -> None:
    if not any(key in mail for key in _STATE_KEYS):
        return
    expect = {"name": game_name, **mail.get("game", {})}
    with Session(engine) as session:
        game = session.exec(select(Game).where(Game.name == expect["name"])).first()
        if expect.get("exists", True) is False:
            assert game is None, where
            return
        assert game is not None, f"{where}: no game {expect['name']}"
        for key, value in expect.items():
            if key in ("name", "exists"):
                continue
            if key == "deadline":
                assert game.deadline is not None and as_utc(game.deadline) == _when(value), (
                    f"{where}: deadline {game.deadline}")
                continue
            if key == "result_has":
                assert value in game.result, f"{where}: result {game.result!r}"
                continue
            assert getattr(game, key) == value, f"{where}: {key} is {getattr(game, key)!r}"
        members = session.exec(select(Member).where(Member.game_id == game.id)
                               .order_by(col(Member.id))).all()
        for want in mail.get("members", []):
            found = [m for m in members if m.address == want["address"]
                     and m.status == want.get("status", m.status)]
            assert found, f"{where}: no member {want} in {[(m.address, m.status) for m in members]}"
            member = found[-1]
            for key, value in want.items():
                if key == "address":
                    continue
                if key == "absent":
                    assert (member.absence_from is not None) == value, where
                    continue
                assert getattr(member, key) == value, (
                    f"{where}: {want['address']} {key} is {getattr(member, key)!r}")
        wanted = {**mail.get("lines", {}),
                  **({"orders": mail["orders"]} if "orders" in mail else {})}
        for kind, want in wanted.items():
            rows = session.exec(select(FiledLines).where(
                FiledLines.game_id == game.id, FiledLines.phase == game.phase,
                FiledLines.kind == kind)).all()
            on_file = {r.power: json.loads(r.lines) for r in rows}
            assert on_file == want, f"{where}: {kind} on file {on_file}"
        if "phases" in mail:
            records = session.exec(select(PhaseRecord).where(
                PhaseRecord.game_id == game.id)).all()
            assert len(records) == mail["phases"], f"{where}: {[r.phase for r in records]}"
        if "press" in mail:
            press = session.exec(select(Press).where(Press.game_id == game.id)).all()
            assert len(press) == mail["press"], f"{where}: {len(press)} press rows"



def _mails(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    mails: list[dict[str, Any]] = []
    if "prelude" in scenario:
        values = {"settings": "", **scenario.get("vars", {})}
        for mail in PRELUDES[scenario["prelude"]]["mail"]:
            mail = dict(mail)
            mail["body"] = Template(mail["body"]).safe_substitute(values)
            mails.append(mail)
    return mails + list(scenario["mail"])


def _game_name(scenario: dict[str, Any]) -> str:
    """The game the state checks are about: the scenario's, or its prelude's."""
    if "game" in scenario:
        return str(scenario["game"])
    return str(PRELUDES[scenario["prelude"]]["game"]) if "prelude" in scenario else ""


def _keep(folder: Path, first: int, sent: list[Sent]) -> None:
    """The mails as their recipients read them, for a person to look at."""
    folder.mkdir(parents=True, exist_ok=True)
    for number, mail in enumerate(sent, start=first):
        stem = re.sub(r"[^A-Za-z0-9.@-]+", "_", f"{number:03d}-{mail.to[0]}-{mail.subject}")
        (folder / f"{stem}.txt").write_text(
            f"To: {', '.join(mail.to)}\nSubject: {mail.subject}\n"
            f"Attachments: {', '.join(mail.files) or '(none)'}\n\n{mail.body}")
        for part in message_from_bytes(mail.raw, policy=policy.default).iter_attachments():
            name = str(part.get_filename())
            if name.endswith(".png"):
                (folder / f"{number:03d}-{name}").write_bytes(part.get_payload(decode=True))


def _with_flags(monkeypatch: pytest.MonkeyPatch, flags: list[str]) -> None:
    """Every game's map with these DPJudge RULE flags, as a variant file
    imported from DPJudge would give them (no shipped variant has them yet)."""
    plain = games._map
    flagged = lru_cache(maxsize=None)(
        lambda variant, settings: replace(plain(variant, settings), flags=in_force(flags)))
    monkeypatch.setattr(games, "_map", flagged)


# A prelude's database once its mails have run and passed their checks, by
# what decides what they leave behind: the same mails at the same moments,
# under the same limits and rule flags. Half the mails the scenarios process
# are preludes' (53 scenarios begin with the seven JOINs), each proving
# nothing the first run did not.
_PRELUDES_DONE: dict[str, sqlite3.Connection] = {}


def _prelude_key(scenario: dict[str, Any]) -> str | None:
    if "prelude" not in scenario:
        return None
    return json.dumps([scenario["prelude"], scenario.get("vars"), scenario.get("now"),
                       scenario.get("limits"), scenario.get("flags")], sort_keys=True)


def _snapshot(db: Engine) -> sqlite3.Connection:
    """The whole SQLite database as it is now, copied into memory."""
    copy = sqlite3.connect(":memory:", check_same_thread=False)
    raw = db.raw_connection()
    try:
        assert isinstance(raw.driver_connection, sqlite3.Connection)
        raw.driver_connection.backup(copy)
    finally:
        raw.close()
    return copy


def _restore(db: Engine, snapshot: sqlite3.Connection) -> int:
    """The database made the snapshot's again; the last mail id sent in it."""
    raw = db.raw_connection()
    try:
        assert isinstance(raw.driver_connection, sqlite3.Connection)
        snapshot.backup(raw.driver_connection)
    finally:
        raw.close()
    with Session(db) as session:
        return session.exec(select(Outbox.id).order_by(col(Outbox.id).desc())).first() or 0


@pytest.mark.parametrize("scenario", scenarios_in(DATA))
def test_scenario(db: Engine, scenario: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    cheap_passwords(monkeypatch)
    config = CONFIG.with_(limits=replace(CONFIG.limits, **scenario.get("limits", {})))
    if "flags" in scenario:
        _with_flags(monkeypatch, scenario["flags"])
    keep = os.environ.get("JUDGE_SCENARIO_MAILS")
    folder = Path(keep) / re.sub(r"[^A-Za-z0-9-]+", "_", scenario["name"])[:80] if keep else None
    kept = 0
    last = 0
    mails = _mails(scenario)
    first = 1
    # the prelude's mails, checked once per worker: later scenarios start
    # from the database they left (kept mails want every mail, so run them all)
    prelude = _prelude_key(scenario) if db.dialect.name == "sqlite" and folder is None else None
    if prelude is not None and prelude in _PRELUDES_DONE:
        last = _restore(db, _PRELUDES_DONE[prelude])
        first = len(PRELUDES[scenario["prelude"]]["mail"]) + 1
    for number, mail in enumerate(mails[first - 1:], start=first):
        where = f"mail {number} from {mail['from']} ({mail['body'].splitlines()[0]!r})"
        raw = _raw(mail["from"], mail.get("subject", f"mail {number}"), mail["body"], number)
        inbound_id, created = store_inbound(db, raw, "smtp")
        assert created, where
        now = _when(mail.get("now", scenario.get("now", DEFAULT_NOW)))
        assert process_mail(db, config, inbound_id, now=now) == "done", where
        sent, last = _new_mails(db, last)
        if folder is not None:
            _keep(folder, kept + 1, sent)
            kept += len(sent)
        _check_reply(mail, sent, where)
        _check_sent(mail, sent, where)
        _check_state(db, mail, _game_name(scenario), where)
        if prelude is not None and number == len(PRELUDES[scenario["prelude"]]["mail"]):
            _PRELUDES_DONE.setdefault(prelude, _snapshot(db))
