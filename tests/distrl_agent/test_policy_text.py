"""Tests of `distrl_agent.policies.text` and `features`: words, stable hashes, spans and goal-label matching."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from android_gym.spaces import ELEMENT_CLASSES, ELEMENT_FLAGS
from distrl_agent.errors import DataError
from distrl_agent.policies.features import encode_observations
from distrl_agent.policies.text import find_span, hash_word, hash_words, join_span, label_text, label_words, words


def observation(goal: str, labels: list[str], k: int = 4, length: int = 32, focused: int | None = None,
                boxes: list[tuple[float, float, float, float]] | None = None, clickable: tuple[int, ...] = ()) -> dict:
    """An observation in the env's format with one element per label (element `focused` a focused EditText).

    Elements are stacked rows that do not overlap unless `boxes` says where they are.
    """
    text = np.zeros((k, length), np.uint8)
    for i, label in enumerate(labels):
        raw = label.encode("utf-8")[:length]
        text[i, : len(raw)] = np.frombuffer(raw, np.uint8)
    classes = np.zeros(k, np.int64)
    flags = np.zeros((k, len(ELEMENT_FLAGS)), np.int8)
    if focused is not None:
        classes[focused] = ELEMENT_CLASSES.index("EditText")
        flags[focused, ELEMENT_FLAGS.index("focused")] = 1
    flags[list(clickable), ELEMENT_FLAGS.index("clickable")] = 1
    mask = np.zeros(k, np.int8)
    mask[: len(labels)] = 1
    rows = np.array(boxes if boxes is not None else [(0.0, i / k, 1.0, (i + 0.9) / k) for i in range(k)], np.float32)
    element_boxes = np.zeros((k, 4), np.float32)
    element_boxes[: len(rows)] = rows
    return {"goal": goal, "element_mask": mask, "element_boxes": element_boxes,
            "element_class": classes, "element_flags": flags, "element_text": text}


@pytest.mark.parametrize(("text", "expected"), [
    ("Open amazon.com and search 'macbook air'", ("Open", "amazon.com", "and", "search", "macbook", "air")),
    ("What's the weather in São Paulo?", ("What's", "the", "weather", "in", "São", "Paulo")),
    ("Set an alarm for 7:30.", ("Set", "an", "alarm", "for", "7", "30")),  # times split for the pickers
    ('Type "50% off" -- now!', ("Type", "50%", "off", "--", "now")),
    ("  \t ", ()),
])
def test_words_strip_surrounding_punctuation_only(text: str, expected: tuple[str, ...]) -> None:
    assert words(text) == expected


def test_words_cap_at_max_words() -> None:
    assert words("a b c d e", max_words=3) == ("a", "b", "c")


def test_hash_word_is_crc32_of_lowercase_and_stable_across_processes() -> None:
    expected = zlib.crc32(b"paris") % 8191 + 1
    assert hash_word("Paris", 8192) == hash_word("PARIS", 8192) == expected
    code = "from distrl_agent.policies.text import hash_word; print(hash_word('Paris', 8192))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2], env={**os.environ, "PYTHONHASHSEED": "123"})
    assert int(out.stdout) == expected


def test_hash_words_pad_with_zero() -> None:
    ids = hash_words(["a", "b", "c"], 2, 16)
    assert ids.shape == (2,) and (ids > 0).all()
    assert hash_words([], 3, 16).tolist() == [0, 0, 0]


def test_label_text_drops_padding_and_invalid_bytes() -> None:
    row = np.zeros(8, np.uint8)
    row[:4] = np.frombuffer(b"Ok\xff!", np.uint8)
    assert label_text(row) == "Ok!"
    assert label_words(b"  Sign-in   NOW \0\0", 1) == ("sign-in",)


def test_find_span_case_insensitive_after_stripping() -> None:
    goal = words('Search "MacBook Air" on Amazon.com')
    assert find_span("macbook AIR", goal) == (1, 2)
    assert find_span("amazon.com.", goal) == (4, 1)
    assert find_span("macbook pro", goal) is None
    assert find_span("", goal) is None
    assert find_span("Search MacBook Air", goal, max_length=2) is None
    assert join_span(goal, 1, 2) == "MacBook Air"


def test_encode_observations_match_features() -> None:
    obs = observation("search flights to New York today", ["New York", "York", "Cancel", "search flights"], focused=3)
    out = encode_observations([obs], None, max_goal_words=8, max_label_words=4, vocab_size=64)
    np.testing.assert_array_equal(out["goal_mask"][0], [1] * 6 + [0] * 2)
    # fraction of label words in the goal, label equals a goal span, any overlap
    np.testing.assert_allclose(out["label_features"][0, :, :3], [[1, 1, 1], [1, 1, 1], [0, 0, 0], [1, 1, 1]])
    np.testing.assert_allclose(out["label_features"][0, :, 3:6], 0)  # no element encloses another
    # matched goal words another element also shows: "York" is on both of the first two
    np.testing.assert_allclose(out["label_features"][0, :, 6], [0.5, 1, 0, 0])
    assert out["match"][0, 0].nonzero()[0].tolist() == [3, 4]
    assert out["match"][0, 2].sum() == 0
    np.testing.assert_array_equal(out["goal_features"][0, :, 0], [1, 1, 0, 1, 1, 0, 0, 0])  # in some label
    np.testing.assert_array_equal(out["goal_features"][0, :, 1], [1, 1, 0, 0, 0, 0, 0, 0])  # in the focused field
    assert out["label_ids"][0, 2, 0] == hash_word("cancel", 64) and out["label_ids"][0, 2, 1] == 0


def test_encode_observations_partial_overlap_is_not_a_span() -> None:
    obs = observation("buy red shoes", ["shoes red", "red hat"])
    out = encode_observations([obs], None, max_goal_words=4, max_label_words=4, vocab_size=64)
    np.testing.assert_allclose(out["label_features"][0, :2, :3], [[1, 0, 1], [0.5, 0, 1]])


def test_unlabelled_clickable_container_reads_the_words_inside_it() -> None:
    # A Settings row: a clickable container with no text around its title and summary, then an unrelated row.
    boxes = [(0.0, 0.2, 1.0, 0.3), (0.1, 0.21, 0.9, 0.25), (0.1, 0.25, 0.9, 0.29), (0.0, 0.4, 1.0, 0.5)]
    obs = observation("turn off dark theme", ["", "Display", "Dark theme, font size", ""], boxes=boxes,
                      clickable=(0, 3))
    out = encode_observations([obs], None, max_goal_words=6, max_label_words=8, vocab_size=64)
    assert out["match"][0, 0].nonzero()[0].tolist() == [2, 3]  # "dark theme" through its summary line
    assert out["label_ids"][0, 0, 0] == hash_word("display", 64)
    np.testing.assert_allclose(out["label_features"][0, 0, :3], [2 / 5, 0, 1])
    assert out["match"][0, 3].sum() == 0 and out["label_ids"][0, 3].sum() == 0  # nothing inside: still no label
    # the summary line is inside the container, so sharing its words is not "shown elsewhere"
    np.testing.assert_allclose(out["label_features"][0, :3, 6], 0)


def test_elements_see_the_match_of_their_nearest_labelled_enclosure() -> None:
    # Two result rows, each a labelled clickable row with its own Install button.
    boxes = [(0.0, 0.1, 1.0, 0.2), (0.7, 0.12, 0.95, 0.18), (0.0, 0.2, 1.0, 0.3), (0.7, 0.22, 0.95, 0.28)]
    obs = observation("get Quick Fitness", ["Blue Fitness", "Install", "Quick Fitness", "Install"], boxes=boxes,
                      clickable=(0, 1, 2, 3))
    out = encode_observations([obs], None, max_goal_words=4, max_label_words=4, vocab_size=64)
    np.testing.assert_allclose(out["label_features"][0, 1, 3:6], [0.5, 0, 1])  # inside "Blue Fitness"
    np.testing.assert_allclose(out["label_features"][0, 3, 3:6], [1, 1, 1])  # inside "Quick Fitness"
    np.testing.assert_allclose(out["label_features"][0, [0, 2], 3:6], 0)  # the rows themselves are not enclosed


def test_encode_observations_pads_mixed_element_counts() -> None:
    small, large = observation("a b", ["a"], k=2), observation("a b", ["b"], k=5)
    out = encode_observations([small, large], ["a", "b"], max_goal_words=3, max_label_words=2, vocab_size=64)
    assert out["element_mask"].shape == (2, 5) and out["element_mask"].sum() == 2
    assert out["goal_mask"].sum(1).tolist() == [1, 1]  # `goals` overrides observation["goal"]


def test_encode_observations_without_elements_raises_data_error() -> None:
    with pytest.raises(DataError, match="include_elements=True"):
        encode_observations([{"goal": "x"}], None, max_goal_words=3, max_label_words=2, vocab_size=64)
    bad = observation("x", ["y"])
    bad["element_boxes"] = np.zeros((3, 4), np.float32)
    with pytest.raises(DataError, match="element_boxes"):
        encode_observations([bad], None, max_goal_words=3, max_label_words=2, vocab_size=64)
