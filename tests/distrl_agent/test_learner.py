"""Tests of `distrl_agent.runtime.learner.Learner`: ingestion, updates, and checkpoint/resume with identical state."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from distrl_agent.algorithms.common import policy_pass
from distrl_agent.config import load_config
from distrl_agent.errors import CheckpointError, ConfigError
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.encoding_cache import EncodingCache
from distrl_agent.runtime.lag import LAG_KEYS, lag_counts
from distrl_agent.runtime.learner import Learner, LearnerActor
from distrl_agent.runtime.learner_spec import LearnerParts, LearnerSpec
from distrl_agent.runtime.worker import Worker
from distrl_agent.types import Trajectory, collate

TINY = ["learner.batch_size=4", "learner.min_replay_trajectories=4", "learner.refresh_every_updates=3",
        # the data bounds off, as the paper runs: each test turns on the one it is about
        "runtime.max_offpolicyness=null", "learner.max_samples_per_insert=0", "learner.max_times_sampled=null"]


@pytest.fixture(scope="module")
def sim_trajectories() -> list[Trajectory]:
    """Sixteen trajectories of the untrained policy on the sim (train split)."""
    config = load_config(overrides=TINY)
    with Worker(0, config.env, 4, seed=3) as worker:
        worker.set_weights(build_learner(config).weights(), 0)
        return worker.run_episodes(16)


def _weights_equal(a: Learner, b: Learner) -> bool:
    return all(torch.equal(a.policy.state_dict()[k], b.policy.state_dict()[k]) for k in a.policy.state_dict())


def test_train_steps_return_nothing_until_replay_ready(sim_trajectories) -> None:
    """No update happens before `min_replay_trajectories` are held; then each update bumps the version."""
    learner = build_learner(load_config(overrides=TINY))
    learner.ingest(sim_trajectories[:3])
    assert learner.train_steps(2) == {} and learner.version == 0
    learner.ingest(sim_trajectories[3:4])
    metrics = learner.train_steps(2)
    assert learner.version == 2 and metrics["learner/version"] == 2.0 and metrics["learner/update_s"] >= 0
    assert len(learner.last_indices) == 4


def test_learner_trains_with_the_parts_it_is_handed(sim_trajectories) -> None:
    """The learner trains with the parts it is handed and builds none itself.

    Given a frozen optimiser (SGD at lr 0) it steps the versions and leaves the weights as they were; its actor form
    builds the same seeded policy as the composition root.
    """
    config = load_config(overrides=TINY)
    spec = LearnerSpec.of_run(config)
    parts = LearnerParts.build(spec)
    parts.optimizer = torch.optim.SGD(parts.policy.parameters(), lr=0.0)
    learner = Learner(parts, spec)
    before = {k: v.clone() for k, v in learner.policy.state_dict().items()}
    learner.ingest(sim_trajectories[:4])
    learner.train_steps(2)
    assert learner.version == 2 and learner.optimizer is parts.optimizer and learner.replay is parts.replay
    assert all(torch.equal(before[k], v) for k, v in learner.policy.state_dict().items())
    moved = build_learner(config)
    moved.ingest(sim_trajectories[:4])
    moved.train_steps(2)
    assert not _weights_equal(moved, learner)  # Adam at learner.lr moves them: the frozen optimiser was the one used
    assert _weights_equal(LearnerActor(spec), build_learner(config))


def test_train_steps_stop_when_staleness_cap_empties_the_replay(sim_trajectories) -> None:
    """A tight staleness cap drops held data as versions advance; training stops instead of sampling nothing."""
    learner = build_learner(load_config(overrides=[*TINY, "learner.max_staleness=2"]))
    learner.ingest(sim_trajectories[:4])
    learner.train_steps(10)
    assert learner.version == 3 and len(learner.replay) == 0
    assert learner.replay.stats()["replay/dropped_stale"] == 4 and learner.train_steps(1) == {}
    learner.ingest(sim_trajectories[4:6])  # behaviour version 0, learner at 3: already beyond the cap of 2
    assert learner.stats()["learner/received"] == 6 and learner.stats()["learner/ingested"] == 4
    assert learner.replay.stats()["replay/dropped_stale"] == 6


def test_train_steps_stop_when_every_trajectory_is_used_up(sim_trajectories) -> None:
    """With `max_times_sampled`, the learner is ready only while enough trajectories have draws left: it stops
    instead of sampling a replay its retirements would empty, and starts again on new data."""  # noqa: D205, D209
    learner = build_learner(load_config(overrides=[*TINY, "learner.max_times_sampled=1", "learner.max_staleness=1000"]))
    learner.ingest(sim_trajectories[:4])
    learner.train_steps(10)  # each update draws 4 with replacement: some held ones are used up after the first
    assert 1 <= learner.version < 10 and not learner.is_ready and learner.train_steps(1) == {}
    assert learner.replay.usable() < 4
    learner.ingest(sim_trajectories[4:8])
    assert learner.is_ready and learner.train_steps(1)
    assert learner.replay.stats()["replay/retired_sampled"] >= 1


def test_rate_limiter_holds_samples_per_inserted_trajectory_to_its_cap(sim_trajectories) -> None:
    """With 2 samples per insert and batches of 4, 8 inserted trajectories allow 4 updates; 4 more allow 2 more; a
    blocked call makes no update, returns nothing (the loop then waits for collection) and is counted."""  # noqa: D205, D209
    learner = build_learner(load_config(overrides=[*TINY, "learner.max_samples_per_insert=2"]))
    learner.ingest(sim_trajectories[:8])
    assert learner.train_steps(10)["learner/version"] == 4.0
    assert learner.train_steps(1) == {} and learner.version == 4
    assert learner.stats()["learner/rate_limited"] == 2
    learner.ingest(sim_trajectories[8:12])
    learner.train_steps(10)
    assert learner.version == 6
    stats = learner.replay.stats()
    assert stats["replay/sampled"] <= 2 * stats["replay/inserted"]
    unlimited = build_learner(load_config(overrides=TINY))
    unlimited.ingest(sim_trajectories[:8])
    assert unlimited.train_steps(10)["learner/version"] == 10.0  # off (0), as in the paper


def test_rate_limiter_refuses_a_negative_or_infinite_cap() -> None:
    """The cap is a finite number of samples per insert, or 0 for off."""
    for bad in ("-1", ".inf"):
        with pytest.raises(ConfigError, match="learner.max_samples_per_insert"):
            load_config(overrides=[f"learner.max_samples_per_insert={bad}"])


def test_lag_histogram_counts_every_sampled_step_by_versions_behind(sim_trajectories) -> None:
    """Data of version 0 sampled at learner versions 0, 1, 2: each update's batch lands in bin 0, 1, then 2-3."""
    learner = build_learner(load_config(overrides=TINY))
    learner.ingest(sim_trajectories[:4])  # behaviour version 0
    batch_steps = []
    for _ in range(3):
        learner.train_steps(1)
        batch_steps.append(sum(sim_trajectories[i].length for i in learner.last_indices))
    stats = learner.stats()
    assert [stats[key] for key in LAG_KEYS] == [*batch_steps, *[0] * (len(LAG_KEYS) - 3)]
    assert lag_counts(np.array([0, 1, 2, 3, 4, 511, 512, 10**6])).tolist() == [1, 1, 2, 1, 0, 0, 0, 0, 0, 1, 2]


