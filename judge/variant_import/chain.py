"""The lines of a DPJudge map with every file it USEs read in place.

A ``.map`` file may ``USE`` (or ``USES``) other files of the same folder
(``standard.geography``, ``modern``, ``1898.map``) and ``MAP`` one, which
is a ``USE`` that also names the artwork the map is drawn from. DPJudge
reads a used file at once, where the line stands, so the lines are handed
on in that order, each with the file and line it came from for the report.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

_KNOWN_SUFFIXES = (".map", ".geography", ".politics", ".military", ".locations")


@dataclass(frozen=True, slots=True)
class Where:
    """A line of one of the map's files, for the report."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True, slots=True)
class SourceLine:
    """One line that says something (comments and blank lines are left out)."""

    where: Where
    text: str


@dataclass(frozen=True, slots=True)
class Chain:
    """Every line the map says, in DPJudge's reading order."""

    lines: tuple[SourceLine, ...]
    files: tuple[str, ...]  # every file read, the map's own first
    artwork: str | None  # the map named by a MAP line (its artwork), if any


class ChainError(ValueError):
    """A file the map uses cannot be read."""


def read_chain(path: Path, search: tuple[Path, ...] = ()) -> Chain:
    """The lines of the map at ``path`` and of every file it uses, looked
    for in the map's folder, then in each of ``search`` (DPJudge keeps a
    game's own map beside the judge's folder of maps)."""
    files: list[str] = []
    artwork: list[str] = []
    lines = _read(path, files, artwork, (), search)
    return Chain(tuple(lines), tuple(files), artwork[-1] if artwork else None)


def used_file(folders: tuple[Path, ...], name: str) -> Path:
    """The file a USE or MAP line names: as written, else with ``.map``,
    in the first folder that has it."""
    for folder in folders:
        plain = folder / name
        if plain.suffix.lower() in _KNOWN_SUFFIXES and plain.is_file():
            return plain
        with_map = folder / f"{name}.map"
        if with_map.is_file():
            return with_map
    return folders[0] / name


def _read(path: Path, files: list[str], artwork: list[str],
          reading: tuple[str, ...], search: tuple[Path, ...]) -> list[SourceLine]:
    if path.name in reading:
        raise ChainError(f"{path.name} uses itself (through {' -> '.join(reading)})")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ChainError(f"cannot read {path.name}: {exc.strerror}") from exc
    # DPJudge's files are Latin-1 (the translated maps' accents)
    text = raw.decode("utf-8") if _is_utf8(raw) else raw.decode("latin-1")
    if path.name not in files:
        files.append(path.name)
    out: list[SourceLine] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        words = stripped.split()
        keyword = words[0].upper()
        if keyword in ("USE", "USES", "MAP") and len(words) > 1:
            for name in words[1:]:
                if keyword == "MAP":
                    artwork.append(Path(name).stem)
                out += _read(used_file((path.parent, *search), name), files, artwork,
                             (*reading, path.name), search)
            continue
        out.append(SourceLine(Where(path.name, number), stripped))
    return out


def _is_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
