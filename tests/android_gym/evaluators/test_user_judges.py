"""Your own judge by import path: `evaluator="py:<module>:<class>"`, options as keyword arguments."""

from __future__ import annotations

import sys

import gymnasium as gym
import pytest

import android_gym  # noqa: F401
from android_gym.errors import ConfigError
from android_gym.evaluators.factory import parse_evaluator
from android_gym.testing.modules import user_module

JUDGES = '''
from android_gym.evaluators.base import Evaluator, Verdict


class AfterSteps(Evaluator):
    """Success at its `steps`-th call (one call per step of one env), whatever the screen shows."""

    def __init__(self, steps=2):
        self.steps = steps
        self.calls = 0

    def judge(self, task, observation):
        self.calls += 1
        return Verdict(success=self.calls >= self.steps, score=1.0, raw=f"call {self.calls}")


class NotAJudge:
    pass
'''


@pytest.fixture
def judges_module(tmp_path) -> str:
    """The module of judges above, importable (a fresh name per test)."""
    with user_module(tmp_path, "my_judges", JUDGES) as name:
        yield name


def test_a_user_judge_gives_the_reward(judges_module) -> None:
    """The env builds the class named by import path with the options and ends the episode on its verdict."""
    env = gym.make("android_gym/General-v0", evaluator=f"py:{judges_module}:AfterSteps",
                   evaluator_options={"steps": 3, "cache": False, "share": False})
    env.reset(seed=0)
    rewards = [env.step(env.unwrapped.expert_action())[1] for _ in range(2)]
    *_, terminated, truncated, info = env.step({"action_type": 9})  # WAIT: the third step
    assert rewards == [0.0, 0.0] and terminated and info["verdict"].raw == "call 3"
    env.close()


@pytest.mark.parametrize(("spec", "options", "message"), [
    ("py:", None, "needs a target"),
    ("py:not a path", None, "import path"),
    ("py:no_such_module_here:Judge", None, "cannot import"),
    ("py:{m}:Missing", None, "cannot import"),
    ("py:{m}:NotAJudge", None, "not a subclass of android_gym.evaluators.base.Evaluator"),
    ("py:{m}:AfterSteps", {"stpes": 3}, "refused its options"),
])
def test_a_bad_user_judge_is_refused_naming_what_is_wrong(judges_module, spec, options, message) -> None:
    """Each mistake is a ConfigError when the env is built, naming the spec part."""
    with pytest.raises(ConfigError, match=message):
        gym.make("android_gym/General-v0", evaluator=spec.format(m=judges_module),
                 evaluator_options={**(options or {}), "share": False})


def test_the_spec_is_data_until_built() -> None:
    """Parsing imports nothing: the term keeps the import path and the keyword arguments."""
    term = parse_evaluator("py:pkg.judges:Strict&oracle", {"threshold": 0.5}).alternatives[0][0]
    assert (term.target, term.kwargs) == ("pkg.judges:Strict", {"threshold": 0.5})
    assert "pkg" not in sys.modules