def test_the_periodic_refresh_reads_cached_encodings_and_matches_re_encoding(sim_trajectories) -> None:
    """`refresh_every_updates`: every priority is recomputed from the cached encodings of each trajectory's own uid,
    equal to a recomputation from its observations; nothing is encoded twice."""  # noqa: D205, D209
    learner = build_learner(load_config(overrides=[*TINY, "learner.refresh_every_updates=2"]))
    learner.ingest(sim_trajectories[:8])
    learner.train_steps(2)  # the second update refreshes all eight
    slots = np.flatnonzero(learner.replay._uids >= 0)
    assert learner.encodings.misses == 8 and len(learner.encodings) == 8  # each encoded once, sampled or not
    refreshed = learner.replay._priorities[slots]
    with torch.no_grad():
        expected = learner.rule.loss(learner.policy, collate([learner.replay._trajectories[s] for s in slots],
                                                             learner_version=learner.version)).priorities
    assert expected is not None and np.allclose(refreshed, expected, rtol=1e-5, atol=1e-7)
    before = learner.encodings.misses
    learner.replay.refresh_all(learner._priorities)  # all eight cached now: no encoding at all
    assert learner.encodings.misses == before and np.allclose(learner.replay._priorities[slots], refreshed)


def test_cached_encodings_train_exactly_like_re_encoding(sim_trajectories, monkeypatch) -> None:
    """Each replayed trajectory is encoded once, training exactly as re-encoding would; dropped ones are forgotten."""
    config = load_config(overrides=[*TINY, "learner.max_staleness=3"])
    cached = build_learner(config)
    cached.ingest(sim_trajectories[:8])
    cached.train_steps(3)
    assert cached.encodings.hits > 0 and len(cached.encodings) <= len(cached.replay)
    monkeypatch.setattr(EncodingCache, "supported", property(lambda self: False))
    fresh = build_learner(config)
    fresh.ingest(sim_trajectories[:8])
    fresh.train_steps(3)
    assert len(fresh.encodings) == 0 and _weights_equal(cached, fresh)
    cached.train_steps(2)  # the staleness cap drops all eight: nothing may stay cached
    assert len(cached.replay) == 0 and len(cached.encodings) == 0


