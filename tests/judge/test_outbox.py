"""Building outgoing mail and queueing it: the headers every judge mail
carries, header values that cannot inject headers, and a row that commits
only with the caller's transaction."""

from __future__ import annotations

import email
import json
import tomllib
from email import policy
from email.message import EmailMessage
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Engine
from sqlmodel import Session, func, select

from judge import models, outbox
from judge.config import Config
from judge.db import transaction
from judge.outbox import KINDS, OutboxError, OutgoingMail, build_message, queue
from tests.examples import examples

DATA = tomllib.loads((Path(__file__).parent / "data" / "outbox.toml").read_text("utf-8"))
CONFIG = Config(name="Test Judge", address="judge@judge.example.org")
BASE_HEADERS = {"from", "to", "subject", "date", "message-id", "auto-submitted",
                "mime-version", "content-type", "content-transfer-encoding"}


def parse(raw: bytes) -> EmailMessage:
    # as a mail reader stores it: with its own line ends
    msg = email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def mail(**changes: Any) -> OutgoingMail:
    fields: dict[str, Any] = {"to": ("player@example.com",), "subject": "Hello",
                              "body": "Your orders were received.\n"}
    fields.update(changes)
    return OutgoingMail(**fields)


def test_headers_of_a_reply() -> None:
    message_id, raw = build_message(mail(in_reply_to="<q1@player.example.com>"), CONFIG)
    msg = parse(raw)
    assert msg["From"] == "Test Judge <judge@judge.example.org>"
    assert msg["To"] == "player@example.com"
    assert msg["Subject"] == "Hello"
    assert msg["Message-ID"] == message_id
    assert message_id.startswith("<") and message_id.endswith("@judge.example.org>")
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["In-Reply-To"] == "<q1@player.example.com>"
    assert msg["References"] == "<q1@player.example.com>"
    assert parsedate_to_datetime(msg["Date"]).utcoffset() is not None
    assert b"\n" not in raw.replace(b"\r\n", b"")  # SMTP line ends only


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_auto_submitted_by_kind(kind: str) -> None:
    msg = parse(build_message(mail(kind=kind), CONFIG)[1])
    assert msg["Auto-Submitted"] == ("auto-replied" if kind == "reply" else "auto-generated")
    assert "In-Reply-To" not in msg and "References" not in msg


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(OutboxError, match="kind"):
        build_message(mail(kind="spam"), CONFIG)


def test_every_message_gets_its_own_id() -> None:
    ids = {build_message(mail(), CONFIG)[0] for _ in range(50)}
    assert len(ids) == 50


@pytest.mark.parametrize(("name", "shown"), [
    ('Judge "Bob", the <first>\r\nBcc: x@example.net',
     'Judge "Bob", the <first> Bcc: x@example.net'),
    ("Jüdge\r\nBcc: x@example.net", "Jüdge Bcc: x@example.net"),
])
def test_judge_name_with_specials_is_quoted(name: str, shown: str) -> None:
    msg = parse(build_message(mail(), CONFIG.with_(name=name))[1])
    assert msg["From"].addresses[0].addr_spec == "judge@judge.example.org"
    assert msg["From"].addresses[0].display_name == shown
    assert {k.lower() for k in msg} == BASE_HEADERS


@pytest.mark.parametrize("case", DATA["subject"], ids=lambda c: c["name"])
def test_subject_cannot_inject_headers(case: dict[str, str]) -> None:
    msg = parse(build_message(mail(subject=case["given"]), CONFIG)[1])
    assert msg["Subject"] == case["expect"]
    assert {k.lower() for k in msg} == BASE_HEADERS
    assert msg.get_content() == "Your orders were received.\n"


def test_huge_subject_is_cut() -> None:
    msg = parse(build_message(mail(subject="x" * 100_000), CONFIG)[1])
    assert msg["Subject"] == "x" * 300


@pytest.mark.parametrize("address", DATA["address"]["good"])
def test_good_addresses(address: str) -> None:
    msg = parse(build_message(mail(to=(address,)), CONFIG)[1])
    assert [a.addr_spec for a in msg["To"].addresses] == [address]


