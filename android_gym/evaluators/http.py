"""`HttpEvaluator`: an OpenAI-compatible chat-completion server (vLLM, SGLang, hosted APIs) as the success judge.

Each request posts the few-shot prompt with the screenshot(s) as `data:` URLs to `<base_url>/chat/completions`.
Every call ends by its deadline with a verdict or "unknown", never an exception: attempts time out
(`timeout_s`), 429/409/5xx and connection failures are retried with exponential backoff (honouring `Retry-After`),
a watchdog closes the socket when the call's `deadline_s` runs out, and at most `max_concurrency` requests are in flight
per judge. The API key is read from the environment variable named by `api_key_env` when the judge starts; it is sent
only in the Authorization header and redacted from every message, log line and `raw` text.

A reply's body is read in chunks up to `max_reply_bytes` (a declared `Content-Length` past it is refused before
reading), so a broken or hostile server costs at most that much memory, and any body — non-JSON, deeply nested, wrong
types anywhere — is read by `android_gym.evaluators.openai_reply` into a verdict or "unknown", never an exception (#43).
"""

from __future__ import annotations

import http.client
import json
import logging
import math
import os
import random
import socket
import threading
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from typing import Any

from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import ConfigError
from android_gym.evaluators.base import Evaluator, Observation, Verdict, unknown
from android_gym.evaluators.images import screenshot_problem, to_data_url
from android_gym.evaluators.openai_reply import MAX_RAW_CHARS, read_chat_reply
from android_gym.evaluators.prompts import JudgePrompt, Mode
from android_gym.tasks.base import Task

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({409, 429, 500, 502, 503, 504})
"""HTTP statuses worth another attempt (rate limits, conflicts, overloaded or restarting servers)."""

READ_CHUNK_BYTES = 64 * 1024
"""Bytes asked of the socket per read while a reply's body is collected (bounds the overshoot past the cap)."""


