"""Fuzz tests of `android_gym.actions_text`: model output always becomes an `Action`, valid or flagged invalid.

`parse_action` is documented never to raise on text. Its catch-all turns a parser bug into an invalid action whose
`parse_error` starts with "internal parser error": these tests count that as a failure, like any exception. A parsed
action must be executable: points are (x, y) fractions in [0, 1] (or (-1, -1) when unused), an element index is
>= -1, and the dict form is a sample of `action_space()`. `format_action` raises only `ConfigError`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from android_gym.actions import Action, ActionType, action_space
from android_gym.actions_text import format_action, parse_action
from android_gym.errors import ConfigError

REAL_ACTIONS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "real" / "actions"
REAL_LINES = ([line.replace("\\n", "\n") for name in ("autoui_strings.txt", "androidworld_json.txt")
               for line in (REAL_ACTIONS / name).read_text(encoding="utf-8").split("\n") if line]
              if REAL_ACTIONS.is_dir() else [])
SPACE = action_space()
NO_POINT = (-1.0, -1.0)


def check_action(action: Action, text: object) -> None:
    """The documented invariants of a `parse_action` result."""
    assert isinstance(action, Action)
    if not isinstance(text, str):
        assert not action.is_parsed
        return
    assert action.raw == text
    event("parsed" if action.is_parsed else "invalid action")
    if not action.is_parsed:
        assert isinstance(action.parse_error, str) and action.parse_error
        assert not action.parse_error.startswith("internal parser error"), action.parse_error
        assert action.action_type == ActionType.WAIT
        return
    assert isinstance(action.action_type, ActionType)
    assert isinstance(action.text, str)
    assert type(action.element) is int and action.element >= -1
    for point in (action.touch, action.lift):
        assert all(isinstance(v, float) and math.isfinite(v) for v in point), point
        assert point == NO_POINT or all(0.0 <= v <= 1.0 for v in point), point
    if action.action_type in (ActionType.DUAL_POINT, ActionType.LONG_PRESS) and action.element < 0:
        assert NO_POINT not in (action.touch, action.lift), action
    assert SPACE.contains(action.to_dict())


def parse_checked(text: object, **kwargs) -> Action:
    """`parse_action(text)` with its invariants checked."""
    action = parse_action(text, **kwargs)
    check_action(action, text)
    return action


# -- arbitrary input ---------------------------------------------------------------------------------------------------
@given(st.text())
def test_any_text_gives_an_action(text):
    """Arbitrary Unicode (surrogates included) never raises and never hits the internal-error catch-all."""
    parse_checked(text)


@given(st.binary())
def test_any_bytes_decoded_give_an_action(data):
    """Model output bytes decoded with replacement (as a server or tokenizer might hand them over)."""
    parse_checked(data.decode("utf-8", "replace"))


@given(st.one_of(st.none(), st.integers(), st.floats(), st.binary(), st.lists(st.text()),
                 st.dictionaries(st.text(), st.text())))
def test_non_text_gives_an_invalid_action(value):
    """A non-str output is an invalid action, not an exception."""
    parse_checked(value)


TOKENS = ['"action_type"', ": ", '"DUAL_POINT"', '"TYPE"', '"PRESS_BACK"', '"touch_point"', '"lift_point"',
          '"typed_text"', '"[0.5, 0.5]"', '"[-1.0, -1.0]"', "[", "]", "{", "}", '"', "'", ",", "\\", "\n",
          "Action Decision:", "Action Plan:", "```json\n", "```", "'action_type'", '"click"', '"index"', '"x"',
          '"y"', "1e309", "-1", "NaN", "Infinity", "1" * 400, "0.5", "true", "null", "{'a': 1}", "Reason: "]


@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_action_shaped_token_soup_gives_an_action(text):
    """Concatenations of both grammars' tokens (braces, quotes, keys, numbers) reach the deep paths."""
    parse_checked(text)


