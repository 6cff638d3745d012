r"""Text forms of `Action`: parse model output (AutoUI/DigiRL strings, AndroidWorld JSON) and format actions back.

Two formats are understood:

* **AutoUI / DigiRL** strings, e.g. ``Action Plan: [...] ; Action Decision: "action_type": "DUAL_POINT",
  "touch_point": "[y, x]", "lift_point": "[y, x]", "typed_text": ""``. Points are written ``[y, x]`` screen
  fractions and ``[-1.0, -1.0]`` means unused; `parse_action` converts them to our (x, y).
* **AndroidWorld** JSON actions (or the same dict with Python single quotes), possibly after prose such as
  ``Reason: ...\nAction: {...}``; the last balanced ``{...}`` holding an ``"action_type"`` is used. Points are
  pixels of a `screen_size` screen, unless both are floats in [0, 1] (then they are fractions already).

Either may be wrapped in markdown code fences. `parse_action` never raises on text: whatever it cannot understand
becomes `Action.invalid(reason, raw=text)`, which the env executes as a no-op and reports in `info`.
"""

from __future__ import annotations

import ast
import bisect
import json
import math
import re
import reprlib
from dataclasses import replace
from typing import Any

from android_gym.errors import ConfigError, closest, unknown_name

STYLES = ("autoui", "androidworld")
"""The styles `format_action` writes."""

DEFAULT_SCREEN_SIZE = (1080, 2400)
"""(width, height) in pixels assumed for AndroidWorld pixel coordinates (the AndroidWorld emulator's Pixel 6)."""

_MAX_CANDIDATES = 64  # brace spans tried per output, so adversarial text (thousands of braces) stays fast
# Characters handed to the JSON and literal parsers per output, all candidates together (issue 20): 64 nested
# 200 KB spans took 20 s in ast.literal_eval (~2 us a character); 128 Ki characters cost at most ~0.3 s. A span
# longer than what is left is skipped (a real action object is well under 1 KB).
_MAX_LOAD_CHARS = 1 << 17

_FENCE = re.compile(r"```(?:[A-Za-z0-9_+-]*[ \t]*\r?\n)?")
_DECISION = re.compile(r"action\s+decision\s*:", re.IGNORECASE)
_AUTOUI_TYPE = re.compile(r'"action_type"\s*:\s*"([^"]*)"')
_AUTOUI_TEXT = re.compile(r'"typed_text"\s*:\s*"(.*)"', re.DOTALL)
_AUTOUI_POINT = {key: re.compile(rf'"{key}"\s*:\s*"?\s*(\[?[^\]"]*\]?)') for key in ("touch_point", "lift_point")}

# AutoUI action names (and aliases seen in the wild) -> ActionType member names.
_AUTOUI_NAMES = {
    "DUAL_POINT": "DUAL_POINT",
    "TYPE": "TYPE",
    "PRESS_BACK": "PRESS_BACK",
    "PRESS_HOME": "PRESS_HOME",
    "PRESS_ENTER": "PRESS_ENTER",
    "STATUS_TASK_COMPLETE": "STATUS_TASK_COMPLETE",
    "STATUS_TASK_IMPOSSIBLE": "STATUS_TASK_IMPOSSIBLE",
    "TASK_COMPLETE": "STATUS_TASK_COMPLETE",
    "TASK_IMPOSSIBLE": "STATUS_TASK_IMPOSSIBLE",
}

# Finger paths (touch, lift) of AndroidWorld's scroll: "down" reveals content below, so the finger moves up.
_SCROLL = {
    "down": ((0.5, 0.7), (0.5, 0.3)),
    "up": ((0.5, 0.3), (0.5, 0.7)),
    "right": ((0.7, 0.5), (0.3, 0.5)),
    "left": ((0.3, 0.5), (0.7, 0.5)),
}
# A swipe names the finger's direction, the opposite sense of a scroll.
_SWIPE = {"up": _SCROLL["down"], "down": _SCROLL["up"], "left": _SCROLL["right"], "right": _SCROLL["left"]}
_NO_POINT = (-1.0, -1.0)


class _Invalid(Exception):
    """Raised by the helpers below; `parse_action` turns it into `Action.invalid(reason)`; never escapes."""