def test_ingest_rejects_malformed_trajectory_and_counts_it(sim_trajectories) -> None:
    """A trajectory with NaN log-probs is counted as rejected and never inserted."""
    learner = build_learner(load_config(overrides=TINY))
    bad = sim_trajectories[0]
    bad = Trajectory(bad.observations, bad.actions, bad.rewards, bad.dones, np.full(bad.length, np.nan),
                     bad.policy_version)
    assert learner.ingest([bad, sim_trajectories[1]]) == 1
    assert learner.stats()["learner/rejected"] == 1 and len(learner.replay) == 1
    assert learner.stats()["learner/received"] == 2 and learner.stats()["learner/ingested"] == 1


def test_resume_continues_with_identical_indices_and_weights(sim_trajectories, tmp_path) -> None:
    """Save, load into a fresh learner: the next updates sample the same slots and produce the same weights."""
    config = load_config(overrides=TINY)
    uninterrupted = build_learner(config)
    uninterrupted.ingest(sim_trajectories)
    for _ in range(4):  # past a priority refresh (every 3 updates), so refreshed priorities are saved too
        uninterrupted.update()
    uninterrupted.save(tmp_path / "ckpt")
    resumed = build_learner(config)
    resumed.load(tmp_path / "ckpt")
    assert resumed.version == uninterrupted.version and resumed.counters == uninterrupted.counters
    for _ in range(3):
        uninterrupted.update()
        resumed.update()
        np.testing.assert_array_equal(resumed.last_indices, uninterrupted.last_indices)
        assert _weights_equal(resumed, uninterrupted)
    assert resumed.stats() == uninterrupted.stats()


def test_load_rejects_checkpoint_from_another_config(sim_trajectories, tmp_path) -> None:
    """A checkpoint written under another learner config names the keys that differ."""
    learner = build_learner(load_config(overrides=TINY))
    learner.ingest(sim_trajectories[:4])
    learner.save(tmp_path)
    other = build_learner(load_config(overrides=[*TINY, "learner.lr=0.05", "learner.replay_capacity_steps=500"]))
    with pytest.raises(CheckpointError, match="learner.lr") as info:
        other.load(tmp_path)
    assert "learner.replay_capacity_steps" in str(info.value)