# -- near-valid AutoUI strings -----------------------------------------------------------------------------------------
numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10**30, 10**30),
                    st.floats(0, 1), st.sampled_from([-1.0, -1, 0, 1, 1.0, 10**400, "1e309", "nan", "-inf", "", "x",
                                                      "0x10", "1_0", "٣", "--1", "1e-400"]))
point_text = st.one_of(st.tuples(numbers, numbers).map(lambda p: f"[{p[0]}, {p[1]}]"),
                       st.lists(numbers, max_size=4).map(lambda ps: "[" + ", ".join(map(str, ps)) + "]"),
                       st.text(max_size=10))
autoui_names = st.one_of(st.sampled_from(["DUAL_POINT", "TYPE", "PRESS_BACK", "PRESS_HOME", "PRESS_ENTER",
                                          "STATUS_TASK_COMPLETE", "STATUS_TASK_IMPOSSIBLE", "TASK_COMPLETE",
                                          "click", " dual_point ", "FLY", ""]), st.text(max_size=10))


@given(autoui_names, point_text, point_text, st.text(max_size=30), st.booleans(), st.booleans(),
       st.sampled_from(["", "```\n", "```json\n"]))
def test_near_valid_autoui_strings_give_valid_or_invalid_actions(name, touch, lift, typed, with_plan, with_newlines,
                                                                  fence):
    """AutoUI decisions with random names, points (huge, NaN, inf, garbage) and typed text."""
    sep = ",\n    " if with_newlines else ", "
    text = (("Action Plan: [DUAL_POINT,TYPE] ; " if with_plan else "") + "Action Decision: "
            f'"action_type": "{name}"{sep}"touch_point": "{touch}"{sep}"lift_point": "{lift}"{sep}'
            f'"typed_text": "{typed}"')
    parse_checked(fence + text + ("\n```" if fence else ""))


# -- near-valid AndroidWorld JSON --------------------------------------------------------------------------------------
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**25, 10**25), st.floats(), st.text(max_size=20),
                      st.sampled_from([10**400, -(10**400), 1e308, 5e-324, float("nan"), float("inf")]))
json_values = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                              st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                           max_leaves=12)
aw_names = st.one_of(st.sampled_from(["click", "long_press", "input_text", "keyboard_enter", "navigate_back",
                                      "navigate_home", "scroll", "swipe", "open_app", "status", "answer", "wait",
                                      "DUAL_POINT", "TYPE", "Click ", "fly"]), json_values)
aw_fields = st.fixed_dictionaries(
    {"action_type": aw_names},
    optional={"x": json_values, "y": json_values, "index": json_values, "text": json_values,
              "direction": st.one_of(st.sampled_from(["up", "down", "left", "right", " Down"]), json_values),
              "app_name": json_values, "goal_status": st.one_of(st.sampled_from(["complete", "infeasible"]),
                                                                json_values),
              "touch_point": json_values, "lift_point": json_values, "typed_text": json_values},
)


def dumps(obj: object, style: str) -> str:
    """`obj` as a model might write it: JSON, Python-literal (single quotes) or JSON with non-finite numbers."""
    if style == "python":
        return repr(obj)
    return json.dumps(obj, allow_nan=True, ensure_ascii=style == "ascii")


# A Python-literal dict may mix key types; json.dumps writes these keys as strings.
extra_keys = st.dictionaries(st.one_of(st.integers(), st.none(), st.booleans(), st.floats(allow_nan=False),
                                       st.text(max_size=5)), json_leaf, max_size=3)


@given(st.builds(lambda extra, obj: {**extra, **obj}, extra_keys, aw_fields),
       st.sampled_from(["json", "ascii", "python"]),
       st.sampled_from(["", "Reason: tap it.\nAction: ", "Thought: {not json} "]),
       st.sampled_from(["", "```json\n"]), st.integers(0, 3))
def test_near_valid_androidworld_json_gives_valid_or_invalid_actions(obj, style, prose, fence, extra_braces):
    """AndroidWorld actions with random values (huge numbers, NaN/inf, nested objects, mixed key types).

    Written as JSON or Python literals, after prose, in fences, inside stray braces.
    """
    body = "{" * extra_braces + dumps(obj, style) + "}" * extra_braces
    parse_checked(prose + fence + body + ("\n```" if fence else ""))


