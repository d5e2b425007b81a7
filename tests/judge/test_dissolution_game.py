"""A Dissolution game in the judge: seats from the variant file, orders and
Diplomacy Point bids on file, adjudicated at the deadline; the bids are kept
for the end of the game and never mailed with the results."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from engine.phase import Phase
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.dissolution.state import of as dissolution
from judge import games, order_entry, reported, turns
from judge.config import Config
from judge.db import transaction
from judge.games import GameError
from judge.models import FiledLines, Game
from judge.passwords import hash_password
from judge.settings import GameSettings
from parser import parse_order

START = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
PLAYED = ["EGYPT", "ETHIOPIA", "IRAN", "KAZAKHSTAN", "PAKISTAN", "POLAND", "ROMANIA",
          "SAUDI_ARABIA", "UKRAINE", "YUGOSLAVIA"]


def _started(db: Engine) -> int:
    secret = hash_password("pw")
    with transaction(db) as session:
        game = games.create_game(session, "dissol", secret, "gm@x.test",
                                 GameSettings(variant="dissolution"))
        assert sorted(games.seat_names(game)) == PLAYED  # neutral powers sit nowhere
        for power in PLAYED:
            games.join(session, game, f"{power.lower()}@x.test", secret, power)
        state = games.start(session, game, START)
        assert str(state.phase) == "S1992M"
        assert game.id is not None
        return game.id


@contextmanager
def _playing(db: Engine) -> Iterator[tuple[Session, Game]]:
    """A started Dissolution game, in a transaction of its own."""
    game_id = _started(db)
    with transaction(db) as session:
        game = session.get(Game, game_id)
        assert game is not None
        yield session, game


def test_seats_are_the_ten_played_powers(db: Engine) -> None:
    with _playing(db) as (session, game):
        state = games.current_state(session, game)
        game_map = load_variant("dissolution")
        # nobody is waited for on behalf of a neutral power
        assert games.powers_to_order(game_map, state) == PLAYED
        assert games.missing_powers(session, game, game_map, state) == PLAYED


@pytest.mark.slow
def test_bids_steer_neutral_units_and_stay_secret(db: Engine) -> None:
    config = Config(address="judge@judge.test")
    with _playing(db) as (session, game):
        games.file_orders(session, game, "UKRAINE", ["A Khk - Mos"])
        games.file_bids(session, game, "POLAND", ["1: A Blr S Khk - Mos", "1: A Aus H"])
        games.file_bids(session, game, "POLAND", ["1: A Blr S Khk - Mos"])  # replaces
        games.file_bids(session, game, "ROMANIA", ["2: W Ram - Aus", "1: A Nowhere H"])
        assert games.bids_on_file(session, game) == {
            "POLAND": ["1: A Blr S Khk - Mos"], "ROMANIA": ["2: W Ram - Aus", "1: A Nowhere H"]}
        mails = turns.process(session, game, config, START)
        assert game.phase == "F1992M"
        record = games.phase_record(session, game, "S1992M")
        assert record is not None
        stored = json.loads(record.results)
    rows = {r["order"]: r for r in stored["results"]}
    assert rows["A KHK - MOS"]["outcome"] == "fails"
    assert rows["A MOS H"]["reason"].startswith("disabled by the unit from KHK")
    assert rows["A BLR S A KHK - MOS"]["outcome"] == "succeeds"  # the bid won
    assert stored["violations"][0]["kind"] == "disabled"
    assert {(v["power"], v["nuclear"]) for v in stored["violations"]} == {("UKRAINE", "RUSSIA")}
    fates = {b["bid"]: b for b in stored["bids"]}
    assert fates["1: A BLR S KHK - MOS"]["counted"]
    assert not fates["2: W RAM - AUS"]["counted"]  # Romania's NATO Favor caps it at 1
    assert fates["1: A Nowhere H"]["why"].startswith("unreadable")
    results = [m for m in mails if m.kind == "results"]
    assert results and all("A BLR S A KHK - MOS" in m.body for m in results)
    body = results[0].body
    assert "Violations against nuclear powers" in body
    assert "UKRAINE against RUSSIA: A KHK disabled the unit in MOS" in body
    assert "UKRAINE's Embassy with RUSSIA kicked R2m - R1q" in body
    assert "Diplomacy Points for F1992M" in body
    assert "UKRAINE        3 DP  (INDIA 1, ISRAEL 1, NATO 1, RUSSIA 1, US_NAVY 1)" in body
    assert {name.rsplit(".", 1)[1] for m in results for name, _, _ in m.attachments} \
        == {"png", "svg"}  # the schematic map of the next phase
    for mail in mails:  # what players and the list see: the neutral order, never a bid
        if mail.to == ("gm@x.test",):
            continue
        assert "1: A BLR" not in mail.body and "W RAM - AUS" not in mail.body
        assert not re.search(r"^\s*\d+: [AFW] ", mail.body, re.MULTILINE)  # no bid line
    # the GM's copy, to the GM alone, has every bid and its fate
    (master,) = [m for m in results if "gm@x.test" in m.to]
    assert master.to == ("gm@x.test",)
    assert "POLAND    1: A BLR S KHK - MOS           counted" in master.body
    assert "ROMANIA   2: W RAM - AUS" in master.body

@pytest.mark.slow
def test_rollback_takes_the_bids_off_file(db: Engine) -> None:
    config = Config(address="judge@judge.test")
    with _playing(db) as (session, game):
        games.file_bids(session, game, "POLAND", ["1: A Blr H"])
        turns.process(session, game, config, START)
        games.rollback(session, game, None)
        assert game.phase == "S1992M"
        assert games.bids_on_file(session, game) == {}
        assert session.exec(select(FiledLines).where(FiledLines.kind == "bids")).all() == []


def test_a_players_mail_of_orders_bids_and_embassy_orders(db: Engine) -> None:
    """Orders and a DP section in one mail: each bid is read, checked
    against the orders (deception, caps...) and filed; a later mail's
    bids replace them, a mail without bids keeps them, CLEAR takes them.
    In Winter the same mail carries Embassy orders."""
    with _playing(db) as (session, game):
        poland = next(m for m in games.members(session, game, "player") if m.power == "POLAND")
        report = order_entry.submit_orders(session, game, poland, [
            (1, "A War - Pra"), (2, "A Gda H"), (3, "DP"), (4, "2: A Aus S War - Pra"),
            (5, "1: A Bra H"), (6, "1: A Nowhere H")])
        notes = {n.line: n.problem for n in report.notes}
        assert notes[1] == notes[2] == notes[4] == ""
        assert notes[5].startswith("would be ignored now: deception")  # Poland attacks Prague
        assert "not a province" in notes[6]
        assert games.bids_on_file(session, game) == {
            "POLAND": ["2: A AUS S WAR - PRA", "1: A BRA H"]}
        order_entry.submit_orders(session, game, poland, [(1, "A War H"), (2, "A Gda H")])
        assert games.bids_on_file(session, game) == {  # a mail without bids keeps them
            "POLAND": ["2: A AUS S WAR - PRA", "1: A BRA H"]}
        order_entry.submit_orders(session, game, poland, [(1, "DP"), (2, "1: A Bra H")])
        assert games.bids_on_file(session, game) == {"POLAND": ["1: A BRA H"]}  # replaced
        order_entry.clear_orders(session, game, poland)
        assert games.bids_on_file(session, game) == {}  # CLEAR takes the bids too
        _in_winter(session, game)
        report = order_entry.submit_orders(session, game, poland, [
            (1, "E N1q - N2o"), (2, "E U2k S PO B1r"), (3, "E R1r - R2n"), (4, "E I1q H")])
        notes = {n.line: n.problem for n in report.notes}
        assert notes[1] == notes[3] == notes[4] == ""
        assert notes[2] == "there is no unit in U2k" or "does not border" in notes[2]
        assert games.orders_on_file(session, game)["POLAND"] == [
            "E N1q - N2o", "E R1r - R2n", "E I1q H"]
        state = games.current_state(session, game)
        # every player with Embassies has orders to give in Winter
        assert games.powers_to_order(load_variant("dissolution"), state) == PLAYED


# the Winter orders of tests/engine/variants/dissolution/data/favor/winter.toml
WINTER_CASES = {case["id"]: case for case in tomllib.loads(
    (Path(__file__).parents[1] / "engine" / "variants" / "dissolution" / "data" / "favor"
     / "winter.toml").read_text(encoding="utf-8"))["case"]}


def _in_winter(session: Session, game: Game) -> None:
    """The game's current phase made W1992A, its Embassies where the opening put them."""
    from judge import snapshots
    state = games.current_state(session, game)
    record = games.phase_record(session, game)
    assert record is not None
    record.state = snapshots.dumps(state.evolve(phase=Phase.parse("W1992A")))
    record.phase = game.phase = "W1992A"
    session.add(record)
    session.flush()
    games._forget(session, games._POSITION)


