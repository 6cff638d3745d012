"""Tests of `android_gym.actions_text`: parsing real model outputs, garbage, validation and format round trips."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from android_gym.actions import Action, ActionType
from android_gym.actions_text import format_action, parse_action
from android_gym.errors import ConfigError, UnknownNameError

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "real" / "actions"

T = ActionType
AUTOUI_TYPES = [T.DUAL_POINT, T.DUAL_POINT, T.DUAL_POINT, T.TYPE, T.PRESS_HOME, T.TYPE, T.STATUS_TASK_COMPLETE, T.TYPE]
ANDROIDWORLD_TYPES = (
    [T.DUAL_POINT] * 8 + [T.TYPE] * 5 + [T.PRESS_ENTER, T.PRESS_BACK] + [T.OPEN_APP] * 3
    + [T.DUAL_POINT, T.STATUS_TASK_COMPLETE, T.STATUS_TASK_COMPLETE, T.STATUS_TASK_COMPLETE, None, T.DUAL_POINT, T.TYPE]
)  # None: the line holds no action and must parse to an invalid one


def fixture_lines(name: str) -> list[str]:
    """The outputs in fixture file `name`, one per line, with the file's backslash-n escapes made newlines."""
    path = FIXTURES / name
    if not path.is_file():
        pytest.skip(f"fixture {path} is absent")
    return [line.replace("\\n", "\n") for line in path.read_text(encoding="utf-8").split("\n") if line]


def autoui(kind: str, touch: str = "[-1.0, -1.0]", lift: str = "[-1.0, -1.0]", text: str = "") -> str:
    """An AutoUI decision string with the given fields (points written [y, x])."""
    return (f'Action Decision: "action_type": "{kind}", "touch_point": "{touch}", "lift_point": "{lift}", '
            f'"typed_text": "{text}"')


# -- real fixtures ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["autoui_strings.txt", "androidworld_json.txt"])
def test_parse_keeps_raw_for_every_fixture_line(name: str) -> None:
    """Every fixture line parses without raising, to an Action that keeps the text as `raw`."""
    for line in fixture_lines(name):
        action = parse_action(line)
        assert isinstance(action, Action)
        assert action.raw == line


@pytest.mark.parametrize(("name", "expected"), [("autoui_strings.txt", AUTOUI_TYPES),
                                                ("androidworld_json.txt", ANDROIDWORLD_TYPES)])
def test_parse_gives_expected_type_for_fixture_lines(name: str, expected: list[ActionType | None]) -> None:
    """Each fixture line parses to its known action type (None: invalid)."""
    lines = fixture_lines(name)
    assert len(lines) == len(expected)
    for number, (line, kind) in enumerate(zip(lines, expected, strict=True), start=1):
        action = parse_action(line)
        if kind is None:
            assert not action.is_parsed, f"line {number}: {line!r}"
        else:
            assert action.is_parsed, f"line {number}: {action.parse_error}"
            assert action.action_type == kind, f"line {number}: {line!r}"


def test_parse_converts_yx_to_xy_for_autoui_plan_line() -> None:
    """AutoUI line 1 (plan ; decision, [y, x] points) is a tap at x=0.4187, y=0.911."""
    action = parse_action(fixture_lines("autoui_strings.txt")[0])
    assert action == Action.tap(0.4187, 0.911)
    assert action.is_tap


def test_parse_gives_swipe_for_autoui_line_with_trailing_space() -> None:
    """AutoUI line 3 (touch != lift, trailing space) is a swipe from (0.5, 0.8) to (0.5, 0.2)."""
    line = fixture_lines("autoui_strings.txt")[2]
    assert line.endswith(" ")
    action = parse_action(line)
    assert action == Action.swipe(0.5, 0.8, 0.5, 0.2)
    assert not action.is_tap


def test_parse_reads_bare_and_multiline_autoui() -> None:
    """Bare AutoUI strings (no prefix) and the pretty-printed multi-line form parse to TYPE with their text."""
    lines = fixture_lines("autoui_strings.txt")
    assert parse_action(lines[5]) == Action.type("capital of England")
    assert "\n" in lines[7]
    assert parse_action(lines[7]) == Action.type("macbook air")