class HttpJudgeConfig(ConfigModel):
    """Configuration of an HTTP judge.

    Attributes:
        base_url: the server's OpenAI-compatible root, e.g. "http://localhost:8000/v1" (or the full
            ".../chat/completions" URL).
        model: the model name the server expects (vLLM: the served model, e.g. "Qwen/Qwen2.5-VL-7B-Instruct").
        api_key_env: the environment variable holding the API key; unset or empty sends no Authorization header.
        mode: "generate" (parse the answer text) or "logits" (one token with `top_logprobs`; P(yes) vs P(no)).
        timeout_s: limit of one attempt, in seconds.
        deadline_s: limit of one call, retries and backoff included, in seconds; then the verdict is unknown.
        max_retries: attempts after the first one.
        backoff_s: first retry delay in seconds; doubles per retry (with jitter) up to `max_backoff_s`.
        max_backoff_s: longest delay between attempts, in seconds, also the cap on `Retry-After`.
        max_concurrency: requests in flight at once through this judge (servers rate-limit).
        max_tokens: answer budget in tokens (generate mode).
        temperature: sampling temperature; 0 for reproducible verdicts.
        threshold: P(yes) at or above which the verdict is success (logits mode).
        image_width: resize screenshots to this many pixels wide before upload; None keeps the env's width.
        image_format: "png" (exact) or "jpeg" (smaller uploads).
        screenshot_history: screens per request, the current one included.
        prompt_path: a prompt file (see `android_gym.evaluators.prompts`); None uses the default few-shot prompt.
        extra_body: more JSON fields for every request (e.g. {"top_p": 1.0}).
        seed: seeds the backoff jitter.
        max_reply_bytes: the most bytes of a reply's body read; past it the verdict is unknown ("reply too large").
            2 MiB because a chat completion is a few KB (20 top log-probabilities included) and a long generated
            answer well under 1 MB, while a server sending more is broken or hostile (#43: a 3 GB reply took the
            process to 6.3 GB; a 512 MiB one now costs 3.0 MiB of traced memory instead of 1 GiB). A body within
            the cap is parsed as JSON: the worst shape measured, 2 MiB of `[{},{},...]`, peaks at 48 MiB per
            request in flight. Between 1 KiB and 256 MiB.
    """

    base_url: str
    model: str = ""
    api_key_env: str = "OPENAI_API_KEY"
    mode: Mode = "generate"
    timeout_s: float = Field(default=30.0, gt=0)
    deadline_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0)
    backoff_s: float = Field(default=0.5, ge=0)
    max_backoff_s: float = Field(default=8.0, ge=0)
    max_concurrency: int = Field(default=4, ge=1)
    max_tokens: int = Field(default=256, ge=1)
    temperature: float = 0.0
    threshold: float = Field(default=0.5, ge=0, le=1)
    image_width: int | None = Field(default=None, ge=16, le=4096)
    image_format: str = "png"
    screenshot_history: int = Field(default=1, ge=1, le=8)
    prompt_path: str | None = None
    extra_body: Mapping[str, Any] = Field(default_factory=dict)
    seed: int = 0
    max_reply_bytes: int = Field(default=2 * 2**20, ge=2**10, le=256 * 2**20)

    @model_validator(mode="after")
    def _check(self) -> HttpJudgeConfig:
        url = urllib.parse.urlsplit(self.base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise FieldError("base_url", "an http(s) URL such as 'http://localhost:8000/v1'", self.base_url)
        if not self.model:
            raise ConfigError("`model` is required by OpenAI-compatible servers: pass the served model name, e.g. "
                              "evaluator_options={'model': 'Qwen/Qwen2.5-VL-7B-Instruct'}")
        if self.image_format.lower() not in ("png", "jpeg", "jpg"):  # any case, as the upload only needs the kind
            raise FieldError("image_format", "'png' or 'jpeg'", self.image_format)
        return self

    @property
    def endpoint(self) -> str:
        """The chat-completions URL."""
        base = self.base_url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"


class _Retry(Exception):
    """An attempt failed in a way worth retrying; `delay_s` is the server's Retry-After, if any."""

    def __init__(self, reason: str, raw: str = "", delay_s: float | None = None) -> None:
        super().__init__(reason)
        self.raw, self.delay_s = raw, delay_s


class HttpEvaluator(Evaluator):
    """An OpenAI-compatible chat-completion judge (see the module docstring).

    Guarantees: `judge`/`judge_batch` never raise, whatever the server sends, and return within `deadline_s` (plus
    thread scheduling); a reply costs at most `max_reply_bytes` plus one 64 KiB read to receive; the API key never
    appears in `repr`, logs, errors or `raw`. Thread-safe.

    Raises:
        ConfigError: at construction, for a bad config or prompt file.
    """

    needs_screenshot = True

    def __init__(self, config: HttpJudgeConfig) -> None:
        self.config = config
        self.prompt = JudgePrompt.load(config.prompt_path)
        self.screenshot_history = config.screenshot_history
        self._url = urllib.parse.urlsplit(config.endpoint)
        self._api_key: str | None = None
        self._is_started = False
        self._slots = threading.BoundedSemaphore(config.max_concurrency)
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._rng = random.Random(config.seed)
        self._counts = {"judge/requests": 0, "judge/calls": 0, "judge/retries": 0, "judge/timeouts": 0,
                        "judge/unknown": 0}

    def __repr__(self) -> str:
        return f"HttpEvaluator(endpoint={self._public_url()!r}, model={self.config.model!r})"

    # -- lifecycle -----------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Read the API key from the environment (idempotent)."""
        with self._lock:
            if not self._is_started:
                self._api_key = os.environ.get(self.config.api_key_env) or None
                self._is_started = True

    def close(self) -> None:
        """Stop the batch thread pool."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def stats(self) -> dict[str, float]:
        """`judge/requests`, `judge/calls` (HTTP attempts), `judge/retries`, `judge/timeouts`, `judge/unknown`."""
        return dict(self._counts)

    # -- judging -------------------------------------------------------------------------------------------------------
    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Verdicts for many requests, at most `max_concurrency` in flight; never raises."""
        if len(items) <= 1:
            return [self.judge(task, observation) for task, observation in items]
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.config.max_concurrency, thread_name_prefix="http-judge")
            pool = self._pool
        try:
            futures = [pool.submit(self.judge, task, observation) for task, observation in items]
        except RuntimeError:  # close() shut the pool down meanwhile: judge in this thread instead
            return [self.judge(task, observation) for task, observation in items]
        return [_verdict_of(future) for future in futures]

    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The verdict on `task` from the server; unknown (with the reason and any body) on every failure."""
        self.start()
        started = time.monotonic()
        self._count("judge/requests")
        try:
            verdict = self._judge(task, observation, started + self.config.deadline_s)
        except Exception as e:  # noqa: BLE001  (last line of defence: a judge bug is this verdict's, never the env's)
            log.warning("http judge: %s raised %s: %s", self._public_url(), type(e).__name__, self._redact(str(e)))
            verdict = unknown(f"the http judge failed: {type(e).__name__}: {e}")
        verdict = Verdict(verdict.success, verdict.score, self._redact(verdict.raw), time.monotonic() - started,
                          False, self._redact(verdict.error), "http")
        if not verdict.is_known:
            self._count("judge/unknown")
        return verdict

    def _judge(self, task: Task, observation: Observation, deadline: float) -> Verdict:
        screens = [*observation.history, observation.screenshot][-self.config.screenshot_history:]
        problem = screenshot_problem(observation.screenshot)
        if problem:
            return unknown(problem)
        try:
            body = json.dumps(self._payload(task.goal, observation.last_action,
                                            [s for s in screens if screenshot_problem(s) is None])).encode()
        except Exception as e:  # noqa: BLE001  (an unencodable image or extra_body is this call's failure only)
            return unknown(f"could not build the request: {type(e).__name__}: {e}")
        if not self._slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
            return unknown(f"no request slot free within the {self.config.deadline_s} s deadline "
                           f"(max_concurrency {self.config.max_concurrency})")
        try:
            return self._post_with_retries(body, deadline)
        finally:
            self._slots.release()

    def _post_with_retries(self, body: bytes, deadline: float) -> Verdict:
        c = self.config
        reason, raw, attempts = "no attempt made", "", 0
        for attempt in range(c.max_retries + 1):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            if attempt:
                self._count("judge/retries")
            attempts += 1
            try:
                status, text = self._post(body, min(c.timeout_s, remaining))
                if text is None:  # not retried: the same server would send as much again
                    return unknown(f"reply too large (> {c.max_reply_bytes} bytes; raise `max_reply_bytes` if the "
                                   f"server's answers are really this long) (HTTP {status})")
                return read_chat_reply(status, text, c.mode, c.threshold)
            except _Retry as e:
                reason, raw = str(e), e.raw
                delay = e.delay_s if e.delay_s is not None else c.backoff_s * 2**attempt * self._jitter()
                delay = min(delay, c.max_backoff_s)
                if attempt == c.max_retries or time.monotonic() + delay >= deadline:
                    break
                log.warning("http judge: %s from %s (attempt %d of %d); retrying in %.2f s", self._redact(reason),
                            self._public_url(), attempt + 1, c.max_retries + 1, delay)
                time.sleep(delay)
        if time.monotonic() >= deadline or attempts < c.max_retries + 1:
            reason = f"the {c.deadline_s} s deadline leaves no time for another attempt; last failure: {reason}"
        return unknown(f"gave up after {attempts} attempt(s): {reason}", raw[:MAX_RAW_CHARS])

    def _post(self, body: bytes, timeout_s: float) -> tuple[int, str | None]:
        """One attempt: (status, body text, None when over `max_reply_bytes`) or `_Retry`.

        A watchdog closes the socket after `timeout_s`.
        """
        self._count("judge/calls")
        url = self._url
        kind = http.client.HTTPSConnection if url.scheme == "https" else http.client.HTTPConnection
        conn = kind(url.hostname, url.port, timeout=timeout_s)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        fired = threading.Event()
        watchdog = threading.Timer(timeout_s, _abort, args=(conn, fired))
        watchdog.daemon = True
        watchdog.start()
        try:
            path = url.path + (f"?{url.query}" if url.query else "")
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            data = _read_capped(response, self.config.max_reply_bytes)
            text = None if data is None else data.decode("utf-8", errors="replace")
            retry_after = _seconds(response.getheader("Retry-After"))
        except TimeoutError as e:
            self._count("judge/timeouts")
            raise _Retry(f"no reply within {timeout_s:.3g} s") from e
        except (OSError, http.client.HTTPException) as e:
            timed_out = fired.is_set()
            if timed_out:
                self._count("judge/timeouts")
            raise _Retry(f"no reply within {timeout_s:.3g} s" if timed_out
                         else f"connection failed: {type(e).__name__}: {e}") from e
        finally:
            watchdog.cancel()
            conn.close()
        if response.status in RETRY_STATUSES:
            raise _Retry(f"HTTP {response.status}", (text or "")[:MAX_RAW_CHARS], retry_after)
        return response.status, text

    # -- the OpenAI wire format ----------------------------------------------------------------------------------------
    def _payload(self, goal: str, last_action: str, screens: list[Any]) -> dict[str, Any]:
        c = self.config
        head, _, tail = self.prompt.render(goal, last_action, c.mode)
        images = [{"type": "image_url", "image_url": {"url": to_data_url(s, c.image_width, c.image_format)}}
                  for s in screens]
        content = [{"type": "text", "text": head.text}, *images, {"type": "text", "text": tail.text}]
        payload: dict[str, Any] = {"model": c.model, "messages": [{"role": "user", "content": content}],
                                   "temperature": c.temperature, "max_tokens": c.max_tokens}
        if c.mode == "logits":
            payload.update(max_tokens=1, logprobs=True, top_logprobs=20)
        return {**payload, **dict(c.extra_body)}

    # -- helpers -------------------------------------------------------------------------------------------------------
    def _count(self, key: str) -> None:
        with self._lock:
            self._counts[key] += 1

    def _jitter(self) -> float:
        with self._lock:
            return 0.5 + 0.5 * self._rng.random()

    def _redact(self, text: str) -> str:
        return text.replace(self._api_key, "[redacted]") if self._api_key and text else text

    def _public_url(self) -> str:
        """The endpoint without query or user info (which may hold credentials)."""
        url = self._url
        host = url.hostname or ""
        return f"{url.scheme}://{host}{f':{url.port}' if url.port else ''}{url.path}"


def _abort(conn: http.client.HTTPConnection, fired: threading.Event) -> None:
    """Watchdog: unblock a read stuck past its time limit by shutting the socket down."""
    fired.set()
    sock = conn.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _seconds(value: str | None) -> float | None:
    """A `Retry-After` header in seconds (the HTTP-date form is ignored: the backoff applies)."""
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and math.isfinite(seconds) and seconds >= 0 else None


def _read_capped(response: http.client.HTTPResponse, max_bytes: int) -> bytearray | None:
    """The body of `response`, or None as soon as it proves longer than `max_bytes` (memory: at most one chunk more).

    A `Content-Length` past the cap is refused before anything is read; a body without one (chunked, or ended by
    closing) is read `READ_CHUNK_BYTES` at a time and dropped once past the cap (#43).
    """
    try:
        declared = int(response.getheader("Content-Length") or -1)
    except ValueError:
        declared = -1  # http.client itself rejects a malformed length on read
    if declared > max_bytes:
        return None
    data = bytearray()
    while True:
        chunk = response.read(min(READ_CHUNK_BYTES, max_bytes + 1 - len(data)))
        if not chunk:
            return data
        data += chunk
        if len(data) > max_bytes:
            return None


def _verdict_of(future: Future) -> Verdict:
    """A batch item's verdict; unknown when `close()` cancelled it before it ran (`judge` itself never raises)."""
    try:
        return future.result()
    except CancelledError:
        return unknown("the http judge was closed before this request was sent", source="http")
