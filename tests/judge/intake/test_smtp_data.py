"""Reading the text after DATA: the vectors of data/intake/smtp_data.toml
on a real asyncio.StreamReader, and a line end that comes after the
piece of a long line. What a mail costs the listener is tested through
the listener (test_smtp.py)."""

from __future__ import annotations

import asyncio
import tomllib
from typing import Any

import pytest

from judge.intake.smtp_data import Data, read_data
from tests.judge.intake.mails import DATA

with (DATA / "smtp_data.toml").open("rb") as f:
    CASES: list[dict[str, Any]] = tomllib.load(f)["case"]

LINE_LIMIT = 1001  # aiosmtpd's, which the listener's reader has


async def _read(chunks: list[bytes], size_limit: int | None,
                line_limit: int) -> tuple[Data, bytes]:
    """read_data on a reader fed ``chunks`` one arrival at a time; what it
    read, and what it left."""
    reader = asyncio.StreamReader(limit=line_limit)
    reading = asyncio.ensure_future(read_data(reader, size_limit, line_limit))
    for chunk in chunks:
        reader.feed_data(chunk)
        await asyncio.sleep(0)
    reader.feed_eof()
    data = await reading
    return data, await reader.read()


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_what_is_taken_of_the_text_after_data(case: dict[str, Any]) -> None:
    data, left = asyncio.run(_read([case["sent"].encode()], case.get("size_limit", 1000),
                                   case.get("line_limit", LINE_LIMIT)))
    if "refusal" in case:
        assert data == Data(b"", data.refusal)
        assert int(data.refusal[:3]) == case["refusal"]
    else:
        assert data == Data(case["text"].encode(), "")
    assert left == case.get("left", "").encode()


def test_a_dot_after_the_piece_of_a_long_line_is_not_the_end() -> None:
    """The reader hands a line past its limit over in pieces; a piece may
    stop just before '.<CR><LF>', which is then the end of that line, not
    of the mail."""
    data, left = asyncio.run(_read([b"x" * 40, b".\r\n", b"after\r\n.\r\nQUIT\r\n"],
                                   None, 20))
    assert data.refusal.startswith("500 ") and left == b"QUIT\r\n"
