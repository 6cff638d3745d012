"""The HTTP judge against scripted OpenAI-compatible servers on 127.0.0.1.

Covered: the request format, retries, deadlines, bad replies, concurrency, an API key that never leaks, and (#43)
replies far over `max_reply_bytes` and of any shape, none of which may raise out of `judge`.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import math
import socket
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from judge_helpers import RawServer, observation
from PIL import Image
from reply_strategies import reply_bodies

from android_gym.errors import ConfigError
from android_gym.evaluators import http as http_judge
from android_gym.evaluators.base import Observation, Verdict
from android_gym.evaluators.http import HttpEvaluator, HttpJudgeConfig
from android_gym.testing.fake_openai import Reply

SECRET = "sk-test-SECRET-1234567890"
FAST = {"timeout_s": 0.5, "deadline_s": 5.0, "backoff_s": 0.001, "max_backoff_s": 0.01}


def make_judge(url: str, **options: object) -> HttpEvaluator:
    return HttpEvaluator(HttpJudgeConfig(base_url=url, model="judge-model", **{**FAST, **options}))


def test_request_is_an_openai_chat_completion_with_the_screen(fake_server, tasks, monkeypatch) -> None:
    monkeypatch.setenv("JUDGE_KEY", SECRET)
    server = fake_server(default=Reply(content="I see the alarm. Status: success"))
    verdict = make_judge(server.base_url, api_key_env="JUDGE_KEY").judge(tasks[0], observation(3))
    assert verdict.success is True and verdict.raw == "I see the alarm. Status: success"
    assert verdict.source == "http" and verdict.latency_s > 0
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    body = request.body
    assert body["model"] == "judge-model" and body["temperature"] == 0.0
    content = body["messages"][0]["content"]
    assert [part["type"] for part in content] == ["text", "image_url", "text"]
    assert tasks[0].goal in content[0]["text"] + content[2]["text"]
    url = content[1]["image_url"]["url"]
    image = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
    assert url.startswith("data:image/png;base64,") and np.array_equal(np.asarray(image), observation(3).screenshot)


def test_no_key_in_the_environment_sends_no_authorization(fake_server, tasks, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = fake_server(default=Reply(content="Status: failure"))
    assert make_judge(server.base_url).judge(tasks[0], observation(0)).success is False
    assert "authorization" not in server.requests[0].headers


@pytest.mark.parametrize("status", [429, 409, 500, 503])
def test_retryable_statuses_are_retried_until_an_answer(fake_server, tasks, status: int) -> None:
    server = fake_server([Reply(status=status, body="busy")] * 3, default=Reply(content="yes"))
    judge = make_judge(server.base_url)
    verdict = judge.judge(tasks[0], observation(0))
    assert verdict.success is True
    assert len(server.requests) == 4 and judge.stats()["judge/retries"] == 3


def test_429s_and_a_hang_still_end_with_a_verdict_within_the_deadline(fake_server, tasks) -> None:
    k = 2
    script = [Reply(status=429, headers={"Retry-After": "0"})] * k + [Reply(hang=True)]
    server = fake_server(script, default=Reply(content="Status: success"))
    judge = make_judge(server.base_url, timeout_s=0.3, deadline_s=5.0)
    verdict = judge.judge(tasks[0], observation(0))
    assert verdict.success is True  # k rate limits, one hang (timed out), then the answer
    assert len(server.requests) == k + 2
    stats = judge.stats()
    assert stats["judge/timeouts"] == 1 and stats["judge/retries"] == k + 1


def test_a_server_that_always_hangs_gives_unknown_at_the_deadline(fake_server, tasks) -> None:
    server = fake_server(default=Reply(hang=True))
    judge = make_judge(server.base_url, timeout_s=0.2, deadline_s=0.5, max_retries=10)
    verdict = judge.judge(tasks[0], observation(0))
    assert verdict.success is None
    assert "deadline" in verdict.error and "no reply within" in verdict.error
    assert len(server.requests) < 10  # the deadline, not the retry budget, ended the call


def test_persistent_5xx_gives_unknown_with_the_last_body(fake_server, tasks) -> None:
    server = fake_server(default=Reply(status=502, body="<html>bad gateway</html>"))
    verdict = make_judge(server.base_url, max_retries=2).judge(tasks[0], observation(0))
    assert verdict.success is None and "gave up after 3 attempt(s)" in verdict.error and "HTTP 502" in verdict.error
    assert verdict.raw == "<html>bad gateway</html>"


@pytest.mark.parametrize("reply, message, raw", [
    (Reply(body="<html>It works!</html>"), "non-JSON", "<html>It works!</html>"),
    (Reply(body='{"error": "no choices"}'), "the reply has no `choices`", '{"error": "no choices"}'),
    (Reply(content="The screen shows a clock."), "neither", "The screen shows a clock."),
    (Reply(status=400, body='{"error": "bad image"}'), "HTTP 400 (not retried)", '{"error": "bad image"}'),
])
def test_bad_replies_are_unknown_with_the_raw_text(fake_server, tasks, reply: Reply, message: str, raw: str) -> None:
    server = fake_server(default=reply)
    verdict = make_judge(server.base_url).judge(tasks[0], observation(0))
    assert verdict.success is None and message in verdict.error and verdict.raw == raw
    assert len(server.requests) == 1


def test_logits_mode_reads_top_logprobs(fake_server, tasks) -> None:
    server = fake_server(default=Reply(content="Yes", top_logprobs=(("Yes", -0.1), (" no", -2.3), ("Maybe", -3.0))))
    verdict = make_judge(server.base_url, mode="logits").judge(tasks[0], observation(0))
    expected = np.exp(-0.1) / (np.exp(-0.1) + np.exp(-2.3))
    assert verdict.success is True and verdict.score == pytest.approx(expected)
    body = server.requests[0].body
    assert body["logprobs"] is True and body["max_tokens"] == 1
    fallback = fake_server(default=Reply(content="no", top_logprobs=(("Maybe", -0.1),)))
    assert make_judge(fallback.base_url, mode="logits").judge(tasks[0], observation(0)).success is False


def test_concurrency_is_limited(fake_server, tasks) -> None:
    server = fake_server(default=Reply(content="yes", delay_s=0.05))
    judge = make_judge(server.base_url, max_concurrency=2)
    verdicts = judge.judge_batch([(tasks[0], observation(i)) for i in range(8)])
    judge.close()
    assert all(v.success is True for v in verdicts)
    assert len(server.requests) == 8 and server.max_in_flight <= 2


def test_a_bad_screen_is_unknown_and_sends_nothing(fake_server, tasks) -> None:
    server = fake_server()
    verdict = make_judge(server.base_url).judge(tasks[0], Observation(None, np.zeros((3, 3, 3), np.uint8)))
    assert verdict.success is None and "8..8192 pixels" in verdict.error and not server.requests


def test_a_closed_port_gives_unknown(tasks) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    verdict = make_judge(f"http://127.0.0.1:{port}/v1", max_retries=1).judge(tasks[0], observation(0))
    assert verdict.success is None and "connection failed" in verdict.error


def test_the_api_key_never_appears_in_logs_reprs_or_verdicts(fake_server, tasks, monkeypatch, caplog) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)

    def echo_headers(request_body: dict) -> Reply:  # a hostile server that echoes what it received
        auth = server.requests[-1].headers.get("authorization", "")
        return Reply(status=429 if len(server.requests) < 3 else 401, body=f"bad key {auth}")

    server = fake_server(default=echo_headers)
    judge = make_judge(server.base_url)
    with caplog.at_level(logging.DEBUG):
        verdict = judge.judge(tasks[0], observation(0))
    assert server.requests[0].headers["authorization"] == f"Bearer {SECRET}"  # it was sent ...
    assert verdict.success is None and "[redacted]" in verdict.raw
    for text in (verdict.raw, verdict.error, repr(verdict), repr(judge), repr(judge.config), caplog.text):
        assert SECRET not in text  # ... and never shown
    assert "retrying" in caplog.text


@pytest.mark.parametrize("options, message", [
    ({"base_url": "localhost:8000"}, "`base_url`"), ({"base_url": "ftp://h/v1"}, "`base_url`"),
    ({"model": ""}, "`model` is required"), ({"mode": "vote"}, "`mode`"), ({"timeout_s": 0}, "`timeout_s`"),
    ({"max_concurrency": 0}, "`max_concurrency`"), ({"image_format": "gif"}, "`image_format`"),
    ({"max_reply_bytes": 1000}, "`max_reply_bytes`"), ({"max_reply_bytes": 2**28 + 1}, "`max_reply_bytes`"),
])
def test_bad_configs_fail_at_construction(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        HttpJudgeConfig(**{"base_url": "http://127.0.0.1:1/v1", "model": "m", **options})


def test_missing_prompt_file_fails_at_construction(tmp_path) -> None:
    with pytest.raises(ConfigError, match="is not a file"):
        make_judge("http://127.0.0.1:1/v1", prompt_path=str(tmp_path / "none.txt"))


def test_full_endpoint_urls_are_accepted() -> None:
    config = HttpJudgeConfig(base_url="https://api.example.com/v1/chat/completions/", model="m")
    assert config.endpoint == "https://api.example.com/v1/chat/completions"


# -- replies of any size and shape (#43) ---------------------------------------------------------------------------
CAP = 2**20
PEAK_SLACK_BYTES = 2**20
"""Documented bound: judging a reply far over the cap holds at most the cap plus 1 MiB (one read chunk is 64 KiB)."""


def test_a_streamed_reply_far_over_the_cap_is_unknown_and_memory_stays_near_the_cap(tasks) -> None:
    with RawServer() as server:
        server.stream_bytes = 64 * CAP  # before #43 the whole body was read: this took 64 MiB (3 GB took 6.3 GB)
        judge = make_judge(server.base_url, max_reply_bytes=CAP)
        obs = observation(0)
        tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            verdict = judge.judge(tasks[0], obs)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert verdict.success is None and f"reply too large (> {CAP} bytes" in verdict.error
    assert peak < CAP + PEAK_SLACK_BYTES, f"peak {peak} bytes"
    assert judge.stats()["judge/calls"] == 1  # not retried


def test_a_declared_length_over_the_cap_is_refused_before_reading(tasks) -> None:
    with RawServer() as server:
        server.declared_length = 3 * 10**9  # promised, never sent: reading would wait for the timeout
        verdict = make_judge(server.base_url, max_reply_bytes=CAP, timeout_s=30).judge(tasks[0], observation(0))
    assert verdict.success is None and f"reply too large (> {CAP} bytes" in verdict.error


@pytest.mark.parametrize("padding, is_read", [(0, True), (1, False)])
def test_a_reply_of_exactly_the_cap_is_read(tasks, padding: int, is_read: bool) -> None:
    cap = 1024
    body = json.dumps({"choices": [{"message": {"content": "Status: success"}}]}).encode()
    with RawServer() as server:
        server.body = body + b" " * (cap - len(body) + padding)
        verdict = make_judge(server.base_url, max_reply_bytes=cap).judge(tasks[0], observation(0))
    assert verdict.success is (True if is_read else None)
    assert ("reply too large" in verdict.error) is not is_read


def choice_body(**fields: object) -> str:
    return json.dumps({"choices": [{"message": {"content": "Status: success"}, **fields}]})


RAISED_BEFORE_43 = {  # each of these raised out of `judge` before #43
    "deep JSON": "[" * 100_000 + "]" * 100_000,
    "logprob 1000": choice_body(logprobs={"content": [{"top_logprobs": [{"token": "yes", "logprob": 1000}]}]}),
    "non-object top_logprobs entry": choice_body(logprobs={"content": [{"top_logprobs": [7]}]}),
    "list-valued text": json.dumps({"choices": [{"message": {"content": [{"type": "text", "text": ["yes"]}]}}]}),
    "list-valued content part": json.dumps({"choices": [{"message": {"content": [["yes"]]}}]}),
}


@pytest.mark.parametrize("name", RAISED_BEFORE_43)
def test_replies_that_used_to_raise_are_unknown_with_the_reason(fake_server, tasks, name: str) -> None:
    server = fake_server(default=Reply(body=RAISED_BEFORE_43[name]))
    verdict = make_judge(server.base_url, mode="logits").judge(tasks[0], observation(0))
    assert verdict.success is None and verdict.error.startswith("the server returned")
    assert verdict.source == "http" and len(server.requests) == 1


def check_verdict(verdict: Verdict) -> None:
    """What every caller relies on: yes, no or unknown-with-a-reason, and a finite score in [0, 1]."""
    assert isinstance(verdict, Verdict)
    assert verdict.success in (True, False, None)
    assert isinstance(verdict.score, float) and math.isfinite(verdict.score) and 0.0 <= verdict.score <= 1.0
    if verdict.success is None:
        assert verdict.error and not verdict.error.startswith("the http judge failed"), verdict.error
    else:
        assert verdict.error == ""


# `tasks` is a read-only tuple, so sharing it between generated inputs is safe.
@settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(body=reply_bodies(), mode=st.sampled_from(["generate", "logits"]))
@example(body=RAISED_BEFORE_43["deep JSON"].encode(), mode="generate")
@example(body=RAISED_BEFORE_43["logprob 1000"].encode(), mode="logits")
@example(body=RAISED_BEFORE_43["non-object top_logprobs entry"].encode(), mode="logits")
@example(body=RAISED_BEFORE_43["list-valued text"].encode(), mode="generate")
def test_judge_never_raises_on_any_reply(tasks, body: bytes, mode: str) -> None:
    with RawServer() as server:
        server.body = body
        check_verdict(make_judge(server.base_url, mode=mode, max_retries=0).judge(tasks[0], observation(0)))


def test_a_bug_past_the_reader_is_this_verdicts_only(fake_server, tasks, monkeypatch) -> None:
    def broken_reader(*args: object) -> Verdict:
        raise RuntimeError("reader bug")

    monkeypatch.setattr(http_judge, "read_chat_reply", broken_reader)
    judge = make_judge(fake_server().base_url)
    verdicts = judge.judge_batch([(tasks[0], observation(i)) for i in range(3)])
    judge.close()
    assert [v.error for v in verdicts] == ["the http judge failed: RuntimeError: reader bug"] * 3
    assert judge.stats()["judge/unknown"] == 3