def test_parse_reads_androidworld_fixture_values() -> None:
    """AndroidWorld lines give their element index, text, app name, scroll path and answer."""
    lines = fixture_lines("androidworld_json.txt")
    assert parse_action(lines[6]) == Action(T.DUAL_POINT, element=53)
    assert parse_action(lines[12]) == Action.type("The dog's vet appointment is next Monday at 11 AM.").with_element(21)
    assert parse_action(lines[16]) == Action(T.OPEN_APP, text="Files by Google")
    assert parse_action(lines[18]) == Action.swipe(0.5, 0.7, 0.5, 0.3)
    assert parse_action(lines[20]) == Action.key(T.STATUS_TASK_COMPLETE)  # Python-dict quotes after "Reason:"
    assert parse_action(lines[21]) == Action(T.STATUS_TASK_COMPLETE, text="fake answer.")
    assert parse_action(lines[23]) == Action.swipe(0.5, 0.7, 0.5, 0.3)  # "{about it}" before the action
    assert parse_action(lines[24]) == Action.type("hi there").with_element(3)  # lower-case "action:"


def test_parse_is_invalid_for_output_without_action() -> None:
    """AndroidWorld's "Output in incorrect format." reply is an invalid action with a reason."""
    line = fixture_lines("androidworld_json.txt")[22]
    action = parse_action(line)
    assert action.action_type == T.WAIT
    assert "no action found" in action.parse_error
    assert action.raw == line


# -- AutoUI details ---------------------------------------------------------------------------------------------------
def test_parse_keeps_quotes_and_commas_in_typed_text() -> None:
    """`typed_text` is the last field, so quotes, commas and key-like text inside it survive."""
    text = 'say "hi", "touch_point": "[0.1, 0.1]", then go'
    assert parse_action(autoui("TYPE", text=text)) == Action.type(text)


@pytest.mark.parametrize(("name", "kind"), [("TASK_COMPLETE", T.STATUS_TASK_COMPLETE),
                                            ("TASK_IMPOSSIBLE", T.STATUS_TASK_IMPOSSIBLE),
                                            ("PRESS_BACK", T.PRESS_BACK), ("PRESS_ENTER", T.PRESS_ENTER)])
def test_parse_maps_autoui_names_and_aliases(name: str, kind: ActionType) -> None:
    """AutoUI key and status names, including the TASK_* aliases, map to their ActionType."""
    assert parse_action(autoui(name)) == Action.key(kind)


def test_parse_is_invalid_for_out_of_range_autoui_point() -> None:
    """A point outside [0, 1] is reported, never clipped."""
    action = parse_action(autoui("DUAL_POINT", "[1.7, 0.2]", "[0.5, 0.5]"))
    assert not action.is_parsed
    assert "touch_point" in action.parse_error and "outside [0, 1]" in action.parse_error


@pytest.mark.parametrize("touch", ["[abc, 0.2]", "[0.2]", "[nan, 0.2]", "[-1.0, -1.0]"])
def test_parse_is_invalid_for_bad_autoui_dual_point(touch: str) -> None:
    """Non-numeric, one-number, NaN or unused (-1) touch points make a DUAL_POINT invalid."""
    action = parse_action(autoui("DUAL_POINT", touch, "[0.5, 0.5]"))
    assert not action.is_parsed
    assert "touch_point" in action.parse_error


def test_parse_names_unknown_autoui_type() -> None:
    """An unknown AutoUI type is named in the reason, with the closest known name."""
    action = parse_action(autoui("PRESS_HOM"))
    assert "'PRESS_HOM'" in action.parse_error and "did you mean 'PRESS_HOME'" in action.parse_error


# -- AndroidWorld details ---------------------------------------------------------------------------------------------
def test_parse_converts_pixels_with_screen_size() -> None:
    """Click x, y are pixels of `screen_size`; floats in [0, 1] are fractions already."""
    assert parse_action('{"action_type": "click", "x": 540, "y": 1200}') == Action.tap(0.5, 0.5)
    assert parse_action('{"action_type": "click", "x": 360, "y": 640}', screen_size=(720, 1280)) == Action.tap(0.5, 0.5)
    assert parse_action('{"action_type": "click", "x": 0.25, "y": 0.75}') == Action.tap(0.25, 0.75)


def test_parse_is_invalid_for_click_off_screen() -> None:
    """A click outside the screen is invalid and names the screen size."""
    action = parse_action('{"action_type": "click", "x": 5000, "y": 100}')
    assert not action.is_parsed
    assert "1080x2400" in action.parse_error


@pytest.mark.parametrize(("direction", "touch", "lift"), [("down", (0.5, 0.7), (0.5, 0.3)),
                                                          ("up", (0.5, 0.3), (0.5, 0.7)),
                                                          ("right", (0.7, 0.5), (0.3, 0.5)),
                                                          ("left", (0.3, 0.5), (0.7, 0.5))])