@pytest.mark.parametrize("address", DATA["address"]["bad"])
def test_bad_addresses_are_refused(address: str) -> None:
    with pytest.raises(OutboxError, match="address"):
        build_message(mail(to=("player@example.com", address)), CONFIG)


def test_no_recipient_is_refused() -> None:
    with pytest.raises(OutboxError, match="recipient"):
        build_message(mail(to=()), CONFIG)


def test_recipients_are_named_once() -> None:
    msg = parse(build_message(mail(to=("a@example.com", "b@example.com", "A@example.com")),
                              CONFIG)[1])
    assert [a.addr_spec for a in msg["To"].addresses] == ["a@example.com", "b@example.com"]


@pytest.mark.parametrize("case", DATA["in_reply_to"], ids=lambda c: repr(c["given"]))
def test_in_reply_to(case: dict[str, str]) -> None:
    msg = parse(build_message(mail(in_reply_to=case["given"]), CONFIG)[1])
    assert msg.get("In-Reply-To", "") == case["expect"]
    assert msg.get("References", "") == case["expect"]


def test_extra_headers_are_kept_on_one_line() -> None:
    extra = (("List-Id", "Game <gamename.judge.example.org>"),
             ("List-Unsubscribe", "<mailto:judge@judge.example.org?subject=signoff>\r\nBcc: x@y"))
    msg = parse(build_message(mail(headers=extra), CONFIG)[1])
    assert msg["List-Id"] == "Game <gamename.judge.example.org>"
    assert msg["List-Unsubscribe"] == "<mailto:judge@judge.example.org?subject=signoff> Bcc: x@y"
    assert "Bcc" not in msg


@pytest.mark.parametrize("name", ["From", "bcc", "Message-ID", "X Bad", "X:Bad", "X-\r\nBcc", ""])
def test_extra_headers_may_not_replace_or_break_ours(name: str) -> None:
    with pytest.raises(OutboxError, match="header"):
        build_message(mail(headers=((name, "v"),)), CONFIG)


@pytest.mark.parametrize("body", [
    "plain ascii\nsecond line\n",
    ".\n..\n.leading dot\nFrom the start\n",
    "a line far longer than eighty columns " * 40 + "\nshort\n",
    "Größe und Öl, Ñ, 日本語\n\ttab\n",
    "no final newline",
])
def test_body_lines_are_kept(body: str) -> None:
    msg = parse(build_message(mail(body=body), CONFIG)[1])
    assert msg.get_content().rstrip("\n") == body.rstrip("\n")


