"""A seven-player standard game played entirely by mail, through the
judge's real SMTP listener, its database and its sender to a real relay:
CREATE, JOIN, press, moves, a retreat, builds, an NMR handled by the
deadline and grace period (civil disorder), a GM rollback, and every
result mail that every player, the observer and the list receive."""

from __future__ import annotations

import io
import time
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from judge.maps.render import PIXELS_WIDE
from tests.e2e.conftest import Harness, Received

pytestmark = pytest.mark.slow

DATA = Path(__file__).parent / "data" / "game.toml"
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
GM = "gm@players.test"
OBSERVER = "watcher@players.test"
LIST = "tester@lists.test"


def player(power: str) -> str:
    return f"{power.lower()}@players.test"


def replies_to(mails: list[Received], address: str) -> list[Received]:
    return [m for m in mails if m.to == address and m.subject.startswith("Re:")]


def one_reply(mails: list[Received], address: str) -> str:
    found = replies_to(mails, address)
    assert len(found) == 1, [m.subject for m in mails if m.to == address]
    return found[0].body


def results(mails: list[Received], phase: str) -> dict[str, Received]:
    subject = f"Diplomacy results tester {phase}"
    return {m.to: m for m in mails if m.subject == subject}


def wait_for_results(h: Harness, phase: str, timeout: float = 60.0) -> list[Received]:
    got: list[Received] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got.extend(h.settle())
        if results(got, phase):
            return got
        time.sleep(0.2)
    raise AssertionError(f"no results for {phase}; got {[m.subject for m in got]}")


def check_results(mails: list[Received], phase: str, expect: list[str]) -> str:
    by_address = results(mails, phase)
    everyone = {player(p) for p in POWERS} | {OBSERVER, LIST, GM}
    assert set(by_address) == everyone, sorted(everyone - set(by_address))
    bodies = {m.body for m in by_address.values()}
    assert len(bodies) == 1, "everyone gets the same results"
    body = bodies.pop()
    assert body.startswith(":: Judge: TESTJUDGE  Game: tester  Variant: standard\n")
    for text in expect:
        assert text in body, f"{text!r} not in the {phase} results:\n{body}"
    assert all(len(line) <= 80 for line in body.splitlines()), body
    for mail in by_address.values():
        check_map(mail, phase)
    listed = by_address[LIST].message
    assert "tester.lists.test" in str(listed["List-Id"])
    assert str(listed["List-Unsubscribe"]).startswith("<mailto:judge@judge.test")
    return body


def check_map(mail: Received, phase: str, game: str = "tester",
              width: int = PIXELS_WIDE) -> None:
    """The results carry the map of the position they lead to, as a PNG
    that decodes (``width`` pixels wide: a big board is drawn wider) and
    as SVG, both named after the game and that phase."""
    files = {part.get_content_type(): part for part in mail.message.iter_attachments()}
    assert set(files) == {"image/png", "image/svg+xml"}, set(files)
    png = files["image/png"].get_content()
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG" and image.size[0] == width
    svg = ET.fromstring(files["image/svg+xml"].get_content())
    shown = svg.attrib["data-phase"]
    assert svg.attrib["data-game"] == game and shown != phase
    assert files["image/png"].get_filename() == f"{game}-{shown}.png"
    assert files["image/svg+xml"].get_filename() == f"{game}-{shown}.svg"


def signon(power: str, lines: list[str]) -> str:
    return "\n".join([f"SIGNON {power.lower()}@tester pw-{power.lower()}", *lines, "SIGNOFF"])