def test_parse_maps_scroll_and_swipe_directions(direction: str, touch: tuple, lift: tuple) -> None:
    """A scroll names the content's direction; swipe names the finger's, the opposite sense."""
    assert parse_action(f'{{"action_type": "scroll", "direction": "{direction}"}}') == Action.swipe(*touch, *lift)
    opposite = {"down": "up", "up": "down", "left": "right", "right": "left"}[direction]
    assert parse_action(f'{{"action_type": "swipe", "direction": "{opposite}"}}') == Action.swipe(*touch, *lift)


@pytest.mark.parametrize(("text", "expected"), [
    ('{"action_type": "navigate_home"}', Action.key(T.PRESS_HOME)),
    ('{"action_type": "wait"}', Action.key(T.WAIT)),
    ('{"action_type": "status", "goal_status": "infeasible"}', Action.key(T.STATUS_TASK_IMPOSSIBLE)),
    ('{"action_type": "long_press", "x": 540, "y": 600}', Action(T.LONG_PRESS, (0.5, 0.25), (0.5, 0.25))),
    ('{"action_type": "long_press", "index": 4}', Action(T.LONG_PRESS, element=4)),
    ('{"action_type": "scroll", "direction": "down", "index": 2}', Action.swipe(0.5, 0.7, 0.5, 0.3).with_element(2)),
    ('{"action_type": "input_text", "text": 5550100}', Action.type("5550100")),
    ("{'action_type': 'click', 'index': '7'}", Action(T.DUAL_POINT, element=7)),
])
def test_parse_maps_androidworld_actions(text: str, expected: Action) -> None:
    """The remaining AndroidWorld action types map to their Action."""
    assert parse_action(text) == expected


@pytest.mark.parametrize(("text", "fragment"), [
    ('{"action_type": "fly"}', "'fly'"),
    ('{"action_type": "clik", "index": 1}', "did you mean 'click'"),
    ('{"action_type": "status", "goal_status": "maybe"}', "goal_status"),
    ('{"action_type": "scroll", "direction": "sideways"}', "direction"),
    ('{"action_type": "click"}', '"index" or both "x" and "y"'),
    ('{"action_type": "click", "index": -2}', "index"),
    ('{"action_type": "click", "x": "left", "y": 3}', "`x`"),
    ('{"action_type": "open_app", "app_name": ""}', "app_name"),
    ('{"action_type": 5}', "must be a string"),
    ('"action_type": "click", "x": 5', "no parsable"),
])
def test_parse_explains_invalid_androidworld(text: str, fragment: str) -> None:
    """Bad AndroidWorld actions are invalid with a reason naming what was wrong."""
    action = parse_action(text)
    assert not action.is_parsed
    assert fragment in action.parse_error


@pytest.mark.parametrize("text", [
    '```json\n{"action_type": "navigate_back"}\n```',
    "Sure!\n```\n" + autoui("PRESS_BACK") + "\n```\nDone.",
    '```{"action_type": "navigate_back"}```',
])
def test_parse_strips_markdown_code_fences(text: str) -> None:
    """Code fences around either form are ignored."""
    assert parse_action(text) == Action.key(T.PRESS_BACK)


def test_parse_reads_autoui_fields_written_as_dict() -> None:
    """An AutoUI action written as a JSON object (points as strings or lists) parses like the string form."""
    text = '{"action_type": "DUAL_POINT", "touch_point": "[0.8, 0.5]", "lift_point": [0.2, 0.5], "typed_text": ""}'
    assert parse_action(text) == Action.swipe(0.5, 0.8, 0.5, 0.2)


def test_parse_uses_last_action_object() -> None:
    """With several JSON objects, the last one holding action_type wins, also when nested in a wrapper."""
    text = '{"action_type": "navigate_home"} no, rather {"action_type": "navigate_back"} {"note": 1}'
    assert parse_action(text) == Action.key(T.PRESS_BACK)
    assert parse_action('{"action": {"action_type": "wait"}}') == Action.key(T.WAIT)


# -- garbage ----------------------------------------------------------------------------------------------------------
GARBAGE = [
    "", "   \n ", "{", "}", "{}", "{{{}}}", "{" * 10_000, "}" * 10_000, "a" * 10_000, "[" * 10_000,
    '{"action_type": {' * 3_000 + "}" * 3_000, '{"action_type": "click", ' * 2_000, "{'a': 1" * 5_000,
    '"action_type": "' * 3_000, '{"action_type": 5}', '{"action_type": null}', '{"action_type": "click", "x": NaN, '
    '"y": 1}', "Action Decision:", 'Action Decision: "action_type": "TYPE", "typed_text": "unterminated',
    '{"action_type": "click", "x": 1e999, "y": 1}', "{'action_type': 'click', 'x': " + "9" * 5_000 + "}",
    "```", "```json\n```", "\x00\x01{\x02}", "{'action_type'}",
    '{"action_type": "click", "x": 1' + "0" * 400 + ', "y": 1}',
    '{"action_type": "click", "index": 1' + "0" * 400 + "}", '{"action_type": "input_text", "text": ["a"]}',
]


