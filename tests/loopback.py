"""Loopback helpers for tests that run real servers."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A loopback port nothing listens on (the kernel's pick for port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
