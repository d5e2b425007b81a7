"""Fuzzing the whole mail pipeline: random mails built from the judge's
vocabulary (fuzz_mails.py), sent as a player, as the GM and as a stranger
to a live game, through store_inbound and process_mail on a real database.
No mail may fail or be answered with the internal-error reply.

The long run of the same mails is bench/fuzz_mail.py.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from sqlalchemy.engine import Engine

from tests.examples import examples
from tests.judge.cheap_passwords import cheap_passwords
from tests.judge.fuzz_mails import FuzzMail, deliver, fuzz_mail, problem

# On PostgreSQL too: text SQLite stores, PostgreSQL may refuse (a NUL in a
# text column), and random mails are how such text gets found.
pytestmark = [pytest.mark.postgres, pytest.mark.slow]

# about 15 s per database on the test machine (the ci profile); bench/fuzz_mail.py runs thousands
EXAMPLES = examples(200)


def test_fuzzed_mails_never_meet_an_internal_error(
        db: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    cheap_passwords(monkeypatch)
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(fuzz_mail())
    def one_mail(mail: FuzzMail) -> None:
        outcome = deliver(db, mail)
        assert problem(outcome) is None, (problem(outcome), mail.body)

    one_mail()
