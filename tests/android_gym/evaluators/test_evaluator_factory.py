"""Evaluator specs in `gym.make(..., evaluator=..., evaluator_options=...)` and the env's handling of verdicts."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from judge_helpers import CountingJudge

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import Action, ActionType
from android_gym.errors import ConfigError, UnknownNameError
from android_gym.evaluators.base import Evaluator, OracleEvaluator, Verdict, unknown
from android_gym.evaluators.cache import CachingEvaluator
from android_gym.evaluators.combine import FallbackEvaluator, VetoEvaluator
from android_gym.evaluators.factory import make_evaluator, parse_spec
from android_gym.evaluators.http import HttpEvaluator
from android_gym.evaluators.service import ServiceClient
from android_gym.testing.fake_openai import Reply

ENV_ID = "android_gym/General-v0"


@pytest.mark.parametrize("spec, parsed", [
    ("oracle", [[("oracle", "")]]),
    (" MLLM:/models/x ", [[("mllm", "/models/x")]]),
    ("http:http://h:8000/v1&oracle", [[("http", "http://h:8000/v1"), ("oracle", "")]]),
    ("oracle|mllm:/m", [[("oracle", "")], [("mllm", "/m")]]),
])
def test_parse_spec(spec: str, parsed: list) -> None:
    assert parse_spec(spec) == parsed


@pytest.mark.parametrize("spec, error, message", [
    ("orcale", UnknownNameError, "did you mean 'oracle'"),
    ("mlm:/x", UnknownNameError, "did you mean 'mllm'"),
    ("mllm", ConfigError, "needs a target"),
    ("http:", ConfigError, "needs a target"),
    ("oracle:/x", ConfigError, "takes no target"),
    ("oracle|", UnknownNameError, "unknown evaluator kind"),
    ("", ConfigError, "non-empty spec"),
])
def test_bad_specs_fail_when_the_env_is_configured(spec: str, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        gym.make(ENV_ID, evaluator=spec)


@pytest.mark.parametrize("options, message", [
    ({"timeout": 3}, "did you mean `evaluator_options.timeout_s`"),
    ({"cache": {"max_entrys": 3}}, "did you mean `evaluator_options.cache.max_entries`"),
    ({"mllm": {"device": "cpu"}}, "no mllm judge"),
    ({"cache": "yes"}, "must be a dict"),
])
def test_bad_options_are_named(fake_server, options: dict, message: str) -> None:
    url = fake_server().base_url
    with pytest.raises(ConfigError, match=message):
        make_evaluator(f"http:{url}", {"model": "m", **options})


def test_flat_options_need_one_judge_kind(tiny_vlm_path: Path) -> None:
    with pytest.raises(ConfigError, match="nest them by kind"):
        make_evaluator(f"mllm:{tiny_vlm_path}|http:http://127.0.0.1:1/v1", {"model": "m"})
    with pytest.raises(ConfigError, match="has no model judge"):
        make_evaluator("oracle", {"timeout_s": 3})
    with pytest.raises(ConfigError, match="only apply to evaluator specs"):
        make_evaluator(OracleEvaluator(), {"cache": False})


def test_combinations_are_built_with_nested_options(tiny_vlm_path: Path, fake_server) -> None:
    url = fake_server().base_url
    options = {"mllm": {"mode": "generate"}, "http": {"model": "m"}, "share": False}
    built = make_evaluator(f"oracle|mllm:{tiny_vlm_path}|http:{url}&oracle", options)
    assert isinstance(built, FallbackEvaluator)
    oracle, mllm, vetoed = built.evaluators
    assert isinstance(oracle, OracleEvaluator) and mllm.inner.config.mode == "generate"
    assert isinstance(vetoed, VetoEvaluator) and isinstance(vetoed.judge_evaluator.inner, HttpEvaluator)
    assert not isinstance(make_evaluator(f"http:{url}", {"model": "m", "cache": False, "share": False}),
                          CachingEvaluator)
    built.close()


@pytest.mark.parametrize("spec, options, message", [
    ("mllm:/no/such/checkpoint", None, "is not a directory"),
    ("http:http://127.0.0.1:1/v1", None, "`model` is required"),
    ("http:http://127.0.0.1:1/v1", {"model": "m", "prompt_path": "/no/prompt.txt"}, "is not a file"),
])
def test_judges_with_bad_targets_fail_at_construction(spec: str, options: dict | None, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        gym.make(ENV_ID, evaluator=spec, evaluator_options=options)


def test_env_with_the_tiny_vlm_judge_passes_check_env(tiny_vlm_path: Path) -> None:
    env = gym.make(ENV_ID, evaluator=f"mllm:{tiny_vlm_path}", screenshot_width=32, max_steps=2)
    try:
        check_env(env.unwrapped, skip_render_check=True)
        env.reset(seed=0)
        _, reward, terminated, _, info = env.step(env.unwrapped.expert_action())
        verdict = info["verdict"]
        assert verdict.source == "mllm" and verdict.raw.startswith("P(yes)=")
        assert reward == (1.0 if verdict.success else 0.0) and terminated == (verdict.success is True)
    finally:
        env.close()


def test_env_reports_unknown_verdicts_and_never_rewards_them(fake_server) -> None:
    server = fake_server(default=Reply(content="I am not sure what I am looking at."))
    env = gym.make(ENV_ID, evaluator=f"http:{server.base_url}", evaluator_options={"model": "m", "share": False},
                   screenshot_width=0, max_steps=3)
    try:
        env.reset(seed=0)
        done, rewards = False, []
        while not done:
            _, reward, terminated, truncated, info = env.step(env.unwrapped.expert_action())
            rewards.append(reward)
            done = terminated or truncated
            assert info["verdict"].success is None and info["success"] is False
            assert info["verdict"].raw == "I am not sure what I am looking at."
        assert rewards == [0.0, 0.0, 0.0] and truncated
        assert env.unwrapped.stats["unknown_verdicts"] == 3
    finally:
        env.close()


def test_env_http_judge_success_rewards_and_terminates(fake_server) -> None:
    server = fake_server(default=Reply(content="Status: success"))
    env = gym.make(ENV_ID, evaluator=f"http:{server.base_url}", evaluator_options={"model": "m"})
    try:
        env.reset(seed=0)
        _, reward, terminated, _, info = env.step(env.unwrapped.expert_action())
        assert reward == 1.0 and terminated and info["verdict"].source == "http"
        assert isinstance(env.unwrapped.evaluator, ServiceClient)
        sent = server.requests[0].body["messages"][0]["content"]
        assert "Action Decision:" in sent[2]["text"] or "Action Decision:" in sent[0]["text"]  # the previous action
    finally:
        env.close()


def test_a_raising_evaluator_is_an_unknown_verdict_not_a_crash() -> None:
    class Broken(Evaluator):
        def judge(self, task, observation) -> Verdict:
            """Fail like a buggy user judge."""
            raise ValueError("bug in user code")

    env = gym.make(ENV_ID, evaluator=Broken(), screenshot_width=0)
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(env.unwrapped.expert_action())
    assert reward == 0.0 and not terminated and "bug in user code" in info["verdict"].error
    env.close()


def test_env_keeps_earlier_screens_for_judges_that_want_them() -> None:
    judge = CountingJudge(lambda task, obs: unknown(f"{len(obs.history)} earlier"))
    judge.screenshot_history = 3
    env = gym.make(ENV_ID, evaluator=judge, screenshot_width=0, render_width=64, max_steps=4)
    env.reset(seed=0)
    seen = [env.step(Action(ActionType.WAIT))[4]["verdict"].error for _ in range(3)]
    env.reset(seed=1)
    seen.append(env.step(env.unwrapped.expert_action())[4]["verdict"].error)
    env.close()
    assert seen == ["0 earlier", "1 earlier", "2 earlier", "0 earlier"]


def test_spec_and_options_parse_into_a_typed_config_checked_before_any_env() -> None:
    """`parse_evaluator` types every term and option; `EnvConfig` refuses a bad option before any judge exists."""
    from android_gym.config import EnvConfig
    from android_gym.evaluators.cache import CacheConfig
    from android_gym.evaluators.factory import EvaluatorConfig, OracleConfig, parse_evaluator
    from android_gym.evaluators.http import HttpJudgeConfig

    config = parse_evaluator("oracle|http:http://h:8000/v1&oracle", {"model": "m", "timeout_s": 3, "share": False,
                                                                      "cache": {"max_entries": 10}})
    assert isinstance(config, EvaluatorConfig) and config.share is False
    assert config.alternatives[0] == (OracleConfig(),)
    assert config.alternatives[1] == (HttpJudgeConfig(base_url="http://h:8000/v1", model="m", timeout_s=3.0),
                                      OracleConfig())
    assert config.cache == CacheConfig(max_entries=10)
    assert parse_evaluator("oracle").cache is None  # no model judge, nothing to cache
    evaluator = make_evaluator(config)
    assert isinstance(evaluator, FallbackEvaluator)
    evaluator.close()
    with pytest.raises(ConfigError, match="`evaluator_options.timeout_s` must be greater than 0"):
        EnvConfig(evaluator="http:http://h:8000/v1", evaluator_options={"model": "m", "timeout_s": 0})
    with pytest.raises(ConfigError, match="share"):
        parse_evaluator("oracle", {"share": "no"})