@pytest.mark.slow
def test_a_void_embassy_support_is_listed_once_in_results_and_history(db: Engine) -> None:
    """A void Embassy order is the Embassy's one line, in the results mail
    and in HISTORY: the hold it falls back on is not listed beside it."""
    from judge.handlers import Context
    from judge.handlers.info import do_history
    from parser.commands import History

    case = WINTER_CASES["11.5.2 own: a void support is listed once, its example names the "
                        "Embassy there"]
    assert case["setup"] == "default"  # the opening's Embassies, as a started game has them
    config = Config(address="judge@judge.test")
    with _playing(db) as (session, game):
        _in_winter(session, game)
        wanted: list[list[str]] = []  # order | outcome | words of the reason
        for power, lines in case["orders"].items():
            rows = [[part.strip() for part in line.split("|")] for line in lines]
            games.file_orders(session, game, power, [row[0] for row in rows])
            wanted.extend(rows)
        mails = turns.process(session, game, config, START)
        assert game.phase == "S1993M"
        body = next(m for m in mails if m.kind == "results").body
        ctx = Context(session=session, config=config, sender="x@x.test", now=START)
        history = do_history(ctx, History("dissol", "W1992A", "W1992A"))
    game_map = load_variant("dissolution")
    for text, outcome, why in wanted:
        order = str(parse_order(text, game_map))
        for shown in (body, history):
            lines = [line for line in shown.splitlines() if order in line]
            assert len(lines) == 1 and f" {outcome}: " in lines[0], (order, lines)
            assert " ".join(why.split()) in " ".join(shown.split())  # wrapped in the mail
    for line in case["unlisted"]:
        power, _, text = line.partition(" ")
        order = re.escape(str(parse_order(text, game_map)))
        assert not re.search(rf"^\s+{order}\s", body, re.MULTILINE), line
        assert not re.search(rf"^\s+{power}\s+{order}\s", history, re.MULTILINE), line


