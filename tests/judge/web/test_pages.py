"""The pages anyone may read, from a judge serving them on loopback: the
games, a game, its history, each phase, its maps and its feed; and the
headers and bounds every response carries."""

from __future__ import annotations

import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.judge.web.served import GM, STANDARD, Served, player

pytestmark = pytest.mark.slow

REQUESTS = tomllib.loads((Path(__file__).parent / "data" / "requests.toml").read_text())
ATOM = "{http://www.w3.org/2005/Atom}"


def get(judge: Served, path: str, **kw: Any) -> httpx.Response:
    return httpx.get(judge.url.rstrip("/") + path, timeout=30, **kw)


def test_the_list_shows_what_list_shows(judge: Served) -> None:
    page = get(judge, "/")
    assert page.status_code == 200
    row = re.search(r"<tr>\s*<td><a href=\"/games/webtest\">webtest</a></td>(.*?)</tr>",
                    page.text, re.S)
    assert row is not None, page.text
    cells = re.findall(r"<td>(.*?)</td>", row[1], re.S)
    assert cells[0] == "standard" and cells[1] == "active"
    assert "S1902M" in cells[2]
    assert '<time datetime="' in cells[3]  # the deadline, for page.js to add the reader's time
    assert cells[4] == "7/7"
    assert "Variants offered:" in page.text and "dissolution" in page.text
    # a reconstructed board says so wherever a player meets its name
    assert "intercontinental (provisional board, not the official map)" in page.text


def test_a_game_page(judge: Served) -> None:
    text = get(judge, "/games/webtest").text
    assert "Spring 1902 Movement" in text
    assert "(the game's zone, UTC)" in text
    # every power played, with its centres and whether its orders are in
    for power in STANDARD:
        assert re.search(rf"<tr><td>{power}</td><td>played</td><td>\d+</td>", text), power
    # the map inline, with its zoom buttons; the settings without the list's address
    assert re.search(r'<div class="map-frame"><svg [^>]*viewBox="', text)
    assert 'class="zoom-in"' in text and "<?xml" not in text
    assert "<tr><th>list</th><td>yes</td></tr>" in text
    assert "lists.test" not in text
    # press to everyone; grey press without its sender
    assert "from FRANCE</header><pre>France greets Europe.</pre>" in text
    assert "grey press (anonymous)</header><pre>Beware the Channel.</pre>" in text
    # the phases played, in order, each a link
    assert re.findall(r'href="/games/webtest/phases/(\w+)"', text) == \
        ["S1901M", "F1901M", "W1901A", "S1902M"]


def test_the_history_gives_each_phase_its_results_in_order(judge: Served) -> None:
    text = get(judge, "/games/webtest/history").text
    phases = re.findall(r'<h2><a href="/games/webtest/phases/(\w+)">', text)
    assert phases[:2] == ["S1901M", "F1901M"]
    assert "S1902M" not in phases  # being played: no results, no orders
    assert "FRANCE    A PAR - BUR" in text
    # each with the map its results mail had: the board it left
    maps = re.findall(r'<img class="history-map" src="/games/webtest/maps/(\w+)\.svg"', text)
    assert maps[:2] == ["F1901M", "W1901A"]


def test_an_old_phase_has_its_results_and_the_map_it_left(judge: Served) -> None:
    text = get(judge, "/games/webtest/phases/S1901M").text
    assert "A PAR - BUR" in text and "GERMANY   A MUN - RUH" in text
    assert "After S1901M: its orders, and the board at the start of F1901M" in text
    assert 'rel="next" href="/games/webtest/phases/F1901M"' in text
    svg = re.search(r'<div class="map-frame">(<svg .*?</svg>)</div>', text, re.S)
    assert svg is not None
    ET.fromstring(svg[1])  # well-formed as drawn
    current = get(judge, "/games/webtest/phases/S1902M").text
    assert "has not been adjudicated yet" in current


