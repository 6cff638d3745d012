"""`ObservationReader`: how a policy reads env observations, apart from the policy (no torch, no weights).

A worker calls `observe` on every observation, with the action sent before it and the observation (as read) that
action was chosen on, and stores the `keys` entries in its trajectories; `preprocess` later reads those entries. A
policy with a memory of the episode carries it forward through the observations themselves: what it remembers after
a step is a function of the previous observation as read (its memory included), the action and the new screen, so
the learner re-encodes exactly what the worker acted on. A worker served by the host's inference service holds no
policy, only this: the service sends it the reader of the policy it serves, and unpickling one imports this module
and `android_gym`, never torch or the model code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.actions_text import format_action
from android_gym.errors import ConfigError as EnvConfigError


def unchanged(observation: Mapping[str, Any], previous_action: Action | None,
              previous_observation: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The observation as the env returned it (a policy without history)."""
    return dict(observation)


def previous_action_text(action: Action | None) -> str:
    """The `previous_action` observation text for `action`: its AutoUI string, its type name, or "None".

    >>> previous_action_text(None)
    'None'
    >>> previous_action_text(Action.invalid("garbled")), previous_action_text(Action.type("hi"))[:17]
    ('INVALID', 'Action Decision: ')
    """
    if action is None:
        return "None"
    if not action.is_parsed:
        return "INVALID"
    try:
        return format_action(action)
    except EnvConfigError:  # AutoUI cannot write it (WAIT, OPEN_APP, an element index): name it
        return action.action_type.name


def with_previous_action(observation: Mapping[str, Any], previous_action: Action | None,
                         previous_observation: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The observation with `previous_action`: the AutoUI text of the action before it ("None" at the start)."""
    return {**observation, "previous_action": np.array(previous_action_text(previous_action))}


@dataclass(frozen=True)
class ObservationReader:
    """The observation entries a policy keeps and how it reads one observation (see the module docstring).

    Attributes:
        keys: the entries workers store (`Policy.observation_keys`).
        read: (observation, previous action or None, the previous observation as read or None) -> the observation
            as the policy reads it; a module-level
            function (or a `functools.partial` of one) of a module that does not import torch, so that the reader
            pickles to workers without the model.
    """

    keys: tuple[str, ...]
    read: Callable[[Mapping[str, Any], Action | None, Mapping[str, Any] | None], dict[str, Any]] = unchanged

    def observe(self, observation: Mapping[str, Any], previous_action: Action | None,
                previous_observation: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """`read(observation, previous_action, previous_observation)` (both None at an episode's start)."""
        return self.read(observation, previous_action, previous_observation)
