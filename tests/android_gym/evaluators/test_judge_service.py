"""The judge service: batching, bounded queue, timeouts, judge failures (one spoils one verdict), closing, sharing."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import gymnasium as gym
import pytest
from judge_helpers import CountingJudge, observation, screen

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.errors import ConfigError, EnvStateError
from android_gym.evaluators.base import Observation, Verdict
from android_gym.evaluators.http import HttpEvaluator, HttpJudgeConfig
from android_gym.evaluators.mllm import MllmEvaluator, MllmJudgeConfig
from android_gym.evaluators.service import JudgeService, ServiceConfig
from android_gym.testing.fake_openai import Reply


class GatedJudge(CountingJudge):
    """Answers "yes", but its first batch waits until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__(lambda task, obs: Verdict(True, 1.0, "yes"))
        self.gate = threading.Event()
        self.entered = threading.Event()

    def judge_batch(self, items):
        """Block the first batch on the gate."""
        self.entered.set()
        if not self.batches:
            assert self.gate.wait(10)
        return super().judge_batch(items)


def test_requests_waiting_together_are_judged_as_one_batch(tasks) -> None:
    judge = GatedJudge()
    with JudgeService(judge, ServiceConfig(max_batch=8, max_wait_s=0.0)) as service:
        futures = [service.judge_async(tasks[0], observation(0))]
        assert judge.entered.wait(10)  # the worker holds the first request
        futures += [service.judge_async(tasks[0], observation(i)) for i in range(1, 8)]
        judge.gate.set()
        verdicts = [service.judge_wait(f) for f in futures]
    assert judge.batches == [1, 7]
    assert all(v.success is True for v in verdicts)
    assert service.stats()["service/batches"] == 2


def test_a_slow_judge_gives_unknown_after_the_timeout(tasks) -> None:
    judge = GatedJudge()
    service = JudgeService(judge, ServiceConfig(timeout_s=0.2))
    try:
        verdict = service.client().judge(tasks[0], observation(0))
        assert verdict.success is None and "no verdict within 0.2 s" in verdict.error
        assert service.stats()["service/timeouts"] == 1
    finally:
        judge.gate.set()
        service.close()


def test_a_full_queue_answers_unknown_at_once(tasks) -> None:
    judge = GatedJudge()
    service = JudgeService(judge, ServiceConfig(queue_size=1, max_wait_s=0.0))
    try:
        first = service.judge_async(tasks[0], observation(0))
        assert judge.entered.wait(10)
        queued = service.judge_async(tasks[0], observation(1))
        rejected = service.judge_async(tasks[0], observation(2))
        assert rejected.done() and "queue is full" in rejected.result().error
        judge.gate.set()
        assert service.judge_wait(first).success and service.judge_wait(queued).success
    finally:
        judge.gate.set()
        service.close()


def test_a_judge_that_raises_gives_unknown_and_the_service_carries_on(tasks) -> None:
    answers = iter([RuntimeError("CUDA out of memory"), Verdict(False, 0.0, "no")])

    def answer(task, obs) -> Verdict:
        item = next(answers)
        if isinstance(item, Exception):
            raise item
        return item

    with JudgeService(CountingJudge(answer)) as service:
        client = service.client()
        failed = client.judge(tasks[0], observation(0))
        assert failed.success is None and "CUDA out of memory" in failed.error
        assert client.judge(tasks[0], observation(1)).success is False
        assert service.stats()["service/failures"] == 1


def test_closing_answers_queued_requests_and_refuses_new_ones(tasks) -> None:
    judge = GatedJudge()
    service = JudgeService(judge, ServiceConfig(max_wait_s=0.0))
    running = service.judge_async(tasks[0], observation(0))
    assert judge.entered.wait(10)
    queued = service.judge_async(tasks[0], observation(1))
    closer = threading.Thread(target=service.close)
    closer.start()
    assert queued.result(timeout=10).error == "the judge service closed"
    judge.gate.set()
    closer.join(10)
    assert running.result(timeout=10).success is True and judge.is_closed
    with pytest.raises(EnvStateError, match="closed"):
        service.judge_async(tasks[0], observation(2))
    assert service.client().judge(tasks[0], observation(2)).success is None


def test_client_close_runs_its_hook_once(tasks) -> None:
    closed = []
    with JudgeService(CountingJudge()) as service:
        client = service.client(on_close=lambda: closed.append(1))
        client.close()
        client.close()
    assert closed == [1]


@pytest.mark.parametrize("options", [{"max_batch": 0}, {"queue_size": 0}, {"max_wait_s": -1}, {"timeout_s": 0}])
def test_bad_service_options_are_rejected(options: dict) -> None:
    with pytest.raises(ConfigError):
        ServiceConfig(**options)


