"""Tests of `distrl_agent.runtime.adder.EpisodeAdder`: the one place that lays out a `Trajectory` from played steps."""

from __future__ import annotations

import numpy as np

from distrl_agent.runtime.adder import EpisodeAdder


def play(adder: EpisodeAdder, rewards: list[float]) -> None:
    """Record one step per reward: observation t, action t, log mu -t/10, version 5 + t, penalty t/100."""
    for t, reward in enumerate(rewards):
        adder.add_choice({"x": np.full(2, t), "unused": 0}, {"kind": np.array(t % 3), "tokens": np.arange(3) + t},
                         log_mu=-t / 10, version=5 + t)
        assert adder.is_waiting
        adder.add_result(reward, penalty=t / 100)
        assert not adder.is_waiting


def test_terminated_episode_becomes_a_trajectory_with_the_final_observation_and_done() -> None:
    """T steps give T+1 observations (the final one last), T actions and per-step data in order, done only at T."""
    adder = EpisodeAdder(("x",), worker_id=4, group=2)
    assert not adder.has_acted
    play(adder, [0.0, 0.0, 1.0])
    trajectory = adder.finish({"x": np.full(2, 9)}, terminated=True, goal="open clock", task="open_app")
    assert trajectory.observations["x"][:, 0].tolist() == [0, 1, 2, 9] and set(trajectory.observations) == {"x"}
    assert trajectory.actions["kind"].tolist() == [0, 1, 2] and trajectory.actions["tokens"].shape == (3, 3)
    assert trajectory.dones.tolist() == [False, False, True] and trajectory.success
    np.testing.assert_allclose(trajectory.log_mu, [0.0, -0.1, -0.2], rtol=1e-6)
    np.testing.assert_allclose(trajectory.penalty, [0.0, 0.01, 0.02], rtol=1e-6)
    assert trajectory.policy_version.tolist() == [5, 6, 7] and trajectory.worker_id == 4
    assert (trajectory.goal, trajectory.task) == ("open clock", "open_app") and adder.group == 2
    trajectory.validate()


def test_truncated_episode_is_not_done_and_fails() -> None:
    """A truncation (step budget) leaves every `done` False, so the learner bootstraps from the last state."""
    adder = EpisodeAdder(("x",), worker_id=0)
    play(adder, [0.0, 0.0])
    trajectory = adder.finish({"x": np.zeros(2)}, terminated=False, goal="g", task="t")
    assert not trajectory.dones.any() and not trajectory.success and trajectory.length == 2


def test_steps_before_a_fault_become_a_truncated_trajectory_without_the_faulted_step() -> None:
    """The faulted step (its action may or may not have reached the phone) is dropped with its result; the state it
    was chosen in, reported cleanly, is the bootstrap state; nothing is done and nothing succeeded."""  # noqa: D205, D209
    adder = EpisodeAdder(("x",), worker_id=4, group=-1)
    play(adder, [0.0, 0.0, 0.0])  # the third step's result was a fault
    prefix = adder.finish_before_last(goal="open clock", task="open_app", cause="fault")
    assert prefix is not None and prefix.length == 2
    assert prefix.observations["x"][:, 0].tolist() == [0, 1, 2]  # s_2, where the faulted action was chosen, last
    assert prefix.actions["kind"].tolist() == [0, 1] and prefix.policy_version.tolist() == [5, 6]
    np.testing.assert_allclose(prefix.log_mu, [0.0, -0.1], rtol=1e-6)
    np.testing.assert_allclose(prefix.penalty, [0.0, 0.01], rtol=1e-6)
    assert not prefix.dones.any() and not prefix.success and prefix.worker_id == 4
    prefix.validate()


def test_a_fault_on_the_first_step_leaves_nothing_to_keep() -> None:
    adder = EpisodeAdder(("x",), worker_id=0)
    play(adder, [0.0])
    assert adder.finish_before_last(goal="g", task="t", cause="fault") is None


def test_a_sequence_policys_per_token_log_mu_is_kept_beside_its_sum_and_cut_with_its_step() -> None:
    """A row of per-token log mu (a VLM's `act`) becomes the step's `token_log_mu` row and its sum `log_mu`; the
    prefix kept before a fault drops the faulted step's row too."""  # noqa: D205, D209
    adder = EpisodeAdder(("x",), worker_id=0)
    rows = [np.array([-0.5, -0.25, 0.0], np.float32), np.array([-1.0, 0.0, 0.0], np.float32),
            np.array([-0.125, -0.125, -0.125], np.float32)]
    for t, row in enumerate(rows):
        adder.add_choice({"x": np.full(2, t)}, {"kind": np.array(0)}, log_mu=row, version=1)
        adder.add_result(0.0, penalty=0.0)
    whole = adder.finish({"x": np.zeros(2)}, terminated=False, goal="g", task="t").validate()
    np.testing.assert_array_equal(whole.token_log_mu, np.stack(rows))
    np.testing.assert_allclose(whole.log_mu, [-0.75, -1.0, -0.375])
    prefix = adder.finish_before_last(goal="g", task="t", cause="fault").validate()
    np.testing.assert_array_equal(prefix.token_log_mu, np.stack(rows[:2]))
