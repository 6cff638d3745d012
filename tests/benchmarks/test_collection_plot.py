"""The collection benchmark's scaling plot for any choice of runtimes (`DISTRL_BENCH_COLLECTION_RUNTIMES`)."""

from __future__ import annotations

import pytest

from benchmarks.collection import _plot


@pytest.mark.parametrize("runtimes", [("local",), ("ray",), ("local", "ray")])
def test_scaling_plot_is_a_png_for_any_runtimes(tmp_path, runtimes: tuple[str, ...]) -> None:
    curves = {runtime: {"async": [10.0, 40.0], "sync": [5.0, 12.0], "bound": [11.0, 41.0]} for runtime in runtimes}
    path = _plot((4, 32), curves, tmp_path / "scaling.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
