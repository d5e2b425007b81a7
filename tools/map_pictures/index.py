"""The pictures of a drawing (draw.py's manifest and PNGs) written out at
mail width, with an index saying what each is and what each mail weighs."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

MAIL_WIDTH = 1000  # pixels: what a mail client shows a picture at


@dataclass(frozen=True)
class Picture:
    name: str
    map: str  # which of the mail's maps: 'board', 'favor map', 'overview', 'africa'...
    phase: str
    attached: tuple[int, int, int]  # width, height, bytes, as the mail carries it
    written: tuple[int, int, int]  # the same, as written at mail width


def at_mail_width(png: bytes) -> bytes:
    """The picture scaled to the mail width; as it is if it has that width."""
    image = Image.open(io.BytesIO(png))
    if image.width == MAIL_WIDTH:
        return png
    height = round(image.height * MAIL_WIDTH / image.width)
    scaled = image.convert("RGB").resize((MAIL_WIDTH, height), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    scaled.save(out, "PNG", optimize=True)
    return out.getvalue()


def _measured(png: bytes) -> tuple[int, int, int]:
    width, height = Image.open(io.BytesIO(png)).size
    return width, height, len(png)


def map_name(file_name: str, stem: str) -> str:
    """What a map attachment shows, from what its name adds to the mail's
    stem ('GAME-PHASE'): the board itself, or a view or other board."""
    extra = file_name.removesuffix(".png").removeprefix(stem).strip("-")
    return extra.replace("-", " ") or "whole board"


def write_pictures(work: Path, out: Path, mail: Mapping[str, Any]) -> list[Picture]:
    """The mail's PNG attachments, drawn into ``work``, written into ``out``."""
    stem = f"{mail['game']}-{mail['phase']}"
    pictures = []
    for attached in mail["files"]:
        name = attached["name"]
        if not name.endswith(".png"):
            continue
        original = (work / name).read_bytes()
        scaled = at_mail_width(original)
        (out / name).write_bytes(scaled)
        pictures.append(Picture(name, map_name(name, stem), mail["phase"],
                                _measured(original), _measured(scaled)))
    return pictures


def _size(measure: tuple[int, int, int]) -> str:
    width, height, size = measure
    return f"{width} x {height} px, {size:,} bytes"


def _heading(mail: Mapping[str, Any]) -> str:
    if mail["mail"] == "start":
        return f"Start mail: the map of {mail['phase']}"
    return f"Results of {mail['played']}: the map of {mail['phase']}"


def _mail_lines(mail: Mapping[str, Any], pictures: Sequence[Picture]) -> list[str]:
    files = mail["files"]
    total = sum(f["bytes"] for f in files)
    by_type: dict[str, int] = {}
    for attached in files:
        kind = attached["name"].rsplit(".", 1)[-1].upper()
        by_type[kind] = by_type.get(kind, 0) + attached["bytes"]
    kinds = "; ".join(f"{kind} {size:,}" for kind, size in by_type.items())
    lines = [f"### {_heading(mail)}", "",
             f"The mail attaches {len(files)} files, {total:,} bytes ({kinds}). "
             f"Position {mail['position']} (its phase JSON's digest).", ""]
    lines.extend(f"**Not drawn** (the judge mails without it): {failure}"
                 for failure in mail["failures"])
    if mail["failures"]:
        lines.append("")
    lines += ["| picture | map | phase | as attached | as written here |",
              "|---|---|---|---|---|"]
    lines.extend(f"| [{p.name}]({p.name}) | {p.map} | {p.phase} | {_size(p.attached)} "
                 f"| {_size(p.written)} |" for p in pictures)
    return [*lines, ""]


def write_index(out: Path, drawn_by: str, positions: str,
                mails: Sequence[tuple[Mapping[str, Any], Sequence[Picture]]]) -> None:
    """index.md: each mail's pictures under its game, with sizes and totals."""
    total = sum(f["bytes"] for mail, _ in mails for f in mail["files"])
    lines = ["# The maps the judge mails", "",
             f"Drawn by {drawn_by}, from the games of {positions}, each picture "
             f"{MAIL_WIDTH} px wide as a mail client shows it (made by "
             "`python -m tools.map_pictures`, docs/maps.md).", "",
             f"{len(mails)} mails attach {total:,} bytes in all.", ""]
    game = None
    for mail, pictures in mails:
        if mail["game"] != game:
            game = mail["game"]
            lines += [f"## {game}", "", mail["title"], ""]
        lines += _mail_lines(mail, pictures)
    (out / "index.md").write_text("\n".join(lines), "utf-8")
