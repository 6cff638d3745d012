"""Tests of `distrl_agent.runtime.worker.Worker`: episode accounting, recorded versions, faults."""

from __future__ import annotations

import pytest

import distrl_agent.runtime.worker as worker_module
from android_gym.errors import DeviceError
from android_gym.vector import WorkerFailedError
from distrl_agent.config import EnvSection, load_config
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.fault_log import FaultLog
from distrl_agent.runtime.worker import RESET_ATTEMPTS, Worker


@pytest.fixture
def worker():
    """A started worker with three environments and the learner's initial weights at version 7."""
    with Worker(2, EnvSection(), 3, seed=1) as w:
        w.set_weights(build_learner(load_config()).weights(), 7)
        yield w


def test_run_episodes_plays_exact_count_and_leaves_slots_idle(worker) -> None:
    """`run_episodes(n)` returns n episodes (no faults on the sim) and no episode is left running."""
    trajectories = worker.run_episodes(5)
    assert len(trajectories) == 5 and worker.stats["episodes"] == 5
    assert worker.in_progress == 0
    assert len(worker.run_episodes(2)) == 2 and worker.stats["episodes"] == 7


def test_step_records_behaviour_version_and_valid_trajectories(worker) -> None:
    """Every shipped step carries the version of the weights that chose it and a finite log mu."""
    finished = []
    while len(finished) < 3:
        finished += worker.step()
    for trajectory in finished:
        trajectory.validate()
        assert set(trajectory.policy_version.tolist()) == {7}
        assert trajectory.worker_id == 2 and (trajectory.log_mu <= 0).all()
    assert worker.in_progress >= 0 and worker.stats["steps"] >= sum(t.length for t in finished)


def test_faulty_episode_is_discarded_and_counted(worker) -> None:
    """An episode that ends with `info["error"]` (a device fault) is counted, never shipped."""
    env = worker.pool.apply(lambda env: env, env_ids=[0])[0]  # in process: the env itself
    real_step = env.step

    def faulty_step(action):
        obs, reward, terminated, truncated, info = real_step(action)
        return obs, reward, False, True, {**info, "error": "device went away"}

    env.step = faulty_step
    trajectories = worker.run_episodes(3)
    assert worker.stats["faulty_episodes"] >= 1
    assert worker.stats["episodes"] == 3 and len(trajectories) == 3 - worker.stats["faulty_episodes"]


def test_fault_prefixes_ship_the_clean_steps_before_a_fault() -> None:
    """With `fault_prefixes`, an episode cut by a fault at its third step ships its first two steps, truncated (so
    the learner bootstraps from the state the faulted action was chosen in); the faulted step never ships."""  # noqa: D205, D209
    with Worker(2, EnvSection(), 1, seed=1, fault_prefixes=True) as w:
        w.set_weights(build_learner(load_config()).weights(), 7)
        _change_nth_step(w, 3, lambda obs, reward, terminated, truncated, info: (
            obs, 0.0, False, True, {**info, "error": "device went away"}))
        trajectories = w.run_episodes(4)
    assert len(trajectories) == 4 and w.stats["episodes"] == 4  # a prefix ships for each cut episode
    assert w.stats["faulty_episodes"] >= 1 and w.stats["fault_prefixes"] == w.stats["faulty_episodes"]
    prefixes = [t for t in trajectories if not t.dones.any()]
    assert len(prefixes) == w.stats["fault_prefixes"]
    for t in trajectories:
        t.validate()
        assert t.length <= 2  # the faulted third step is in none of them
    assert all(t.length == 2 and not t.success for t in prefixes)


def test_fault_prefixes_and_groups_are_refused_together() -> None:
    from distrl_agent.algorithms.configs import GroupSpec

    with pytest.raises(ValueError, match="groups or fault_prefixes"):
        Worker(0, EnvSection(), 1, groups=GroupSpec(size=2), fault_prefixes=True)


