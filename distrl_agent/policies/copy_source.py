"""Typing text read from the screen (issue 50): where a copy's text comes from, and an expert's TYPE as a copy.

A copy types an element's text as `features` decodes it (`text.label_text`, stripped): an on-screen element
(`Source.SCREEN`, row `element`) or a text remembered from an earlier screen (`Source.MEMORY`, row `memory_slot` of
`memory_text`, see `episode_memory`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from android_gym.actions import Action
from distrl_agent.policies.episode_memory import normalised
from distrl_agent.policies.modes import Source
from distrl_agent.policies.text import label_text


def copied_text(action: Mapping[str, int], observation: Mapping[str, Any]) -> Action:
    """The TYPE of the text a copy action points at, or `Action.invalid` (a flagged no-op) when it points at nothing.

    Args:
        action: ids with `type_source` (SCREEN or MEMORY), `element` and `memory_slot`.
        observation: the observation acted on (as `observe` returned it).

    Returns:
        `Action.type(text)`; `Action.invalid` for a padded or out-of-range row, an element without text, or a
        memory slot on an observation without memory.
    """
    source = action["type_source"]
    if source == Source.SCREEN:
        k, mask = action["element"], np.asarray(observation["element_mask"])
        text = label_text(np.asarray(observation["element_text"])[k]).strip() if 0 <= k < len(mask) and mask[k] else ""
        where = f"element {k}"
    elif source == Source.MEMORY:
        slot = action["memory_slot"]
        memory = np.asarray(observation.get("memory_text", np.zeros((0, 1), np.uint8)))
        text = label_text(memory[slot]).strip() if 0 <= slot < len(memory) else ""
        where = f"remembered text {slot}"
    else:
        return Action.invalid(f"TYPE from source {source}, which is not a copy source ({[s.name for s in Source]})")
    if not normalised(text):
        return Action.invalid(f"TYPE copied from {where}, which does not exist or has no text")
    return Action.type(text)


def copy_ids(text: str, observation: Mapping[str, Any]) -> dict[str, int] | None:
    """The copy ids that type `text`: the first on-screen element with the same `normalised` words, else the first
    such remembered text; None when neither holds it (or `text` has no words)."""  # noqa: D205, D209
    target = normalised(text)
    if not target:
        return None
    mask = np.asarray(observation["element_mask"]).astype(bool)
    texts = np.asarray(observation["element_text"])
    for k in np.flatnonzero(mask):
        if normalised(label_text(texts[k])) == target:
            return {"type_source": int(Source.SCREEN), "element": int(k), "memory_slot": 0}
    for slot, row in enumerate(np.asarray(observation.get("memory_text", np.zeros((0, 1), np.uint8)))):
        if normalised(label_text(row)) == target:
            return {"type_source": int(Source.MEMORY), "element": 0, "memory_slot": slot}
    return None
