"""The web view shows what an observer's mail shows, and never more: before a
game ends no page it serves (the list, a game, its history, every phase, its
maps, its feed, a player's orders page) holds a player's or the GM's address,
a password, the orders of the phase being played, or a Dissolution game's
bids; grey press shows no sender. Once the game ends the bids are public, and
the pages show them (so the search below looks for the right text)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest

from tests.e2e.bid_secrecy import GM_BIDS
from tests.judge.web.served import (
    DISSOLUTION,
    GM,
    STANDARD,
    Served,
    password,
    player,
    served,
    signon,
)

pytestmark = pytest.mark.slow

GAME, DISSOL = "webtest", "dissol"
SPRING = {"FRANCE": ["A PAR-BUR", "F BRE-MAO"], "GERMANY": ["A MUN-BUR"]}
GREY = "a word from nobody in particular"
PRESS = ["BROADCAST", "Hello all from Paris", "ENDPRESS", "GREY PRESS TO ALL", GREY, "ENDPRESS"]
# the orders on file for Fall 1901, as the judge writes them, in no page until processed
PENDING = {"FRANCE": ["A PAR-GAS", "F MAO-POR"], "GERMANY": ["A MUN-TYR", "F KIE-HOL"]}
PENDING_WRITTEN = ["A PAR - GAS", "F MAO - POR", "A MUN - TYR", "F KIE - HOL"]
# Poland's bids: Spring's, played and shown in the GM's copy alone, and
# Autumn's, on file; as the judge writes them
BIDS_WRITTEN = ["1: A BLR S KHK - MOS", "1: A BLR H"]
ADDRESS = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(tmp_path_factory.mktemp("web")) as s:
        s.standard_game(GAME, [SPRING], press=PRESS)
        for power, lines in PENDING.items():
            s.send(player(power), signon(power, GAME, lines))
        replies = {m.to: m.body for m in s.settle()}
        assert all("ERROR" not in replies[player(p)] for p in PENDING), replies
        s.dissolution_game(DISSOL, phases=1)
        # Autumn's bid given from Poland's page: the order entry's reply on
        # the page and in Poland's mail, the bid itself in no page after
        with httpx.Client(base_url=s.url) as client:
            page = orders_page(client, DISSOL, "POLAND")
            csrf = re.search(r'name="csrf" value="([^"]+)"', page)
            assert csrf is not None
            sent = client.post(f"/games/{DISSOL}/orders",
                               data={"csrf": csrf[1], "orders": "DP\n1: A Blr H"})
        assert "1: A BLR H" in sent.text, sent.text
        replies = {m.to: m.body for m in s.settle()}
        assert "1: A BLR H" in replies[player("POLAND")], replies[player("POLAND")]
        yield s


def pages(client: httpx.Client, game: str) -> dict[str, str]:
    """Every page of ``game`` anyone may read, by path."""
    paths = ["/", f"/games/{game}", f"/games/{game}/history", f"/games/{game}/feed.atom"]
    found = {p: client.get(p) for p in paths}
    phases = set(re.findall(rf'href="/games/{game}/phases/(\w+)"', found[f"/games/{game}"].text))
    for phase in sorted(phases):
        path = f"/games/{game}/phases/{phase}"
        found[path] = client.get(path)
        for also in re.findall(rf'href="(/games/{game}/(?:phases|maps)/[\w.-]+)"',
                               found[path].text):
            found.setdefault(also, client.get(also))
    assert all(r.status_code == 200 for r in found.values()), \
        {p: r.status_code for p, r in found.items() if r.status_code != 200}
    return {p: r.text for p, r in found.items()}


def orders_page(client: httpx.Client, game: str, power: str) -> str:
    form = client.get(f"/signon?game={game}")
    csrf = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert csrf, form.text
    signed = client.post("/signon", data={"csrf": csrf.group(1), "game": game, "power": power,
                                          "password": password(power)},
                         follow_redirects=True)
    assert signed.status_code == 200 and signed.url.path == f"/games/{game}/orders", signed.text
    return signed.text


def leaks(html: str, secrets: list[str], own_address: str) -> list[str]:
    upper = html.upper()
    found = [s for s in secrets if s.upper() in upper]
    found += [a for a in ADDRESS.findall(html) if a.lower() != own_address]
    return found


def secrets_of(seats: list[str]) -> list[str]:
    return [*(password(s) for s in seats), "gm-secret", *(player(s) for s in seats), GM,
            "news@lists.test", GM_BIDS]


def test_no_page_shows_an_address_a_password_pending_orders_or_a_bid(judge: Served) -> None:
    own = judge.judge.config.address.lower()
    with httpx.Client(base_url=judge.url) as client:
        standard = pages(client, GAME)
        dissolution = pages(client, DISSOL)
    with httpx.Client(base_url=judge.url) as client:
        standard["orders page of FRANCE"] = orders_page(client, GAME, "FRANCE")
    with httpx.Client(base_url=judge.url) as client:
        dissolution["orders page of POLAND"] = orders_page(client, DISSOL, "POLAND")
    # what was searched: every phase played and the one being played, with its maps
    assert {f"/games/{GAME}/phases/S1901M", f"/games/{GAME}/phases/F1901M",
            f"/games/{GAME}/maps/F1901M.svg"} <= set(standard)
    assert {f"/games/{DISSOL}/phases/S1992M", f"/games/{DISSOL}/phases/F1992M",
            f"/games/{DISSOL}/maps/F1992M-other.svg"} <= set(dissolution)
    assert "A PAR - BUR" in standard[f"/games/{GAME}/history"]  # a played phase's orders

    found = {path: leaks(html, [*secrets_of(STANDARD), *PENDING_WRITTEN], own)
             for path, html in standard.items()}
    found |= {path: leaks(html, [*secrets_of(DISSOLUTION), *BIDS_WRITTEN], own)
              for path, html in dissolution.items()}
    assert {path: got for path, got in found.items() if got} == {}

    # once the phase is processed its orders are public, and once the game
    # ends its bids: the search above looked for them as the pages write them
    judge.send(GM, f"SIGNON master@{GAME} gm-secret\nPROCESS\nSIGNOFF")
    judge.send(GM, f"SIGNON master@{DISSOL} gm-secret\nTERMINATE\nSIGNOFF")
    judge.settle()
    with httpx.Client(base_url=judge.url) as client:
        history = client.get(f"/games/{GAME}/history").text
        assert all(order in history for order in PENDING_WRITTEN), history
        assert BIDS_WRITTEN[0] in client.get(f"/games/{DISSOL}/history").text


def test_grey_press_shows_no_sender(judge: Served) -> None:
    html = httpx.get(f"{judge.url.rstrip('/')}/games/{GAME}").text
    notes = re.findall(r'<article class="press"><header>(.*?)</header><pre>(.*?)</pre>', html,
                       re.DOTALL)
    assert ["FRANCE" in h for h, body in notes if "Hello all from Paris" in body] == [True]
    grey = [header for header, body in notes if GREY in body]
    assert len(grey) == 1 and "FRANCE" not in grey[0].upper() and "anonymous" in grey[0], notes

