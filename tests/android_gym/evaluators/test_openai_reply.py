"""`read_chat_reply`: every reply body becomes a verdict or an unknown verdict that says why, never an exception (#43).

The judge-level version of the property (through a real socket) is in `test_http_judge.py`; here the reader alone
takes many more generated replies, and the examples pin what each field means.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from reply_strategies import replies, reply_bodies

from android_gym.evaluators.base import Verdict
from android_gym.evaluators.openai_reply import MAX_RAW_CHARS, read_chat_reply


def read(reply: object, mode: str = "generate", threshold: float = 0.5, status: int = 200) -> Verdict:
    return read_chat_reply(status, reply if isinstance(reply, str) else json.dumps(reply), mode, threshold)


def chat(content: object, **choice: object) -> dict:
    return {"choices": [{"message": {"role": "assistant", "content": content}, **choice}]}


def top(*pairs: tuple[object, object]) -> dict:
    return {"content": [{"token": "x", "logprob": 0.0,
                         "top_logprobs": [{"token": token, "logprob": logprob} for token, logprob in pairs]}]}


def check_verdict(verdict: Verdict, body: str) -> None:
    """Yes, no or unknown-with-a-reason; a finite score in [0, 1]; `raw` short and writable as UTF-8."""
    assert isinstance(verdict, Verdict) and verdict.success in (True, False, None)
    assert isinstance(verdict.score, float) and math.isfinite(verdict.score) and 0.0 <= verdict.score <= 1.0
    assert bool(verdict.error) == (verdict.success is None)
    assert len(verdict.raw) <= MAX_RAW_CHARS + 40  # the logits form adds "P(yes)=... text ''"
    verdict.raw.encode("utf-8")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(body=reply_bodies(), mode=st.sampled_from(["generate", "logits"]),
       threshold=st.floats(min_value=0.0, max_value=1.0))
@example(body=b"[" * 100_000 + b"]" * 100_000, mode="generate", threshold=0.5)
@example(body=json.dumps(chat("yes", logprobs=top(("yes", 1000)))).encode(), mode="logits", threshold=0.5)
@example(body=json.dumps(chat("yes", logprobs={"content": [{"top_logprobs": [7]}]})).encode(), mode="logits",
         threshold=0.5)
@example(body=json.dumps(chat([{"type": "text", "text": ["yes"]}])).encode(), mode="generate", threshold=0.5)
def test_any_body_is_a_verdict_or_unknown(body: bytes, mode: str, threshold: float) -> None:
    text = body.decode("utf-8", errors="replace")
    check_verdict(read_chat_reply(200, text, mode, threshold), text)


@settings(max_examples=200, deadline=None)
@given(reply=replies(), status=st.integers(min_value=100, max_value=599))
def test_any_status_is_a_verdict_or_unknown(reply: object, status: int) -> None:
    text = json.dumps(reply)
    verdict = read_chat_reply(status, text, "logits", 0.5)
    check_verdict(verdict, text)
    if not 200 <= status < 300:
        assert verdict.error == f"HTTP {status} (not retried)"


@pytest.mark.parametrize("body, message", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("<html>It works!</html>", "non-JSON"),
    (json.dumps(chat("yes", logprobs=top(("yes", 1000)))), "`top_logprobs[0].logprob` is 1000.0, not a log-prob"),
    (json.dumps(chat("yes", logprobs=top(("yes", float("nan"))))), "is nan, not a log-probability"),
    ('{"choices": [{"message": {"content": "yes"}, "logprobs": {"content": [{"top_logprobs": [{"token": "yes", '
     '"logprob": -1' + "0" * 400 + "}]}]}}]}", "an integer too large"),
    (json.dumps(chat("yes", logprobs={"content": [{"top_logprobs": [7]}]})), "`top_logprobs[0]` is a number"),
    (json.dumps(chat("yes", logprobs=top((["yes"], -0.1)))), "`top_logprobs[0].token` is a list"),
    (json.dumps(chat("yes", logprobs=top(("yes", "-0.1")))), "`top_logprobs[0].logprob` is a string"),
    (json.dumps(chat([{"type": "text", "text": ["yes"]}])), "`choices[0].message.content[0].text` is a list"),
    (json.dumps(chat([["yes"]])), "`choices[0].message.content[0]` is a list, not a content part"),
    (json.dumps(chat({"text": "yes"})), "`choices[0].message.content` is an object"),
    (json.dumps({"choices": [{"text": ["yes"]}]}), "`choices[0].text` is a list"),
    (json.dumps({"choices": []}), "`choices` is an empty list"),
    (json.dumps({"choices": [{"message": "yes"}]}), "`choices[0].message` is a string"),
    (json.dumps([1, 2]), "the reply is a list, not an object"),
])
def test_malformed_replies_say_what_is_wrong(body: str, message: str) -> None:
    verdict = read(body, mode="logits")
    assert verdict.success is None and message in verdict.error, verdict.error


def test_text_answers_are_parsed_from_content_parts_and_completions_text() -> None:
    assert read(chat("I see it. Status: success")).success is True
    parts = [{"type": "text", "text": "Status: "}, {"type": "image_url", "image_url": {}}, {"type": "text",
                                                                                          "text": "failure"}]
    assert read(chat(parts)) == Verdict(False, 0.0, "Status: failure")
    assert read({"choices": [{"text": "yes"}]}).success is True
    unsure = read(chat(None))
    assert unsure.success is None and "neither" in unsure.error


def test_logits_read_p_yes_and_fall_back_to_the_text() -> None:
    verdict = read(chat("Yes", logprobs=top(("Yes", -0.1), (" no", -2.3), ("Maybe", -3.0))), mode="logits")
    assert verdict.score == pytest.approx(math.exp(-0.1) / (math.exp(-0.1) + math.exp(-2.3)))
    assert read(chat("Yes", logprobs=top(("yes", 1e-9), ("no", -math.inf))), mode="logits").score == 1.0
    assert read(chat("no", logprobs=top(("maybe", -0.1))), mode="logits").success is False  # neither word: text
    assert read(chat("no", logprobs=None), mode="logits").success is False
    threshold = read(chat("", logprobs=top(("yes", math.log(0.3)), ("no", math.log(0.7)))), mode="logits",
                     threshold=0.25)
    assert threshold.success is True and threshold.score == pytest.approx(0.3)


def test_raw_is_cut_and_writable_as_utf8() -> None:
    long = read(chat("x" * 100_000))
    assert long.success is None and long.raw == "x" * MAX_RAW_CHARS
    surrogate = read('{"choices": [{"message": {"content": "yes \\ud800"}}]}')
    assert surrogate.success is True and surrogate.raw == "yes ?"
