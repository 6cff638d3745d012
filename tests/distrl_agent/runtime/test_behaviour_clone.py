"""`behaviour_clone`'s learning rate: constant by default (the warm start every kept run started from), annealed on
request (the vlm section's cloning)."""  # noqa: D205, D209

from __future__ import annotations

import gymnasium as gym
import pytest
import torch

import android_gym  # noqa: F401  (registers the env ids)
from distrl_agent.policies.small import SmallPolicy
from distrl_agent.runtime.warm_start import behaviour_clone
from tests.distrl_agent.test_small_policy import TINY


def _demonstrations(policy: SmallPolicy) -> list:
    env = gym.make("android_gym/General-v0")
    obs, info = env.reset(seed=3)
    seen = policy.observe(obs, None)
    ids = policy.from_env_action(env.get_wrapper_attr("expert_action")(), seen)
    env.close()
    return [(seen, info["goal"], ids)]


@pytest.mark.parametrize(("anneal", "expected"), [(False, [0.01] * 4), (True, [0.01, 0.0075, 0.005, 0.0025])])
def test_each_adam_step_takes_the_scheduled_learning_rate(monkeypatch: pytest.MonkeyPatch, anneal: bool,
                                                         expected: list[float]) -> None:
    taken: list[float] = []
    step = torch.optim.Adam.step

    def recording(self: torch.optim.Adam, *args, **kwargs):  # noqa: ANN202
        taken.append(self.param_groups[0]["lr"])
        return step(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.Adam, "step", recording)
    policy = SmallPolicy(TINY)
    behaviour_clone(policy, _demonstrations(policy), updates=4, lr=0.01, batch_size=1, anneal=anneal)
    assert taken == pytest.approx(expected)


def test_expert_labels_teach_the_experts_action_where_a_random_one_was_taken() -> None:
    """DART's labels: the noisy step is executed, but the demonstration holds what the expert would have done."""
    from distrl_agent.config import EnvSection
    from distrl_agent.runtime.warm_start import collect_demonstrations

    def first_label(noise: float, labels: str, seed: int) -> dict:
        policy = SmallPolicy(TINY)
        rows = collect_demonstrations(EnvSection(), 1, noise, policy, seed=seed, labels=labels)
        return {k: int(v) for k, v in rows[0][2].items()}

    seeds = range(4)
    expert = [first_label(0.0, "taken", s) for s in seeds]
    assert [first_label(1.0, "expert", s) for s in seeds] == expert
    assert [first_label(1.0, "taken", s) for s in seeds] != expert  # the random actions themselves