def test_threads_share_one_model_and_get_its_answers(tiny_vlm_path: Path, tasks) -> None:
    judge = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path)))
    items = [(tasks[i % len(tasks)], observation(i)) for i in range(6)]
    expected = [v.score for v in judge.judge_batch(items)]
    results: dict[int, Verdict] = {}
    with JudgeService(judge, ServiceConfig(max_wait_s=0.01)) as service:
        threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, service.client().judge(*items[i])))
                   for i in range(len(items))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    assert [results[i].score for i in range(len(items))] == pytest.approx(expected, abs=1e-4)


def test_envs_with_the_same_spec_share_one_judge(tiny_vlm_path: Path) -> None:
    spec = f"mllm:{tiny_vlm_path}"
    envs = [gym.make("android_gym/General-v0", evaluator=spec, screenshot_width=0) for _ in range(2)]
    private = gym.make("android_gym/General-v0", evaluator=spec, evaluator_options={"share": False})
    try:
        first, second = (env.unwrapped.evaluator for env in envs)
        assert first.service is second.service
        assert isinstance(private.unwrapped.evaluator.inner, MllmEvaluator)  # cached, but no service
    finally:
        for env in [*envs, private]:
            env.close()


# -- one bad request spoils only its own verdict (#43) -----------------------------------------------------------------
BATCH_OF_8 = ServiceConfig(max_batch=8, max_wait_s=10.0, timeout_s=30.0)
"""The 8 requests queued at once form one batch (the worker waits for all 8); a dead worker fails, not hangs."""


def steps(n: int) -> list[Observation]:
    """Observations told apart by their last action (which the judge's prompt carries)."""
    return [Observation(None, screen(i), f"step {i}") for i in range(n)]


def test_one_bad_http_reply_in_a_batch_of_8_spoils_only_its_verdict(fake_server, tasks) -> None:
    bad = Reply(body=json.dumps({"choices": [{"message": {"content": [{"type": "text", "text": ["yes"]}]}}]}))

    def reply(body: dict) -> Reply:
        return bad if "step 3" in json.dumps(body["messages"]) else Reply(content="Status: success")

    server = fake_server(default=reply)
    judge = HttpEvaluator(HttpJudgeConfig(base_url=server.base_url, model="m", max_retries=0, max_concurrency=8))
    with JudgeService(judge, BATCH_OF_8) as service:
        verdicts = service.client().judge_batch([(tasks[0], obs) for obs in steps(8)])
    assert [v.success for v in verdicts] == [True] * 3 + [None] + [True] * 4
    assert "`choices[0].message.content[0].text` is a list" in verdicts[3].error
    assert service.stats()["service/batches"] == 1 and len(server.requests) == 8


def test_a_judge_call_that_raises_spoils_only_its_own_request(tasks) -> None:
    def answer(task, obs) -> Verdict:
        if obs.last_action == "step 5":
            raise ValueError("malformed reply for step 5")
        return Verdict(True, 1.0, "yes")

    judge = CountingJudge(answer)
    with JudgeService(judge, BATCH_OF_8) as service:
        verdicts = service.client().judge_batch([(tasks[0], obs) for obs in steps(8)])
    assert [v.success for v in verdicts] == [True] * 5 + [None] + [True] * 2
    assert "the judge raised ValueError: malformed reply for step 5" in verdicts[5].error
    assert judge.batches == [8] + [1] * 8  # the failed batch, then each request alone
    stats = service.stats()
    assert stats["service/rejudged"] == 8 and stats["service/failures"] == 2  # the batch and step 5 alone


@pytest.mark.parametrize("returned, expected, message", [
    (lambda items: [Verdict(True, 1.0)] * (len(items) - 1), [True] * 8, ""),  # judged again alone: all answered
    (lambda items: [Verdict(True, 1.0)] * 7 + ["yes"], [True] * 7 + [None], "the judge returned str, not a Verdict"),
])
def test_a_batch_answered_wrongly_keeps_the_good_verdicts(tasks, returned, expected: list, message: str) -> None:
    class WrongJudge(CountingJudge):
        def judge_batch(self, items):
            """Wrong for a batch of 8, right for one request."""
            return returned(items) if len(items) == 8 else super().judge_batch(items)

    with JudgeService(WrongJudge(lambda task, obs: Verdict(True, 1.0)), BATCH_OF_8) as service:
        verdicts = service.client().judge_batch([(tasks[0], obs) for obs in steps(8)])
    assert [v.success for v in verdicts] == expected
    assert verdicts[7].error == message
