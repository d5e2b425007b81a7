"""Screenshots of the web view, for a look at it without setting up a judge.

    PYTHONPATH=. python -m tools.web_screenshots OUT_DIR

Starts a throwaway judge on loopback (tests.judge.web.served: its own SMTP
listener, workers, relay sink and web view, all in a temporary directory),
sets up games by mail -- a standard game with two phases played, a
Dissolution game with a year played, an Intercontinental game with a Spring
played -- and has headless Chromium (scripts/browser) write:

    games-list.png               the list of games
    dissolution-game.png         the Dissolution game's page, whole (both maps)
    intercontinental-zoomed.png  the Intercontinental map zoomed in on Paris

It exits 1 if a page logged a console error (a CSP violation is one).
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

from tests.judge.web.chromium import NoChromium, launch
from tests.judge.web.served import INTERCONTINENTAL, Served, served

STANDARD_PHASES: list[dict[str, list[str]]] = [
    {"FRANCE": ["A PAR-BUR", "F BRE-MAO"], "GERMANY": ["A MUN-RUH", "F KIE-DEN"],
     "ENGLAND": ["F LON-NTH", "F EDI-NWG"], "RUSSIA": ["A WAR-GAL", "F SEV-BLA"]},
    {"FRANCE": ["A BUR-BEL", "F MAO-POR"], "GERMANY": ["A RUH-HOL"],
     "ENGLAND": ["F NTH-NWY"], "RUSSIA": ["F BLA-RUM"]},
]
PRESS = ["BROADCAST", "Spring is here: good luck, all.", "ENDPRESS"]
# Intercontinental's Spring 1865 (as tests/e2e/test_intercontinental_by_mail.py
# plays it): France (Teal) into the Channel, Blue buys Dublin's fleet a move
IC_SPRING: dict[str, list[str]] = {
    "Teal": ["F Bres - Engl", "A Pari H", "A Algi H", "DP", "1: A Bern H"],
    "Blue": ["F Lond H", "DP", "2: F Dubl - Azor"],
}
ZOOM_AT = "PARI"  # the map's label the zoom keeps under the pointer
ZOOM_STEPS = 6  # wheel steps of 1.25 each: about four times closer


def set_up(s: Served) -> None:
    s.standard_game("classic", STANDARD_PHASES, press=PRESS)
    s.dissolution_game("dissol", phases=3)
    s.create_game("icx", ["variant intercontinental", "suez 1866", "movement 2d"],
                  INTERCONTINENTAL)
    s.play("icx", [IC_SPRING])


def zoom_on(page: Page, label: str, steps: int) -> None:
    """Wheel in over the map's text ``label`` (page.js keeps the point under
    the pointer still), so that the place stays in view."""
    figure = page.locator("figure.map").first
    figure.scroll_into_view_if_needed()
    text = figure.locator("svg text", has_text=re.compile(rf"^\s*{label}\s*$", re.I)).first
    box = text.bounding_box()
    if box is None:
        raise SystemExit(f"web_screenshots: no label {label} on the map")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(steps):
        page.mouse.wheel(0, -100)
        page.wait_for_timeout(50)  # let each wheel event land before the next


def shoot(out: Path, url: str) -> list[str]:
    problems: list[str] = []
    with sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context(base_url=url, viewport={"width": 1280, "height": 900},
                                      locale="en-GB", timezone_id="Europe/London")
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))

        page.goto("/")
        page.screenshot(path=out / "games-list.png", full_page=True)

        page.goto("/games/dissol")
        page.screenshot(path=out / "dissolution-game.png", full_page=True)

        page.goto("/games/icx")
        zoom_on(page, ZOOM_AT, ZOOM_STEPS)
        page.locator("figure.map").first.screenshot(path=out / "intercontinental-zoomed.png")
        browser.close()
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tools.web_screenshots OUT_DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="web-screenshots-") as tmp, \
            served(Path(tmp)) as s:
        print("setting up the games by mail...", flush=True)
        set_up(s)
        try:
            problems = shoot(out, s.url)
        except NoChromium as error:
            print(f"web_screenshots: {error}", file=sys.stderr)
            return 1
    for name in ("games-list.png", "dissolution-game.png", "intercontinental-zoomed.png"):
        print(out / name)
    for problem in problems:
        print(f"console error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":  # the judge's workers are spawned: they import this module
    sys.exit(main(sys.argv[1:]))
