"""Suite-wide settings (a pytest plugin: `-p suite_order`): the longest modules first, one math thread per process.

Under xdist (`--dist=loadfile`, pyproject's addopts) a module runs on one worker from start to end, and modules are
handed out in collection order. The tiny benchmark suite (`tests/benchmarks/test_run.py`, ~200 s for its module
fixture) collected in alphabetical order started about halfway and ran alone at the end while the other worker idled
(a fresh clone: 623 s). Started first, it runs beside everything else. A plugin, not a conftest.py at tests/: the
doctest collector imports that as a second top-level `conftest` module and fails on the name clash.

Threads: torch (and numpy's BLAS) start a thread per core in every process. Three xdist workers on two cores, each
with its own torch pool, and the subprocesses tests start, oversubscribed the CPU: a behaviour-cloning test taking
3 s alone took 20 s in the suite. One thread per process (`OMP_NUM_THREADS=1`, set before any test imports torch, and
inherited by the workers and subprocesses) leaves the parallelism to the workers. A value the user set is kept.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

for _variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

LONGEST_FIRST = ("tests/benchmarks/test_run.py", "tests/android_gym/tasks/test_world_contract.py",
                 "tests/distrl_agent/runtime/test_ray_fleet.py", "tests/benchmarks/test_fleet.py",
                 "tests/distrl_agent/runtime/test_train.py", "tests/distrl_agent/runtime/test_ray.py",
                 "tests/android_gym/tasks/test_androidworld_suite.py",
                 "tests/android_gym/devices/test_sim_emulator_lifecycle.py",
                 "tests/distrl_agent/runtime/test_admission.py", "tests/distrl_agent/test_small_policy.py",
                 "tests/android_gym/devices/test_android_env_adb_calls.py", "tests/distrl_agent/runtime/test_local.py",
                 "tests/benchmarks/test_generalisation_section.py",
                 "tests/distrl_agent/test_vlm_families.py", "tests/distrl_agent/test_export.py",
                 "tests/distrl_agent/test_vlm_autoui.py", "tests/distrl_agent/test_small_policy_world.py",
                 "tests/distrl_agent/runtime/test_inference.py", "tests/android_gym/tasks/test_splits.py")
"""Modules to start first, longest (wall time under the suite's load, `--durations=0` summed per module) first; the
CPU-bound World contract beside the tiny suite's start, the two Ray fleets apart. xdist would otherwise hand out the
modules with the most tests first (its `--loadscope-reorder`, on by default: pyproject's addopts turns it off), which
left the two 45-second Ray fleets, two tests each, to run last while the other workers idled."""
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
