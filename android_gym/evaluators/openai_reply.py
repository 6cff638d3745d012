"""Reading an OpenAI-compatible chat-completion reply into a `Verdict`, whatever shape the server sent.

A judge server is outside our control: a bug, a proxy's error page or a hostile server can answer with any bytes.
`read_chat_reply` turns every reply into a verdict or an unknown verdict that says what was wrong, and never raises
(#43: deeply nested JSON, `logprob: 1000`, a non-object `top_logprobs` entry and a list-valued `text` each raised out
of the judge). It checks the type of every field it reads instead of trusting the OpenAI shape, never recurses into
the reply, and never converts a value of unknown type to text.

The fields read (everything else is ignored):

* `choices[0].message.content`: a string, a list of content parts (`{"type": "text", "text": "..."}`; parts of other
  types are skipped), or null (no text); a completions-style `choices[0].text` string when there is no `message`;
* in logits mode, `choices[0].logprobs.content[0].top_logprobs[]`, each `{"token": str, "logprob": number <= 0}`.
  P(yes) = P("yes") / (P("yes") + P("no")) over the listed tokens; when neither appears (or the server sent no
  log-probabilities) the text answer decides.

>>> read_chat_reply(200, '{"choices": [{"message": {"content": "Status: success"}}]}', "generate", 0.5).success
True
>>> read_chat_reply(200, '[' * 100_000, "generate", 0.5).error
'the server returned JSON nested too deeply to read (HTTP 200)'
"""

from __future__ import annotations

import json
import math
from typing import Any

from android_gym.evaluators.base import Verdict, unknown
from android_gym.evaluators.prompts import Mode, answer_verdict

MAX_RAW_CHARS = 4000
"""Characters of a server's body or answer kept in `Verdict.raw` (whole answers fit; error pages are cut)."""

LOGPROB_SLACK = 1e-3
"""Log-probabilities up to this far above 0 are read as 0 (float rounding in servers); larger ones are malformed."""


class _BadShape(Exception):
    """The reply is JSON but a field the judge reads is missing or has the wrong type (the message says which)."""


def read_chat_reply(status: int, text: str, mode: Mode, threshold: float) -> Verdict:
    """The verdict in one chat-completion reply (see the module docstring); never raises.

    Args:
        status: the HTTP status of the reply.
        text: the reply's body, decoded.
        mode: "generate" (the answer text decides) or "logits" (P(yes) from `top_logprobs`, else the text).
        threshold: P(yes) at or above which a logits-mode verdict is success, in [0, 1].

    Returns:
        A verdict whose `score` is in [0, 1], or an unknown one whose `error` says what the reply lacked and whose
        `raw` holds the first `MAX_RAW_CHARS` characters of the body.
    """
    raw = printable(text[:MAX_RAW_CHARS])
    if not 200 <= status < 300:
        return unknown(f"HTTP {status} (not retried)", raw)
    try:
        reply = json.loads(text)
    except RecursionError:  # the C scanner's guard against deep nesting ('[[[[...'), not a judge bug
        return unknown(f"the server returned JSON nested too deeply to read (HTTP {status})", raw)
    except ValueError:  # not JSON, or an integer literal past Python's 4300-digit limit
        return unknown(f"the server returned non-JSON (HTTP {status})", raw)
    try:
        choice = _first(_field(reply, "choices", "the reply"), "choices")
        content = _answer_text(choice)
        p_yes = _p_yes(choice) if mode == "logits" else None
    except _BadShape as e:
        return unknown(f"the server returned JSON without a readable answer (HTTP {status}): {e}", raw)
    shown = printable(content[:MAX_RAW_CHARS])
    if p_yes is not None:
        return Verdict(p_yes >= threshold, p_yes, f"P(yes)={p_yes:.4f} text {shown!r}")
    verdict = answer_verdict(content)
    return Verdict(verdict.success, verdict.score, shown, error=verdict.error)


