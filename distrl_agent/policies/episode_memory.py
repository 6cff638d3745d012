"""The small policy's memory of the episode (issue 50): its last actions and the texts it saw on earlier screens.

`read_with_memory` writes the memory into the observation as three arrays (`MEMORY_KEYS`), which workers store with
the rest of the observation, so the learner re-encodes exactly what the worker acted on:

- `history_mode` (k,) int64: the modes of the last k actions, most recent first (`Mode` + 1; 0 where the episode has
  fewer actions);
- `history_text` (k, L) uint8: the words each of them acted with: the text of the element tapped, the text typed or
  answered (UTF-8, zero-padded like `element_text`);
- `memory_text` (M, L) uint8: the distinct texts of non-clickable elements on the screens before this one, most
  recently seen first (what TYPE can copy from an earlier screen: a note's line typed into another app).

The memory is a pure function of what the reader is handed: the previous observation as read (its memory and its
screen), the env action taken on it and the new screen. Nothing is kept between calls, so a worker served by the host's
inference service reads observations exactly as the policy would (`SmallPolicy.reader`); this module imports no
torch, since that reader is unpickled on workers that never build the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from android_gym.actions import Action, ActionType
from android_gym.spaces import ELEMENT_FLAGS
from distrl_agent.errors import DataError
from distrl_agent.policies.modes import Mode
from distrl_agent.policies.text import label_text, words

MEMORY_KEYS = ("history_mode", "history_text", "memory_text")
"""The observation entries `read_with_memory` adds (`SmallPolicy` with `memory_steps` > 0)."""
_CLICKABLE = ELEMENT_FLAGS.index("clickable")
_MODE_OF_TYPE = {ActionType.TYPE: Mode.TYPE, ActionType.PRESS_BACK: Mode.BACK, ActionType.PRESS_HOME: Mode.HOME,
                 ActionType.PRESS_ENTER: Mode.ENTER, ActionType.WAIT: Mode.WAIT,
                 ActionType.STATUS_TASK_COMPLETE: Mode.ANSWER, ActionType.STATUS_TASK_IMPOSSIBLE: Mode.IMPOSSIBLE}


def normalised(text: str) -> tuple[str, ...]:
    """The lower-cased words of `text` (`text.words`): what two texts must share to count as the same.

    >>> normalised('"1422 Castro St."') == normalised("1422 castro st")
    True
    """
    return tuple(w.lower() for w in words(text))


def text_row(text: str, length: int) -> np.ndarray:
    """`text` as one zero-padded UTF-8 row of `length` bytes (cut at `length`; `label_text` drops a cut character)."""
    row = np.zeros(length, np.uint8)
    data = text.encode("utf-8")[:length]
    row[:len(data)] = np.frombuffer(data, np.uint8)
    return row


def empty_memory(steps: int, texts: int, length: int) -> dict[str, np.ndarray]:
    """The memory at an episode's start: no action, no text."""
    return {"history_mode": np.zeros(steps, np.int64), "history_text": np.zeros((steps, length), np.uint8),
            "memory_text": np.zeros((texts, length), np.uint8)}


def elements_under(observation: Mapping[str, Any], x: float, y: float) -> np.ndarray:
    """(K,) bool: the on-screen elements whose box holds the point (x, y); boxes and point in screen fractions.

    >>> boxes = np.array([[0, 0, 1, 1], [0, 0, 0.5, 0.5], [0, 0, 0, 0]])
    >>> screen = {"element_mask": np.array([1, 1, 0]), "element_boxes": boxes}
    >>> elements_under(screen, 0.25, 0.25).tolist(), elements_under(screen, 0.75, 0.25).tolist()
    ([True, True, False], [True, False, False])
    """
    mask = np.asarray(observation["element_mask"]).astype(bool)
    boxes = np.asarray(observation["element_boxes"], np.float64)
    return mask & (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])


def smallest(observation: Mapping[str, Any], candidates: np.ndarray) -> int | None:
    """The row of the candidate element with the smallest box (the first of equal ones), or None without candidates."""
    if not candidates.any():
        return None
    boxes = np.asarray(observation["element_boxes"], np.float64)
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return int(np.flatnonzero(candidates)[np.argmin(area[candidates])])


def tapped_text(action: Action, observation: Mapping[str, Any]) -> str:
    """The text of the element a tap acted on in `observation`: the element the action names (`action.element`) when
    it is on screen, else the smallest element with text whose box holds the touch point; "" when none does.

    The smallest, because uiautomator trees nest a label inside the clickable row it names; one with text, because
    a bare icon or container under the finger says nothing of what was tapped.
    """  # noqa: D205
    mask = np.asarray(observation["element_mask"]).astype(bool)
    texts = np.asarray(observation["element_text"])
    if 0 <= action.element < len(mask) and mask[action.element]:
        return label_text(texts[action.element])
    has_text = np.array([bool(normalised(label_text(row))) for row in texts], bool)
    k = smallest(observation, elements_under(observation, *action.touch) & has_text)
    return "" if k is None else label_text(texts[k])


