"""Databases for the judge's tests: every test that asks for ``db_url`` (or
``db``) runs twice, on a fresh SQLite file and on a fresh schema of the
PostgreSQL server the machine runs (JUDGE_TEST_POSTGRES, default
postgresql://root@127.0.0.1:5432/test)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine

from judge.db import normalise_url, open_database

POSTGRES = os.environ.get("JUDGE_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/test")


def _postgres_schema_url(schema: str) -> str:
    sep = "&" if "?" in POSTGRES else "?"
    return f"{normalise_url(POSTGRES)}{sep}options=-csearch_path%3D{schema}"


@pytest.fixture(params=["sqlite", "postgresql"])
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