@pytest.mark.slow
def test_the_bids_are_told_when_the_game_ends(db: Engine) -> None:
    """§5.1.3: secret while the game runs (HISTORY leaves them out), mailed to
    everyone at its end and shown by HISTORY from then on."""
    config = Config(address="judge@judge.test")
    with _playing(db) as (session, game):
        games.file_bids(session, game, "POLAND", ["1: A Blr S Khk - Mos"])
        turns.process(session, game, config, START)
        record = games.phase_record(session, game, "S1992M")
        assert record is not None
        (bids,) = [s for s in reported.read_text(record.results) if s.key == "bids"]
        assert bids.secret_until_end and bids.texts == [
            "POLAND    1: A BLR S KHK - MOS           counted"]
        games.end_game(session, game, "terminated", "terminated by the GM")
        ended = turns.ended_mails(session, game, config)
    assert any("1: A BLR S KHK - MOS" in m.body and "secret until now" in m.body for m in ended)


def test_the_gm_silences_a_player_in_exile(db: Engine) -> None:
    """§5.3: the GM may strip an exile of its bids; nobody else can be silenced."""
    from judge.handlers import Context
    from judge.handlers.master import do_silence
    from parser.commands import Silence

    config = Config(address="judge@judge.test")
    with _playing(db) as (session, game):
        state = games.current_state(session, game)
        games.replace_position(session, game, state.with_part(
            replace(dissolution(state), exiles=frozenset({"ROMANIA"}))))
        games.file_bids(session, game, "ROMANIA", ["1: A Mol H"])
        ctx = Context(session=session, config=config, sender="gm@x.test", now=START,
                      game=game, master=True)
        with pytest.raises(GameError, match="no player in exile"):
            do_silence(ctx, Silence("POLAND"))
        assert do_silence(ctx, Silence("romania")).startswith("ROMANIA no longer bids")
        assert dissolution(games.current_state(session, game)).silenced == frozenset({"ROMANIA"})
        assert games.bids_on_file(session, game) == {}
        assert any("no longer bids" in m.body for m in ctx.mails)  # everyone is told
        points, _ = rules_for(games.map_of(game)).bid_allowance(
            games.map_of(game), games.current_state(session, game), "ROMANIA")
        assert points == 0