@pytest.mark.postgres
def test_a_game_by_mail(harness: Harness) -> None:
    h = harness
    script: list[dict[str, Any]] = tomllib.loads(DATA.read_text())["phase"]

    h.send(GM, "CREATE tester gm-secret\nvariant standard\nplayers 7\npress grey\n"
               "nmr wait\ngrace 2s\nmovement 2d\nlist " + LIST + "\nEND\n")
    reply = one_reply(h.settle(), GM)
    assert "Game tester is created" in reply
    assert "gm-secret" not in reply

    h.send(OBSERVER, "OBSERVE tester watch-pw")
    assert "You observe tester" in one_reply(h.settle(), OBSERVER)

    for power in POWERS:
        h.send(player(power), f"JOIN {power.lower()}@tester pw-{power.lower()}")
    mails = h.settle()
    for power in POWERS[:-1]:
        assert f"You have joined tester as {power}" in one_reply(mails, player(power))
    assert "The game is full and has started: S1901M" in one_reply(mails, player("TURKEY"))
    starts = [m for m in mails if m.subject == "Diplomacy game tester starts"]
    assert {m.to for m in starts} >= {player(p) for p in POWERS}
    france_start = next(m.body for m in starts if m.to == player("FRANCE"))
    assert "You play FRANCE" in france_start

    # press: private, broadcast, grey
    h.send(player("FRANCE"), signon("FRANCE", [
        "PRESS TO GERMANY", "Shall we share Burgundy?", "ENDPRESS",
        "BROADCAST", "France wishes everyone a good game.", "ENDPRESS",
        "GREY PRESS TO ENGLAND", "Watch the Channel.", "ENDPRESS"]))
    mails = h.settle()
    press = [m for m in mails if m.subject == "Diplomacy press tester"]
    private = [m for m in press if "Shall we share Burgundy?" in m.body]
    assert [m.to for m in private] == [player("GERMANY")]
    assert "Press from FRANCE" in private[0].body
    broadcast = {m.to for m in press if "good game" in m.body}
    assert broadcast == {player(p) for p in POWERS} | {OBSERVER, GM, LIST}
    grey = [m for m in press if "Watch the Channel" in m.body]
    assert [m.to for m in grey] == [player("ENGLAND")] and "FRANCE" not in grey[0].body

    for step in script:
        phase = step["phase"]
        orders: dict[str, list[str]] = step["orders"]
        for power, lines in orders.items():
            h.send(player(power), signon(power, lines))
        if step.get("nmr"):
            mails = h.settle()
            for power in orders:
                assert "ERROR" not in one_reply(mails, player(power)), power
            assert not results(mails, phase)
            h.send(GM, "SIGNON master@tester gm-secret\nSET DEADLINE +2s\nSIGNOFF")
            mails = wait_for_results(h, phase)
            late = [m for m in mails if m.subject == f"Diplomacy late notice tester {phase}"]
            assert {m.to for m in late} >= {player(p) for p in POWERS}
        else:
            mails = wait_for_results(h, phase)
            for power in orders:
                assert "ERROR" not in one_reply(mails, player(power)), power
        body = check_results(mails, phase, step["expect"] if not step.get("rollback") else [])
        for power, lines in orders.items():
            for line in lines:
                assert line in body, f"{power} {line} missing from {phase} results"

        if step.get("rollback"):
            h.send(GM, f"SIGNON master@tester gm-secret\nROLLBACK {phase}\nSIGNOFF")
            mails = h.settle()
            assert f"Rolled back to {phase}" in one_reply(mails, GM)
            for power, lines in step["replay"].items():
                h.send(player(power), signon(power, ["SET WAIT", *lines]))
            mails = h.settle()
            assert not results(mails, phase), "every power has orders, but Germany waits"
            h.send(GM, "SIGNON master@tester gm-secret\nPROCESS\nSIGNOFF")
            mails = wait_for_results(h, phase)
            check_results(mails, phase, step["expect"])

    # the history of the game is there for anyone
    h.send("someone@else.test", "HISTORY tester S1901M F1901M")
    history = one_reply(h.settle(), "someone@else.test")
    assert "A RUH - BUR" in history and "S1901M" in history and "F1901M" in history

    h.send(GM, "SIGNON master@tester gm-secret\nTERMINATE\nSIGNOFF")
    mails = h.settle()
    over = [m for m in mails if m.subject == "Diplomacy game tester is over"]
    assert {m.to for m in over} == {player(p) for p in POWERS} | {OBSERVER, GM, LIST}


@pytest.mark.postgres
def test_mail_from_judge_deliver_is_processed_by_the_running_judge(harness: Harness) -> None:
    """An MTA pipe (`judge deliver`, another process) only stores the mail;
    the running judge finds it and answers."""
    import subprocess
    import sys

    raw = (b"From: piped@players.test\r\nSubject: list\r\nMessage-ID: <pipe-1@players.test>"
           b"\r\n\r\nLIST\r\n")
    env = {"JUDGE_DATABASE_URL": harness.judge.config.database_url,
           "JUDGE_DATA_DIR": str(harness.judge.config.data_dir), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-m", "judge.cli", "deliver"], input=raw, env=env,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    deadline = time.monotonic() + 30
    got: list[Received] = []
    while time.monotonic() < deadline and not replies_to(got, "piped@players.test"):
        got.extend(harness.sink.take())
        time.sleep(0.1)
    assert "There are no games" in one_reply(got, "piped@players.test")
