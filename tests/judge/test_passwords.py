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


def test_a_remembered_check_is_for_that_hash_and_password_only() -> None:
    first, second = hash_password("same"), hash_password("same")
    assert check_password("same", first) and check_password("same", first)  # remembered
    assert not check_password("Same", first)  # a wrong password is never remembered
    assert check_password("same", second)
    assert not check_password("same", first.replace("scrypt$", "scrypt$1"))
