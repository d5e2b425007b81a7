"""Which judge this is, for the claims it makes on outgoing mail.

A judge that was killed while sending leaves rows claimed ('sending'). When
it starts again it must take those back at once, but never the claims of
another judge that shares the database and is sending right now. So every
claim is signed with the judge's instance name, the host and the data
directory, and a lock on the data directory makes sure that no two judges
running at once have the same name: the live owner of a claim is either
this process or nobody.
"""

from __future__ import annotations

import fcntl
import os
import socket

from judge.config import Config, ConfigError

LOCK_FILE = "judge.lock"


def instance_name(config: Config) -> str:
    """The name this judge signs its claims with: the same at every start,
    different for every judge that can run at the same time."""
    return f"{socket.gethostname()}:{config.data_dir.resolve()}"[-300:]


class InstanceLock:
    """The data directory's lock, held while `judge serve` runs; the kernel
    drops it when the process ends, however it ends."""

    def __init__(self, config: Config) -> None:
        self.path = config.data_dir / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock; ConfigError if another judge runs with this data
        directory (two judges need two, or one would take back the other's
        claims as its own)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise ConfigError(f"another judge is running with the data directory "
                              f"{self.path.parent.resolve()}; each judge needs its own") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # for the keeper who wonders who holds it
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
