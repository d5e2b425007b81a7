"""judge.mailtext against the sample mails in data/mails/ (expectations in
data/mails/expected.toml), and against whatever bytes hypothesis can make up."""

from __future__ import annotations

import email
import re
import tomllib
from email import policy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.mailtext import MailText, clean_address, html_to_text, is_automatic, read_mail
from tests.examples import examples

MAILS = Path(__file__).parent / "data" / "mails"
CASES: dict[str, dict[str, Any]] = tomllib.loads((MAILS / "expected.toml").read_text("utf-8"))
ADDRESSES = tomllib.loads((MAILS / "addresses.toml").read_text("utf-8"))["address"]
# Small enough for hypothesis to mutate many times a second.
SAMPLES = sorted(p for p in MAILS.glob("*.eml") if p.stat().st_size < 40_000)

_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _raw(case: dict[str, Any]) -> bytes:
    raw = (MAILS / str(case["file"])).read_bytes()
    if "pad_to_bytes" in case:
        size: int = case["pad_to_bytes"]
        line = str(case["pad_line"]).encode() + b"\r\n"
        raw += line * ((size - len(raw)) // len(line))
        assert len(raw) > size - len(line)
    return raw


def assert_sane(mail: MailText, max_body_chars: int) -> None:
    """What holds for every mail, however hostile."""
    assert isinstance(mail, MailText)
    for one_line in (mail.sender, mail.sender_name, mail.subject, mail.message_id):
        assert isinstance(one_line, str)
        assert not _CONTROL.search(one_line) and "\n" not in one_line
    assert mail.sender == "" or clean_address(mail.sender) == mail.sender
    assert len(mail.subject) <= 200
    assert mail.message_id == "" or re.fullmatch(r"<[!-;=?-~]+>", mail.message_id)
    assert isinstance(mail.body, str) and len(mail.body) <= max_body_chars
    assert not _CONTROL.search(mail.body)
    mail.body.encode("utf-8")  # storable as it is
    assert mail.automatic is None or (mail.automatic and "\n" not in mail.automatic)
    assert isinstance(mail.problems, tuple)
    assert all(isinstance(p, str) and p and "\n" not in p for p in mail.problems)


def test_every_sample_has_expectations() -> None:
    named = {case["file"] for case in CASES.values()}
    on_disk = {p.name for p in MAILS.glob("*.eml")}
    assert on_disk == named


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_sample(name: str) -> None:
    case = CASES[name]
    limit = case.get("max_body_chars", 100_000)
    mail = read_mail(_raw(case), limit, envelope_from=case.get("envelope_from", ""))
    assert_sane(mail, limit)
    for key in ("sender", "sender_name", "subject", "message_id", "body"):
        if key in case:
            assert getattr(mail, key) == case[key], key
    for part in case.get("body_contains", []):
        assert part in mail.body
    for part in case.get("body_excludes", []):
        assert part not in mail.body
    if "automatic" in case:
        assert mail.automatic is not None and case["automatic"] in mail.automatic
    else:
        assert mail.automatic is None
    expected = case.get("problems", [])
    assert len(mail.problems) == len(expected), mail.problems
    for want, got in zip(expected, mail.problems, strict=True):
        assert want in got


POLICIES = {"default": policy.default, "compat32": policy.compat32}


@pytest.mark.parametrize("policy_name", sorted(POLICIES))
@pytest.mark.parametrize("name", sorted(CASES))
def test_is_automatic_on_parsed_messages(name: str, policy_name: str) -> None:
    """Callers may hand is_automatic a message parsed with either policy."""
    case = CASES[name]
    msg = email.message_from_bytes(_raw(case), policy=POLICIES[policy_name])
    reason = is_automatic(msg, case.get("envelope_from", ""))
    if "automatic" in case:
        assert reason is not None and case["automatic"] in reason
    else:
        assert reason is None


@pytest.mark.parametrize("entry", ADDRESSES, ids=lambda e: repr(e["raw"])[:40])
def test_clean_address(entry: dict[str, str]) -> None:
    assert clean_address(entry["raw"]) == entry["clean"]


@pytest.mark.slow
def test_limits_of_structure() -> None:
    """Nesting and part counts past the limits end in text, not in a crash."""
    head = b"From: Al <al@example.org>\nSubject: deep\n"
    deep = head + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(3000)
    )
    mail = read_mail(deep + b"\nA Par - Bur\n")
    assert_sane(mail, 100_000)
    assert mail.sender == "al@example.org" and mail.problems

    many = head + b"Content-Type: multipart/mixed; boundary=b\n\n"
    many += b"--b\nContent-Type: text/plain\n\nA Par - Bur\n" * 5000 + b"--b--\n"
    mail = read_mail(many)
    assert_sane(mail, 100_000)
    assert any("too many parts" in p for p in mail.problems)


# --------------------------------------------------------------------------- never raises

_FAST = settings(max_examples=examples(300), deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(raw=st.binary(max_size=4000), limit=st.integers(min_value=-5, max_value=3000))
def test_arbitrary_bytes(raw: bytes, limit: int) -> None:
    assert_sane(read_mail(raw, limit), max(limit, 0))


@st.composite
def mutated_sample(draw: st.DrawFn) -> bytes:
    """A real sample with bytes deleted, inserted, overwritten or repeated."""
    raw = bytearray(draw(st.sampled_from(SAMPLES)).read_bytes())
    tricky = st.sampled_from(
        [b"\r\n", b"\n\n", b"\x00", b"--", b"=?", b"?=", b"<", b">", b";", b'"', b"\xff", b"="]
    )
    for _ in range(draw(st.integers(1, 8))):
        at = draw(st.integers(0, len(raw)))
        size = draw(st.integers(0, 64))
        match draw(st.sampled_from(["delete", "insert", "overwrite", "repeat", "tricky"])):
            case "delete":
                del raw[at : at + size]
            case "insert":
                raw[at:at] = draw(st.binary(max_size=size))
            case "overwrite":
                raw[at : at + size] = draw(st.binary(min_size=size, max_size=size))
            case "repeat":
                raw[at:at] = raw[at : at + size] * draw(st.integers(2, 50))
            case "tricky":
                raw[at:at] = draw(tricky)
    return bytes(raw)


@_FAST
@given(raw=mutated_sample())
def test_mutated_samples(raw: bytes) -> None:
    assert_sane(read_mail(raw, 2000), 2000)


@_FAST
@given(
    sender=st.text(max_size=300),
    reply_to=st.text(max_size=100),
    subject=st.text(max_size=300),
    message_id=st.text(max_size=100),
    content_type=st.text(max_size=100),
    body=st.text(max_size=500),
)
def test_hostile_header_values(
    sender: str, reply_to: str, subject: str, message_id: str, content_type: str, body: str
) -> None:
    """Any text at all in the headers, CR/LF and encoded words included."""
    raw = (
        f"From: {sender}\r\nReply-To: {reply_to}\r\nSubject: {subject}\r\n"
        f"Message-ID: {message_id}\r\nContent-Type: {content_type}\r\n\r\n{body}"
    ).encode("utf-8", "surrogatepass")
    assert_sane(read_mail(raw, 1000), 1000)


@_FAST
@given(html=st.text(alphabet=st.sampled_from(list("<>/!-[]?'\"=&#;ab pre\n")), max_size=400))
def test_html_never_raises(html: str) -> None:
    assert isinstance(html_to_text(html), str)
