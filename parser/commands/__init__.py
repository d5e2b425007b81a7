"""Judge commands in mail bodies: text in, :class:`Line` values out.

``parse_commands(text)`` reads a mail body the way DPJudge does (its command
names and syntax first), accepting njudge's spellings where they do not
clash. Each command becomes a :class:`Line` holding its line number, its
first line as written and a command value (values.py) or a
:class:`CommandError` that says what is wrong, names the word at fault and,
for a misspelt command word, what was most likely meant. Orders are not
parsed here: runs of order lines are handed on, with their line numbers, as
:class:`Orders` values for :mod:`parser.orders`. How a mail is cut into
commands, blocks and orders is described in reader.py.

Nothing here raises, whatever the input.
"""

from parser.commands.reader import MAX_LINE, parse_commands, split_lines
from parser.commands.redact import redacted_source
from parser.commands.values import (
    Clear,
    Command,
    CommandError,
    Create,
    Eject,
    Help,
    History,
    Join,
    Line,
    ListGames,
    MapRequest,
    Observe,
    Official,
    Orders,
    Pause,
    Press,
    Preview,
    Process,
    Replace,
    Resign,
    Resume,
    Rollback,
    SetAbsence,
    SetAddress,
    SetConcede,
    SetDeadline,
    SetDraw,
    SetFavor,
    SetGrace,
    SetNoDraw,
    SetPassword,
    SetSetting,
    SetWait,
    Signoff,
    Signon,
    Silence,
    Start,
    Status,
    Summary,
    Terminate,
)

__all__ = [
    "MAX_LINE",
    "Clear",
    "Command",
    "CommandError",
    "Create",
    "Eject",
    "Help",
    "History",
    "Join",
    "Line",
    "ListGames",
    "MapRequest",
    "Observe",
    "Official",
    "Orders",
    "Pause",
    "Press",
    "Preview",
    "Process",
    "Replace",
    "Resign",
    "Resume",
    "Rollback",
    "SetAbsence",
    "SetAddress",
    "SetConcede",
    "SetDeadline",
    "SetDraw",
    "SetFavor",
    "SetGrace",
    "SetNoDraw",
    "SetPassword",
    "SetSetting",
    "SetWait",
    "Signoff",
    "Signon",
    "Silence",
    "Start",
    "Status",
    "Summary",
    "Terminate",
    "parse_commands",
    "redacted_source",
    "split_lines",
]
