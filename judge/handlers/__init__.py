"""What each command does. ``handle(ctx, command)`` carries one command out
and returns the text that answers it in the reply.

Identity comes from passwords only: a player or GM is who they SIGNON as,
with that role's password, whatever the From header says. The From (or
Reply-To) address is only where the answer goes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from judge.games import GameError
from judge.handlers.common import Context, finish_mail
from judge.handlers.diplomap import do_rename
from judge.handlers.game_settings import do_set_setting
from judge.handlers.groups import do_set_group
from judge.handlers.info import (
    do_help,
    do_history,
    do_list,
    do_map,
    do_status,
    do_summary,
)
from judge.handlers.leaving import do_unsubscribe
from judge.handlers.master import (
    do_create,
    do_eject,
    do_official,
    do_pause,
    do_preview,
    do_process,
    do_replace,
    do_resume,
    do_rollback,
    do_set_deadline,
    do_set_favor,
    do_set_grace,
    do_silence,
    do_start,
    do_terminate,
)
from judge.handlers.playing import (
    do_clear,
    do_orders,
    do_press,
    do_resign,
    do_set_absence,
    do_set_address,
    do_set_concede,
    do_set_draw,
    do_set_nodraw,
    do_set_password,
    do_set_wait,
)
from judge.handlers.seats import (
    do_join,
    do_observe,
    do_signoff,
    do_signon,
)
from parser import commands as c

__all__ = ["HANDLERS", "Context", "finish_mail", "handle"]


def handle(ctx: Context, command: Any) -> str:
    handler = HANDLERS.get(type(command))
    if handler is None:
        return f"{type(command).__name__} is not available on this judge yet."
    try:
        return handler(ctx, command)
    except GameError as exc:
        return f"Refused: {exc}"


HANDLERS: dict[type, Callable[[Context, Any], str]] = {
    c.Help: do_help, c.ListGames: do_list, c.History: do_history, c.Summary: do_summary,
    c.MapRequest: do_map, c.Observe: do_observe, c.Join: do_join, c.Signon: do_signon,
    c.Signoff: do_signoff, c.Orders: do_orders, c.Clear: do_clear, c.Resign: do_resign,
    c.Unsubscribe: do_unsubscribe,
    c.SetPassword: do_set_password, c.SetAddress: do_set_address, c.SetWait: do_set_wait,
    c.SetAbsence: do_set_absence, c.SetDraw: do_set_draw, c.SetNoDraw: do_set_nodraw,
    c.SetConcede: do_set_concede, c.Press: do_press, c.Create: do_create, c.Start: do_start,
    c.Process: do_process, c.Preview: do_preview, c.Rollback: do_rollback,
    c.SetDeadline: do_set_deadline, c.SetGrace: do_set_grace, c.Pause: do_pause,
    c.Resume: do_resume, c.Eject: do_eject, c.Silence: do_silence,
    c.SetFavor: do_set_favor, c.SetGroup: do_set_group, c.Replace: do_replace,
    c.Terminate: do_terminate, c.Official: do_official, c.Status: do_status,
    c.SetSetting: do_set_setting, c.RenameProvince: do_rename,
}