def parse_action(text: str, *, screen_size: tuple[int, int] = DEFAULT_SCREEN_SIZE) -> Action:
    r"""Parse one model output into an `Action`; never raises on text.

    Args:
        text: the model output: an AutoUI/DigiRL string or an AndroidWorld JSON action, optionally with prose
            before it and markdown code fences around it.
        screen_size: (width, height) in pixels of the screen AndroidWorld pixel coordinates refer to.

    Returns:
        The action, with `raw=text`. Output that cannot be understood (no action, an unknown action type,
        non-numeric points, points off the screen, which are never clipped silently) gives
        `Action.invalid(reason, raw=text)`, whose `parse_error` says what was wrong. A non-str `text` gives an
        invalid action too. The work is bounded whatever the length: at most 64 ``{...}`` spans and 128 Ki
        characters in all are tried as JSON or literals, so a longer object is not found.

    Raises:
        ConfigError: `screen_size` is not two positive integers (a caller bug, not a model-output problem).

    Examples:
        >>> a = parse_action('Action Decision: "action_type": "DUAL_POINT", "touch_point": "[0.911, 0.4187]", '
        ...                  '"lift_point": "[0.911, 0.4187]", "typed_text": ""')
        >>> a.action_type.name, a.touch, a.is_tap
        ('DUAL_POINT', (0.4187, 0.911), True)
        >>> parse_action('Reason: tap OK.\nAction: {"action_type": "click", "x": 540, "y": 1200}').touch
        (0.5, 0.5)
        >>> parse_action("{'action_type': 'open_app', 'app_name': 'Clock'}").text
        'Clock'
        >>> parse_action('{"action_type": "fly"}').parse_error.split(";")[0]
        "unknown AndroidWorld `action_type` 'fly'"
        >>> parse_action("Output in incorrect format.").is_parsed
        False
    """
    width, height = _check_screen_size(screen_size)
    if not isinstance(text, str):
        return Action.invalid(f"`text` must be a str of model output, got {type(text).__name__}")
    try:
        return replace(_parse(text, width, height), raw=text)
    except _Invalid as e:
        return Action.invalid(str(e), raw=text)
    except Exception as e:  # a parser bug must become an invalid action, never crash env.step()
        return Action.invalid(f"internal parser error {type(e).__name__}: {e}", raw=text)


def format_action(
    action: Action, style: str = "autoui", *, screen_size: tuple[int, int] = DEFAULT_SCREEN_SIZE
) -> str:
    """Write `action` as model-output text that `parse_action` reads back.

    Args:
        action: a parsed action (`action.is_parsed`).
        style: ``"autoui"`` for the DigiRL string (points as ``[y, x]`` fractions rounded to 4 decimals), or
            ``"androidworld"`` for compact JSON (points as integer pixels of `screen_size`; an element index when
            `action.element >= 0`; a swipe becomes the ``scroll`` of its dominant direction).
        screen_size: (width, height) in pixels, used by the ``"androidworld"`` style.

    Returns:
        The text. ``parse_action(format_action(a)) == a`` for every action the style represents exactly: in
        ``"autoui"`` style, points with at most 4 decimals; in ``"androidworld"`` style, taps on the pixel grid,
        element actions and the canonical scroll paths.

    Raises:
        ConfigError: `style` is unknown (`UnknownNameError`); `action` is not a parsed `Action`; or the style
            cannot represent it (AutoUI has no OPEN_APP, LONG_PRESS, WAIT or element index, and writes points
            only for DUAL_POINT); or a point that must be written is off the screen; or an OPEN_APP has no app
            name (blank text, which `parse_action` reads back as invalid).

    Examples:
        >>> print(format_action(Action.tap(0.4187, 0.911)))  # doctest: +NORMALIZE_WHITESPACE
        Action Decision: "action_type": "DUAL_POINT", "touch_point": "[0.911, 0.4187]",
        "lift_point": "[0.911, 0.4187]", "typed_text": ""
        >>> format_action(Action.tap(0.5, 0.5), "androidworld")
        '{"action_type": "click", "x": 540, "y": 1200}'
        >>> format_action(Action.swipe(0.5, 0.7, 0.5, 0.3), "androidworld")
        '{"action_type": "scroll", "direction": "down"}'
        >>> parse_action(format_action(Action.type('say "hi", then go'))) == Action.type('say "hi", then go')
        True
    """
    if style not in STYLES:
        raise unknown_name("action style", str(style), STYLES)
    if not isinstance(action, Action):
        raise ConfigError(f"`action` must be an Action, got {type(action).__name__}; use parse_action() on text")
    if not action.is_parsed:
        raise ConfigError(f"`action` is an invalid parse result ({action.parse_error}); there is nothing to format")
    if style == "autoui":
        return _format_autoui(action)
    return json.dumps(_to_androidworld(action, *_check_screen_size(screen_size)), ensure_ascii=False)


