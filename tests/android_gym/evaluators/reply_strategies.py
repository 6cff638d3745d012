"""Hypothesis strategies of chat-completion replies a judge server might send: right, wrong at any level, or not JSON.

`replies()` builds the OpenAI chat-completion shape (`choices[].message.content`, content parts, a completions-style
`text`, `logprobs.content[].top_logprobs[].{token, logprob}`) where every field may be right, of any other JSON type, or
missing; numbers include huge ints, +-inf, nan and positive "log-probabilities". `reply_bodies()` serialises them and
adds raw bodies: arbitrary bytes, truncated JSON, deep nesting and number literals past every limit.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

MISSING = object()
"""A field left out of the object."""

NUMBERS = (st.integers() | st.floats(allow_nan=True, allow_infinity=True)
           | st.sampled_from([1000, -1000, 0, -0.0, 1e-9, 1e308, -1e308, 2**64, -(2**64), 10**400]))
SCALARS = st.none() | st.booleans() | NUMBERS | st.text(max_size=12)
JSON_VALUES = st.recursive(SCALARS, lambda children: st.lists(children, max_size=4)
                           | st.dictionaries(st.text(max_size=8), children, max_size=4), max_leaves=12)
"""Any JSON value (as Python), nested a few levels."""

ANSWERS = (st.sampled_from(["Status: success", "Status: failure", "yes", "No.", "", "Yes no", "status: complete"])
           | st.text(max_size=40))
TOKENS = st.sampled_from(["yes", " Yes", "YES", "no", " No", "maybe", ""]) | st.text(max_size=4)


def fields(**strategies: st.SearchStrategy) -> st.SearchStrategy[dict[str, Any]]:
    """A JSON object whose every field is drawn right, as any other JSON value, or left out."""
    drawn = st.fixed_dictionaries({key: st.one_of(strategy, JSON_VALUES, st.just(MISSING))
                                   for key, strategy in strategies.items()})
    return drawn.map(lambda d: {key: value for key, value in d.items() if value is not MISSING})


def replies() -> st.SearchStrategy[Any]:
    """Chat-completion replies (as Python values) that are right, or wrong at any level."""
    top_logprob = fields(token=TOKENS, logprob=NUMBERS)
    first_token = fields(token=TOKENS, logprob=NUMBERS, top_logprobs=st.lists(top_logprob | JSON_VALUES, max_size=6))
    logprobs = fields(content=st.lists(first_token | JSON_VALUES, max_size=2))
    part = fields(type=st.sampled_from(["text", "image_url"]) | st.text(max_size=4), text=ANSWERS)
    content = ANSWERS | st.none() | st.lists(part | JSON_VALUES, max_size=3)
    choice = fields(message=fields(role=st.just("assistant"), content=content), text=ANSWERS, logprobs=logprobs)
    return fields(choices=st.lists(choice | JSON_VALUES, max_size=2)) | JSON_VALUES


def _dumps(value: Any) -> bytes:
    """JSON text of `value`; NaN and Infinity are written as Python's json does (servers built on it send them)."""
    return json.dumps(value, allow_nan=True).encode()


def reply_bodies() -> st.SearchStrategy[bytes]:
    """Raw reply bodies: serialised `replies()`, cut short, arbitrary bytes, deep nesting, absurd number literals."""
    serialised = replies().map(_dumps)
    cut = st.tuples(serialised, st.integers(min_value=0)).map(lambda t: t[0][:t[1] % (len(t[0]) + 1)])
    deep = st.integers(min_value=1, max_value=200_000).map(lambda n: b"[" * n + b"]" * n)
    long_digits = st.integers(min_value=4000, max_value=20_000).map(
        lambda n: b'{"choices": [{"message": {"content": "yes"}, "logprobs": {"content": [{"top_logprobs": '
                  b'[{"token": "yes", "logprob": -1' + b"0" * n + b"}]}]}}]}")
    return serialised | cut | st.binary(max_size=300) | deep | long_digits