def test_fault_log_names_the_first_faults_then_summarises(caplog, monkeypatch) -> None:
    """Every fault is counted; the first ones are logged with their reason, later ones once per period with a count."""
    now = [0.0]
    monkeypatch.setattr(worker_module.time, "monotonic", lambda: now[0])
    faults = FaultLog(worker_id=3, first=2, every_s=60.0)
    with caplog.at_level("WARNING", logger="distrl"):
        for i in range(6):  # 0 s: two logged in full, four held back
            faults.add(f"DeviceError: timeout {i}")
        now[0] = 61.0
        faults.add("DeviceError: timeout 6")  # a period later: one line, with the four held back
    lines = [r.getMessage() for r in caplog.records]
    assert faults.count == 7 and len(lines) == 3
    assert lines[0] == "worker 3: episode cut by a fault: DeviceError: timeout 0"
    assert lines[2] == "worker 3: episode cut by a fault (4 more since the last report): DeviceError: timeout 6"


def _failing_resets(monkeypatch, index: int, failures: int, after: int = 1) -> list[dict]:
    """Make env number `index` fail resets `after + 1` .. `after + failures` with a device fault (its rebuilds too).

    Returns the list of its resets' kwargs, appended to as they happen.
    """
    real_make_env, calls = worker_module.make_env, []

    def make_env(env, split, i=0):
        made = real_make_env(env, split, i)
        if i == index:
            real_reset = made.reset

            def reset(**kwargs):
                calls.append(kwargs)
                if after < len(calls) <= after + failures:
                    raise DeviceError("the phone did not come back after a restart")
                return real_reset(**kwargs)

            made.reset = reset
        return made

    monkeypatch.setattr(worker_module, "make_env", make_env)
    return calls


def test_reset_fault_is_retried_with_the_same_task_and_seed(monkeypatch) -> None:
    """A reset that raises a device fault is retried on a fresh env (counted) with the same seed and planned task."""
    calls = _failing_resets(monkeypatch, index=6, failures=2)  # worker 2's first env is env number 6
    with Worker(2, EnvSection(), 3, seed=1) as worker:
        goals = worker.pool.apply(_task_goals, env_ids=[0])[0]
        trajectories = worker.run_episodes(3, tasks=[4, 4, 4])
        assert worker.stats["reset_failures"] == 2 and len(trajectories) == 3
    assert calls[1] == calls[2] == calls[3] and calls[1]["options"] == {"task": 4}
    assert {t.goal for t in trajectories} == {goals[4]}


def test_device_that_never_resets_fails_the_worker_after_the_attempts(monkeypatch) -> None:
    """A phone that fails every reset fails the worker after RESET_ATTEMPTS tries (the runtime restarts us)."""
    calls = _failing_resets(monkeypatch, index=7, failures=10**6)
    with Worker(2, EnvSection(), 3, seed=1) as worker:
        with pytest.raises(WorkerFailedError, match="did not come back"):
            worker.run_episodes(6)  # the slots' first episodes are under way: env 1 resets after its first ends
        assert len(calls) == 1 + RESET_ATTEMPTS and worker.stats["reset_failures"] == RESET_ATTEMPTS


def _task_goals(env) -> list[str]:
    return [task.goal for task in env.unwrapped.tasks]


def test_run_episodes_plays_a_task_plan_in_order(worker) -> None:
    """With `tasks`, exactly those tasks are played (an unstarted episode of a random task makes way)."""
    goals = worker.pool.apply(_task_goals, env_ids=[0])[0]
    plan = [5, 0, 5, len(goals) - 1]
    trajectories = worker.run_episodes(len(plan), tasks=plan)
    assert sorted(t.goal for t in trajectories) == sorted(goals[i] for i in plan)
    assert worker.in_progress == 0
    with pytest.raises(ValueError, match="2 tasks for `count`=3"):
        worker.run_episodes(3, tasks=[0, 1])


def test_evaluation_task_list_never_connects_to_a_phone() -> None:
    """The plan is read from the suite: with ADB phones configured (here: nothing listening), no device is reached."""
    import socket

    from distrl_agent.runtime.collect import evaluation_tasks

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed
    env = EnvSection(device="adb:sim-{index}", device_options={"port": port, "timeout_s": 0.2, "retries": 0})
    assert evaluation_tasks(env, "test", 6, seed=1) == evaluation_tasks(EnvSection(), "test", 6, seed=1)


