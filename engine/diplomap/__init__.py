"""Diplomap: players redraw the borders of the board during play
(rule text ru12 by Michael Harvath, CC BY-SA 4.0; docs/rules.md, "Diplomap").

- values.py: the values the parts share (map orders, board changes, results)
- in_force.py: the board in force (``apply_changes``), ``with_diplomap``, ``rename``
- board.py, changes.py: a working board and the splits and merges on it
- validity.py, adjudication.py: map orders checked and carried out (§II)
- displacement.py: units after the change, displaced and dislodged (§III)
- rules.py: the layer of rules over any variant's (engine.variants.rules_for)
- records.py: board changes as plain data (snapshots)

Nothing is imported here, so that engine.state can import values.py alone.
"""
