"""Suite-wide collection order: the longest test modules first (a pytest plugin: `-p suite_order` in pyproject).

Under xdist (`--dist=loadfile`, pyproject's addopts) a module runs on one worker from start to end, and modules are
handed out in collection order. The tiny benchmark suite (`tests/benchmarks/test_run.py`, ~200 s for its module
fixture) collected in alphabetical order started about halfway and ran alone at the end while the other worker idled
(a fresh clone: 623 s). Started first, it runs beside everything else. A plugin, not a conftest.py at tests/: the
doctest collector imports that as a second top-level `conftest` module and fails on the name clash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

LONGEST_FIRST = ("tests/benchmarks/test_run.py", "tests/benchmarks/test_fleet.py",
                 "tests/android_gym/tasks/test_world_contract.py",
                 "tests/distrl_agent/runtime/test_ray_fleet.py", "tests/distrl_agent/runtime/test_ray.py",
                 "tests/distrl_agent/runtime/test_train.py")
"""Modules to start first, longest (wall time under the suite's load) first; the CPU-bound World contract beside the
tiny suite's start rather than a second Ray cluster."""
ROOT = Path(__file__).resolve().parent.parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the items of `LONGEST_FIRST` modules to the front, in that order (the rest keep theirs)."""
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}

    def key(item: pytest.Item) -> int:
        try:
            name = Path(item.path).resolve().relative_to(ROOT).as_posix()
        except ValueError:  # a doctest of the packages, outside tests/
            return len(rank)
        return rank.get(name, len(rank))

    items.sort(key=key)
