"""Tests of `benchmarks.vlm_families`: the log-prob gap it reports, and the bookkeeping of its behaviour-cloning score.

Tiny random checkpoints (the tests' size) and a handful of expert steps of the General suite; no figure here is a
result, only the arithmetic behind them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from android_gym.actions import ActionType
from benchmarks import vlm_families
from benchmarks.result import Result
from benchmarks.vlm_families import (
    action_type_scores,
    agreement,
    bc_accuracy,
    build_family,
    expert_steps,
    label_type,
    largest_token_gap,
    make_policy,
)
from distrl_agent.runtime.warm_start import collect_demonstrations


@pytest.fixture(scope="module")
def tiny_idefics3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_family("idefics3", tmp_path_factory.mktemp("families") / "idefics3", "tiny")


@pytest.fixture(scope="module")
def screens(tiny_idefics3: Path) -> list[dict]:
    """Test-split observations with their previous actions (prompts of several lengths)."""
    steps = expert_steps(make_policy(tiny_idefics3), "test", 2, seed=0)
    assert len(steps) >= 4
    return [obs for obs, _, _ in steps[:6]]


def test_sampling_and_scoring_agree_on_a_tiny_family(tiny_idefics3: Path, screens: list[dict]) -> None:
    """`agreement` of a tiny checkpoint is within the benchmark's 1e-4 nats (and is a real number, not a zero)."""
    gap = agreement(tiny_idefics3, screens)
    assert 0.0 <= gap < 1e-4


def test_the_gap_catches_log_pi_of_other_tokens(tiny_idefics3: Path, screens: list[dict]) -> None:
    """Scoring the sampled tokens shifted by one place (a learner reading the wrong tokens) gives a gap of nats."""
    policy = make_policy(tiny_idefics3)
    inputs = policy.preprocess(screens)
    with torch.no_grad():
        actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(0))
        same = policy.evaluate(inputs, actions).token_log_prob
        shifted = {**actions, "tokens": actions["tokens"].roll(1, dims=1)}
        other = policy.evaluate(inputs, shifted).token_log_prob
    assert largest_token_gap(log_mu, same, actions["length"]) < 1e-4
    assert largest_token_gap(log_mu, other, actions["length"]) > 0.1


def test_the_gap_reads_every_real_token_and_no_padding() -> None:
    """A difference at a row's last real token counts; differences past its length do not."""
    log_mu = torch.zeros(2, 4)
    log_pi = torch.tensor([[0.0, 0.0, 0.3, 5.0], [0.0, 0.0, 0.0, 0.7]])
    assert largest_token_gap(log_mu, log_pi, torch.tensor([3, 4])) == pytest.approx(0.7)
    assert largest_token_gap(log_mu, log_pi, torch.tensor([3, 3])) == pytest.approx(0.3)


def test_scores_count_matches_and_the_commonest_expert_type() -> None:
    """Accuracy counts exact type matches (unparsed text is wrong); the majority share is over the expert's types."""
    expert = [ActionType.DUAL_POINT, ActionType.DUAL_POINT, ActionType.TYPE, ActionType.PRESS_ENTER]
    predicted = [ActionType.DUAL_POINT, None, ActionType.TYPE, ActionType.TYPE]
    assert action_type_scores(expert, predicted) == {"accuracy": 0.5, "majority_share": 0.5, "steps": 4}
    always = [ActionType.TYPE] * 4  # the predictions' commonest type is not the expert's
    assert action_type_scores(expert, always) == {"accuracy": 0.25, "majority_share": 0.5, "steps": 4}
    with pytest.raises(ValueError, match="one length"):
        action_type_scores(expert, predicted[:3])


def test_bc_scores_the_expert_types_of_test_split_steps(tiny_idefics3: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a tiny run, the steps scored are the test split's expert steps, each prediction is compared with its own
    step's expert type, and the majority share is that of those steps; the held-out goals are not trained on."""  # noqa: D205, D209
    policy = make_policy(tiny_idefics3)
    held_out = expert_steps(policy, "test", 3, seed=0)
    expert = [label_type(policy, ids) for _, _, ids in held_out]
    first_half, scored = len(expert) // 2, []

    def half_right(_: object, steps: list) -> list[ActionType | None]:
        # the expert's own type for the first half of the steps, another type (or no parse) for the rest
        scored.extend(goal for _, goal, _ in steps)
        types = [label_type(policy, ids) for _, _, ids in steps]
        return types[:first_half] + [None if t == ActionType.TYPE else ActionType.TYPE for t in types[first_half:]]

    monkeypatch.setattr(vlm_families, "greedy_types", half_right)
    scores = bc_accuracy(tiny_idefics3, 1, 0, train_episodes=3, held_out_episodes=3, batch_size=4)
    assert scores["steps"] == len(held_out) and scored == [goal for _, goal, _ in held_out]
    assert scores["accuracy"] == pytest.approx(first_half / len(held_out))
    commonest = max(expert.count(t) for t in set(expert))
    assert scores["majority_share"] == pytest.approx(commonest / len(held_out)) and scores["majority_share"] < 1
    assert scores["train_steps"] > 0 and scores["parameters"] > 0
    train_goals = {goal for _, goal, _ in collect_demonstrations(vlm_families.env_section(), 3, 0.0, policy)}
    assert not train_goals & {goal for _, goal, _ in held_out}


def test_a_tiny_run_of_the_section_records_both_figures_per_family(tmp_path: Path) -> None:
    """`run_families` in tiny mode adds a gap and an accuracy per family, with their targets, and one table row each."""
    result = Result()
    vlm_families.run_families(result, quick=True, tiny=True, families=("idefics3", "autoui"))
    figures = {f.name: f for f in result.figures}
    assert sorted(figures) == sorted(f"vlm/{family}/{name}" for family in ("idefics3", "autoui")
                                     for name in ("logprob_gap", "bc_action_type_accuracy"))
    assert figures["vlm/autoui/logprob_gap"].met and figures["vlm/idefics3/logprob_gap"].met
    assert figures["vlm/autoui/bc_action_type_accuracy"].target == 90.0
    assert len(result.tables) == 1 and result.tables[0].count("\n") == 3  # header, rule, two rows
    with pytest.raises(ValueError, match="known"):
        vlm_families.run_families(Result(), quick=True, tiny=True, families=("llava",))
