"""Observation batch -> the small policy's numpy input arrays: hashed words and goal-label matching features.

The features that generalise to unseen cities, products and topics compare words instead of memorising them: which
goal words occur in which element label (`match`), what fraction of a label the goal covers, whether a label equals a
goal span, and whether a goal word is already in the focused text field. Hashed word ids only add what a word means
when it has been seen in training.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.spaces import ELEMENT_CLASSES, ELEMENT_FLAGS
from distrl_agent.errors import DataError
from distrl_agent.policies.text import goal_ngrams, hash_words, label_words, words

ELEMENT_KEYS = ("element_mask", "element_boxes", "element_class", "element_flags", "element_text")
"""The observation keys the small policy reads besides `goal`."""

_FOCUSED = ELEMENT_FLAGS.index("focused")
_EDIT_TEXT = ELEMENT_CLASSES.index("EditText")
LABEL_FEATURES = 3
"""Per-element match features: fraction of label words found in the goal, label equals a goal span, any overlap."""
GOAL_FEATURES = 2
"""Per-goal-word screen features: appears in some element label, appears in the focused text field."""


def observation_goal(observation: Mapping[str, Any]) -> str:
    """The goal text of one observation (`str`, numpy string or UTF-8 bytes).

    Raises:
        DataError: the observation has no `goal`.
    """
    if "goal" not in observation:
        raise DataError("an observation has no `goal`; pass `goals=` to preprocess() or keep `goal` in observations")
    goal = observation["goal"]
    return goal.decode("utf-8", errors="ignore") if isinstance(goal, bytes) else str(goal)


def _check_observation(index: int, observation: Mapping[str, Any]) -> None:
    missing = [k for k in ELEMENT_KEYS if k not in observation]
    if missing:
        raise DataError(f"observation {index} lacks {missing}: the small policy reads UI elements; make the env with "
                        "`include_elements=True` (ObservationConfig)")
    k = np.shape(observation["element_mask"])[0]
    shapes = {key: np.shape(observation[key]) for key in ELEMENT_KEYS}
    expected = {"element_boxes": (k, 4), "element_class": (k,), "element_flags": (k, len(ELEMENT_FLAGS))}
    for key, shape in expected.items():
        if shapes[key] != shape:
            raise DataError(f"observation {index}: `{key}` must have shape {shape}, got {shapes[key]}")
    if len(shapes["element_text"]) != 2 or shapes["element_text"][0] != k:
        raise DataError(f"observation {index}: `element_text` must have shape ({k}, L), got {shapes['element_text']}")


def encode_observations(observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None, *,
                        max_goal_words: int, max_label_words: int, vocab_size: int) -> dict[str, np.ndarray]:
    """Encode a batch of env observations; batches mixing element counts K are zero-padded to the largest K.

    Args:
        observations: env observations (the dict `AndroidEnv` returns, numpy arrays).
        goals: goal texts overriding `observation["goal"]`, one per observation; None reads the observations.
        max_goal_words: G, goal words kept.
        max_label_words: W, words kept per element label.
        vocab_size: size of the hashed word vocabulary.

    Returns:
        goal_ids (B, G) int64, goal_mask (B, G) bool, goal_features (B, G, 2) float32, element_mask (B, K) bool,
        element_boxes (B, K, 4) float32, element_class (B, K) int64, element_flags (B, K, 6) float32,
        label_ids (B, K, W) int64, label_features (B, K, 3) float32, match (B, K, G) float32 (1 where goal word g
        occurs in the label of element k).

    Raises:
        DataError: an observation lacks UI-element arrays or has mismatched shapes, or `goals` has the wrong length.
    """
    b_size = len(observations)
    if goals is not None and len(goals) != b_size:
        raise DataError(f"`goals` must have one goal per observation ({b_size}), got {len(goals)}")
    for i, obs in enumerate(observations):
        _check_observation(i, obs)
    k_max = max((np.shape(o["element_mask"])[0] for o in observations), default=1)
    g, w = max_goal_words, max_label_words
    out = {
        "goal_ids": np.zeros((b_size, g), np.int64), "goal_mask": np.zeros((b_size, g), bool),
        "goal_features": np.zeros((b_size, g, GOAL_FEATURES), np.float32),
        "element_mask": np.zeros((b_size, k_max), bool), "element_boxes": np.zeros((b_size, k_max, 4), np.float32),
        "element_class": np.zeros((b_size, k_max), np.int64),
        "element_flags": np.zeros((b_size, k_max, len(ELEMENT_FLAGS)), np.float32),
        "label_ids": np.zeros((b_size, k_max, w), np.int64),
        "label_features": np.zeros((b_size, k_max, LABEL_FEATURES), np.float32),
        "match": np.zeros((b_size, k_max, g), np.float32),
    }
    for i, obs in enumerate(observations):
        goal = goals[i] if goals is not None else observation_goal(obs)
        _encode_one(out, i, obs, words(goal, g), max_label_words, vocab_size)
    return out


def _encode_one(out: dict[str, np.ndarray], i: int, obs: Mapping[str, Any], goal_words: tuple[str, ...],
                max_label_words: int, vocab_size: int) -> None:
    """Fill row `i` of the batch arrays `out` from one observation."""
    n_goal = len(goal_words)
    lowered = [t.lower() for t in goal_words]
    positions: dict[str, list[int]] = {}
    for pos, token in enumerate(lowered):
        positions.setdefault(token, []).append(pos)
    out["goal_ids"][i] = hash_words(goal_words, out["goal_ids"].shape[1], vocab_size)
    out["goal_mask"][i, :n_goal] = True

    mask = np.asarray(obs["element_mask"]).astype(bool)
    k = mask.shape[0]
    classes = np.clip(np.asarray(obs["element_class"], np.int64), 0, len(ELEMENT_CLASSES) - 1)
    flags = np.asarray(obs["element_flags"], np.float32)
    out["element_mask"][i, :k] = mask
    out["element_boxes"][i, :k] = np.asarray(obs["element_boxes"], np.float32)
    out["element_class"][i, :k] = classes
    out["element_flags"][i, :k] = flags
    text = np.ascontiguousarray(obs["element_text"], np.uint8)
    focused_words: set[str] = set()
    ngrams: dict[int, frozenset[tuple[str, ...]]] = {}
    for e in np.flatnonzero(mask):
        label = label_words(text[e].tobytes(), max_label_words)
        if not label:
            continue
        out["label_ids"][i, e] = hash_words(label, max_label_words, vocab_size)
        hits = 0
        for token in label:
            found = positions.get(token)
            if found:
                out["match"][i, e, found] = 1.0
                hits += 1
        n = len(label)
        if n not in ngrams:
            ngrams[n] = goal_ngrams(lowered, n)
        out["label_features"][i, e] = (hits / n, float(label in ngrams[n]), float(hits > 0))
        if flags[e, _FOCUSED] and classes[e] == _EDIT_TEXT:
            focused_words.update(label)
    if out["match"].shape[1]:  # an empty element axis has no max
        out["goal_features"][i, :, 0] = out["match"][i].max(axis=0)
    out["goal_features"][i, :n_goal, 1] = [float(t in focused_words) for t in lowered]