def test_load_accepts_checkpoint_of_an_earlier_version_and_refuses_other_coefficients(sim_trajectories,
                                                                                      tmp_path) -> None:
    """A checkpoint whose state keys hold the overrides only (before the sections were typed) resumes the same run,
    also in micro-batches (they change the update's memory, not the update).

    The same checkpoint under other coefficients is refused, naming them.
    """  # noqa: D205
    import json

    from distrl_agent.runtime.checkpoint import STATE_FILE

    learner = build_learner(load_config(overrides=TINY))
    learner.ingest(sim_trajectories[:4])
    learner.save(tmp_path)
    state = json.loads((tmp_path / STATE_FILE).read_text())
    assert state["config"]["learner.coefficients"]["gamma"] == 0.9  # this version writes every value
    old = {k: v for k, v in state["config"].items() if not k.startswith("env.") or k in OLD_ENV_KEYS}
    old.update({"learner.coefficients": {}, "policy.small": {}, "policy.vlm": {}})
    (tmp_path / STATE_FILE).write_text(json.dumps({**state, "config": old}))
    build_learner(load_config(overrides=TINY)).load(tmp_path)
    build_learner(load_config(overrides=[*TINY, "learner.micro_batch_size=2"])).load(tmp_path)  # memory, not maths
    with pytest.raises(CheckpointError, match="learner.coefficients"):
        build_learner(load_config(overrides=[*TINY, "learner.coefficients={gamma: 0.5}"])).load(tmp_path)


OLD_ENV_KEYS = ("env.env_id", "env.perturbations", "env.latency", "env.latency_time_scale", "env.max_elements",
                "env.screenshot_width", "env.env_processes")
"""The env keys a checkpoint held before the env section became android_gym's `EnvConfig`."""


def test_load_accepts_checkpoint_with_other_runtime_section(sim_trajectories, tmp_path) -> None:
    """The runtime section (workers, minutes) may change between a run and its resume."""
    learner = build_learner(load_config(overrides=TINY))
    learner.ingest(sim_trajectories[:4])
    learner.save(tmp_path)
    build_learner(load_config(overrides=[*TINY, "runtime.workers=7", "runtime.minutes=60"])).load(tmp_path)


def test_load_rejects_missing_checkpoint(tmp_path) -> None:
    """An empty directory raises CheckpointError naming it."""
    with pytest.raises(CheckpointError, match=str(tmp_path)):
        build_learner(load_config(overrides=TINY)).load(tmp_path)


def test_set_policy_weights_keeps_version_and_changes_weights(sim_trajectories) -> None:
    """Warm-start weights replace the policy without touching the version."""
    a, b = build_learner(load_config(overrides=TINY)), build_learner(load_config(overrides=[*TINY, "runtime.seed=5"]))
    assert not _weights_equal(a, b)
    a.set_policy_weights(b.weights())
    assert _weights_equal(a, b) and a.version == 0


def test_updates_raise_the_log_prob_of_the_imitated_actions(sim_trajectories) -> None:
    """Filtered BC on trajectories marked successful: a few learner updates make their actions more likely.

    This is the learner's side of the direction tests (tests/distrl_agent/test_update_rules.py): the optimiser must
    descend the rule's loss, whatever the rule.
    """
    successes = [dataclasses.replace(t, rewards=np.eye(t.length, dtype=np.float32)[-1]) for t in sim_trajectories[:8]]
    learner = build_learner(load_config(overrides=[*TINY, "learner.algorithm=filtered-bc", "learner.lr=0.003"]))
    batch = collate(successes)

    def mean_log_prob() -> float:
        with torch.no_grad():
            return float(policy_pass(learner.policy, batch).log_pi[batch.mask].mean())

    before = mean_log_prob()
    learner.ingest(successes)
    learner.train_steps(5)
    assert learner.version == 5 and mean_log_prob() > before + 0.05


def test_load_rejects_checkpoint_of_another_rule_naming_it(sim_trajectories, tmp_path) -> None:
    """A-RIDE's checkpoint does not resume a PPO learner (the optimiser state and critic mean something else)."""
    learner = build_learner(load_config(overrides=TINY))
    learner.ingest(sim_trajectories[:4])
    learner.save(tmp_path)
    with pytest.raises(CheckpointError, match="learner.algorithm"):
        build_learner(load_config(overrides=[*TINY, "learner.algorithm=ppo"])).load(tmp_path)


