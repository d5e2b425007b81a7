"""Password hashes at a token scrypt cost, for tests whose subject is the
commands a mail carries rather than how slow a guess is.

The judge's real cost (judge/passwords.py, about 30 ms a hash here, far
more under a loaded test machine) was a third of the processor time of the
command scenarios and the mail fuzzing: every CREATE and JOIN hashes, every
wrong SIGNON checks. The hash keeps its parameters, so the same code hashes
and checks, only cheaper; tests/judge/test_passwords.py proves the real cost.
"""

from __future__ import annotations

import pytest

from judge import passwords

# the smallest scrypt cost that still exercises the whole hash and check
CHEAP_N = 2**4


def cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    """New password hashes made at CHEAP_N until the test ends."""
    monkeypatch.setattr(passwords, "_N", CHEAP_N)