# -- parsing ----------------------------------------------------------------------------------------------------------
def _parse(text: str, width: int, height: int) -> Action:
    body = _FENCE.sub("", text).strip()
    if not body:
        raise _Invalid("empty model output; expected an AutoUI string or an AndroidWorld JSON action")
    obj = _last_action_dict(body)
    if obj is not None:
        return _from_dict(obj, width, height)
    decision = _DECISION.search(body)
    segment = body[decision.end():] if decision else body
    match = _AUTOUI_TYPE.search(segment)
    if match is None:
        raise _Invalid(f"no action found in {_preview(body)}; expected an AndroidWorld JSON object with "
                       '"action_type" or an AutoUI string like "action_type": "DUAL_POINT", "touch_point": ...')
    typed = _AUTOUI_TEXT.search(segment, match.end())
    if typed is None and '"typed_text"' in segment:
        raise _Invalid('AutoUI `typed_text` has no closing quote; the output looks truncated')
    head = segment[: typed.start()] if typed else segment  # points precede typed_text, which may contain anything
    points = {key: m.group(1) if (m := regex.search(head)) else None for key, regex in _AUTOUI_POINT.items()}
    return _from_autoui(match.group(1), points["touch_point"], points["lift_point"], typed.group(1) if typed else "")


def _last_action_dict(body: str) -> dict[str, Any] | None:
    """The dict of the last balanced ``{...}`` in `body` that parses (JSON or Python literal) and has action_type.

    At most `_MAX_CANDIDATES` spans and `_MAX_LOAD_CHARS` characters in all are parsed, so the work per output is
    bounded whatever its length.
    """
    if "action_type" not in body or "{" not in body:
        return None
    keys = [m.start() for m in re.finditer("action_type", body)]
    spans = _brace_spans(body, quote_aware=True) | _brace_spans(body, quote_aware=False)
    spans = [(s, e) for s, e in spans if (i := bisect.bisect_left(keys, s)) < len(keys) and keys[i] < e]
    budget = _MAX_LOAD_CHARS
    for start, end in sorted(spans, key=lambda span: (-span[1], span[0]))[:_MAX_CANDIDATES]:
        if end - start > budget:
            continue
        budget -= end - start
        obj = _load(body[start:end])
        if isinstance(obj, dict) and "action_type" in obj:
            return obj
    return None


def _brace_spans(s: str, *, quote_aware: bool) -> set[tuple[int, int]]:
    """(start, end) of every balanced brace pair; the quote-aware pass skips braces inside quoted strings.

    Both passes are used because prose apostrophes (``it's``) break quote tracking and quoted braces break the
    naive pass.
    """
    spans, stack, quote, escaped = set(), [], "", False
    for i, ch in enumerate(s):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            spans.add((stack.pop(), i + 1))
        elif quote_aware and stack and ch in "\"'":
            quote = ch
    return spans


def _load(s: str) -> Any:
    try:
        return json.loads(s)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(s)  # the Python-dict form with single quotes (AndroidWorld's mock replies)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _from_dict(obj: dict[str, Any], width: int, height: int) -> Action:
    name = obj["action_type"]
    if not isinstance(name, str):
        raise _Invalid(f"`action_type` must be a string, got {type(name).__name__} {_show(name)}")
    if name.strip() in _AUTOUI_NAMES:  # an AutoUI action written as a dict
        return _from_autoui(name, obj.get("touch_point"), obj.get("lift_point"), obj.get("typed_text", ""))
    handler = _ANDROIDWORLD.get(name.strip().lower())
    if handler is None:
        raise _Invalid(_unknown("AndroidWorld", name, _ANDROIDWORLD))
    return handler(obj, width, height)


