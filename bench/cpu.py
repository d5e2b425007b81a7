"""The processor the figures were measured on."""

from __future__ import annotations

import platform
from pathlib import Path


def cpu_model() -> str:
    """The 'model name' of /proc/cpuinfo, or what platform says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()
