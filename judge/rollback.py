"""What a GM's ROLLBACK undoes, told to everyone in the game: the phases
whose results are gone, the lines on file that are cleared (counted by
kind; a secret kind's lines, the bids, only counted and never shown), the
changes to the board the rules say are undone (Diplomap's splits, merges
and names: ``Rules.board_changes_since``), and the map of the phase the
game is back at, attached as a results mail attaches it.

The lines on file and the position are read before the rollback deletes
them (:func:`before_rollback`), what of them is undone once the phase gone
back to is known (:meth:`Before.undone`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from sqlmodel import Session, select

from engine.state import GameState
from engine.variants import rules_for
from judge import games, maps, snapshots
from judge.config import Config
from judge.games import GameError
from judge.mail import format_deadline, header, phase_name, render, to_game
from judge.maps.stored import stored_scene
from judge.models import FiledLines, Game, PhaseRecord
from judge.outbox import OutgoingMail
from judge.turns import everyone


@dataclass(frozen=True)
class OnFile:
    """The lines of one kind a phase had on file."""

    noun: str  # the kind's name for players: "orders", "bids", "map orders"
    count: int
    powers: tuple[str, ...]  # whose: empty for a secret kind (the bids)

    @property
    def text(self) -> str:
        noun = self.noun[:-1] if self.count == 1 and self.noun.endswith("s") else self.noun
        if not self.powers:
            return f"{self.count} {noun} (kept secret until the game ends)"
        return f"{self.count} {noun} ({', '.join(self.powers)})"


@dataclass(frozen=True)
class UndonePhase:
    phase: str
    name: str  # in words: 'Spring 1901 Movement'
    processed: bool  # its results had gone out
    on_file: tuple[OnFile, ...]

    @property
    def text(self) -> str:
        done = "its results are undone" if self.processed else "not processed yet"
        cleared = ("cleared: " + ", ".join(f.text for f in self.on_file)) if self.on_file \
            else "nothing was on file"
        return f"{self.phase} ({self.name}): {done}; {cleared}."


@dataclass(frozen=True)
class Undone:
    phases: tuple[UndonePhase, ...]
    board: tuple[str, ...]  # the board's changes undone, in words


@dataclass(frozen=True)
class Before:
    """The game as it stood before the rollback: its phases, the lines they
    had on file, and the position of its current phase."""

    records: tuple[tuple[int, str, bool], ...]  # (seq, phase, processed)
    lines: tuple[tuple[str, str, str, int], ...]  # (phase, kind, power, how many)
    position: GameState

    def undone(self, game: Game, target: PhaseRecord) -> Undone:
        game_map = games.map_of(game)
        rules = rules_for(game_map)
        kinds = {kind.name: kind for kind in rules.line_kinds}
        phases = []
        for seq, phase, processed in self.records:
            if seq < target.seq:
                continue
            counts: dict[str, int] = defaultdict(int)
            powers: dict[str, list[str]] = defaultdict(list)
            for on_phase, kind, power, count in self.lines:
                if on_phase == phase and count:
                    counts[kind] += count
                    powers[kind].append(power)
            on_file = tuple(
                OnFile(kinds[k].noun if k in kinds else k, counts[k],
                       () if k in kinds and kinds[k].secret else tuple(sorted(powers[k])))
                for k in sorted(counts, key=lambda k: list(kinds).index(k)
                                if k in kinds else len(kinds)))
            phases.append(UndonePhase(phase, phase_name(phase, game.variant), processed, on_file))
        board = rules.board_changes_since(game_map, snapshots.loads(target.state),
                                          self.position)
        return Undone(tuple(phases), board)


def before_rollback(session: Session, game: Game) -> Before:
    records = games.phase_records(session, game)
    if not records:
        raise GameError(f"game {game.name} has not started")
    rows = session.exec(select(FiledLines).where(FiledLines.game_id == game.id)
                        .order_by(FiledLines.id)).all()  # type: ignore[arg-type]
    return Before(tuple((r.seq, r.phase, bool(r.results)) for r in records),
                  tuple((r.phase, r.kind, r.power, len(json.loads(r.lines))) for r in rows),
                  games.current_state(session, game))


def rollback_mails(session: Session, game: Game, config: Config, target: PhaseRecord,
                   undone: Undone) -> list[OutgoingMail]:
    """The notice to everyone in the game, with the map of the phase gone
    back to (as ``MAP game PHASE`` draws it), or the reason it is missing."""
    settings = games.settings_of(game)
    game_map, scene = stored_scene(session, game, target.phase)
    files = maps.attachments_or_none(game_map, scene)
    body = render("rollback.txt.j2", **header(config, game, settings), phase=target.phase,
                  phase_name=phase_name(target.phase, game.variant),
                  deadline=format_deadline(game.deadline, settings.zone),
                  phases=[p.text for p in undone.phases], board=list(undone.board),
                  maps=[name for name, _, _ in files])
    return to_game(game, settings, config, everyone(session, game),
                   f"Diplomacy rollback {game.name}", body, "notice", files)