@pytest.mark.parametrize("algorithm", ["grpo", "a-ride"])
def test_kl_reference_is_the_policy_at_the_first_update_and_survives_resume(algorithm: str, sim_trajectories,
                                                                             tmp_path) -> None:
    """The KL penalty's reference is frozen at the first update (the warm start), checkpointed, and restored."""
    grouped = []
    for i, t in enumerate(sim_trajectories):  # pairs as a worker's GroupCollector would label them
        t = dataclasses.replace(t, metadata={"group": {"id": f"0:{i // 2}", "members": 2, "return": float(i % 2),
                                                       "mean": 0.5, "std": 0.7071}})
        grouped.append(t)
    config = load_config(overrides=[*TINY, f"learner.algorithm={algorithm}", "learner.coefficients={kl_coef: 0.5}",
                                    "learner.critic_warmup_updates=0"])  # A-RIDE's actor moves from the first update
    learner = build_learner(config)
    assert learner.ingest(grouped) == len(grouped) and learner.reference is None
    start = {k: v.clone() for k, v in learner.policy.state_dict().items()}
    metrics = learner.update()
    assert all(torch.equal(learner.reference.state_dict()[k], start[k]) for k in start)
    assert not any(p.requires_grad for p in learner.reference.parameters())
    assert metrics["losses/kl_to_reference"] == pytest.approx(0.0, abs=1e-6)  # the policy is still its reference
    assert learner.update()["losses/kl_to_reference"] > 0  # one step on, it has moved away and is pulled back
    assert all(torch.equal(learner.reference.state_dict()[k], start[k]) for k in start)  # it does not move
    learner.save(tmp_path / "ckpt")
    resumed = build_learner(config)
    resumed.load(tmp_path / "ckpt")
    assert all(torch.equal(resumed.reference.state_dict()[k], start[k]) for k in start)
    learner.update()
    resumed.update()
    assert _weights_equal(resumed, learner)


def test_an_update_writes_the_sampled_trajectories_new_priorities_back(sim_trajectories) -> None:
    """A-RIDE's update sets each sampled trajectory's priority to the one its loss computed (new ones enter at the
    maximum, 1.0 here): a learner that never wrote them back would sample by insertion priority forever (issue 45)."""  # noqa: D205, D209
    learner = build_learner(load_config(overrides=[*TINY, "learner.refresh_every_updates=1000"]))
    learner.ingest(sim_trajectories)
    before = learner.replay.state_dict()["priorities"].copy()
    learner.update()
    slots = learner.last_indices
    after = learner.replay.state_dict()["priorities"]
    assert np.all(before[slots] == 1.0) and not np.any(after[slots] == 1.0)
    untouched = np.setdiff1d(np.flatnonzero(before > 0), slots)
    assert np.array_equal(after[untouched], before[untouched])  # only the batch's own slots move


def test_critic_warmup_leaves_the_actor_unchanged_then_hands_over(sim_trajectories) -> None:
    """During `critic_warmup_updates` only the critic trains (actor loss weight 0): the actor's encoder and heads stay
    bit for bit, the critic's move; after it the actor moves too (issue 45: the warm-up was untested)."""  # noqa: D205, D209
    learner = build_learner(load_config(overrides=[*TINY, "learner.critic_warmup_updates=2"]))
    learner.ingest(sim_trajectories)

    def parts() -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor]]:
        state = {k: v.clone() for k, v in learner.policy.state_dict().items()}
        critic = ("critic_encoder.", "value_head.", "instruction_value_head.")
        return ({k: v for k, v in state.items() if not k.startswith(critic)},
                {k: v for k, v in state.items() if k.startswith(critic)})

    actor, critic = parts()
    learner.update()
    learner.update()
    warm_actor, warm_critic = parts()
    assert all(torch.equal(actor[k], warm_actor[k]) for k in actor)
    assert any(not torch.equal(critic[k], warm_critic[k]) for k in critic)
    learner.update()
    assert any(not torch.equal(warm_actor[k], parts()[0][k]) for k in actor)


