"""Tests of `benchmarks.result`: the tiny-mode switch, figures' targets and units."""

from __future__ import annotations

import pytest

from benchmarks.result import TINY_ENV, Figure, Result, is_tiny


@pytest.mark.parametrize(("value", "expected"), [(None, False), ("", False), ("0", False), ("false", False),
                                                 ("No", False), ("1", True), ("true", True), ("yes", True)])
def test_is_tiny_reads_env_var(monkeypatch, value, expected) -> None:
    """`DISTRL_BENCH_TINY` unset, empty, 0, false or no is off; anything else is on."""
    if value is None:
        monkeypatch.delenv(TINY_ENV, raising=False)
    else:
        monkeypatch.setenv(TINY_ENV, value)
    assert is_tiny() is expected


@pytest.mark.parametrize(("value", "higher_is_better", "met"), [(3.0, True, True), (1.0, True, False),
                                                                (1.0, False, True), (3.0, False, False)])
def test_figure_met_follows_direction(value, higher_is_better, met) -> None:
    """A target is met at or beyond it in the figure's direction."""
    assert Figure("x", value, "s", target=2.0, higher_is_better=higher_is_better).met is met
    assert Figure("x", value, "s").met is None


def test_add_without_unit_raises() -> None:
    """Every figure carries a unit: an empty one is refused with the figure's name."""
    with pytest.raises(ValueError, match="'faults/escaped'"):
        Result().add("faults/escaped", 0, " ")


def test_to_json_records_met() -> None:
    """results.json entries carry each figure's fields and whether it met its target."""
    result = Result(config={"a": 1})
    result.add("speedup", 2.5, "x", target=2.4)
    data = result.to_json()
    assert data["figures"] == [{"name": "speedup", "value": 2.5, "unit": "x", "target": 2.4,
                                "higher_is_better": True, "met": True}]
    assert data["config"] == {"a": 1}
