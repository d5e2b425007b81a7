"""The check both bid variants' end-to-end games make after each deadline:
bids are secret (Dissolution §5.1.3, Intercontinental §1.4, §11.0), but
from the Game Master, whose copy of each results mail has every bid and its
fate (docs/rules.md: so that a dispute can be settled)."""

from __future__ import annotations

import re
from collections.abc import Callable

from tests.e2e.conftest import Received

# the title of the bids' section in the GM's copy of the results
GM_BIDS = "Diplomacy Point bids (the GM's copy only: secret until the game ends)"


def _gm_copy(mail: Received, master: str) -> bool:
    return mail.to == master and mail.subject.startswith("Diplomacy results ")


def no_bid_leaks(mails: list[Received], bidders: dict[str, list[str]],
                 address: Callable[[str], str], bid_line: re.Pattern[str],
                 master: str) -> None:
    """A bid's text appears only in its own bidder's reply and in the GM's
    copy of the results (``bidders``: bidder -> the bids it sent; ``address``:
    a bidder's mail address; ``master``: the GM's); no other mail holds a
    line written like a bid, or the GM's bids section."""
    for mail in mails:
        if _gm_copy(mail, master):
            continue
        owner = next((b for b in bidders if mail.to == address(b)
                      and mail.subject.startswith("Re:")), None)
        assert GM_BIDS not in mail.body, (mail.to, mail.subject)
        for bidder, texts in bidders.items():
            if bidder == owner:
                continue
            for text in texts:
                assert text.upper() not in mail.body.upper(), (mail.to, mail.subject, text)
        if owner is None:
            assert not bid_line.search(mail.body), (mail.to, mail.subject)