@pytest.mark.parametrize("text", GARBAGE, ids=range(len(GARBAGE)))
def test_parse_never_raises_on_garbage(text: str) -> None:
    """Garbage gives an invalid Action with a reason, never an exception or an internal error."""
    action = parse_action(text)
    assert not action.is_parsed
    assert not action.parse_error.startswith("internal")
    assert action.raw == text


def test_parse_never_raises_on_random_text() -> None:
    """Random bytes decoded as UTF-8 or Latin-1, with braces and quotes mixed in, never raise."""
    rng = np.random.default_rng(0)
    alphabet = list('{}[]"\':,\\ \naction_type"DUAL_POINT') + ['"action_type"', '"click"', "Action Decision:"]
    for _ in range(300):
        raw = rng.integers(0, 256, size=int(rng.integers(0, 200)), dtype=np.uint8).tobytes()
        pieces = rng.choice(alphabet, size=int(rng.integers(0, 60)))
        for text in (raw.decode("utf-8", errors="replace"), raw.decode("latin-1"), "".join(pieces)):
            action = parse_action(text)
            assert isinstance(action, Action)
            assert not (action.parse_error or "").startswith("internal")


@pytest.mark.parametrize("value", [None, 5, b'{"action_type": "wait"}', ["x"]])
def test_parse_is_invalid_for_non_str(value: object) -> None:
    """A non-str input gives an invalid action naming the type it got."""
    action = parse_action(value)  # type: ignore[arg-type]
    assert not action.is_parsed
    assert type(value).__name__ in action.parse_error


def test_parse_raises_for_bad_screen_size() -> None:
    """A bad `screen_size` is a caller bug and raises ConfigError naming it."""
    with pytest.raises(ConfigError, match="screen_size"):
        parse_action('{"action_type": "wait"}', screen_size=(0, 100))


# -- formatting and round trips ---------------------------------------------------------------------------------------
def random_point(rng: np.random.Generator) -> tuple[float, float]:
    """A point with 4-decimal coordinates, exactly representable in the AutoUI string form."""
    return round(float(rng.uniform()), 4), round(float(rng.uniform()), 4)


def random_text(rng: np.random.Generator) -> str:
    """Printable text with quotes, commas, braces and sometimes a newline or non-ASCII."""
    chars = list('abc XYZ019",\'{}[]:\\') + ["\n", "é", "漢"]
    return "".join(rng.choice(chars, size=int(rng.integers(0, 30))))


def random_autoui_action(rng: np.random.Generator) -> Action:
    """A random action the AutoUI style represents exactly."""
    kind = [T.DUAL_POINT, T.TYPE, T.PRESS_BACK, T.PRESS_HOME, T.PRESS_ENTER, T.STATUS_TASK_COMPLETE,
            T.STATUS_TASK_IMPOSSIBLE][int(rng.integers(7))]
    if kind == T.DUAL_POINT:
        touch = random_point(rng)
        return Action.tap(*touch) if rng.uniform() < 0.5 else Action.swipe(*touch, *random_point(rng))
    return Action(kind, text=random_text(rng) if kind in (T.TYPE, T.STATUS_TASK_COMPLETE) else "")


def random_androidworld_action(rng: np.random.Generator, width: int, height: int) -> Action:
    """A random action the AndroidWorld style represents exactly (pixel-grid points, canonical scrolls)."""
    element = int(rng.integers(0, 100))
    point = (int(rng.integers(0, width + 1)) / width, int(rng.integers(0, height + 1)) / height)
    scroll = ((0.5, 0.7), (0.5, 0.3), (0.5, 0.3), (0.5, 0.7), (0.7, 0.5), (0.3, 0.5), (0.3, 0.5), (0.7, 0.5))
    i = 2 * int(rng.integers(4))
    choices = [
        Action.tap(*point), Action(T.DUAL_POINT, element=element), Action(T.LONG_PRESS, point, point),
        Action(T.LONG_PRESS, element=element), Action(T.DUAL_POINT, scroll[i], scroll[i + 1]),
        Action(T.DUAL_POINT, scroll[i], scroll[i + 1], element=element), Action.type(random_text(rng)),
        Action.type(random_text(rng)).with_element(element), Action(T.TYPE, point, point, random_text(rng)),
        Action(T.OPEN_APP, text="Simple SMS Messenger"), Action(T.STATUS_TASK_COMPLETE, text=random_text(rng) + "x"),
    ] + [Action.key(k) for k in (T.PRESS_BACK, T.PRESS_HOME, T.PRESS_ENTER, T.STATUS_TASK_COMPLETE,
                                 T.STATUS_TASK_IMPOSSIBLE, T.WAIT)]
    return choices[int(rng.integers(len(choices)))]


