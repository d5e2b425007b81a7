"""The check both bid variants' end-to-end games make after each deadline:
bids are secret (Dissolution §5.1.3, Intercontinental §1.4, §11.0)."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.e2e.conftest import Received


def no_bid_leaks(mails: list[Received], bidders: dict[str, list[str]],
                 address: Callable[[str], str], bid_line: re.Pattern[str]) -> None:
    """A bid's text appears only in its own bidder's reply (``bidders``:
    bidder -> the bids it sent; ``address``: a bidder's mail address); no
    other mail holds a line written like a bid."""
    for mail in mails:
        owner = next((b for b in bidders if mail.to == address(b)
                      and mail.subject.startswith("Re:")), None)
        for bidder, texts in bidders.items():
            if bidder == owner:
                continue
            for text in texts:
                assert text.upper() not in mail.body.upper(), (mail.to, mail.subject, text)
        if owner is None:
            assert not bid_line.search(mail.body), (mail.to, mail.subject)