def test_the_gm_publishes_another_favor_setup(db: Engine) -> None:
    """§11.2: before powers are assigned, any valid setup; an invalid one is
    refused with the reason; the game starts on the setup in force."""
    from judge.handlers import Context
    from judge.handlers.master import do_set_favor
    from parser.commands import SetFavor

    secret = hash_password("pw")
    with transaction(db) as session:
        game = games.create_game(session, "favor", secret, "gm@x.test",
                                 GameSettings(variant="dissolution"))
        ctx = Context(session=session, config=Config(address="judge@judge.test"),
                      sender="gm@x.test", now=START, game=game, master=True)
        with pytest.raises(GameError, match="R1p is worth 1; ETHIOPIA starts with Favor 0"):
            do_set_favor(ctx, SetFavor("ETHIOPIA", ("N1s", "U2o", "I1u", "B2n", "R1p")))
        # Setup A: Kazakhstan on I1p, Yugoslavia on Kazakhstan's I1s, a swap in two steps
        half = do_set_favor(ctx, SetFavor("KAZAKHSTAN", ("N1p", "U1p", "I1p", "B1p", "R2j")))
        assert "Not valid yet" in half and "I1p is also" in half
        reply = do_set_favor(ctx, SetFavor("YUGOSLAVIA", ("N0z", "U0z", "I1s", "B3i", "R2k")))
        assert "YUGOSLAVIA N0z U0z I1s B3i R2k" in reply and "Not valid" not in reply
        for power in PLAYED:
            games.join(session, game, f"{power.lower()}@x.test", secret, power)
        with pytest.raises(GameError, match="already assigned"):
            do_set_favor(ctx, SetFavor("ROMANIA", ("N1r", "U1q", "I2o", "B2m", "R0z")))
        state = games.start(session, game, START)
    assert dissolution(state).embassy_of("KAZAKHSTAN", "ISRAEL") == "I1p"
    assert dissolution(state).embassy_of("YUGOSLAVIA", "ISRAEL") == "I1s"
    assert dissolution(state).embassy_of("EGYPT", "NATO") == "N2n"  # the default elsewhere


def test_the_favor_map_is_drawn_with_every_embassy() -> None:
    """Results mails carry the Favor map beside the geographic one: each
    Embassy on its hex in its power's colour, the Perimeters listed."""
    import io

    from PIL import Image

    from engine.ways_to_play import setup
    from judge.maps import other_board_attachments
    from judge.maps.scene import Scene

    game_map = load_variant("dissolution")
    state = setup(game_map, 10)
    (png_name, _, png), (svg_name, _, svg) = other_board_attachments(
        game_map, Scene("dissol", state))
    assert png_name == "dissol-S1992M-favor-map.png" and svg_name.endswith(".svg")
    text = svg.decode("utf-8")
    assert text.count('data-power="') == len([e for e in dissolution(state).embassies
                                              if not e[2].endswith("0z")])
    assert 'data-space="B3i"' in text and "I0z Perimeter" in text
    # the Perimeters' Embassies are drawn in their boxes
    assert text.count('data-pool-power="') == len([e for e in dissolution(state).embassies
                                                   if e[2].endswith("0z")])
    assert Image.open(io.BytesIO(png)).size[0] == 1000


def test_the_centre_table_marks_us_navy_occupation() -> None:
    """§4.6: a centre the US Navy stands on stays its owner's but does not count."""
    from engine.map import UnitKind
    from engine.units import Unit
    from engine.ways_to_play import setup
    from judge.mail import centre_table

    game_map = load_variant("dissolution")
    state = setup(game_map, 10)
    state = state.evolve(units=(*[u for u in state.units if u.province not in ("KUW", "DMM")],
                                Unit("US_NAVY", UnitKind.FLEET, "DMM")))
    saudi = next(r for r in centre_table(game_map, state) if r["power"] == "SAUDI_ARABIA")
    assert saudi == {"power": "SAUDI_ARABIA", "count": 3, "list": "DMM* MEC RIY"}
    assert all(r["power"] not in game_map.bid_powers for r in centre_table(game_map, state))
