"""One served judge per test module, with a standard game two phases in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.judge.web.served import Served, served

OPENING = [
    {"FRANCE": ["A PAR-BUR", "F BRE-MAO", "A MAR H"], "GERMANY": ["A MUN-RUH"]},
    {"FRANCE": ["A BUR-BEL", "F MAO-POR"], "GERMANY": ["A RUH-HOL"]},
    {"FRANCE": ["BUILD A PAR", "BUILD F BRE"], "GERMANY": ["BUILD A MUN"]},
]


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with served(tmp_path_factory.mktemp("web")) as running:
        running.standard_game("webtest", OPENING, press=[
            "BROADCAST", "France greets Europe.", "ENDPRESS",
            "GREY PRESS TO ALL", "Beware the Channel.", "ENDPRESS"])
        yield running