def _from_autoui(name: str, touch_raw: Any, lift_raw: Any, text: Any) -> Action:
    kind = _AUTOUI_NAMES.get(name.strip().upper())
    if kind is None:
        reason = _unknown("AutoUI", name, _AUTOUI_NAMES)
        if name.strip().lower() in _ANDROIDWORLD:
            reason += "; it is an AndroidWorld name, but no parsable {...} JSON object was found"
        raise _Invalid(reason)
    touch, lift = _autoui_point(touch_raw, "touch_point"), _autoui_point(lift_raw, "lift_point")
    text = _text(text, "typed_text")
    if kind != "DUAL_POINT":
        return Action(ActionType[kind], text=text)
    if _NO_POINT in (touch, lift):
        raise _Invalid(f"AutoUI DUAL_POINT needs `touch_point` and `lift_point` as [y, x] fractions in [0, 1], got "
                       f"{_show(touch_raw)} and {_show(lift_raw)}")
    return Action(ActionType.DUAL_POINT, touch, lift, text)


def _autoui_point(raw: Any, key: str) -> tuple[float, float]:
    """An AutoUI ``[y, x]`` point (string or list) as (x, y), or `_NO_POINT` when absent or ``[-1, -1]``."""
    if raw is None:
        return _NO_POINT
    parts = raw.strip().strip("[]()").split(",") if isinstance(raw, str) else raw
    if not isinstance(parts, list | tuple) or len(parts) != 2:
        raise _Invalid(f"AutoUI `{key}` must be \"[y, x]\" (two numbers), got {_show(raw)}")
    y, x = (_number(p, key) for p in parts)
    if (x, y) == _NO_POINT:
        return _NO_POINT
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        raise _Invalid(f"AutoUI `{key}` {_show(raw)} is outside [0, 1]; points are [y, x] screen fractions, or "
                       "[-1, -1] when unused")
    return float(x), float(y)


def _number(v: Any, key: str) -> float:
    if isinstance(v, str):
        try:
            v = int(v.strip())
        except ValueError:
            try:
                v = float(v.strip())
            except ValueError:
                raise _Invalid(f"`{key}` must be numeric, got {_show(v)}") from None
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise _Invalid(f"`{key}` must be a number, got {type(v).__name__} {_preview(repr(v), 40)}")
    try:
        is_finite = math.isfinite(v)
    except OverflowError:  # an int too large for a float
        is_finite = False
    if not is_finite:
        raise _Invalid(f"`{key}` must be a finite number, got {_preview(repr(v), 40)}")
    return v


def _text(v: Any, key: str) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, int | float) and not isinstance(v, bool):  # a phone number or PIN emitted as a JSON number
        return str(v)
    raise _Invalid(f"`{key}` must be a string, got {type(v).__name__} {_show(v)}")


def _unknown(kind: str, name: str, known: dict[str, Any]) -> str:
    hint = f"; did you mean {close!r}?" if (close := closest(name.strip(), known)) else ""
    return f"unknown {kind} `action_type` {_preview(name, 40)}{hint}; expected one of {', '.join(sorted(known))}"


def _preview(s: str, limit: int = 80) -> str:
    return repr(s if len(s) <= limit else s[:limit] + "...")


def _short(s: str, limit: int = 40) -> str:
    return s if len(s) <= limit else s[:limit] + "..."


_REPR = reprlib.Repr()  # messages quote model values: bound their length and depth (megabyte strings, 990-deep
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlong = 3, 60, 60, 40  # lists whose full repr() could hit
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8  # RecursionError); issue 20


def _keys(obj: dict[Any, Any]) -> str:
    """The keys of `obj` sorted as text, bounded.

    A Python-literal dict may mix key types (`{1: 2, 'action_type': ...}`), which plain `sorted()` refused with
    TypeError (issue 20).
    """
    return _show(sorted(obj, key=str))


def _show(v: Any) -> str:
    """`repr(v)`, bounded to a few dozen characters and three levels of nesting."""
    return _REPR.repr(v)