@given(st.integers(1, 5_000), st.sampled_from(["{", "[", "{\"action_type\": ", "{'action_type': ["]),
       st.booleans())
def test_deeply_nested_braces_give_an_action_within_the_deadline(depth, opener, closed):
    """Thousands of nested brackets (the JSON and literal parsers recurse) stay an invalid action, fast."""
    closer = {"{": "}", "[": "]", "{\"action_type\": ": "}", "{'action_type': [": "]}"}[opener]
    parse_checked(opener * depth + ('"click"' if "action_type" in opener else "") + (closer * depth if closed else ""))


@given(st.integers(1, 3_000), st.sampled_from(['{"action_type": "click", "x": 1, "y": 1}', "{", "}", "{'a'",
                                                '"action_type"']))
def test_many_brace_candidates_stay_within_the_deadline(count, unit):
    """Adversarially many brace spans and action_type keys (each tried as JSON and as a literal)."""
    parse_checked(unit * count)


@pytest.mark.skipif(not REAL_LINES, reason=f"real action fixtures not found at {REAL_ACTIONS}")
@given(st.sampled_from(REAL_LINES or [""]), st.integers(0, 10**6), st.integers(0, 50), st.text(max_size=10))
def test_mutated_real_outputs_give_an_action(line, at, span, insert):
    """Real model outputs with a random slice replaced by random text."""
    i = at % (len(line) + 1)
    parse_checked(line[:i] + insert + line[i + span:])


# -- screen sizes and formatting --------------------------------------------------------------------------------------
@given(st.one_of(st.tuples(st.integers(-5, 10**6), st.integers(-5, 10**6)), st.tuples(st.floats(), st.floats()),
                 st.lists(st.integers(), max_size=3), st.text(max_size=5), st.none()),
       st.sampled_from(['{"action_type": "click", "x": 540, "y": 1200}', '{"action_type": "click", "x": 0.5, "y": 1}']))
def test_screen_size_is_valid_or_a_config_error(screen_size, text):
    """`screen_size` is caller input: anything but two positive integers is `ConfigError`, never another error."""
    try:
        parse_checked(text, screen_size=screen_size)
    except ConfigError:
        pass


fractions = st.floats(0, 1).map(lambda v: round(v, 4))
actions = st.one_of(
    st.builds(Action.tap, fractions, fractions),
    st.builds(Action.swipe, fractions, fractions, fractions, fractions),
    st.builds(Action.type, st.text(st.characters(exclude_characters='"', exclude_categories=("Cs",)), max_size=30)),
    st.sampled_from([Action.key(k) for k in (ActionType.PRESS_BACK, ActionType.PRESS_HOME, ActionType.PRESS_ENTER,
                                             ActionType.STATUS_TASK_COMPLETE, ActionType.STATUS_TASK_IMPOSSIBLE,
                                             ActionType.WAIT)]),
    st.builds(lambda kind, point, element: Action(kind, point, point, element=element),
              st.sampled_from([ActionType.LONG_PRESS, ActionType.DUAL_POINT]), st.tuples(fractions, fractions),
              st.integers(-1, 500)),
    st.builds(lambda kind, text: Action(kind, text=text), st.sampled_from([ActionType.OPEN_APP]),
              st.text(min_size=1, max_size=20)),
)


@given(actions, st.sampled_from(["autoui", "androidworld"]),
       st.tuples(st.integers(1, 4000), st.integers(1, 4000)))
def test_format_then_parse_gives_a_valid_action_or_config_error(action, style, screen_size):
    """`format_action` raises only `ConfigError`, and what it writes parses back to a valid action."""
    try:
        text = format_action(action, style, screen_size=screen_size)
    except ConfigError:
        return
    assert parse_checked(text, screen_size=screen_size).is_parsed
