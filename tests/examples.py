"""Hypothesis example counts that follow the profile (see tests/conftest.py)."""

from __future__ import annotations

from hypothesis import settings


def examples(count: int) -> int:
    """``count`` under the ``ci`` profile (max_examples 100); under another,
    scaled by its max_examples / 100 (a tenth under ``quick``), at least 1."""
    return max(1, count * settings.default.max_examples // 100)
