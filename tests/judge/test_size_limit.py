"""The default size limit lets an ordinary mail with a photo through: a
10 MB picture beside the orders is taken over real SMTP on loopback and
its text read; only what is really too big (past 25 MB by default) is
refused, and the listener announces the limit (EHLO SIZE)."""

from __future__ import annotations

import os
import smtplib
from email.message import EmailMessage
from email.policy import SMTP as SMTP_POLICY

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from judge.config import load_config
from judge.intake.smtp import start_listener
from judge.models import InboundMail, Outbox
from judge.processing import process_mail
from tests.loopback import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

MB = 1024 * 1024


def _mail_with_photo(photo_bytes: int) -> bytes:
    msg = EmailMessage(policy=SMTP_POLICY)
    msg["From"] = "anna@example.org"
    msg["To"] = "judge@localhost"
    msg["Subject"] = "my orders, and the view from my window"
    msg.set_content("LIST\n")
    # random bytes: a photo does not compress, and base64 makes it a third larger
    msg.add_attachment(os.urandom(photo_bytes), maintype="image", subtype="jpeg",
                       filename="window.jpg")
    return msg.as_bytes()


def test_the_default_limit_takes_a_10_mb_photo_and_refuses_past_25_mb(db: Engine) -> None:
    config = load_config(environ={"JUDGE_SMTP_PORT": str(free_port())})
    assert config.max_message_bytes == 25 * MB
    controller = start_listener(config, db)
    try:
        with smtplib.SMTP(config.smtp_host, config.smtp_port, timeout=60) as smtp:
            smtp.ehlo("client.example.org")
            assert smtp.esmtp_features["size"] == str(25 * MB)  # said before sending
            smtp.sendmail("anna@example.org", ["judge@localhost"], _mail_with_photo(10 * MB))
            with pytest.raises(smtplib.SMTPSenderRefused) as refused:
                smtp.sendmail("anna@example.org", ["judge@localhost"],
                              _mail_with_photo(19 * MB))  # 25.3 MB once in base64
            assert refused.value.smtp_code == 552
            assert b"up to 25 MB (26214400 bytes)" in refused.value.smtp_error
            # a client that does not announce the size is stopped in DATA, told the same
            smtp.mail("anna@example.org")
            smtp.rcpt("judge@localhost")
            code, text = smtp.data(_mail_with_photo(19 * MB))
            assert code == 552 and b"up to 25 MB" in text
    finally:
        controller.stop()
    with Session(db) as session:
        stored = session.exec(select(InboundMail)).all()
    assert len(stored) == 1
    assert process_mail(db, config, stored[0].id or 0) == "done"
    with Session(db) as session:
        reply = session.exec(select(Outbox).order_by(col(Outbox.id))).all()[-1]
    assert b"There are no games on this judge yet" in reply.raw
