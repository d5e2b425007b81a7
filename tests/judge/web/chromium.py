"""Debian's Chromium driven by Playwright over CDP, for the web view's
browser tests and tools.web_screenshots. scripts/browser finds (and
installs) the binary; Playwright's own browser downloads are never used."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from playwright.sync_api import Browser, Playwright

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "browser"


class NoChromium(RuntimeError):
    """No Chromium to drive: the message says why and what to run."""


def chromium_path() -> str:
    found = subprocess.run(["bash", str(SCRIPT), "path"], capture_output=True, text=True,
                           check=False)
    if found.returncode != 0 or not found.stdout.strip():
        raise NoChromium(found.stderr.strip()
                         or "no chromium found; run scripts/browser install (as root)")
    return found.stdout.strip()


def launch(playwright: Playwright) -> Browser:
    """A headless Chromium; as root it must run without its sandbox."""
    path = chromium_path()
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    try:
        return playwright.chromium.launch(executable_path=path, args=args, headless=True)
    except Exception as error:  # Playwright's Error: a broken install, missing libraries
        raise NoChromium(f"{path} did not start ({error}); "
                         "run scripts/browser install (as root)") from error
