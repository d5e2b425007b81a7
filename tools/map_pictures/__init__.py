"""Before and after pictures of every map the judge mails (issue 24).

    python -m tools.map_pictures OUT [--rev REV]

plays the games of positions.toml and writes, into OUT, each picture the
start and results mails attach, 1000 pixels wide as a mail client shows
it, with an index (index.md). With --rev the pictures are drawn by the
code at REV instead (a temporary worktree), from the same positions.

draw.py  plays the games and draws the mails' maps; run in the tree drawn with
index.py scales the pictures and writes the index
"""