# -- AndroidWorld handlers: (obj, width_px, height_px) -> Action ------------------------------------------------------
def _aw_xy(obj: dict[str, Any], width: int, height: int) -> tuple[float, float]:
    if obj.get("x") is None or obj.get("y") is None:
        raise _Invalid(f"`{_short(obj['action_type'])}` needs \"index\" or both \"x\" and \"y\", got keys "
                       f"{_keys(obj)}")
    x, y = _number(obj["x"], "x"), _number(obj["y"], "y")
    if not (isinstance(x, float) and isinstance(y, float) and 0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        x, y = x / width, y / height  # pixels
        if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
            raise _Invalid(f"point x={obj['x']!r}, y={obj['y']!r} is off the {width}x{height} px screen; pass "
                           "screen_size=(width, height) if the screen differs")
    return float(x), float(y)


def _aw_element(obj: dict[str, Any]) -> int:
    v = obj.get("index")
    if v is None:
        return -1
    index = _number(v, "index")
    if index != int(index) or index < 0:
        raise _Invalid(f"`index` must be a non-negative integer, got {_show(v)}")
    return int(index)


def _aw_pointer(kind_name: str) -> Any:
    def handler(obj: dict[str, Any], width: int, height: int) -> Action:
        kind = ActionType[kind_name]
        element = _aw_element(obj)
        if element >= 0:
            return Action(kind, element=element)
        point = _aw_xy(obj, width, height)
        return Action(kind, point, point)
    return handler


def _aw_input_text(obj: dict[str, Any], width: int, height: int) -> Action:
    if "text" not in obj:
        raise _Invalid(f"`input_text` needs \"text\", got keys {_keys(obj)}")
    point = _aw_xy(obj, width, height) if obj.get("x") is not None else _NO_POINT
    return Action(ActionType.TYPE, point, point, _text(obj["text"], "text"), _aw_element(obj))


def _aw_path(paths: dict[str, Any]) -> Any:
    def handler(obj: dict[str, Any], width: int, height: int) -> Action:
        direction = obj.get("direction")
        key = direction.strip().lower() if isinstance(direction, str) else None
        if key not in paths:
            raise _Invalid(f"`{_short(obj['action_type'])}` needs \"direction\" in up, down, left, right, got "
                           f"{_show(direction)}")
        touch, lift = paths[key]
        return Action(ActionType.DUAL_POINT, touch, lift, element=_aw_element(obj))
    return handler


def _aw_key(kind_name: str) -> Any:
    return lambda obj, width, height: Action(ActionType[kind_name])


def _aw_open_app(obj: dict[str, Any], width: int, height: int) -> Action:
    name = _text(obj.get("app_name"), "app_name").strip()
    if not name:
        raise _Invalid('`open_app` needs a non-empty "app_name"')
    return Action(ActionType.OPEN_APP, text=name)


def _aw_status(obj: dict[str, Any], width: int, height: int) -> Action:
    status = obj.get("goal_status")
    kinds = {"complete": "STATUS_TASK_COMPLETE", "infeasible": "STATUS_TASK_IMPOSSIBLE",
             "impossible": "STATUS_TASK_IMPOSSIBLE"}
    kind = kinds.get(status.strip().lower()) if isinstance(status, str) else None
    if kind is None:
        raise _Invalid(f'`status` needs "goal_status" "complete" or "infeasible", got {_show(status)}')
    return Action(ActionType[kind])


def _aw_answer(obj: dict[str, Any], width: int, height: int) -> Action:
    if "text" not in obj:
        raise _Invalid(f"`answer` needs \"text\", got keys {_keys(obj)}")
    return Action(ActionType.STATUS_TASK_COMPLETE, text=_text(obj["text"], "text"))


_ANDROIDWORLD = {
    "click": _aw_pointer("DUAL_POINT"),
    "long_press": _aw_pointer("LONG_PRESS"),
    "input_text": _aw_input_text,
    "keyboard_enter": _aw_key("PRESS_ENTER"),
    "navigate_back": _aw_key("PRESS_BACK"),
    "navigate_home": _aw_key("PRESS_HOME"),
    "scroll": _aw_path(_SCROLL),
    "swipe": _aw_path(_SWIPE),
    "open_app": _aw_open_app,
    "status": _aw_status,
    "answer": _aw_answer,
    "wait": _aw_key("WAIT"),
}

# ActionType names -> the AndroidWorld JSON of actions without arguments.
_ANDROIDWORLD_KEYS = {
    "PRESS_ENTER": {"action_type": "keyboard_enter"},
    "PRESS_BACK": {"action_type": "navigate_back"},
    "PRESS_HOME": {"action_type": "navigate_home"},
    "STATUS_TASK_COMPLETE": {"action_type": "status", "goal_status": "complete"},
    "STATUS_TASK_IMPOSSIBLE": {"action_type": "status", "goal_status": "infeasible"},
    "WAIT": {"action_type": "wait"},
}


# -- formatting -------------------------------------------------------------------------------------------------------
def _format_autoui(action: Action) -> str:
    kind = action.action_type
    if kind not in {ActionType[name] for name in _AUTOUI_NAMES.values()}:
        raise ConfigError(f"AutoUI has no {kind.name} action; format it with style='androidworld'")
    if action.element >= 0:
        raise ConfigError(f"AutoUI cannot aim at UI element {action.element}; give a point or use "
                          "style='androidworld'")
    if kind == ActionType.DUAL_POINT:
        touch, lift = _on_screen(action.touch, "touch"), _on_screen(action.lift, "lift")
    elif (action.touch, action.lift) != (_NO_POINT, _NO_POINT):
        raise ConfigError(f"AutoUI writes points only for DUAL_POINT, got {kind.name} with touch={action.touch} "
                          f"lift={action.lift}; use style='androidworld'")
    else:
        touch = lift = _NO_POINT

    def yx(p: tuple[float, float]) -> str:
        return f"[{round(float(p[1]), 4)!r}, {round(float(p[0]), 4)!r}]"

    return (f'Action Decision: "action_type": "{kind.name}", "touch_point": "{yx(touch)}", '
            f'"lift_point": "{yx(lift)}", "typed_text": "{action.text}"')


def _to_androidworld(action: Action, width: int, height: int) -> dict[str, Any]:
    kind = action.action_type
    index = {"index": action.element} if action.element >= 0 else {}

    def at(point: tuple[float, float]) -> dict[str, int]:  # an element index wins over a point
        if index:
            return index
        x, y = _on_screen(point, "touch")
        return {"x": round(x * width), "y": round(y * height)}

    if kind == ActionType.DUAL_POINT and action.is_tap:
        return {"action_type": "click", **at(action.touch)}
    if kind == ActionType.DUAL_POINT:
        return {"action_type": "scroll", "direction": _scroll_direction(action), **index}
    if kind == ActionType.LONG_PRESS:
        return {"action_type": "long_press", **at(action.touch)}
    if kind == ActionType.TYPE:
        where = at(action.touch) if index or action.touch != _NO_POINT else {}
        return {"action_type": "input_text", "text": action.text, **where}
    if kind == ActionType.OPEN_APP:
        if not action.text.strip():  # issue 20: it was written, and parsed back as an invalid action
            raise ConfigError(f"`action` is OPEN_APP with no app name ({action.text!r}); set `text` to the app")
        return {"action_type": "open_app", "app_name": action.text}
    if kind == ActionType.STATUS_TASK_COMPLETE and action.text:
        return {"action_type": "answer", "text": action.text}
    return dict(_ANDROIDWORLD_KEYS[kind.name])


def _scroll_direction(action: Action) -> str:
    """The AndroidWorld scroll a finger path performs: the finger moving up scrolls "down" (reveals below)."""
    (x0, y0), (x1, y1) = _on_screen(action.touch, "touch"), _on_screen(action.lift, "lift")
    if abs(y1 - y0) >= abs(x1 - x0):
        return "down" if y1 < y0 else "up"
    return "right" if x1 < x0 else "left"


def _on_screen(p: tuple[float, float], name: str) -> tuple[float, float]:
    x, y = float(p[0]), float(p[1])
    if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
        raise ConfigError(f"`action.{name}` must be (x, y) screen fractions in [0, 1], got {p}")
    return x, y


def _check_screen_size(screen_size: Any) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in screen_size)
    except (TypeError, ValueError, OverflowError) as e:  # OverflowError: int(inf) (issue 20)
        raise ConfigError(f"`screen_size` must be (width, height) in pixels, got {screen_size!r}") from e
    if width <= 0 or height <= 0:
        raise ConfigError(f"`screen_size` must be positive (width, height) in pixels, got {screen_size!r}")
    return width, height


# Imported last: android_gym.actions imports this module at its end, so either module may be imported first.
from android_gym.actions import Action, ActionType  # noqa: E402
