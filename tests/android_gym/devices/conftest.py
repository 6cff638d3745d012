"""Fixtures of the device tests: an isolated ADB environment, a started ADB front, and the real-output fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from android_gym.sim.adb import AdbFront

REAL = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "real"


@pytest.fixture(autouse=True)
def isolated_adb(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Never start or reach a real adb daemon: adbutils' fallback binary fails at once, HOME is a temp dir."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("ANDROID_SERIAL", raising=False)


@pytest.fixture
def front() -> Iterator[AdbFront]:
    """One simulated phone ("sim-0", no perturbations) behind a loopback ADB front on a free port."""
    with AdbFront(devices=1, perturbations="none") as f:
        yield f


@pytest.fixture
def real() -> Path:
    """The shared real-output fixtures (skips where ../shared is absent)."""
    if not REAL.is_dir():
        pytest.skip(f"real-output fixtures not found at {REAL}")
    return REAL
