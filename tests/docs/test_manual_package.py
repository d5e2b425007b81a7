"""The judge answers HELP from the manual it carries as package data
(judge/manual.md): in the source tree that is a link to docs/manual.md, so
the manual players read by mail is the one in docs/, never a stale copy."""

from __future__ import annotations

from pathlib import Path

from judge.manual_topics import MANUAL

DOCS = Path(__file__).resolve().parents[2] / "docs" / "manual.md"


def test_the_shipped_manual_is_docs_manual() -> None:
    assert MANUAL.resolve() == DOCS.resolve()
    assert MANUAL.read_text("utf-8") == DOCS.read_text("utf-8")