def test_the_map_as_the_judge_drew_it(judge: Served) -> None:
    response = get(judge, "/games/webtest/maps/F1901M.svg")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert "sandbox" in response.headers["content-security-policy"]
    root = ET.fromstring(response.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("data-phase") == "F1901M"


def test_the_feed_has_an_entry_per_adjudicated_phase(judge: Served) -> None:
    response = get(judge, "/games/webtest/feed.atom")
    assert response.headers["content-type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    entries = feed.findall(f"{ATOM}entry")
    titles = [e.findtext(f"{ATOM}title") for e in entries]
    assert titles[:2] == ["webtest: S1901M (Spring 1901 Movement)",
                          "webtest: F1901M (Fall 1901 Movement)"]
    first = entries[0]
    assert "A PAR - BUR" in (first.findtext(f"{ATOM}content") or "")
    link = first.find(f"{ATOM}link")
    assert link is not None and link.get("href") == f"{judge.url}games/webtest/phases/S1901M"


def test_a_page_is_made_once_until_its_game_changes(judge: Served) -> None:
    pages = judge.judge.web.app.app.state.web.pages
    get(judge, "/games/webtest")
    made = pages.cache.made
    for _ in range(3):
        get(judge, "/games/webtest")
    assert pages.cache.made == made
    # orders filed change the page: FRANCE's orders are in now
    judge.send(player("FRANCE"), "SIGNON france@webtest pw-france\nA BEL H\nSIGNOFF")
    judge.settle()
    text = get(judge, "/games/webtest").text
    assert pages.cache.made == made + 1
    assert re.search(r"<tr><td>FRANCE</td>.*?<td class=\"orders-in\">in</td>", text)
    assert "A BEL H" not in text  # whether orders are in, never what they are


@pytest.mark.parametrize("case", REQUESTS["request"], ids=lambda c: c["why"])
def test_a_bad_request_gets_a_page_of_the_judge_s(judge: Served, case: dict[str, Any]) -> None:
    response = httpx.request(case.get("method", "GET"), judge.url.rstrip("/") + case["path"],
                             timeout=30)
    assert response.status_code == case["status"], response.text
    assert "Traceback" not in response.text and "File \"" not in response.text
    assert "<script>alert" not in response.text


def test_every_page_carries_the_security_headers_and_no_inline_script(judge: Served) -> None:
    for path in ("/", "/games/webtest", "/games/webtest/history", "/signon",
                 "/games/webtest/phases/F1901M", "/nowhere"):
        response = get(judge, path)
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["x-frame-options"] == "DENY"
        scripts = re.findall(r"<script[^>]*>", response.text)
        assert scripts == ['<script src="/static/page.js" defer>'], (path, scripts)
        assert not re.search(r"\son[a-z]+\s*=", response.text), path  # no event handlers
        assert "server" not in response.headers


def test_a_forming_game_shows_its_open_seats_and_no_board(judge: Served) -> None:
    judge.send(GM, "CREATE gathering gm-secret\nvariant standard\nplayers 7\nEND\n")
    judge.send(player("FRANCE"), "JOIN france@gathering pw-france")
    judge.settle()
    text = get(judge, "/games/gathering").text
    assert "<dt>Status</dt><dd>forming</dd>" in text
    assert "<tr><td>FRANCE</td><td>taken</td></tr>" in text
    assert "<tr><td>ENGLAND</td><td>open</td></tr>" in text
    assert 'class="map-frame"' not in text and "Phases played" not in text
    listed = get(judge, "/").text
    assert re.search(r'href="/games/gathering">gathering</a></td>.*?1/7 '
                     r'<span class="wanted">\(6 wanted\)</span>', listed, re.S)


ENCODINGS = tomllib.loads((Path(__file__).parent / "data" / "encodings.toml").read_text())


@pytest.mark.parametrize("case", ENCODINGS["encoding"], ids=lambda c: c["accept"])
@pytest.mark.parametrize("path", ["/games/webtest", "/games/webtest/history",
                                  "/games/webtest/phases/S1901M", "/games/webtest/feed.atom"])
def test_a_kept_page_is_gzipped_for_a_reader_that_takes_it(judge: Served, path: str,
                                                           case: dict[str, Any]) -> None:
    plain = get(judge, path, headers={"accept-encoding": "identity"})
    page = get(judge, path, headers={"accept-encoding": case["accept"]})
    assert page.status_code == 200
    assert page.headers.get("content-encoding") == ("gzip" if case["gzipped"] else None)
    assert page.headers["vary"] == "accept-encoding"
    assert page.content == plain.content  # httpx decodes the gzipped page
    assert page.headers["content-type"] == plain.headers["content-type"]
