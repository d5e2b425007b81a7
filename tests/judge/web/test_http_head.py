"""A request's head is bounded (httptools alone would read any length),
while a form as large as the guard allows still goes through: real sockets
against a served web view."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import pytest

from judge.config import Config, WebConfig
from judge.db import open_database
from judge.web.http_head import MAX_HEAD
from judge.web.server import WebServer
from tests.loopback import free_port

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    data = tmp_path_factory.mktemp("web")
    config = Config(data_dir=data, web=WebConfig(port=free_port()))
    engine = open_database(config.database_url)
    server = WebServer(config, engine, lambda _: None)
    server.start()
    yield config.web.port
    server.stop()
    engine.dispose()


def ask(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        # refused while sending: the answer is read below
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer:
                break
        return answer


@pytest.mark.parametrize("size", [MAX_HEAD + 1, 200_000, 5_000_000])
def test_a_long_head_is_refused(port: int, size: int) -> None:
    answer = ask(port, b"GET / HTTP/1.1\r\nHost: judge\r\nX-Long: " + b"a" * size
                 + b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]


def test_a_long_head_sent_in_small_pieces_is_refused(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: judge\r\nX-Long: ")
        answer = b""
        try:
            for _ in range(200):  # 200 KB, a kilobyte at a time
                sock.sendall(b"a" * 1024)
        except (BrokenPipeError, ConnectionResetError):
            pass
        sock.settimeout(30)
        with contextlib.suppress(ConnectionResetError):
            answer = sock.recv(200)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:80]


def test_an_ordinary_head_and_a_full_form_go_through(port: int) -> None:
    assert ask(port, b"GET / HTTP/1.1\r\nHost: judge\r\nConnection: close\r\n\r\n") \
        .startswith(b"HTTP/1.1 200 ")
    body = b"game=x&power=y&password=z&csrf=" + b"a" * 60_000
    answer = ask(port, b"POST /signon HTTP/1.1\r\nHost: judge\r\nConnection: close\r\n"
                 b"Content-Type: application/x-www-form-urlencoded\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    assert answer.startswith(b"HTTP/1.1 403 "), answer[:80]  # read, and refused for its token