def mode_of_action(action: Action) -> Mode:
    """The mode an env action stands for (a tap or swipe of any kind is TAP or a scroll; anything else unknown,
    an unparsed action included, is WAIT)."""  # noqa: D205, D209
    if not action.is_parsed:
        return Mode.WAIT
    if action.action_type == ActionType.DUAL_POINT:
        if action.is_tap:
            return Mode.TAP
        return Mode.SCROLL_DOWN if action.lift[1] < action.touch[1] else Mode.SCROLL_UP
    return _MODE_OF_TYPE.get(action.action_type, Mode.WAIT)


def acted_text(action: Action, mode: Mode, observation: Mapping[str, Any]) -> str:
    """The words `action` (of `mode`) acted with on `observation`: TYPE's and ANSWER's text, the tapped element's
    text (`tapped_text`), "" for any other mode."""  # noqa: D205, D209
    if mode in (Mode.TYPE, Mode.ANSWER):
        return action.text
    if mode == Mode.TAP:
        return tapped_text(action, observation)
    return ""


def advance(previous: Mapping[str, Any], mode: Mode, text: str, steps: int, texts: int) -> dict[str, np.ndarray]:
    """The memory after acting with `mode` (and `text`, see `acted_text`) on `previous`, an observation as read.

    The action goes first in the history (the oldest drops out); the acted-on screen's non-clickable texts go first
    in the remembered texts, then the earlier ones that differ from them (by `normalised` words), at most `texts`.

    Raises:
        DataError: `previous` lacks the memory arrays or holds ones of other shapes (`check_memory`).
    """
    check_memory(previous, steps, texts, "`previous_observation`")
    before = {k: np.asarray(previous[k]) for k in MEMORY_KEYS}
    length = before["memory_text"].shape[1]
    history_mode = np.concatenate([[int(mode) + 1], before["history_mode"][:-1]]).astype(np.int64)[:steps]
    history_text = np.concatenate([text_row(text, length)[None], before["history_text"][:-1]])[:steps]
    mask = np.asarray(previous["element_mask"]).astype(bool)
    clickable = np.asarray(previous["element_flags"])[:, _CLICKABLE].astype(bool)
    element_text = np.asarray(previous["element_text"], np.uint8)
    rows = [element_text[k] for k in np.flatnonzero(mask & ~clickable)] + list(before["memory_text"])
    kept, seen = [], set()
    for row in rows:
        key = normalised(label_text(row))
        if key and key not in seen:
            seen.add(key)
            kept.append(row)
    memory_text = np.zeros((texts, length), np.uint8)
    if kept:
        memory_text[:min(texts, len(kept))] = np.stack(kept[:texts])
    return {"history_mode": history_mode, "history_text": history_text, "memory_text": memory_text}


def read_with_memory(observation: Mapping[str, Any], previous_action: Action | None,
                     previous_observation: Mapping[str, Any] | None, *, steps: int, texts: int) -> dict[str, Any]:
    """The observation with the episode memory (`MEMORY_KEYS`) that follows `previous_action` on
    `previous_observation` (an `ObservationReader.read`; `SmallPolicy.reader` binds `steps` and `texts`).

    Args:
        observation: the env's new observation (the element arrays).
        previous_action: the env action taken on `previous_observation`; None at an episode's start.
        previous_observation: the observation that action was chosen on, as this function returned it.
        steps: actions remembered (`memory_steps`, > 0).
        texts: texts remembered (`memory_texts`).

    Raises:
        DataError: an action without the observation it was taken on, or a `previous_observation` without memory
            arrays of these shapes (one the env returned, not one read).
    """  # noqa: D205
    if previous_action is None:
        length = np.shape(observation["element_text"])[1]
        return {**observation, **empty_memory(steps, texts, length)}
    if previous_observation is None:
        raise DataError(f"`previous_observation` is None but `previous_action` is {previous_action!r}: the small "
                        "policy's memory follows from the observation an action was taken on; pass the one `observe` "
                        "returned for it (None for both only at an episode's start)")
    mode = mode_of_action(previous_action)
    text = acted_text(previous_action, mode, previous_observation)
    return {**observation, **advance(previous_observation, mode, text, steps, texts)}


def check_memory(observation: Mapping[str, Any], steps: int, texts: int, where: str) -> None:
    """Raise `DataError` unless `observation` (named `where` in messages) holds memory arrays of the configured shapes.

    Raises:
        DataError: a key is missing (the observation did not pass through `SmallPolicy.observe`) or mis-shaped.
    """
    missing = [k for k in MEMORY_KEYS if k not in observation]
    if missing:
        raise DataError(f"{where} lacks {missing}: a small policy with `memory_steps` reads the memory that "
                        "`SmallPolicy.observe` adds; pass every observation through `policy.observe` and hand on "
                        "the observation it returned")
    length = np.shape(observation["element_text"])[1]
    expected = {"history_mode": (steps,), "history_text": (steps, length), "memory_text": (texts, length)}
    for key, shape in expected.items():
        if np.shape(observation[key]) != shape:
            raise DataError(f"{where}: `{key}` must have shape {shape} (memory_steps={steps}, "
                            f"memory_texts={texts}), got {np.shape(observation[key])}")
