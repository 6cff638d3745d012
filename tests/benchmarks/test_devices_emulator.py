"""The devices benchmark's emulator part in tiny mode: gRPC vs ADB screenshots and steps, a pool surviving a SIGKILL."""

from __future__ import annotations

import math

import psutil
import pytest

from benchmarks import devices_emulator
from benchmarks.result import TINY_ENV, Result

pytest.importorskip("grpc")
pytest.importorskip("android_env.proto.emulator_controller_pb2")


def emulator_children() -> list[psutil.Process]:
    """This process's live descendants running the benchmark's emulator binary (in its `bench-emulator-` folder)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "bench-emulator-" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:  # it exited while we looked
            pass
    return found


def test_tiny_emulator_part_reports_every_figure_and_table_and_stops_every_emulator(monkeypatch) -> None:
    monkeypatch.setenv(TINY_ENV, "1")
    result = Result()
    devices_emulator.measure(result, quick=True, tiny=True)
    figures = {f.name: f for f in result.figures}
    for path in ("grpc", "raw", "png"):
        assert 0 < figures[f"latency_ms/emulator_screenshot_{path}"].value < 10_000
    for path in ("grpc", "adb"):
        median, p90 = (figures[f"latency_ms/emulator_step_{path}{q}"].value for q in ("", "_p90"))
        assert 0 < median <= p90
    speedup = figures["grpc_screenshot_speedup_vs_png"]
    assert speedup.target == 5.0 and math.isfinite(speedup.value) and speedup.value > 0
    assert figures["grpc_screenshot_speedup_vs_raw"].target is None
    assert figures["emulator_screenshots_identical"].met  # the three paths return the same pixels
    assert figures["emulator_pool/episodes_per_min"].value > 0
    assert figures["emulator_pool/relaunches"].value >= 1  # the SIGKILLed emulator came back
    assert figures["emulator_pool/faults_survived"].met
    assert figures["emulator_pool/escaped_exceptions"].value == 0
    assert len(result.tables) == 3 and "gRPC getScreenshot" in result.tables[0]
    assert "calls over gRPC" in result.tables[1] and "| killed | 1 |" in result.tables[2]
    step_rows = result.tables[1].splitlines()[2:]
    assert step_rows[0].endswith("| 0 |") and not step_rows[1].endswith("| 0 |")  # gRPC off vs on, by the counters
    assert any("no real adb binary" in note.lower() for note in result.notes)
    assert emulator_children() == []