@pytest.mark.parametrize("case", DATA["plain"], ids=lambda c: c["name"])
def test_plain_messages_read_as_the_email_package_writes_them(
        case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    body = case["body"].replace("%s", "words of a line " * (case.get("long_line", 0) // 16))
    given = mail(to=tuple(case["to"]), subject=case["subject"], body=body,
                 in_reply_to=case.get("in_reply_to", ""), group=case.get("group", ""),
                 headers=tuple(tuple(h) for h in case.get("headers", [])))
    written: list[bytes | None] = []
    real = outbox._plain_message
    monkeypatch.setattr(outbox, "_plain_message",
                        lambda *args: written.append(real(*args)) or written[-1])
    _, ours = build_message(given, CONFIG)
    assert (bool(written) and written[0] is not None) == case["fast"]
    monkeypatch.setattr(outbox, "_plain_message", lambda *args: None)
    _, theirs = build_message(given, CONFIG)

    def fields(raw: bytes) -> list[tuple[str, str]]:
        return [(k, v) for k, v in parse(raw).items() if k not in ("Date", "Message-ID")]

    assert fields(ours) == fields(theirs)
    if parse(ours)["Content-Transfer-Encoding"] == "7bit":
        assert ours.partition(b"\r\n\r\n")[2] == theirs.partition(b"\r\n\r\n")[2]
    else:  # quoted-printable: cut into lines at other places, the same text
        assert parse(ours).get_content() == parse(theirs).get_content()
        # RFC 2045's 76, give or take the '=20' of a space before a line end
        # (the email package's own lines go to 78)
        assert all(len(line) <= 78 for line in ours.partition(b"\r\n\r\n")[2].split(b"\r\n"))
    assert b"\n" not in ours.replace(b"\r\n", b"")
    assert_folded(ours)


def assert_folded(raw: bytes) -> None:
    """Every header line at most 78 characters, but one that holds a
    single longer word, and none past RFC 5322's 998."""
    for line in raw.split(b"\r\n\r\n")[0].split(b"\r\n"):
        assert len(line) <= 998
        words = line.partition(b": ")[2] if line[:1] not in b" \t" else line
        assert len(line) <= 78 or len(words.split()) == 1, line


@settings(max_examples=examples(200), deadline=None)
@given(subject=st.text(st.sampled_from("ab Z.:-<>@\t"), max_size=300),
       list_id=st.text(st.sampled_from("xy =?"), max_size=200))
def test_any_plain_header_is_folded_directly_and_reads_as_written(
        subject: str, list_id: str) -> None:
    """Subjects and header values of words and runs of spaces, of any
    length a judge writes: folded by the direct writer, read back as they
    went in (one_line's cleaning and the broken-up '=?' aside)."""
    given_mail = mail(subject=subject, headers=(("List-Id", list_id),))
    raw = outbox._plain_message("Test Judge", "judge@judge.example.org", given_mail.to,
                                outbox.one_line(subject), [("List-Id", outbox.one_line(list_id))],
                                given_mail.body)
    assert raw is not None
    assert_folded(raw)
    msg = parse(raw)
    assert msg["Subject"] == outbox.one_line(subject)
    assert msg["List-Id"] == outbox.one_line(list_id)


@settings(max_examples=examples(200), deadline=None)
@given(body=st.text(st.characters(blacklist_categories=("Cs",)), max_size=400),
       attached=st.booleans())
def test_any_body_is_written_directly_and_reads_as_the_email_package_writes_it(
        body: str, attached: bool) -> None:
    files = (("g-F1901M.png", "image/png", b"\x89PNG\r\n\x1a\n"),) if attached else ()
    given_mail = mail(body=body, attachments=files)
    ours = build_message(given_mail, CONFIG)[1]
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(outbox, "_plain_message", lambda *args: None)
        patched.setattr(outbox, "_mixed_message", lambda *args: None)
        theirs = build_message(given_mail, CONFIG)[1]
    assert b"=_judge_" in ours or not attached  # the direct writer
    text = parse(ours).get_body(("plain",))
    expected = parse(theirs).get_body(("plain",))
    assert text is not None and expected is not None
    assert text.get_content() == expected.get_content()
    assert [p.get_content() for p in parse(ours).iter_attachments()] == \
        [p.get_content() for p in parse(theirs).iter_attachments()]
    assert all(len(line) <= 998 for line in ours.split(b"\r\n"))


def test_a_header_word_past_998_characters_goes_the_email_packages_way() -> None:
    word = "<" + "x" * 1000 + ".example.org>"
    raw = build_message(mail(headers=(("List-Id", word),)), CONFIG)[1]
    assert parse(raw)["List-Id"] == word
    assert all(len(line) <= 998 for line in raw.split(b"\r\n"))
    assert b"=?utf-8?" in raw  # the email package cut it into encoded words


def test_attachments() -> None:
    png = bytes(range(256))
    msg = parse(build_message(mail(attachments=(
        ("map.png", "image/png", png),
        ("../../etc/passwd", "not a type", b"x"),
    )), CONFIG)[1])
    parts = list(msg.iter_attachments())
    assert [p.get_filename() for p in parts] == ["map.png", "_.._etc_passwd"]
    assert [p.get_content_type() for p in parts] == ["image/png", "application/octet-stream"]
    assert parts[0].get_content() == png
    body = msg.get_body(("plain",))
    assert body is not None and body.get_content() == "Your orders were received.\n"


def test_a_map_attached_is_written_directly_and_reads_as_the_email_package_writes_it() -> None:
    png = bytes(range(256)) * 1000
    svg = b"<svg xmlns='http://www.w3.org/2000/svg'/>"
    files = (("g-F1901M.png", "image/png", png), ("g-F1901M.svg", "image/svg+xml", svg))
    # with the list headers of a game's results, List-Unsubscribe longer than a line
    unsubscribe = ("<mailto:judge@diplomacy-judge.example.org?subject=unsubscribe%20"
                   "a_long_game_name20&body=unsubscribe%20a_long_game_name20>")
    shared = mail(to=("a@example.com", "b@example.com"), group="Players of g",
                  attachments=files, body="Results\n\n  A PAR - BUR\n",
                  headers=(("List-Id", "Diplomacy game g <g.diplomacy-judge.example.org>"),
                           ("List-Unsubscribe", unsubscribe)))
    direct = build_message(shared, CONFIG)[1]
    assert b'boundary="=_judge_' in direct  # the direct writer, not the email package
    # a file name that is not plain sends the mail the email package's way
    packaged = build_message(mail(to=shared.to, group=shared.group, body=shared.body,
                                  headers=shared.headers,
                                  attachments=(("g F1901M.png", "image/png", png),
                                               files[1])), CONFIG)[1]
    assert b"=_judge_" not in packaged
    for raw, names in ((direct, ["g-F1901M.png", "g-F1901M.svg"]),
                       (packaged, ["g F1901M.png", "g-F1901M.svg"])):
        msg = parse(raw)
        assert msg["To"] == "Players of g:;"
        parts = list(msg.iter_attachments())
        assert [p.get_filename() for p in parts] == names
        assert [p.get_content_type() for p in parts] == ["image/png", "image/svg+xml"]
        assert [p.get_content() for p in parts] == [png, svg]
        body = msg.get_body(("plain",))
        assert body is not None and body.get_content() == shared.body
        assert msg["List-Unsubscribe"] == unsubscribe
    assert_folded(direct)
    assert b"List-Unsubscribe: " + unsubscribe.encode() in direct.split(b"\r\n")  # whole


def _count(db: Engine) -> int:
    with Session(db) as session:
        return session.exec(select(func.count()).select_from(models.Outbox)).one()


@pytest.mark.postgres
def test_queue_adds_a_pending_row(db: Engine) -> None:
    with transaction(db) as session:
        outbox_id = queue(session, mail(to=("a@example.com", "b@example.com"),
                                        kind="results", game="gamename"), CONFIG)
    with transaction(db) as session:
        stored = session.get(models.Outbox, outbox_id)
    assert stored is not None
    assert stored.status == "pending" and stored.attempts == 0
    assert json.loads(stored.recipients) == ["a@example.com", "b@example.com"]
    assert stored.kind == "results" and stored.game == "gamename"
    assert parse(stored.raw)["Message-ID"] == stored.message_id
    assert stored.next_attempt_at <= models.utcnow()


@pytest.mark.postgres
def test_queue_commits_only_with_the_caller(db: Engine) -> None:
    class Abandon(Exception):
        pass

    with pytest.raises(Abandon), transaction(db) as session:
        queue(session, mail(), CONFIG)
        assert _count(db) == 0  # not committed by queue() itself
        raise Abandon
    assert _count(db) == 0


def test_queue_refuses_a_bad_mail_and_adds_nothing(db: Engine) -> None:
    with transaction(db) as session:
        with pytest.raises(OutboxError):
            queue(session, mail(to=("a@example.com\r\nBcc: b@example.com",)), CONFIG)
        queue(session, mail(), CONFIG)
    assert _count(db) == 1


def test_the_judge_never_mails_its_own_address(db: Engine) -> None:
    """A game mail naming the judge among its players (in any case) goes to
    the others only; one for the judge alone is not queued at all."""
    with transaction(db) as session:
        outbox_id = queue(session, mail(to=("a@example.com", "JUDGE@Judge.Example.org"),
                                        kind="results"), CONFIG)
        assert queue(session, mail(to=("judge@judge.example.org",)), CONFIG) == 0
    with transaction(db) as session:
        stored = session.get(models.Outbox, outbox_id)
    assert stored is not None and json.loads(stored.recipients) == ["a@example.com"]
    assert _count(db) == 1
