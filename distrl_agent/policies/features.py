"""Observation batch -> the small policy's numpy input arrays: hashed words and goal-label matching features.

The features that generalise to unseen cities, products and topics compare words instead of memorising them: which
goal words occur in which element label (`match`), what fraction of a label the goal covers, whether a label equals a
goal span, and whether a goal word is already in the focused text field. Hashed word ids only add what a word means
when it has been seen in training.

Two layout facts are read from the element boxes, because uiautomator trees put the words and the click target on
different nodes: a clickable element without a label of its own is labelled by the words of the elements inside it
(a Settings row is a clickable container around its title and summary), and every element also sees the match
features of the nearest labelled element that encloses it (each result row's Install button sees the row's app name).
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
_CLICKABLE = ELEMENT_FLAGS.index("clickable")
LABEL_FEATURES = 7
"""Per-element match features: for its label, the fraction of label words found in the goal, whether the label equals
a goal span, any overlap; the same three for its nearest labelled enclosing element (the row an Install button sits
in); and the fraction of its matched goal words that an unrelated element also shows (a time picker whose header
already reads "10" next to the dial's "10")."""
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
        label_ids (B, K, W) int64, label_features (B, K, LABEL_FEATURES) float32, match (B, K, G) float32 (1 where
        goal word g occurs in the label of element k), element_has_text (B, K) bool (the element's own text is not
        empty: what an answer can be made of).

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
        "element_has_text": np.zeros((b_size, k_max), bool),
    }
    for i, obs in enumerate(observations):
        goal = goals[i] if goals is not None else observation_goal(obs)
        _encode_one(out, i, obs, words(goal, g), max_label_words, vocab_size)
    return out


def _enclosure(boxes: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """encloses[i, j]: element i's box contains element j's (both valid, i != j; equal boxes enclose each other)."""
    eps = 1e-4
    b = boxes
    encloses = ((b[:, None, 0] <= b[None, :, 0] + eps) & (b[:, None, 1] <= b[None, :, 1] + eps)
                & (b[:, None, 2] >= b[None, :, 2] - eps) & (b[:, None, 3] >= b[None, :, 3] - eps))
    encloses &= mask[:, None] & mask[None, :]
    np.fill_diagonal(encloses, False)
    return encloses


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
    boxes = np.asarray(obs["element_boxes"], np.float32)
    classes = np.clip(np.asarray(obs["element_class"], np.int64), 0, len(ELEMENT_CLASSES) - 1)
    flags = np.asarray(obs["element_flags"], np.float32)
    out["element_mask"][i, :k] = mask
    out["element_boxes"][i, :k] = boxes
    out["element_class"][i, :k] = classes
    out["element_flags"][i, :k] = flags
    text = np.ascontiguousarray(obs["element_text"], np.uint8)
    encloses = _enclosure(boxes, mask)
    valid = np.flatnonzero(mask)
    own = {int(e): label_words(text[e].tobytes(), max_label_words) for e in valid}
    out["element_has_text"][i, valid] = [bool(own[int(e)]) for e in valid]
    labels = dict(own)
    for e in valid:  # an unlabelled clickable container speaks with the words inside it
        if not own[e] and flags[e, _CLICKABLE]:
            inner = [t for j in np.flatnonzero(encloses[e]) for t in own[int(j)]]
            labels[int(e)] = tuple(inner[:max_label_words])

    match = out["match"][i]
    own_match = np.zeros((k, match.shape[1]), np.float32)
    features = out["label_features"][i]
    focused_words: set[str] = set()
    ngrams: dict[int, frozenset[tuple[str, ...]]] = {}
    for e, label in labels.items():
        if not label:
            continue
        out["label_ids"][i, e] = hash_words(label, max_label_words, vocab_size)
        hits = 0
        for token in label:
            found = positions.get(token)
            if found:
                match[e, found] = 1.0
                hits += 1
        if own[e]:
            own_match[e] = match[e]
        n = len(label)
        if n not in ngrams:
            ngrams[n] = goal_ngrams(lowered, n)
        features[e, :3] = (hits / n, float(label in ngrams[n]), float(hits > 0))
        if flags[e, _FOCUSED] and classes[e] == _EDIT_TEXT:
            focused_words.update(label)

    if valid.size:
        # Context: the match features of the smallest labelled element enclosing each element.
        labelled = np.array([bool(labels.get(j)) for j in range(k)])
        area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
        candidate = np.where(encloses & labelled[:, None], area[:, None], np.inf)
        parent = candidate.argmin(axis=0)
        has_parent = np.isfinite(candidate.min(axis=0)) & mask
        features[:k, 3:6] = np.where(has_parent[:, None], features[parent, :3], 0.0)
        # Shown elsewhere: matched goal words that an element outside this one's own subtree also shows.
        unrelated = ~(encloses | encloses.T) & mask[None, :]
        np.fill_diagonal(unrelated, False)
        elsewhere = (unrelated.astype(np.float32) @ own_match) > 0
        matched = match[:k] > 0
        n_matched = matched.sum(axis=1)
        features[:k, 6] = np.where(n_matched > 0, (matched & elsewhere).sum(axis=1) / np.maximum(n_matched, 1), 0.0)
    if match.shape[0]:  # an empty element axis has no max
        out["goal_features"][i, :, 0] = match.max(axis=0)
    out["goal_features"][i, :n_goal, 1] = [float(t in focused_words) for t in lowered]


MEMORY_FEATURES = 3
"""Per remembered text: the fraction of its words found in the goal, whether it equals a goal span, any overlap."""


def encode_memory(observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None, *, max_goal_words: int,
                  max_label_words: int, vocab_size: int) -> dict[str, np.ndarray]:
    """Encode the episode memory that `SmallPolicy.observe` added (`episode_memory`); the caller checks its shapes.

    Returns:
        history_mode (B, k) int64 (`Mode` + 1, 0: no action), history_ids (B, k, W) int64 (the words acted with),
        memory_mask (B, M) bool (a remembered text), memory_ids (B, M, W) int64, memory_features
        (B, M, MEMORY_FEATURES) float32.
    """
    b_size, w = len(observations), max_label_words
    steps, texts = np.shape(observations[0]["history_mode"])[0], np.shape(observations[0]["memory_text"])[0]
    out = {"history_mode": np.stack([np.asarray(o["history_mode"], np.int64) for o in observations]),
           "history_ids": np.zeros((b_size, steps, w), np.int64), "memory_mask": np.zeros((b_size, texts), bool),
           "memory_ids": np.zeros((b_size, texts, w), np.int64),
           "memory_features": np.zeros((b_size, texts, MEMORY_FEATURES), np.float32)}
    for i, obs in enumerate(observations):
        goal = goals[i] if goals is not None else observation_goal(obs)
        lowered = [t.lower() for t in words(goal, max_goal_words)]
        goal_words, ngrams = set(lowered), {}
        history = np.ascontiguousarray(obs["history_text"], np.uint8)
        for j in range(steps):
            out["history_ids"][i, j] = hash_words(label_words(history[j].tobytes(), w), w, vocab_size)
        memory = np.ascontiguousarray(obs["memory_text"], np.uint8)
        for j in range(texts):
            label = label_words(memory[j].tobytes(), w)
            if not label:
                continue
            out["memory_mask"][i, j] = True
            out["memory_ids"][i, j] = hash_words(label, w, vocab_size)
            hits = sum(token in goal_words for token in label)
            if len(label) not in ngrams:
                ngrams[len(label)] = goal_ngrams(lowered, len(label))
            out["memory_features"][i, j] = (hits / len(label), float(label in ngrams[len(label)]), float(hits > 0))
    return out
