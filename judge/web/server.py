"""The web view served by `judge serve`: uvicorn in a thread of the judge's
process, beside the SMTP listener. Its forms hand their stored mail to the
judge's workers as the listener does."""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable

import uvicorn
from sqlalchemy.engine import Engine

from engine.variant_file import offered_variants
from judge.config import Config
from judge.intake.smtp import ListenError
from judge.web.app import create_app
from judge.web.http_head import BoundedHead

log = logging.getLogger(__name__)


class WebError(ListenError):
    """The web view could not start (its port taken, say)."""


class WebServer:
    def __init__(self, config: Config, engine: Engine,
                 hand_over: Callable[[int], None]) -> None:
        self.config = config
        self.app = create_app(config, engine, hand_over)
        self._server = uvicorn.Server(uvicorn.Config(
            self.app, host=config.web.host, port=config.web.port, log_level="warning",
            access_log=False, lifespan="off", server_header=False,
            # httptools parses HTTP in C (a third less processor a page than h11,
            # bench/README.md), with a bound on a request's head (http_head.py);
            # the loop stays asyncio's: uvloop would be set as the policy of the
            # whole process, the SMTP listener's loop included
            http=BoundedHead, loop="asyncio",
            timeout_keep_alive=15))
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 10.0) -> None:
        self._thread = threading.Thread(target=self._server.run, name="web", daemon=True)
        self._thread.start()
        until = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > until:
                raise WebError(f"the web view could not listen on {self.config.web.host}:"
                               f"{self.config.web.port} (in use?)")
            time.sleep(0.02)
        log.info("web view at %s", self.config.web.url)
        # the games' page lists the variants offered, read from some forty
        # files: read now, not by the first reader
        threading.Thread(target=_warm, name="web-warm", daemon=True).start()

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)


def _warm() -> None:
    """Read the variants offered, then keep what the judge has loaded so far
    (some forty maps: millions of objects that live as long as it does) out
    of the collector's full passes, each of which otherwise walked them all
    and held every page in flight for a few hundred milliseconds."""
    offered_variants()
    gc.collect()
    gc.freeze()
