"""Reading a mail's text after DATA into one buffer, as it arrives.

Why not aiosmtpd's own reading: it keeps every line as an object of its own
and joins them at the end, which costs about 136 bytes per 78-byte line, and
80 more per line while joining. A 25 MB mail took about 100 MB, and a mail
of 25 MB of empty lines about 2 GB, within the size limit (issue 25). Here
the text goes into one growing buffer, so a mail costs about its size
however its lines are cut, and never more than the size limit allows.

What the client is told matches aiosmtpd's reading: the reply comes only
after the end of the data (RFC 5321 4.2.5), and the first fault found wins.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass

from aiosmtpd.smtp import SMTP

END_OF_DATA = b".\r\n"  # a line of one dot (RFC 5321 4.1.1.4)
LINE_TOO_LONG = "500 5.5.2 line too long: RFC 5321 allows 1000 characters"
TOO_BIG = "552 5.3.4 mail too big"


@dataclass(frozen=True)
class Data:
    """A mail's text as the client sent it after DATA, or why it is refused."""
    text: bytes  # dot-stuffing undone; empty when refused
    refusal: str  # the reply refusing it; '' when it is taken


async def read_data(reader: asyncio.StreamReader, size_limit: int | None,
                    line_limit: int) -> Data:
    """Read up to the line of one dot. ``reader``'s own limit is the line
    limit: a longer line comes as pieces (LimitOverrunError), each dropped.
    Past a fault, the rest is read and dropped too."""
    text = io.BytesIO()
    size = 0
    refusal = ""
    at_line_start = True
    while True:
        try:
            line = await reader.readuntil(b"\r\n")
            whole = True
        except asyncio.LimitOverrunError as overrun:
            line = await reader.read(overrun.consumed)
            whole = False
        if at_line_start and line == END_OF_DATA:
            break
        size += len(line)
        if not refusal:
            if not whole or len(line) > line_limit:
                refusal = LINE_TOO_LONG
            elif size_limit and size > size_limit:
                refusal = TOO_BIG
            if refusal:
                text = io.BytesIO()  # what was kept goes now, not at the end
            elif line.startswith(b"."):
                text.write(memoryview(line)[1:])  # a dot added by the client
            else:
                text.write(line)
        at_line_start = whole
    if refusal:
        return Data(b"", refusal)
    # getvalue hands over the buffer itself: no second copy of the mail
    return Data(text.getvalue(), "")


async def take_mail(smtp: SMTP) -> None:
    """aiosmtpd's DATA from the 354 on, but the text read into one buffer:
    the mail goes to the handler's ``handle_DATA`` (unless refused), the
    next mail starts with a fresh envelope, and the client is answered."""
    await smtp.push("354 End data with <CR><LF>.<CR><LF>")
    data = await read_data(smtp._reader, smtp.data_size_limit, smtp.line_length_limit)
    envelope, session = smtp.envelope, smtp.session
    assert envelope is not None and session is not None
    if data.refusal:
        status = data.refusal
    else:
        # the listener never decodes (decode_data=False): both are the bytes
        envelope.content = envelope.original_content = data.text
        status = await smtp.event_handler.handle_DATA(smtp, session, envelope)
    smtp.envelope = smtp._create_envelope()  # the next mail starts afresh
    await smtp.push(status)
