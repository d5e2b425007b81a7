"""The judge answers HELP from its own copy of the manual (judge/manual.md,
shipped in the package): it must be docs/manual.md exactly. After editing
the manual: cp docs/manual.md judge/manual.md"""

from __future__ import annotations

from pathlib import Path

from judge.manual_topics import MANUAL

DOCS = Path(__file__).resolve().parents[2] / "docs" / "manual.md"


def test_the_shipped_manual_is_docs_manual() -> None:
    assert MANUAL.read_text("utf-8") == DOCS.read_text("utf-8"), \
        "judge/manual.md differs from docs/manual.md: cp docs/manual.md judge/manual.md"
