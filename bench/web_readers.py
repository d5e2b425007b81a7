"""The readers of bench/web_pages.py: people reading game pages of the web
view, as asyncio tasks with one httpx connection each, in a process of
their own (forked before the judge starts its threads), so that their
processor time is not taken under the judge's interpreter lock.

A reader reads one page after another, round the pages it is given
(starting at its own place among them, so that the readers do not all ask
for the same page at once), for ``seconds`` or until told to stop. With ``think`` seconds, it
waits between pages, a random 0.5 to 1.5 times ``think``, as a person
does; without, it asks for the next page as soon as it has the last one
(a closed loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from service_common import forked


@dataclass(frozen=True)
class Reading:
    """What the readers are to do."""

    base_url: str
    paths: tuple[str, ...]
    readers: int
    seconds: float
    think: float  # mean seconds between a reader's pages; 0: none (a closed loop)
    request_timeout: float = 30.0
    seed: int = 1
    accept_encoding: str = "gzip, deflate"  # httpx's own, as a browser's (which adds br)


@dataclass
class Read:
    """What they did: each page's latencies (seconds), the statuses, the
    errors (a timeout, a refused connection), and the time the run took."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    bytes_by_path: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    cpu_seconds: float = 0.0  # the readers' own processor time: the client's share

    @property
    def pages(self) -> int:
        return sum(len(v) for v in self.latencies.values())


async def _reader(n: int, client: httpx.AsyncClient, job: Reading, until: float, read: Read,
                  rng: random.Random, stop: Any) -> None:
    k = n
    if job.think:  # people do not all arrive in the same millisecond
        await asyncio.sleep(rng.uniform(0, job.think))
    while time.perf_counter() < until and not stop.is_set():
        path = job.paths[k % len(job.paths)]
        k += 1
        started = time.perf_counter()
        try:
            response = await client.get(path)
        except httpx.HTTPError as exc:
            read.errors.append(f"{path}: {exc!r}")
            continue
        took = time.perf_counter() - started
        read.statuses[response.status_code] += 1
        if response.status_code != 200:
            read.errors.append(f"{path}: HTTP {response.status_code} "
                               f"{response.text[:120]!r}")
            continue
        read.latencies.setdefault(path, []).append(took)
        read.bytes_by_path[path] = len(response.content)
        if job.think:
            await asyncio.sleep(job.think * rng.uniform(0.5, 1.5))


async def _read_all(job: Reading, stop: Any, ready: Any) -> Read:
    read = Read()
    rng = random.Random(job.seed)
    # a connection of each reader's own, as each person's browser has; made
    # before the clock starts (each client builds an SSL context, which
    # takes long enough that 50 of them would eat into a short run)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=job.base_url, limits=limits, timeout=job.request_timeout,
            headers={"accept-encoding": job.accept_encoding}))
            for _ in range(job.readers)]
        ready()  # the work to be measured under the readers may start now
        started = time.perf_counter()
        cpu = time.process_time()
        until = started + job.seconds
        await asyncio.gather(*(_reader(n, client, job, until, read,
                                       random.Random(rng.random()), stop)
                               for n, client in enumerate(clients)))
        read.elapsed = time.perf_counter() - started
        read.cpu_seconds = time.process_time() - cpu
    return read


def read_pages(job: Reading, stop: Any, ready: Any = lambda: None) -> Read:
    return asyncio.run(_read_all(job, stop, ready))


class ReaderProcess:
    """The readers in a process of their own, forked now (before the judge
    starts its threads); each run() sends them a Reading and waits for
    what they read."""

    def __init__(self) -> None:
        ctx = forked()
        self._conn, child = ctx.Pipe()
        self._stop = ctx.Event()  # set: the readers stop before their time is up
        self._process = ctx.Process(target=_readers_main, args=(child, self._stop),
                                    name="web-readers", daemon=True)
        self._process.start()
        child.close()

    @property
    def pid(self) -> int:
        return int(self._process.pid or 0)

    def start(self, job: Reading) -> None:
        """Start the readers; back once they are reading."""
        self._stop.clear()
        self._conn.send(job)
        if not self._conn.poll(120) or self._conn.recv() != "reading":
            raise SystemExit("the readers did not start: no figures")

    def finish(self) -> None:
        """Have the readers stop after the page each is reading."""
        self._stop.set()

    def result(self, timeout: float) -> Read:
        """What the readers read; SystemExit when they did not finish in
        ``timeout`` seconds or died."""
        if not self._conn.poll(timeout):
            raise SystemExit(f"the readers did not finish within {timeout:g} s: no figures")
        try:
            read: Read = self._conn.recv()
        except EOFError:
            raise SystemExit("the readers' process died: no figures") from None
        return read

    def run(self, job: Reading) -> Read:
        self.start(job)
        return self.result(job.seconds + job.request_timeout + 30)

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self._conn.send(None)
        self._process.join(10)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


def _readers_main(conn: Any, stop: Any) -> None:
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        conn.send(read_pages(job, stop, lambda: conn.send("reading")))
