"""The schema: created on a new database, kept (with its data) when an
existing one is opened again, and refused when it is newer than the judge."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlmodel import select

from judge import models
from judge.db import SCHEMA_VERSION, migrate, open_database, schema_version, transaction

pytestmark = pytest.mark.postgres


def test_new_database_gets_current_schema(db_url: str) -> None:
    engine = open_database(db_url)
    with engine.connect() as conn:
        assert schema_version(conn) == SCHEMA_VERSION
    engine.dispose()


def test_reopening_keeps_games(db_url: str) -> None:
    engine = open_database(db_url)
    with transaction(engine) as session:
        session.add(models.Game(name="keepme", master_hash="h", master_address="gm@x"))
    engine.dispose()
    engine = open_database(db_url)  # an upgraded judge starting on the old file
    with transaction(engine) as session:
        games = session.exec(select(models.Game)).all()
    assert [g.name for g in games] == ["keepme"]
    engine.dispose()


def test_newer_schema_is_refused(db_url: str) -> None:
    engine = open_database(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE schema_version SET version = :v"), {"v": SCHEMA_VERSION + 1})
    with pytest.raises(RuntimeError, match="upgrade the judge"):
        migrate(engine)
    engine.dispose()


def test_upgrade_from_version_1_keeps_games_and_adds_the_outbox_index(db_url: str) -> None:
    from sqlalchemy import inspect
    from sqlmodel import SQLModel

    from judge.db import make_engine

    engine = make_engine(db_url)
    with engine.begin() as conn:  # a database as the first judge left it
        SQLModel.metadata.create_all(conn)
        conn.execute(text("DROP INDEX ix_outbox_due"))
        conn.execute(text("DROP TABLE bid_record"))
        conn.execute(text("DROP TABLE map_order_record"))
        conn.execute(text("DROP TABLE signon_failure"))
        conn.execute(text("DROP TABLE reply_sent"))
        conn.execute(text("ALTER TABLE outbox DROP COLUMN claimed_by"))
        conn.execute(text("ALTER TABLE member DROP COLUMN zone"))
        conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, 1)"))
    with transaction(engine) as session:
        session.add(models.Game(name="old", master_hash="h", master_address="gm@x"))
    assert migrate(engine) == SCHEMA_VERSION == 8
    with engine.connect() as conn:
        assert schema_version(conn) == SCHEMA_VERSION
        assert "ix_outbox_due" in {i["name"] for i in inspect(conn).get_indexes("outbox")}
        assert inspect(conn).has_table("bid_record")  # step 3
        assert inspect(conn).has_table("signon_failure")  # step 4
        assert inspect(conn).has_table("reply_sent")
        assert "claimed_by" in {c["name"] for c in inspect(conn).get_columns("outbox")}  # 5
        assert "zone" in {c["name"] for c in inspect(conn).get_columns("member")}  # 6
        if conn.dialect.name != "sqlite":  # 7: seats of several powers
            widths = {c["name"]: getattr(c["type"], "length", None)
                      for c in inspect(conn).get_columns("member")}
            assert widths["power"] == widths["concede_to"] == 128
        assert inspect(conn).has_table("map_order_record")  # step 8: Diplomap's orders
    with transaction(engine) as session:
        assert [g.name for g in session.exec(select(models.Game)).all()] == ["old"]
    engine.dispose()
