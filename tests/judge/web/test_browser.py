"""The web view in a real browser: headless Chromium (Debian's, through
Playwright) against a whole judge whose game is played by mail. The reader's
path: the list, a game, its map zoomed and panned, an old phase; the
player's: sign on, orders with an error, the judge's reply on the page and in
the mail, sign off. The page's script must run under the page's
Content-Security-Policy without a single console error."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright

from tests.judge.web.chromium import NoChromium, launch
from tests.judge.web.served import Served, player, served

pytestmark = pytest.mark.slow

GAME = "webtest"
READER_ZONE = "America/New_York"  # not the game's zone (UTC): the page must convert
SPRING = {"FRANCE": ["A PAR-BUR", "F BRE-MAO"], "GERMANY": ["A MUN-BUR"]}
# France's orders for Fall 1901 (A PAR bounced, F MAO arrived): one order names no province
ORDERS = ["A PAR-PIC", "F MAO-XYZ", "A MAR-SPA"]


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(tmp_path_factory.mktemp("web")) as s:
        s.standard_game(GAME, [SPRING])
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    playwright: Playwright = sync_playwright().start()
    try:
        try:
            chromium = launch(playwright)
        except NoChromium as error:
            pytest.skip(f"no browser for the web view's tests: {error}")
        yield chromium
        chromium.close()
    finally:
        playwright.stop()


@dataclass
class Watched:
    """A page, and every console error, uncaught exception and failed request
    (a CSP violation is a console error) it had."""
    page: Page
    problems: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")


@pytest.fixture
def watched(browser: Browser, judge: Served) -> Iterator[Watched]:
    context = browser.new_context(base_url=judge.url, timezone_id=READER_ZONE, locale="en-US",
                                  viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)  # a reply waits for the judge's workers
    seen = Watched(page)
    page.on("console", seen.console)
    page.on("pageerror", lambda error: seen.problems.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: seen.problems.append(
        f"request failed: {request.url} {request.failure}"))
    yield seen
    context.close()


def view_box(page: Page) -> list[float]:
    box = page.locator("figure.map .map-frame svg").first.get_attribute("viewBox")
    assert box, "the map has no viewBox"
    return [float(n) for n in box.replace(",", " ").split()]


def test_a_reader_finds_the_game_zooms_its_map_and_opens_an_old_phase(
        watched: Watched) -> None:
    page = watched.page
    page.goto("/")
    page.get_by_role("link", name=GAME, exact=True).click()
    page.wait_for_url(f"**/games/{GAME}")
    assert page.locator("h1").inner_text() == GAME

    whole = view_box(page)
    page.locator("figure.map .zoom-in").first.click()
    zoomed = view_box(page)
    assert zoomed[2] < whole[2] and zoomed[3] < whole[3], (whole, zoomed)

    page.locator("figure.map .map-frame").first.scroll_into_view_if_needed()
    frame = page.locator("figure.map .map-frame").first.bounding_box()
    assert frame is not None
    x, y = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 120, y - 80, steps=5)  # dragging the board left and up...
    page.mouse.up()
    panned = view_box(page)
    # ...shows what lay right of and below the view, at the same zoom
    assert panned[0] > zoomed[0] and panned[1] > zoomed[1], (zoomed, panned)
    assert panned[2:] == zoomed[2:]

    page.locator("figure.map .zoom-reset").first.click()
    assert view_box(page) == whole

    page.locator("ol.phases").get_by_role("link", name="S1901M").click()
    page.wait_for_url(f"**/games/{GAME}/phases/S1901M")
    results = page.locator("pre.results").inner_text()
    assert "A PAR - BUR" in results and "F BRE - MAO" in results, results
    page.get_by_role("link", name=GAME).first.click()
    page.get_by_role("link", name="History").click()
    page.wait_for_url(f"**/games/{GAME}/history")
    assert "A MUN - BUR" in page.locator("pre.results").first.inner_text()
    assert watched.problems == []


def test_a_player_signs_on_gives_orders_and_signs_off(watched: Watched, judge: Served) -> None:
    page = watched.page
    page.goto(f"/games/{GAME}")
    page.get_by_role("link", name="Sign on to give orders").click()
    page.wait_for_url(f"**/signon?game={GAME}")
    assert page.get_by_label("Game").input_value() == GAME
    page.get_by_label("Power").fill("France")
    page.get_by_label("Password").fill("pw-france")
    page.get_by_role("button", name="Sign on").click()
    page.wait_for_url(f"**/games/{GAME}/orders")

    page.locator("textarea[name=orders]").fill("\n".join(ORDERS))
    page.get_by_role("button", name="Send orders").click()
    reply = page.locator("pre.reply-text").inner_text()
    error = re.search(r"^ERROR line \d+: F MAO-XYZ$", reply, re.MULTILINE)
    oks = re.findall(r"^ok +line \d+: (.*)$", reply, re.MULTILINE)
    assert error, reply
    assert oks == ["A PAR-PIC", "A MAR-SPA"], reply

    # the same reply reached the player's mailbox
    mails = [m for m in judge.settle() if m.to == player("FRANCE")]
    assert len(mails) == 1, [(m.to, m.subject) for m in mails]
    body = mails[0].body
    assert error.group(0) in body
    assert all(re.search(rf"^ok +line \d+: {re.escape(ok)}$", body, re.MULTILINE)
               for ok in oks), body

    page.get_by_role("button", name="Sign off").click()
    page.wait_for_url(judge.url.rstrip("/") + "/")
    page.goto(f"/games/{GAME}/orders")
    assert page.url.endswith(f"/signon?game={GAME}")
    assert watched.problems == []


def test_the_deadline_shows_in_the_readers_own_time(watched: Watched) -> None:
    page = watched.page
    page.goto(f"/games/{GAME}")
    deadline = page.locator("dd time[datetime]")
    at = datetime.fromisoformat(str(deadline.get_attribute("datetime")))
    local = at.astimezone(ZoneInfo(READER_ZONE))
    shown = page.locator("dd .local-time").inner_text()
    assert local.strftime("%I:%M %p") in shown, (local, shown)
    assert f"{local.day}" in shown and local.strftime("%b") in shown, (local, shown)
    assert re.search(r"\bE[SD]T\b", shown), shown
    assert watched.problems == []


def test_a_script_the_policy_forbids_is_seen(watched: Watched) -> None:
    """The watch above would see a CSP violation: an inline script, which the
    page's policy forbids, shows as a console error."""
    page = watched.page
    page.goto("/")
    page.evaluate("""() => { const s = document.createElement("script");
                             s.textContent = "document.title = 'ran'";
                             document.body.append(s); }""")
    assert page.title() != "ran"
    for _ in range(100):  # the console message comes asynchronously
        if watched.problems:
            break
        page.wait_for_timeout(50)
    assert any("Content Security Policy" in p for p in watched.problems), watched.problems
