"""Diplomap: players redraw the borders of the board during play
(rule text ru12 by Michael Harvath, CC BY-SA 4.0). See values.py."""
