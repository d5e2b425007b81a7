"""Passwords are kept only as slow salted hashes."""

from __future__ import annotations

from judge.passwords import check_password, hash_password


def test_hash_checks_and_hides_the_password() -> None:
    stored = hash_password("dip-lomacy")
    assert "dip-lomacy" not in stored and stored.startswith("scrypt$")
    assert check_password("dip-lomacy", stored)
    assert not check_password("Dip-lomacy", stored)


def test_same_password_different_salt() -> None:
    assert hash_password("x") != hash_password("x")


def test_garbage_hash_never_matches() -> None:
    for stored in ("", "plain", "scrypt$1$2$3$zz$zz", "md5$a$b$c$d$e"):
        assert not check_password("plain", stored)
