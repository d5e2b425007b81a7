"""`judge adjudicate` and its JSON contract (docs/cli.md), run as a process."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.judge.json_match import matches

pytestmark = pytest.mark.slow

DATA = tomllib.loads((Path(__file__).parent / "data" / "adjudicate.toml").read_text())


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("case", DATA["case"], ids=lambda c: c["name"])
def test_adjudicate(case: dict[str, Any]) -> None:
    done = run(["adjudicate"], json.dumps(case["input"]))
    assert done.returncode == 0, done.stdout + done.stderr
    out = json.loads(done.stdout)
    assert matches(out, case["expect"]), json.dumps(out, indent=1)


@pytest.mark.parametrize("case", DATA["error"], ids=lambda c: c["name"])
def test_bad_input_is_named(case: dict[str, Any]) -> None:
    done = run(["adjudicate"], case["input"])
    assert done.returncode == 2
    assert case["message"] in json.loads(done.stdout)["error"]


def test_jsonl_keeps_going_after_a_bad_line() -> None:
    lines = [json.dumps(c["input"]) for c in DATA["case"]]
    lines.insert(1, "{oops")
    done = run(["adjudicate", "--jsonl"], "\n".join(lines) + "\n")
    assert done.returncode == 2
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(outs) == len(lines)
    assert "error" in outs[1]
    assert all("results" in o for i, o in enumerate(outs) if i != 1)


def test_winner_is_reported() -> None:
    centres = ["ANK", "BEL", "BER", "BRE", "BUD", "BUL", "CON", "DEN", "EDI", "GRE",
               "HOL", "KIE", "LON", "LVP", "MAR", "MOS", "MUN", "NAP"]
    phase = {"phase": "F1905M", "units": {"FRANCE": ["A PAR", "A BUR"]},
             "centers": {"FRANCE": centres[:17]},
             "orders": {"FRANCE": ["A Burgundy - Belgium"]}}
    phase["centers"]["FRANCE"] = [c for c in centres if c != "BEL"] + ["PAR"]
    out = json.loads(run(["adjudicate"], json.dumps(phase)).stdout)
    assert out["winner"] == "FRANCE"


def test_next_is_read_back_as_the_next_phase() -> None:
    """Each output's `next`, given back as it is, is the next phase's input:
    a unit listed as destroyed stays gone, the Favor given stays placed."""
    case = next(c for c in DATA["case"] if c["name"].startswith("dissolution: after Autumn"))
    phase = {**case["input"], "favor": {"UKRAINE": {"RUSSIA": 3}}}
    seen = []
    for _ in range(3):  # F1992M, W1992A, S1993M
        done = run(["adjudicate"], json.dumps(phase))
        assert done.returncode == 0, done.stdout + done.stderr
        out = json.loads(done.stdout)
        seen.append(out["phase"])
        assert "W ASW" not in out["next"]["units"].get("EGYPT", [])
        phase = out["next"]
    assert seen == ["F1992M", "W1992A", "S1993M"]
    assert out["next"]["favor"]["UKRAINE"]["RUSSIA"] == 2  # kicked once from 3 (§11.7.1)


# what a tool's `judge adjudicate` never needs: the storage, the mail service,
# its scheduler and its templates (each import costs start-up on every run)
SERVICE_PACKAGES = ("sqlmodel", "sqlalchemy", "psycopg", "aiosmtpd", "apscheduler", "jinja2")
LOADED = """\
import io, json, sys
from judge.cli import main
sys.stdin = io.StringIO(sys.argv[1])
status = main(sys.argv[2].split())
top = set(sys.argv[3].split(","))
sys.stderr.write(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in top)))
sys.exit(status)
"""


def _loaded(phase: dict[str, Any], args: str, packages: tuple[str, ...]) -> list[str]:
    """The modules of ``packages`` a `judge ARGS` run on ``phase`` imported."""
    done = subprocess.run([sys.executable, "-c", LOADED, json.dumps(phase), args,
                           ",".join(packages)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout.splitlines()[0] if args.endswith("--jsonl")
                      else done.stdout)["results"]
    loaded: list[str] = json.loads(done.stderr)
    return loaded


PHASE = {"variant": "standard", "phase": "F1901M",
         "units": {"FRANCE": ["A PAR", "A MAR"], "GERMANY": ["A MUN"]},
         "orders": {"FRANCE": ["A Paris - Burgundy", "A Mar S A Par - Bur"],
                    "GERMANY": ["A Mun - Bur"]}}


@pytest.mark.parametrize("args", ["adjudicate", "adjudicate --jsonl"])
def test_adjudicate_loads_no_storage(args: str) -> None:
    assert _loaded(PHASE, args, SERVICE_PACKAGES) == []


def test_orders_in_the_judges_form_load_no_grammar() -> None:
    """Orders as the judge writes them are read without pyparsing (a tenth
    of a second at start-up); any other spelling loads it."""
    canonical = {**PHASE, "orders": {"FRANCE": ["A PAR - BUR", "A MAR S A PAR - BUR"],
                                     "GERMANY": ["A MUN - BUR"]}}
    assert _loaded(canonical, "adjudicate", ("pyparsing",)) == []
    assert "pyparsing" in _loaded(PHASE, "adjudicate", ("pyparsing",))