def test_evaluation_tasks_are_balanced_over_templates_and_fixed_by_the_seed() -> None:
    from collections import Counter

    from distrl_agent.runtime.collect import evaluation_tasks

    env = EnvSection()
    plan = evaluation_tasks(env, "test", 45, seed=3)
    counts = Counter(name for _, name in plan)
    assert len(plan) == 45 and max(counts.values()) - min(counts.values()) <= 1 and len(counts) == 14
    assert plan == evaluation_tasks(env, "test", 45, seed=3)
    assert plan != evaluation_tasks(env, "test", 45, seed=4)
    with Worker(0, env, 1, split="test") as w:
        names = dict(enumerate(w.pool.apply(_task_names, env_ids=[0])[0]))
    assert all(names[index] == name for index, name in plan)


def test_worker_plays_the_goals_of_a_task_file_given_in_the_train_config(tmp_path) -> None:
    """`env.task_file` (an `EnvConfig` field, so a training config key) reaches the workers' envs."""
    path = tmp_path / "goals.jsonl"
    path.write_text('{"goal": "turn off wifi", "check": {"path": "system.wifi", "equals": false}}\n')
    config = load_config(overrides=[f"env.task_file={path}"])
    with Worker(0, config.env, 2, seed=3) as w:
        trajectories = w.run_episodes(3)
    assert {t.goal for t in trajectories} == {"turn off wifi"}
    assert {t.task for t in trajectories} == {"file:goals/goals"}


def _task_names(env) -> list[str]:
    return [task.name for task in env.unwrapped.tasks]


def _change_nth_step(w: Worker, n: int, change) -> None:
    """Make env 0's `n`-th step of each episode return `change(*its result)` instead of its result."""
    env = w.pool.apply(lambda env: env, env_ids=[0])[0]
    real_step, real_reset, steps = env.step, env.reset, [0]

    def reset(**kwargs):
        steps[0] = 0
        return real_reset(**kwargs)

    def step(action):
        result = real_step(action)
        steps[0] += 1
        return change(*result) if steps[0] == n else result

    env.step, env.reset = step, reset


def _unknown_at_second_step(w: Worker) -> None:
    """Make env 0's judge unable to tell at each episode's second step (reward 0, the episode not ended)."""
    from android_gym.evaluators.base import unknown

    _change_nth_step(w, 2, lambda obs, reward, terminated, truncated, info: (
        obs, 0.0, False, False, {**info, "success": False, "verdict": unknown("judge timed out")}))


@pytest.mark.parametrize("unknown_prefixes", [True, False])
def test_unknown_verdict_ends_the_episode_unlabelled(unknown_prefixes) -> None:
    """A step the judge could not tell is neither success nor failure: the episode ends there, the step never
    ships, and (where the rule bootstraps) the steps before it ship truncated; the env starts a new episode."""  # noqa: D205, D209
    with Worker(2, EnvSection(), 1, seed=1, unknown_prefixes=unknown_prefixes) as w:
        w.set_weights(build_learner(load_config()).weights(), 7)
        _unknown_at_second_step(w)
        trajectories = w.run_episodes(6)
    cuts = w.stats["unknown_verdict_cuts"]
    assert w.stats["episodes"] == 6 and cuts >= 1 and w.stats["unknown_verdicts"] == cuts
    assert all(t.length == 1 for t in trajectories)  # nothing past the first step ships
    prefixes = [t for t in trajectories if not t.dones.any() and not t.success]
    assert w.stats["unknown_verdict_prefixes"] == (cuts if unknown_prefixes else 0)
    assert len(trajectories) == 6 - cuts + w.stats["unknown_verdict_prefixes"]
    assert len(prefixes) >= w.stats["unknown_verdict_prefixes"]
    assert w.stats["unknown_verdict_labels"] == 0


def test_unknown_verdict_label_counter_fails_when_unknown_is_labelled(monkeypatch) -> None:
    """The audit counter is not 0 by construction: when the worker treats an unknown verdict as an ordinary step
    (a mutant that labels it 0), every shipped unknown step is counted."""  # noqa: D205, D209
    monkeypatch.setattr(worker_module, "is_unjudged", lambda info: False)
    with Worker(2, EnvSection(), 1, seed=1, unknown_prefixes=True) as w:
        w.set_weights(build_learner(load_config()).weights(), 7)
        _unknown_at_second_step(w)
        trajectories = w.run_episodes(6)
    labelled = sum(t.length >= 2 for t in trajectories)
    assert labelled >= 1 and w.stats["unknown_verdict_labels"] == labelled
