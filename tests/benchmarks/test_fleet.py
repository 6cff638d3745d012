"""The fleet benchmark section in tiny mode (issue 47), in its own module so that xdist runs it beside the tiny suite.

A two-node loopback Ray cluster started with `ray start`, emulator processes from a simulated SDK, both layouts
measured against Little's law, one emulator SIGKILLed and its relaunch timed; nothing escapes or is left running.
"""

from __future__ import annotations

import importlib.util
import math

import pytest

from benchmarks import fleet
from benchmarks.result import TINY_ENV

pytestmark = [pytest.mark.timeout(600),
              pytest.mark.skipif(importlib.util.find_spec("ray") is None or importlib.util.find_spec("grpc") is None,
                                 reason='needs the ray and emulator extras (pip install ".[ray,emulator]")')]


def test_tiny_fleet_collects_on_one_and_two_nodes_and_relaunches_a_killed_emulator(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(TINY_ENV, "1")
    result = fleet.run(quick=True, out=tmp_path)
    figures = {f.name: f for f in result.figures}
    for layout in ("1_node", "2_nodes"):
        assert figures[f"traj_per_min/{layout}/2_emulators"].value > 0, layout
        assert math.isfinite(figures[f"efficiency/{layout}/2_emulators"].value), layout
    assert figures["relaunch_s"].met and 0 < figures["relaunch_s"].value < fleet.BOOT_TIMEOUT_S
    assert figures["escaped_exceptions"].value == 0 and figures["orphan_emulators"].value == 0
    rows = result.tables[0].splitlines()[2:]
    assert [row.split("|")[1:3] for row in rows] == [[" 2 ", " 1 "], [" 2 ", " 2 "]]
    assert (tmp_path / "fleet_scaling.png").is_file() and not fleet.sdk_emulators(tmp_path / "fleet_sdk" / "sdk")
