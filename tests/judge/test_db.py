"""The schema: created on a new database, kept (with its data) when an
existing one is opened again, and refused when it is newer than the judge."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import text
from sqlmodel import select

from judge import models
from judge.db import (
    _SHIPPED,
    SCHEMA_VERSION,
    make_engine,
    migrate,
    open_database,
    schema_version,
    transaction,
)

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

    engine = make_engine(db_url)
    with engine.begin() as conn:  # a database as the first judge left it
        SQLModel.metadata.create_all(conn)
        conn.execute(text("DROP INDEX ix_outbox_due"))
        conn.execute(text("DROP TABLE filed_lines"))  # then: orders in a table of their own
        _SHIPPED.tables["order_record"].create(conn)
        conn.execute(text("DROP TABLE signon_failure"))
        conn.execute(text("DROP TABLE reply_sent"))
        conn.execute(text("ALTER TABLE outbox DROP COLUMN claimed_by"))
        conn.execute(text("ALTER TABLE member DROP COLUMN zone"))
        conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, 1)"))
    with transaction(engine) as session:
        session.add(models.Game(name="old", master_hash="h", master_address="gm@x"))
    assert migrate(engine) == SCHEMA_VERSION == 12
    with engine.connect() as conn:
        assert schema_version(conn) == SCHEMA_VERSION
        assert "ix_outbox_due" in {i["name"] for i in inspect(conn).get_indexes("outbox")}
        assert inspect(conn).has_table("signon_failure")  # step 4
        assert inspect(conn).has_table("reply_sent")
        assert "claimed_by" in {c["name"] for c in inspect(conn).get_columns("outbox")}  # 5
        assert "zone" in {c["name"] for c in inspect(conn).get_columns("member")}  # 6
        if conn.dialect.name != "sqlite":  # 7: seats of several powers
            widths = {c["name"]: getattr(c["type"], "length", None)
                      for c in inspect(conn).get_columns("member")}
            assert widths["power"] == widths["concede_to"] == 128
        # steps 3 and 8 made tables for bids and map orders, step 9 one for every kind
        assert inspect(conn).has_table("filed_lines")
        assert not {"order_record", "bid_record", "map_order_record"} & set(
            inspect(conn).get_table_names())
        # 11: wrong passwords by address too, and the notices about guessing
        assert "address" in {c["name"] for c in inspect(conn).get_columns("signon_failure")}
        assert inspect(conn).has_table("signon_notice")
        # 12: a failing deadline's state in its game's row
        assert "retry_at" in {c["name"] for c in inspect(conn).get_columns("game")}
    with transaction(engine) as session:
        assert [g.name for g in session.exec(select(models.Game)).all()] == ["old"]
    engine.dispose()


def test_lines_on_file_in_the_tables_of_version_8_are_kept_by_kind(db_url: str) -> None:
    """A running game's orders, bids and map orders, each in its table at
    version 8, are on file by kind after the upgrade, as they were written."""
    from datetime import UTC, datetime

    from sqlmodel import SQLModel

    from engine.diplomap.lines import MAP_ORDERS
    from engine.lines import BIDS, ORDERS
    from judge import filed_lines

    engine = make_engine(db_url)
    with engine.begin() as conn:  # the schema as version 8 left it
        SQLModel.metadata.create_all(conn)
        conn.execute(text("DROP TABLE filed_lines"))
        for table in ("order_record", "bid_record", "map_order_record"):
            _SHIPPED.tables[table].create(conn)
        conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, 8)"))
    with transaction(engine) as session:
        game = models.Game(name="running", master_hash="h", master_address="gm@x",
                           status="active", phase="S1901M")
        session.add(game)
    at = datetime(2024, 5, 1, 12, 0)
    rows = {  # table -> (its column of lines, rows of power, phase, lines)
        "order_record": ("orders", [("FRANCE", "S1901M", ["A PAR - BUR", "F BRE - MAO"]),
                                    ("FRANCE", "F1900M", ["A PAR H"])]),
        "bid_record": ("bids", [("POLAND", "S1901M", ["2: A AUS S WAR - PRA"])]),
        "map_order_record": ("orders", [("RUSSIA", "S1901M", ["DRAW GAL/WAR - GAL/BUD"])]),
    }
    with engine.begin() as conn:
        for table, (column, entries) in rows.items():
            for power, phase, lines in entries:
                conn.execute(_SHIPPED.tables[table].insert().values(
                    game_id=game.id, phase=phase, power=power,
                    **{column: json.dumps(lines)}, submitted_at=at))
    assert migrate(engine) == SCHEMA_VERSION
    with transaction(engine) as session:
        game = session.exec(select(models.Game)).one()
        assert filed_lines.on_file(session, game, ORDERS) == {
            "FRANCE": ["A PAR - BUR", "F BRE - MAO"]}
        assert filed_lines.on_file(session, game, ORDERS, "F1900M") == {"FRANCE": ["A PAR H"]}
        assert filed_lines.on_file(session, game, BIDS) == {"POLAND": ["2: A AUS S WAR - PRA"]}
        assert filed_lines.on_file(session, game, MAP_ORDERS) == {
            "RUSSIA": ["DRAW GAL/WAR - GAL/BUD"]}
        kept = session.exec(select(models.FiledLines)).all()
        assert len(kept) == 4
        assert {models.as_utc(r.submitted_at) for r in kept} == {at.replace(tzinfo=UTC)}
        # the game goes on: a new submission replaces the migrated row
        filed_lines.put(session, game, BIDS, "POLAND", ["1: A AUS H"])
        assert filed_lines.on_file(session, game, BIDS) == {"POLAND": ["1: A AUS H"]}
    engine.dispose()


def test_a_fixed_count_variant_game_stored_with_seven_players_gets_its_count(
        db_url: str) -> None:
    """Step 10: Dissolution and Intercontinental games were stored with
    players 7; they say the variant's count after the upgrade, and the
    standard game's own choice (here 4) is kept."""
    from sqlmodel import SQLModel

    engine = make_engine(db_url)
    with engine.begin() as conn:  # the schema as version 9 left it
        SQLModel.metadata.create_all(conn)
        conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, 9)"))
    stored = {"dissolution": 7, "intercontinental": 7, "standard": 4}
    with transaction(engine) as session:
        for variant, players in stored.items():
            session.add(models.Game(name=variant[:8], master_hash="h", master_address="gm@x",
                                    variant=variant,
                                    settings=json.dumps({"variant": variant,
                                                         "players": players})))
        session.add(models.Game(name="gone", master_hash="h", master_address="gm@x",
                                variant="retired", settings='{"players": 7}'))
    assert migrate(engine) == SCHEMA_VERSION
    with transaction(engine) as session:
        players = {g.variant: json.loads(g.settings)["players"]
                   for g in session.exec(select(models.Game)).all()}
    assert players == {"dissolution": 10, "intercontinental": 8, "standard": 4, "retired": 7}
    engine.dispose()


