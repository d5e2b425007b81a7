"""Shared test set-up.

Databases: a test that asks for ``db_url`` (or ``db``) runs on a fresh
SQLite file. Tests marked ``postgres`` -- those whose subject is the
database itself: storage, transactions, concurrency, intake -- run on a
fresh schema of the PostgreSQL server the machine runs as well
(JUDGE_TEST_POSTGRES, default postgresql://root@127.0.0.1:5432/test);
JUDGE_TEST_ALL_DATABASES=1 runs every database test on both. The
PostgreSQL runs are marked ``slow`` too, so the quick loop stays on SQLite.

Hypothesis: the profile ``ci`` (the default) runs each property with the
number of examples its test names; ``quick`` (HYPOTHESIS_PROFILE=quick,
which ``./scripts/test --quick`` sets) runs a tenth of them. Tests name
their counts through ``tests.examples.examples``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from judge.db import normalise_url, open_database

POSTGRES = os.environ.get("JUDGE_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")
ALL_DATABASES = os.environ.get("JUDGE_TEST_ALL_DATABASES", "") not in ("", "0")

# max_examples of a profile is what a test that names no count gets;
# tests.examples.examples scales the counts tests name by it / 100.
settings.register_profile("ci", max_examples=100)
settings.register_profile("quick", max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db_url" not in metafunc.fixturenames:
        return
    params: list[object] = ["sqlite"]
    if ALL_DATABASES or metafunc.definition.get_closest_marker("postgres") is not None:
        params.append(pytest.param("postgresql", marks=pytest.mark.slow))
    metafunc.parametrize("db_url", params, indirect=True)


def _postgres_schema_url(schema: str) -> str:
    sep = "&" if "?" in POSTGRES else "?"
    return f"{normalise_url(POSTGRES)}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'judge.db'}"
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(normalise_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield _postgres_schema_url(schema)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture
def db(db_url: str) -> Iterator[Engine]:
    engine = open_database(db_url)
    yield engine
    engine.dispose()
