"""The values a command mail is read into.

Each command is a frozen dataclass; :data:`Command` is their union. Game
names are lowercased; power names (and observers' chosen names) are
uppercased as written, for the service to resolve against the variant's
powers and initials; passwords, addresses and free text are kept exactly as
written.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TypeAlias

# -- anyone ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Help:
    topic: str = ""  # a command or a heading of the manual; '' for the list of topics


@dataclass(frozen=True, slots=True)
class ListGames:
    game: str | None  # None: every open game (or the signed-on one)


@dataclass(frozen=True, slots=True)
class History:
    game: str
    start: str | None  # a phase ('S1901M') or a date as written
    end: str | None


@dataclass(frozen=True, slots=True)
class Summary:
    game: str


@dataclass(frozen=True, slots=True)
class MapRequest:
    game: str
    phase: str | None  # None: the current phase


@dataclass(frozen=True, slots=True)
class Observe:
    name: str | None  # the observer's chosen name (DPJudge 'OBSERVE name@game pw')
    game: str
    password: str


@dataclass(frozen=True, slots=True)
class Join:
    game: str
    password: str
    power: str | None  # the power asked for ('JOIN france@game pw')


@dataclass(frozen=True, slots=True)
class Signon:
    power: str  # 'FRANCE', an initial 'F', a number '3', 'MASTER', or an observer's name
    game: str
    password: str


# -- a signed-on player ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Signoff:
    pass


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class SetPassword:
    password: str


@dataclass(frozen=True, slots=True)
class SetAddress:
    address: str  # as written; may list several, joined by commas


@dataclass(frozen=True, slots=True)
class SetWait:
    wait: bool


@dataclass(frozen=True, slots=True)
class SetAbsence:
    """An absence from ``start`` to ``end``, both days included.

    Both None: clear every absence ('SET NOABSENCE'); otherwise both are set
    (one date written: an absence of that one day).
    """

    start: datetime.date | None
    end: datetime.date | None


@dataclass(frozen=True, slots=True)
class SetDraw:
    powers: tuple[str, ...]  # () for a draw including every survivor


@dataclass(frozen=True, slots=True)
class SetNoDraw:
    pass


@dataclass(frozen=True, slots=True)
class SetConcede:
    power: str


@dataclass(frozen=True, slots=True)
class Clear:
    pass


@dataclass(frozen=True, slots=True)
class Unsubscribe:
    """An observer leaves a game (also what List-Unsubscribe sends)."""
    game: str | None  # None: the game signed on to


@dataclass(frozen=True, slots=True)
class Press:
    recipients: tuple[str, ...]  # ('ALL',) for a broadcast
    grey: bool  # sent without the sender's name
    body: str


@dataclass(frozen=True, slots=True)
class Orders:
    """A run of order lines, for the order parser: (line number, line as written)."""

    lines: tuple[tuple[int, str], ...]
    # where a closing ('Regards,', a name) may follow the orders: this run
    # is followed by nothing but other runs of order lines (``later``), then
    # SIGNOFF or the mail's end; ``after_orders``: an earlier run of order
    # lines in the mail (the judge, which reads them, tells a closing)
    at_end: bool = False
    later: tuple[tuple[int, str], ...] = ()
    after_orders: bool = False


# -- a game master --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Create:
    game: str
    password: str
    settings: tuple[tuple[str, str], ...]  # (lowercased key, value as written)


@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class Process:
    forced: bool = False  # DPJudge's 'PROCESS!': even with orders missing


@dataclass(frozen=True, slots=True)
class Status:
    """DPJudge's STATUS: a player's orders on file (the GM: the game)."""

    game: str | None


@dataclass(frozen=True, slots=True)
class SetSetting:
    """'SET MOVEMENT 24h', 'SET ZONE Europe/Paris': a game setting (as in
    CREATE) changed by the GM; SET ZONE from a player is their own zone."""

    key: str  # a CREATE setting's key: 'movement', 'zone', 'press'...
    value: str  # as written


@dataclass(frozen=True, slots=True)
class Preview:
    pass


@dataclass(frozen=True, slots=True)
class Rollback:
    phase: str | None  # None: back one phase


@dataclass(frozen=True, slots=True)
class SetDeadline:
    when: str  # as written, e.g. '2026-12-01 18:00', 'Mon 18:00', '+2d'


@dataclass(frozen=True, slots=True)
class SetGrace:
    when: str


@dataclass(frozen=True, slots=True)
class Pause:
    pass


@dataclass(frozen=True, slots=True)
class Resume:
    pass


@dataclass(frozen=True, slots=True)
class Eject:
    power: str  # a power, uppercased; an address (with '@') is kept as written


@dataclass(frozen=True, slots=True)
class SetFavor:
    """The GM places a power's Embassies for another Favor setup (§11.2)."""

    power: str
    spaces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetGroup:
    """The GM assigns a colour group's powers instead of the §3 draw
    (Intercontinental), before anyone has a seat."""

    group: str
    powers: tuple[str, ...]  # §6 codes or names, as written


@dataclass(frozen=True, slots=True)
class Silence:
    """The GM strips a player in exile of its Diplomacy Point bids."""

    power: str


@dataclass(frozen=True, slots=True)
class RenameProvince:
    """The GM names a province Diplomap made (§II.H): ``RENAME GAL-N LEM Lemberg``."""

    code: str  # as written; the judge reads it on the board in force
    new_code: str
    name: str


@dataclass(frozen=True, slots=True)
class Replace:
    power: str
    address: str
    password: str | None


@dataclass(frozen=True, slots=True)
class Terminate:
    pass


@dataclass(frozen=True, slots=True)
class Official:
    body: str


Command: TypeAlias = (
    Help | ListGames | History | Summary | MapRequest | Observe | Join | Signon
    | Signoff | Resign | SetPassword | SetAddress | SetWait | SetAbsence | SetDraw
    | SetNoDraw | SetConcede | Clear | Unsubscribe | Press | Orders
    | Create | Start | Process | Status | SetSetting | Preview | Rollback | SetDeadline
    | SetGrace | Pause
    | Resume | Eject | Silence | SetFavor | SetGroup | Replace | Terminate | Official
    | RenameProvince
)


@dataclass(frozen=True, slots=True)
class CommandError:
    message: str  # says what is wrong and shows the right form
    word: str = ""  # the word at fault ('' when something is missing)
    suggestion: str | None = None  # what was most likely meant ('SIGNON')

    def __str__(self) -> str:
        hint = f" (did you mean {self.suggestion}?)" if self.suggestion else ""
        return f"{self.message}{hint}"


@dataclass(frozen=True, slots=True)
class Line:
    line: int  # 1-based line of the text where the command starts
    source: str  # the command's first line as written (stripped)
    command: Command | CommandError
