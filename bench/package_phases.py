"""The ``diplomacy`` package's side of bench/whole_process.py, run as a process of its own.

Reads phases in the package's own form, one JSON object a line on standard
input (``name``, ``units`` with ``*`` before a dislodged unit, ``retreats``,
``centers``, ``orders``), and for each sets the position on a game, sets the
orders and calls ``process()``, as a judge built on the package would; writes
one line a phase: the units after it (``board_after`` below), or ``{"error": ...}``.

The package is AGPL and bench-only: nothing of the judge imports this file.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def board_after(game: Any) -> list[str]:
    """The units after the phase, ``POWER A PAR``, a dislodged one ``POWER *A MUN``
    (only those with somewhere to go: the package removes the others at once)."""
    units = [f"{name} {unit}" for name, power in game.powers.items() for unit in power.units]
    units += [f"{name} *{unit}" for name, power in game.powers.items()
              for unit, options in power.retreats.items() if options]
    return sorted(units)


def main() -> int:
    from diplomacy import Game

    game = Game()
    out = sys.stdout
    for line in sys.stdin:
        phase = json.loads(line)
        try:
            game.set_state({key: phase[key] for key in ("name", "units", "retreats", "centers")})
            for power, orders in phase["orders"].items():
                game.set_orders(power, orders)
            game.process()
            out.write(json.dumps(board_after(game)) + "\n")
        except Exception as exc:  # reported per phase: the bench fails on it
            out.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
