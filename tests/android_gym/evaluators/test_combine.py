"""Combined judges: the oracle with a judge as fallback, and a judge with a state-check veto."""

from __future__ import annotations

import pytest
from judge_helpers import CountingJudge, observation

from android_gym.errors import ConfigError
from android_gym.evaluators.base import Observation, OracleEvaluator, Verdict, unknown
from android_gym.evaluators.combine import FallbackEvaluator, VetoEvaluator
from android_gym.tasks.base import Task, TaskTemplate


def solved_state(task) -> dict:
    """A state the task's check accepts: found by asking the check about the task's own expert's end state."""
    from android_gym.devices.sim import SimDevice
    from android_gym.testing.rollout import run_episode

    device = SimDevice()
    assert run_episode(task, seed=0, device=device).success
    return device.state()


class FixedVeto(CountingJudge):
    """A state check that always answers `success`."""

    def __init__(self, success: bool | None) -> None:
        super().__init__(lambda t, o: Verdict(success, 1.0, "state") if success is not None else unknown("no state"))


def test_fallback_uses_the_oracle_where_there_is_state(tasks) -> None:
    judge = CountingJudge(lambda t, o: Verdict(True, 0.7, "judge says yes", source="judge"))
    chain = FallbackEvaluator([OracleEvaluator(), judge])
    task = tasks[0]
    with_state = Observation(solved_state(task), observation(0).screenshot)
    without_state = observation(0)
    verdicts = chain.judge_batch([(task, with_state), (task, without_state)])
    assert [v.source for v in verdicts] == ["oracle", "judge"]
    assert judge.calls == 1 and chain.needs_screenshot


class GoalOnly(TaskTemplate):
    """A goal-list task: no state check for its parameters."""

    name, suite = "goal_only", "files"

    def goal(self, params) -> str:
        """The goal text."""
        return "Find the cheapest flight to Lisbon"

    def check(self, params, state) -> bool:
        """Never success from state."""
        return False

    def has_check(self, params) -> bool:
        """No state check exists."""
        return False


def test_fallback_hands_tasks_without_a_state_check_to_the_judge() -> None:
    judge = CountingJudge(lambda t, o: Verdict(True, 0.7, "judge says yes", source="judge"))
    with_state = Observation({"foreground": "launcher"}, observation(0).screenshot)
    verdict = FallbackEvaluator([OracleEvaluator(), judge]).judge(Task(GoalOnly()), with_state)
    assert verdict.source == "judge" and judge.calls == 1


def test_fallback_of_unknowns_is_unknown_with_every_reason(tasks) -> None:
    chain = FallbackEvaluator([OracleEvaluator(), CountingJudge(lambda t, o: unknown("timed out", "partial", 0.1,
                                                                                     "http"))])
    verdict = chain.judge(tasks[0], observation(0))
    assert verdict.success is None
    assert verdict.error == "oracle: device reports no state; http: timed out" and verdict.raw == "partial"


@pytest.mark.parametrize("veto, expected, judge_calls", [(False, False, 0), (True, True, 1), (None, True, 1)])
def test_veto_overrules_only_a_false_state(tasks, veto: bool | None, expected: bool, judge_calls: int) -> None:
    judge = CountingJudge(lambda t, o: Verdict(True, 0.8, "looks done", source="mllm"))
    verdict = VetoEvaluator(judge, FixedVeto(veto)).judge(tasks[0], observation(0))
    assert verdict.success is expected and judge.calls == judge_calls
    if veto is False:
        assert verdict.source.startswith("veto")


def test_veto_keeps_a_judge_failure(tasks) -> None:
    judge = CountingJudge(lambda t, o: Verdict(False, 0.2, "not yet"))
    assert VetoEvaluator(judge, FixedVeto(True)).judge(tasks[0], observation(0)).success is False


def test_close_and_start_reach_every_part() -> None:
    parts = [CountingJudge(), CountingJudge()]
    FallbackEvaluator(parts).close()
    veto = [CountingJudge(), CountingJudge()]
    VetoEvaluator(*veto).close()
    assert all(p.is_closed for p in parts + veto)


def test_a_chain_needs_two() -> None:
    with pytest.raises(ConfigError, match="at least two"):
        FallbackEvaluator([OracleEvaluator()])


@pytest.mark.parametrize("spec", ["veto", "fallback", "judge alone"])
def test_env_captures_screens_only_for_the_steps_its_model_judge_sees(spec) -> None:
    """`judge&oracle` and `oracle|judge` settle steps from state first; the screen is taken only when the judge runs."""
    import gymnasium as gym

    import android_gym  # noqa: F401  (registers the env ids)

    judge = CountingJudge()
    evaluator = {"veto": VetoEvaluator(judge, OracleEvaluator()), "judge alone": judge,
                 "fallback": FallbackEvaluator([OracleEvaluator(), judge])}[spec]
    env = gym.make("android_gym/General-v0", screenshot_width=0, evaluator=evaluator)
    env.reset(seed=3)
    device = env.unwrapped.device
    shots, real_shot = [], device.screenshot
    device.screenshot = lambda width=None: shots.append(width) or real_shot(width)
    steps, done, reward = 0, False, 0.0
    while not done:
        _, reward, terminated, truncated, _ = env.step(env.unwrapped.expert_action())
        steps, done = steps + 1, terminated or truncated
    assert reward == 1.0 and steps >= 2
    expected = {"veto": 1, "fallback": 0, "judge alone": steps}[spec]  # the veto passes the solved step to the judge
    assert judge.calls == expected and len(shots) == expected
    env.close()