def test_format_round_trips_random_actions_autoui() -> None:
    """parse_action(format_action(a)) == a for random AutoUI-representable actions."""
    rng = np.random.default_rng(1)
    for _ in range(500):
        action = random_autoui_action(rng)
        text = format_action(action)
        assert text.startswith('Action Decision: "action_type": ')
        assert parse_action(text) == action, text


@pytest.mark.parametrize("screen_size", [(1080, 2400), (720, 1280)])
def test_format_round_trips_random_actions_androidworld(screen_size: tuple[int, int]) -> None:
    """parse_action(format_action(a, "androidworld")) == a for random AndroidWorld-representable actions."""
    rng = np.random.default_rng(2)
    for _ in range(500):
        action = random_androidworld_action(rng, *screen_size)
        text = format_action(action, "androidworld", screen_size=screen_size)
        assert parse_action(text, screen_size=screen_size) == action, text


def test_format_writes_androidworld_json() -> None:
    """The AndroidWorld style writes the compact JSON of AndroidWorld's own logs."""
    assert format_action(Action(T.DUAL_POINT, element=12), "androidworld") == '{"action_type": "click", "index": 12}'
    assert format_action(Action.key(T.PRESS_ENTER), "androidworld") == '{"action_type": "keyboard_enter"}'
    assert (format_action(Action.type("Alex").with_element(7), "androidworld")
            == '{"action_type": "input_text", "text": "Alex", "index": 7}')
    assert (format_action(Action.key(T.STATUS_TASK_COMPLETE), "androidworld")
            == '{"action_type": "status", "goal_status": "complete"}')


@pytest.mark.parametrize(("touch", "lift", "direction"), [((0.4, 0.9), (0.45, 0.1), "down"),
                                                          ((0.4, 0.2), (0.4, 0.6), "up"),
                                                          ((0.9, 0.5), (0.1, 0.45), "right"),
                                                          ((0.1, 0.5), (0.8, 0.5), "left")])
def test_format_infers_scroll_direction_for_swipe(touch: tuple, lift: tuple, direction: str) -> None:
    """A swipe becomes the scroll of its dominant axis, in the opposite sense of the finger."""
    text = format_action(Action.swipe(*touch, *lift), "androidworld")
    assert text == f'{{"action_type": "scroll", "direction": "{direction}"}}'


def test_format_raises_for_unknown_style() -> None:
    """An unknown style raises a ConfigError that suggests and lists the known styles."""
    with pytest.raises(UnknownNameError, match="did you mean 'autoui'.*androidworld"):
        format_action(Action.tap(0.5, 0.5), style="autoiu")


@pytest.mark.parametrize("action", [
    Action(T.OPEN_APP, text="Clock"), Action(T.LONG_PRESS, (0.5, 0.5), (0.5, 0.5)), Action.key(T.WAIT),
    Action(T.DUAL_POINT, element=3), Action(T.TYPE, (0.5, 0.5), (0.5, 0.5), "hi"), Action.tap(1.5, 0.5),
])
def test_format_raises_for_action_autoui_cannot_represent(action: Action) -> None:
    """AutoUI has no OPEN_APP, LONG_PRESS, WAIT, element index or off-screen point: ConfigError, not lossy text."""
    with pytest.raises(ConfigError, match="AutoUI|action.touch"):
        format_action(action)


@pytest.mark.parametrize("style", ["autoui", "androidworld"])
def test_format_raises_for_invalid_action(style: str) -> None:
    """An invalid parse result has nothing to format and raises ConfigError."""
    with pytest.raises(ConfigError, match="invalid parse result"):
        format_action(parse_action("nonsense"), style)


def test_import_works_for_actions_text_first() -> None:
    """Importing actions_text before anything else of android_gym works."""
    code = "import android_gym.actions_text as t; print(t.parse_action('{\"action_type\": \"wait\"}').is_parsed)"
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_from_any_refuses_text_naming_the_parser() -> None:
    """Action.from_any takes structured actions; text gets an error that names parse_action, which reads it."""
    with pytest.raises(ConfigError, match="parse_action"):
        Action.from_any('{"action_type": "navigate_home"}')
    assert parse_action('{"action_type": "navigate_home"}') == Action.key(T.PRESS_HOME)