def test_wrong_passwords_of_version_10_still_count_for_their_power(db_url: str) -> None:
    """Step 11: the rows of before, without an address, are kept (they
    count for their power, under no address), and notices can be noted."""
    from datetime import UTC, datetime

    from sqlmodel import SQLModel

    engine = make_engine(db_url)
    with engine.begin() as conn:  # the schema as version 10 left it
        SQLModel.metadata.create_all(conn)
        conn.execute(text("ALTER TABLE signon_failure DROP COLUMN address"))
        conn.execute(text("DROP TABLE signon_notice"))
        conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, 10)"))
        conn.execute(text("INSERT INTO signon_failure (game, power, at) "
                          "VALUES ('g', 'FRANCE', :at)"), {"at": datetime(2026, 3, 2, 12)})
    assert migrate(engine) == SCHEMA_VERSION
    with transaction(engine) as session:
        kept = session.exec(select(models.SignonFailure)).all()
        assert [(r.game, r.power, r.address) for r in kept] == [("g", "FRANCE", "")]
        session.add(models.SignonNotice(game="g", power="FRANCE", kind="guessing",
                                        at=datetime(2026, 3, 2, 12, tzinfo=UTC)))
    engine.dispose()


def test_a_game_of_version_10_gets_the_failing_deadline_columns(db_url: str) -> None:
    """Step 12: a running game keeps its row and starts with no failure."""
    from datetime import UTC, datetime

    from sqlalchemy import inspect
    from sqlmodel import SQLModel

    engine = make_engine(db_url)
    columns = ("failed_attempts", "failed_at", "failure", "retry_at")
    with engine.begin() as conn:  # the schema as version 10 left it
        SQLModel.metadata.create_all(conn)
        for column in columns:
            conn.execute(text(f"ALTER TABLE game DROP COLUMN {column}"))
        conn.execute(text("INSERT INTO schema_version (id, version) VALUES (1, 10)"))
        conn.execute(text("INSERT INTO game (name, variant, master_hash, master_address, "
                          "status, settings, phase, reminded, seed, result, created_at, "
                          "claimed_by) VALUES ('old', 'standard', 'h', 'gm@x', 'active', "
                          "'{}', 'S1901M', '', 0, '', :at, '')"),
                     {"at": datetime(2026, 1, 1)})
    assert migrate(engine) == SCHEMA_VERSION
    with engine.connect() as conn:
        assert set(columns) <= {c["name"] for c in inspect(conn).get_columns("game")}
    with transaction(engine) as session:
        game = session.exec(select(models.Game)).one()
        assert (game.name, game.failed_attempts, game.failure, game.retry_at) == \
            ("old", 0, "", None)
        game.failed_attempts, game.failed_at = 1, datetime(2026, 1, 2, tzinfo=UTC)
        session.add(game)
    with transaction(engine) as session:
        assert session.exec(select(models.Game)).one().failed_attempts == 1
    engine.dispose()