def test_importance_exponent_anneals_from_start_to_end_over_its_updates(sim_trajectories) -> None:
    """beta_IS goes linearly from `beta_start` to `beta_end` over `beta_anneal_updates`, then stays (issue 45)."""
    learner = build_learner(load_config(overrides=[*TINY, "learner.beta_start=0.2", "learner.beta_end=1.0",
                                             "learner.beta_anneal_updates=4", "learner.critic_warmup_updates=0"]))
    learner.ingest(sim_trajectories)
    betas = [learner.update()["replay/beta"] for _ in range(6)]
    assert betas == pytest.approx([0.2, 0.4, 0.6, 0.8, 1.0, 1.0])


def _sgd_learner(overrides: list[str]) -> Learner:
    """A learner stepping plain SGD, whose step is the gradient itself (Adam's first step is nearly its sign, which
    float rounding of a near-zero gradient can flip)."""  # noqa: D205, D209
    spec = LearnerSpec.of_run(load_config(overrides=overrides))
    parts = LearnerParts.build(spec)
    parts.optimizer = torch.optim.SGD(parts.policy.parameters(), lr=0.05)
    return Learner(parts, spec)


@pytest.mark.parametrize("algorithm", ["a-ride", "filtered-bc", "grpo"])
def test_micro_batches_make_the_whole_batchs_update(sim_trajectories, algorithm: str) -> None:
    """Split into micro-batches of 3 (parts of unequal step counts, and for Filtered BC unequal imitated steps), a
    batch of 8 makes the update, priorities and loss of the whole batch: each part weighted by its share of what the
    loss averages over. Rules whose loss reads the whole batch refuse the setting, naming why."""  # noqa: D205, D209
    def cut(t: Trajectory, n: int, success: bool) -> Trajectory:  # its first n steps, a success ending at the n-th
        group = {"return": float(success), "mean": 1 / 3, "std": 0.5, "members": 4}  # what GRPO's workers write
        return Trajectory({k: v[:n + 1] for k, v in t.observations.items()}, {k: v[:n] for k, v in t.actions.items()},
                          np.eye(n)[-1] * float(success), np.eye(n, dtype=bool)[-1] & success, t.log_mu[:n],
                          t.policy_version[:n], t.penalty[:n], t.goal, metadata={"group": group})

    data = [cut(t, 2 + i, i % 3 == 0) for i, t in enumerate(sim_trajectories[:8])]  # Filtered BC imitates a third
    base = [*TINY, f"learner.algorithm={algorithm}", "learner.batch_size=8", "learner.min_replay_trajectories=8",
            "learner.critic_warmup_updates=0", "learner.refresh_every_updates=1000"]
    whole, split = _sgd_learner(base), _sgd_learner([*base, "learner.micro_batch_size=3"])
    assert len({int(t.length) for t in data}) > 1
    metrics = []
    for learner in (whole, split):
        learner.ingest(data)
        metrics.append([learner.update() for _ in range(2)])
    for key, value in whole.policy.state_dict().items():
        torch.testing.assert_close(split.policy.state_dict()[key], value, rtol=1e-5, atol=1e-6)
    assert not _weights_equal(whole, build_learner(load_config(overrides=base)))  # the updates moved the weights
    np.testing.assert_allclose(split.replay.state_dict()["priorities"], whole.replay.state_dict()["priorities"],
                               rtol=1e-5)
    assert metrics[1][-1]["losses/total"] == pytest.approx(metrics[0][-1]["losses/total"], rel=1e-5, abs=1e-7)
    for refused, why in (("digirl", "top fraction"), ("ppo", "standardises")):
        with pytest.raises(ConfigError, match=f"micro_batch_size.*{why}"):
            load_config(overrides=[f"learner.algorithm={refused}", "learner.micro_batch_size=4"])
