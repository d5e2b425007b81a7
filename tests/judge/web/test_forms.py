"""Signing on, ordering and signing off from a game's page: the same order
entry as mail (the same reply, on the page and in the player's mail), the
same limits on guessing passwords, CSRF and origin checks, and the password
never in a cookie, a page or the log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re

import httpx
import pytest

from judge.config import Config, WebConfig
from judge.web import ordering
from judge.web.app import create_app
from judge.web.sessions import COOKIE, seal, unseal
from tests.judge.web.served import GM, Served, player, signon

pytestmark = pytest.mark.slow


def client(judge: Served) -> httpx.Client:
    return httpx.Client(base_url=judge.url, timeout=60, follow_redirects=False)


def csrf(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None, page.text
    return found[1]


def sign_on(web: httpx.Client, power: str, password: str,
            game: str = "webtest") -> httpx.Response:
    form = web.get(f"/signon?game={game}")
    return web.post("/signon", data={"csrf": csrf(form), "game": game, "power": power,
                                     "password": password})


def test_orders_from_the_page_get_the_mail_s_reply_on_the_page_and_by_mail(
        judge: Served, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    web = client(judge)
    signed = sign_on(web, "england", "pw-england")
    assert signed.status_code == 303 and signed.headers["location"] == "/games/webtest/orders"
    cookie = signed.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=strict" in cookie.lower()
    assert "pw-england" not in cookie
    page = web.get("/games/webtest/orders")
    assert "signed on as ENGLAND" in page.text
    sent = web.post("/games/webtest/orders", data={
        "csrf": csrf(page), "orders": "F LON-NTH\nF EDI-XYZ\nA LVP-YOR"})
    assert sent.status_code == 200
    reply = re.search(r'<pre class="reply-text">(.*?)</pre>', sent.text, re.S)
    assert reply is not None, sent.text
    shown = reply[1]
    assert "ERROR line 3: F EDI-XYZ" in shown
    assert "ok    line 2: F LON-NTH" in shown and "ok    line 4: A LVP-YOR" in shown
    assert "SIGNON ENGLAND@webtest ********" in shown
    mails = [m for m in judge.settle() if m.to == player("ENGLAND")]
    assert len(mails) == 1 and mails[0].subject.startswith("Re: webtest")
    # the same reply, as mailed (the page escapes it as HTML)
    assert mails[0].body.strip().replace("<", "&lt;").replace(">", "&gt;").replace(
        '"', "&#34;").replace("'", "&#39;") in shown.replace("\r\n", "\n")
    assert "pw-england" not in sent.text and "pw-england" not in caplog.text
    # and nowhere in what the judge keeps of the mail
    with judge.judge.engine.connect() as db:
        kept = db.exec_driver_sql("SELECT raw FROM inbound_mail WHERE source = 'web'").all()
    assert kept and all(b"pw-england" not in row[0] for row in kept)


def test_a_command_among_the_orders_is_refused_on_the_page(judge: Served) -> None:
    web = client(judge)
    sign_on(web, "italy", "pw-italy")
    page = web.get("/games/webtest/orders")
    sent = web.post("/games/webtest/orders", data={
        "csrf": csrf(page), "orders": "A VEN H\nSET PASSWORD stolen"})
    assert sent.status_code == 400
    assert "this page takes orders only" in sent.text
    assert "SET PASSWORD stolen" in sent.text  # given back to correct


def test_signing_off_ends_the_session(judge: Served) -> None:
    web = client(judge)
    sign_on(web, "austria", "pw-austria")
    token = web.cookies[COOKIE]
    page = web.get("/games/webtest/orders")
    off = web.post("/signoff", data={"csrf": csrf(page)})
    assert off.status_code == 303
    assert web.get("/games/webtest/orders").status_code == 303  # to the sign-on page
    # the old cookie is worth nothing now
    replayed = httpx.Client(base_url=judge.url, cookies={COOKIE: token})
    assert replayed.get("/games/webtest/orders").status_code == 303


def test_forms_without_their_token_or_from_another_site_are_refused(judge: Served) -> None:
    web = client(judge)
    web.get("/signon")
    bare = web.post("/signon", data={"game": "webtest", "power": "russia",
                                     "password": "pw-russia"})
    assert bare.status_code == 403 and COOKIE not in bare.cookies
    sign_on(web, "russia", "pw-russia")
    page = web.get("/games/webtest/orders")
    assert web.post("/games/webtest/orders",
                    data={"csrf": "forged", "orders": "A MOS H"}).status_code == 403
    foreign = web.post("/games/webtest/orders", data={"csrf": csrf(page), "orders": "A MOS H"},
                       headers={"origin": "https://evil.test"})
    assert foreign.status_code == 403
    assert not [m for m in judge.settle() if m.to == player("RUSSIA")]  # nothing was sent
    # a player's page is not the GM's
    assert web.post("/games/webtest/master", data={"csrf": csrf(page),
                                                    "action": "process"}).status_code == 403


def test_password_guessing_from_the_web_is_limited_as_from_mail(judge: Served) -> None:
    web = client(judge)
    for n in range(10):
        refused = sign_on(web, "turkey", f"guess-{n}")
        assert refused.status_code == 403 and "wrong password" in refused.text
    # the eleventh, the right one, is not even tried from this address
    right = sign_on(web, "turkey", "pw-turkey")
    assert right.status_code == 403
    assert "wrong passwords for TURKEY in webtest within the hour" in right.text
    # the player's own address, by mail, is still heard
    judge.send(player("TURKEY"), signon("TURKEY", "webtest", ["A CON H"]))
    reply = next(m.body for m in judge.settle() if m.to == player("TURKEY")
                 and m.subject.startswith("Re:"))
    assert "Signed on as TURKEY in webtest" in reply


def test_the_gm_extends_the_deadline_and_processes_from_the_page(judge: Served) -> None:
    web = client(judge)
    assert sign_on(web, "master", "gm-secret").status_code == 303
    page = web.get("/games/webtest/orders")
    assert "PROCESS now" in page.text and 'name="orders"' not in page.text
    moved = web.post("/games/webtest/master", data={"csrf": csrf(page), "action": "deadline",
                                                     "when": "+5d"})
    assert "Deadline" in moved.text or "deadline" in moved.text
    assert [m.to for m in judge.settle() if m.subject.startswith("Re:")] == [GM]
    before = judge.phase("webtest")
    processed = web.post("/games/webtest/master", data={"csrf": csrf(moved),
                                                         "action": "process"})
    assert processed.status_code == 200
    judge.settle()
    assert judge.phase("webtest") != before


def test_a_page_s_mail_is_a_mail_from_the_address_on_file(judge: Served) -> None:
    config = judge.judge.config
    _, raw = ordering.compose(config, "webtest", "FRANCE", "pw", player("FRANCE"), "A PAR H")
    text = raw.decode()
    assert f"From: {player('FRANCE')}" in text
    assert "SIGNON FRANCE@webtest pw\nA PAR H\nSIGNOFF" in text


def test_the_sealed_password_opens_only_with_its_token() -> None:
    sealed = seal("token-one", "pw-france")
    assert sealed != b"pw-france" and b"pw-france" not in sealed
    assert unseal("token-one", sealed) == "pw-france"
    with contextlib.suppress(UnicodeDecodeError):  # most often not even text
        assert unseal("token-two", sealed) != "pw-france"


def test_rates_and_sizes_are_bounded(judge: Served) -> None:
    """An app of its own on the judge's database, with small bounds."""
    config: Config = judge.judge.config.with_(web=WebConfig(
        requests_per_minute=5, posts_per_minute=2, max_body_bytes=1000))
    app = create_app(config, judge.judge.engine, lambda _: None)
    transport = httpx.ASGITransport(app=app, client=("198.51.100.7", 4000))

    async def run() -> list[int]:
        async with httpx.AsyncClient(transport=transport, base_url="http://judge.test") as web:
            big = await web.post("/signon", content=b"x" * 5000,
                                 headers={"content-type": "application/x-www-form-urlencoded"})
            statuses = [big.status_code]
            for _ in range(6):
                statuses.append((await web.get("/games/webtest")).status_code)
            return statuses

    statuses = asyncio.run(run())
    assert statuses[0] == 413
    assert statuses[1:5] == [200] * 4 and statuses[-1] == 429


def test_a_password_changed_by_mail_signs_the_page_off(judge: Served) -> None:
    web = client(judge)
    sign_on(web, "germany", "pw-germany")
    page = web.get("/games/webtest/orders")
    judge.send(player("GERMANY"), signon("GERMANY", "webtest", ["SET PASSWORD pw-germany-2"]))
    judge.settle()
    sent = web.post("/games/webtest/orders", data={"csrf": csrf(page), "orders": "A MUN H"})
    assert sent.status_code == 409 and "has changed since you signed on" in sent.text
    assert not judge.settle()  # no mail: no wrong password counted against the address
    assert web.get("/games/webtest/orders").status_code == 303  # signed off
