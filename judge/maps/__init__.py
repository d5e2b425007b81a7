"""Drawing the board: the map artwork and what is read from it."""