def printable(text: str) -> str:
    r"""`text` with lone surrogates (which JSON's `\ud800` escapes can make) replaced, so it can be written as UTF-8.

    >>> printable('ok \ud800')
    'ok ?'
    """
    return text.encode("utf-8", errors="replace").decode("utf-8")


def _kind(value: Any) -> str:
    """A JSON value's type in words, for messages (never the value itself: it may be huge or deeply nested)."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def _field(obj: Any, key: str, where: str) -> Any:
    if not isinstance(obj, dict):
        raise _BadShape(f"{where} is {_kind(obj)}, not an object")
    if key not in obj:
        raise _BadShape(f"{where} has no `{key}`")
    return obj[key]


def _first(seq: Any, where: str) -> Any:
    if not isinstance(seq, list) or not seq:
        raise _BadShape(f"`{where}` is {'an empty list' if isinstance(seq, list) else _kind(seq)}, not a non-empty "
                        "list")
    return seq[0]


def _answer_text(choice: Any) -> str:
    """`choices[0].message.content` as text (content parts joined), or a completions-style `choices[0].text`."""
    if isinstance(choice, dict) and "message" not in choice and "text" in choice:
        text = choice["text"]
        if not isinstance(text, str):
            raise _BadShape(f"`choices[0].text` is {_kind(text)}, not a string")
        return text
    message = _field(choice, "message", "`choices[0]`")
    if not isinstance(message, dict):
        raise _BadShape(f"`choices[0].message` is {_kind(message)}, not an object")
    content = message.get("content")
    if content is None:  # a reply without text (tool calls, refusals): the answer says neither yes nor no
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise _BadShape(f"`choices[0].message.content` is {_kind(content)}, not text or a list of parts")
    texts = []
    for i, part in enumerate(content):
        if not isinstance(part, dict):
            raise _BadShape(f"`choices[0].message.content[{i}]` is {_kind(part)}, not a content part")
        if part.get("type", "text") != "text":
            continue  # an image or audio part carries no answer text
        text = part.get("text", "")
        if not isinstance(text, str):
            raise _BadShape(f"`choices[0].message.content[{i}].text` is {_kind(text)}, not a string")
        texts.append(text)
    return "".join(texts)


def _p_yes(choice: dict[str, Any]) -> float | None:
    """P(yes) / (P(yes) + P(no)) from the first token's `top_logprobs`; None when the reply has none or neither word.

    Raises:
        _BadShape: the log-probabilities are there but malformed.
    """
    logprobs = choice.get("logprobs")
    if logprobs is None:
        return None
    content = _field(logprobs, "content", "`choices[0].logprobs`")
    if content is None or content == []:
        return None
    top = _field(_first(content, "choices[0].logprobs.content"), "top_logprobs",
                 "`choices[0].logprobs.content[0]`")
    if top is None:
        return None
    if not isinstance(top, list):
        raise _BadShape(f"`top_logprobs` is {_kind(top)}, not a list")
    p = {"yes": 0.0, "no": 0.0}
    for i, entry in enumerate(top):
        where = f"top_logprobs[{i}]"
        token, logprob = _field(entry, "token", f"`{where}`"), _field(entry, "logprob", f"`{where}`")
        if not isinstance(token, str):
            raise _BadShape(f"`{where}.token` is {_kind(token)}, not a string")
        if isinstance(logprob, bool) or not isinstance(logprob, int | float):
            raise _BadShape(f"`{where}.logprob` is {_kind(logprob)}, not a number")
        try:
            logprob = float(logprob)
        except OverflowError:  # an integer past float's range
            raise _BadShape(f"`{where}.logprob` is an integer too large for a log-probability") from None
        if math.isnan(logprob) or logprob > LOGPROB_SLACK:
            raise _BadShape(f"`{where}.logprob` is {logprob!r}, not a log-probability (<= 0)")
        word = token.strip().lower()
        if word in p:
            p[word] += math.exp(min(logprob, 0.0))
    total = p["yes"] + p["no"]
    return p["yes"] / total if total > 0 else None
