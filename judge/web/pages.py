"""The pages anyone may read: the games, a game, its history, a phase, a
map, the results feed. Each is made from judge.web.observer's view and kept
(judge.web.page_cache) until the game changes."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any

import jinja2
from sqlalchemy.engine import Engine
from sqlmodel import Session

from engine.variant_file import offered_variants, variant_notice
from judge import games
from judge.config import Config
from judge.handlers.common import board_notice_line
from judge.mail import TEMPLATES, phase_name
from judge.models import Game
from judge.web import observer
from judge.web.map_cache import MapCache
from judge.web.page_cache import KeptPage, PageCache, fingerprint


class NotFound(Exception):
    """A page that does not exist: 404 with this text."""


@functools.cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES),
                             autoescape=jinja2.select_autoescape(["html", "j2", "atom"]),
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["atom_time"] = atom_time
    return env


def page(name: str, **context: Any) -> str:
    return environment().get_template(f"web/{name}").render(**context)


class Pages:
    def __init__(self, config: Config, engine: Engine) -> None:
        self.config = config
        self.engine = engine
        self.maps = MapCache()
        self.cache = PageCache()

    # -- the pages ------------------------------------------------------------

    def games(self) -> str:
        with Session(self.engine) as session:
            lines = observer.game_lines(session)
        return page("games.html.j2", judge=self.config.name, games=lines,
                    offered=[(name, variant_notice(name) or "") for name in offered_variants()])

    # each kept as sent (judge.web.app serves these)

    def game_page(self, name: str) -> KeptPage:
        return self._kept(name, "game", "", self._game)

    def history_page(self, name: str) -> KeptPage:
        return self._kept(name, "history", "", self._history)

    def phase_page(self, name: str, phase: str) -> KeptPage:
        return self._kept(name, "phase", phase.upper(), self._phase)

    def feed_page(self, name: str) -> KeptPage:
        return self._kept(name, "feed", "", self._feed)

    def map_svg(self, name: str, file: str) -> bytes:
        """A phase's map as the judge drew it: PHASE.svg, or PHASE-other.svg
        for the variant's other board."""
        stem = file.removesuffix(".svg").upper()
        phase, other = (stem.removesuffix("-OTHER"), stem.endswith("-OTHER"))
        with Session(self.engine) as session:
            game = self._find(session, name)
            drawn = self.maps.maps(session, game, phase)
        if drawn is None or (other and not drawn.other):
            raise NotFound(f"game {game.name} has no map {file}")
        svg = drawn.other if other else drawn.board
        return b'<?xml version="1.0" encoding="UTF-8"?>\n' + svg.encode("utf-8")

    # -- making them ----------------------------------------------------------

    def _find(self, session: Session, name: str) -> Game:
        game = observer.find_game(session, name)
        if game is None:
            raise _no_game(name)
        return game

    def _kept(self, name: str, kind: str, extra: str, make: Any) -> KeptPage:
        with Session(self.engine) as session:
            mark = fingerprint(session, name.lower())
            if mark is None:
                raise _no_game(name)
            key = (kind, name.lower(), extra)
            found = self.cache.get(key, mark)
            if found is not None:
                return found
            made = KeptPage.of(make(session, self._find(session, name), extra))
        self.cache.put(key, mark, made)
        return made

    def _game(self, session: Session, game: Game, _: str) -> str:
        view = observer.game_view(session, game)
        drawn = self.maps.maps(session, game, game.phase) if game.phase else None
        return page("game.html.j2", judge=self.config.name, view=view, maps=drawn)

    def _history(self, session: Session, game: Game, _: str) -> str:
        return page("history.html.j2", judge=self.config.name, game=game.name,
                    entries=observer.processed_phases(session, game))

    def _phase(self, session: Session, game: Game, phase: str) -> str:
        records = games.phase_records(session, game)
        names = [r.phase for r in records]
        if phase not in names:
            raise NotFound(f"Game {game.name} has no phase {phase[:16]}.")
        at = names.index(phase)
        entry = next((e for e in observer.entries(game, records[at:at + 2])
                      if e.phase == phase), None)
        # a played phase: the board it left, with its orders drawn (as its
        # results mail's map); the phase being played: the board it started from
        map_phase = names[at + 1] if entry is not None and at + 1 < len(names) else phase
        map_title = (f"After {phase}: its orders, and the board at the start of {map_phase}"
                     if map_phase != phase else f"The board at the start of {phase}")
        drawn = self.maps.maps(session, game, map_phase)
        return page("phase.html.j2", judge=self.config.name, game=game.name, phase=phase,
                    phase_name=phase_name(phase, game.variant), entry=entry, maps=drawn,
                    map_phase=map_phase, map_title=map_title, notice=board_notice_line(game),
                    previous=names[at - 1] if at > 0 else "",
                    next=names[at + 1] if at + 1 < len(names) else "")

    def _feed(self, session: Session, game: Game, _: str) -> str:
        entries = observer.processed_phases(session, game)
        newest = max((e.adjudicated_at for e in entries if e.adjudicated_at),
                     default=game.created_at)
        return page("feed.atom.j2", judge=self.config.name, game=game.name,
                    base=self.config.web.url, updated=newest, entries=entries)


def _no_game(name: str) -> NotFound:
    return NotFound(f"There is no game called {name[:64]} on this judge.")


def atom_time(moment: datetime | None) -> str:
    """An Atom date (RFC 3339, UTC)."""
    moment = moment or datetime(1970, 1, 1, tzinfo=UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
