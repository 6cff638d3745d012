"""Tests of `android_gym.vector.worker.worker_main`: an env process whose parent is gone leaves quietly."""

from __future__ import annotations

import multiprocessing as mp

import gymnasium as gym
import pytest

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.vector.worker import worker_main


def _broken_factory() -> gym.Env:
    raise RuntimeError("the phone is gone")


@pytest.mark.parametrize("factory", [lambda: gym.make("android_gym/General-v0", screenshot_width=0), _broken_factory],
                         ids=["env built", "factory failed"])
def test_parent_gone_before_the_first_reply_returns_without_raising(factory) -> None:
    """The parent died while the env was being built: sending Ready (or the failure) finds no reader; no traceback."""
    ours, parents = mp.Pipe()
    parents.close()
    worker_main(0, factory, ours)  # would raise BrokenPipeError before issue 20's fix
