"""`SmallPolicy`: a fast CPU-trainable UI policy over UI-element arrays, with goal-label word matching.

Architecture: a `UIEncoder` (goal words, UI elements -> goal-word encodings c_g, element encodings h_k, state s;
see `ui_encoder`) and factorised heads (see `factorised`): mode from s; element from [h_k, s]; span start from
[c_g, s]; span length from the start word, the end word (whose convolution sees the word after it), a length embedding
and s. With `copy_from_screen` (issue 50), TYPE's source from s, the copied element from [h_k, s] and the recalled
text from [m_j, s] (`memory_encoder`); with `memory_steps`, `observe` adds the episode memory (`episode_memory`).
The critic heads V(s) and V(g) read a second encoder of their own by default (`critic_encoder`).

Matching features are what carry over to unseen cities, products and topics; the hashed embeddings of words never
seen in training are random and add little.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from android_gym.actions import Action, ActionType
from android_gym.spaces import ELEMENT_FLAGS
from android_gym.tasks.base import answers_match
from distrl_agent.errors import DataError
from distrl_agent.policies.base import Actions, Inputs, Policy, PolicyOutput, StatesOutput
from distrl_agent.policies.copy_source import copied_text, copy_ids
from distrl_agent.policies.episode_memory import (
    MEMORY_KEYS,
    check_memory,
    elements_under,
    read_with_memory,
    smallest,
)
from distrl_agent.policies.factorised import (
    ACTION_KEYS,
    COPY_ACTION_KEYS,
    CopyTables,
    FactorisedDistribution,
    Mode,
    Source,
    masked_log_softmax,
)
from distrl_agent.policies.features import encode_memory, encode_observations, observation_goal
from distrl_agent.policies.layers import mlp
from distrl_agent.policies.packing import distinct_rows, head_with_context, unpack
from distrl_agent.policies.reader import ObservationReader
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.policies.text import find_span, join_span, label_text, words
from distrl_agent.policies.ui_encoder import UIEncoder

SCROLL_DOWN_SWIPE = (0.5, 0.7, 0.5, 0.35)
"""(x0, y0, x1, y1) screen fractions of the SCROLL_DOWN swipe (finger moves up, revealing content below)."""
SCROLL_UP_SWIPE = (0.5, 0.35, 0.5, 0.7)
"""(x0, y0, x1, y1) screen fractions of the SCROLL_UP swipe."""
_KEY_MODES = {Mode.BACK: ActionType.PRESS_BACK, Mode.HOME: ActionType.PRESS_HOME, Mode.ENTER: ActionType.PRESS_ENTER,
              Mode.WAIT: ActionType.WAIT}
_MODE_OF_KEY = {kind: mode for mode, kind in _KEY_MODES.items()}
_CLICKABLE = ELEMENT_FLAGS.index("clickable")
_ELEMENT_AXIS_KEYS = frozenset(("element_mask", "element_boxes", "element_class", "element_flags",
                                "element_has_text", "label_ids", "label_features", "match"))
"""`preprocess` outputs whose axis 1 is the element axis K (padded with zeros when batches are merged)."""


class SmallPolicy(Policy):
    """The small factorised UI policy: modes TAP/TYPE/BACK/HOME/ENTER/SCROLL_DOWN/SCROLL_UP/WAIT (+ ANSWER/IMPOSSIBLE).

    With `config.declare`, ANSWER declares the task complete with an element's text and IMPOSSIBLE declares it
    impossible.

    Actions are `ACTION_KEYS` ids: `mode`, `element` (an element row, used by TAP), `span_start` and `span_length`
    (a span of goal words, typed by TYPE); with `config.copy_from_screen`, `COPY_ACTION_KEYS`: also `type_source`
    (a `Source`: TYPE types the goal span, the text of element `element`, or remembered text `memory_slot`).
    With `config.memory_steps`, `observation_keys` include the episode memory (`MEMORY_KEYS`) that `observe` adds.
    See the module docstring for the architecture.
    """

    action_keys = ACTION_KEYS
    observation_keys = ("element_mask", "element_boxes", "element_class", "element_flags", "element_text")

    def __init__(self, config: SmallPolicyConfig | None = None) -> None:
        super().__init__()
        self.config = config = config or SmallPolicyConfig()
        if config.copy_from_screen:
            self.action_keys = COPY_ACTION_KEYS
        if config.memory_steps:
            self.observation_keys = (*type(self).observation_keys, *MEMORY_KEYS)
        w, d, n_len = config.word_dim, config.hidden_dim, config.max_span_length
        self.encoder = UIEncoder(config)
        self.critic_encoder = UIEncoder(config) if config.critic_encoder == "separate" else None
        self.mode_head = mlp(d, d, len(Mode))
        self.element_head = mlp(2 * d, d, 1)
        self.start_head = mlp(w + d, d // 2 or 1, 1)
        self.length_start = nn.Linear(w, d // 2 or 1)
        self.length_end = nn.Linear(w, d // 2 or 1, bias=False)
        self.length_state = nn.Linear(d, d // 2 or 1, bias=False)
        self.length_embedding = nn.Embedding(n_len, d // 2 or 1)
        self.length_out = nn.Linear(d // 2 or 1, 1)
        self.value_head = mlp(d, d, 1)
        self.instruction_value_head = mlp(d, d, 1)
        # built only when asked for: without them the weights, outputs and random streams are as before
        self.source_head = mlp(d, d, len(Source)) if config.copy_from_screen else None
        self.copy_head = mlp(2 * d, d, 1) if config.copy_from_screen else None
        self.recall_head = mlp(2 * d, d, 1) if config.copy_from_screen and config.memory_steps else None

    def copy_actor_encoder_to_critic(self) -> None:
        """Start the separate critic encoder from the actor's features (after behaviour cloning); no-op otherwise."""
        if self.critic_encoder is not None:
            self.critic_encoder.load_state_dict(self.encoder.state_dict())

    # -- the Policy contract ------------------------------------------------------------------------------------------
    def preprocess(self, observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None = None) -> Inputs:
        """Encode observations (see `features.encode_observations` for the keys); tensors on the policy's device.

        Raises:
            DataError: an observation lacks the UI-element arrays or has malformed ones.
        """
        c = self.config
        arrays = encode_observations(observations, goals, max_goal_words=c.max_goal_words,
                                     max_label_words=c.max_label_words, vocab_size=c.vocab_size)
        if c.memory_steps:
            for i, obs in enumerate(observations):
                check_memory(obs, c.memory_steps, c.memory_texts, f"observation {i}")
            arrays.update(encode_memory(observations, goals, max_goal_words=c.max_goal_words,
                                        max_label_words=c.max_label_words, vocab_size=c.vocab_size))
        device = self.device
        return {k: torch.from_numpy(v).to(device) for k, v in arrays.items()}

    def concat_inputs(self, parts: Sequence[Inputs]) -> Inputs:
        """Row-wise concatenation of `preprocess` outputs, zero-padding the element axis K to the largest part's."""
        k_max = max(part["element_mask"].shape[1] for part in parts)
        out = {}
        for key in parts[0]:
            tensors = [part[key] for part in parts]
            if key in _ELEMENT_AXIS_KEYS:
                tensors = [nn.functional.pad(t, (0, 0) * (t.dim() - 2) + (0, k_max - t.shape[1])) for t in tensors]
            out[key] = torch.cat(tensors)
        return out

    def act(self, inputs: Inputs, deterministic: bool = False,
            generator: torch.Generator | None = None) -> tuple[Actions, torch.Tensor]:
        """Sample one action per row (or the most likely factors if `deterministic`); returns (actions, log_mu)."""
        with torch.no_grad():
            dist, _ = self.distribution(inputs)
            actions = dist.sample(deterministic, generator)
            return actions, dist.log_prob(actions)

    def evaluate(self, inputs: Inputs, actions: Actions) -> PolicyOutput:
        """Exact log π(a|s), joint entropy and V(s), with gradients.

        Raises:
            DataError: `actions` lacks one of `action_keys`.
        """
        missing = [k for k in self.action_keys if k not in actions]
        if missing:
            raise DataError(f"`actions` lacks {missing}; expected {list(self.action_keys)}")
        distinct = distinct_rows(inputs)  # a learner's batch repeats states: each is encoded once (`packing`)
        if distinct is None:
            dist, state = self.distribution(inputs)
            return PolicyOutput(dist.log_prob(actions), dist.entropy(), self._value_of(inputs, state))
        rows, inverse = distinct
        dist, state = self.distribution(rows)
        return PolicyOutput(dist.rows(inverse).log_prob(actions), dist.entropy().index_select(0, inverse),
                            self._value_of(rows, state).index_select(0, inverse))

    def evaluate_states(self, inputs: Inputs, actions: Actions, acted: torch.Tensor) -> StatesOutput:
        """`Policy.evaluate_states` with each distinct state encoded once: the actor on the distinct states that have
        an action, the critic's own encoder on every distinct state in one pass (a learner's batch: the steps and each
        trajectory's final state).

        Raises:
            DataError: `actions` lacks one of `action_keys`.
        """  # noqa: D205
        if self.critic_encoder is None:  # the critic reads the actor's state: the final states need the actor too
            return super().evaluate_states(inputs, actions, acted)
        missing = [k for k in self.action_keys if k not in actions]
        if missing:
            raise DataError(f"`actions` lacks {missing}; expected {list(self.action_keys)}")
        n = len(acted)
        distinct = distinct_rows(inputs)
        rows, inverse = distinct if distinct is not None else (inputs, torch.arange(n))
        # the distinct states the actor scores, and each acted row's place among them
        actor_ids, place = torch.unique(inverse.index_select(0, torch.nonzero(acted).squeeze(1)), return_inverse=True)
        dist, _ = self.distribution({k: v.index_select(0, actor_ids) for k, v in rows.items()})
        values = self._value_of(rows, None).index_select(0, inverse)
        return StatesOutput(dist.rows(place).log_prob(actions), dist.entropy().index_select(0, place), values)

    def value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) V(s)."""
        distinct = distinct_rows(inputs)
        rows, inverse = distinct if distinct is not None else (inputs, None)
        state = None if self.critic_encoder is not None else self.encoder(rows)[2]
        values = self._value_of(rows, state)
        return values if inverse is None else values.index_select(0, inverse)

    def instruction_value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) V(g) from the goal encoding alone (reads only `goal_ids` and `goal_mask`)."""
        if self.critic_encoder is not None:
            return self.instruction_value_head(self.critic_encoder.goal_only(inputs)).squeeze(-1)
        return self.instruction_value_head(self._shared_features(self.encoder.goal_only(inputs))).squeeze(-1)

    def _value_of(self, inputs: Inputs, actor_state: torch.Tensor | None) -> torch.Tensor:
        """V(s) from the critic's own encoder, or from the actor's state `actor_state` (detached unless "shared")."""
        if self.critic_encoder is not None:
            return self.value_head(self.critic_encoder(inputs)[2]).squeeze(-1)
        assert actor_state is not None
        return self.value_head(self._shared_features(actor_state)).squeeze(-1)

    def _shared_features(self, features: torch.Tensor) -> torch.Tensor:
        return features if self.config.critic_encoder == "shared" else features.detach()

    # -- the network --------------------------------------------------------------------------------------------------
    def distribution(self, inputs: Inputs) -> tuple[FactorisedDistribution, torch.Tensor]:
        """The masked factorised action distribution and the state encoding s (B, d)."""
        goal_words, elements, state, texts = self.encoder(inputs)
        goal_mask, element_mask = inputs["goal_mask"], inputs["element_mask"]
        b, g = goal_mask.shape
        n_len = self.config.max_span_length

        mode_mask = torch.ones(b, len(Mode), dtype=torch.bool, device=state.device)
        answerable = element_mask & inputs["element_has_text"]
        mode_mask[:, Mode.TAP] = element_mask.any(1)
        mode_mask[:, Mode.TYPE] = goal_mask.any(1)
        mode_mask[:, Mode.ANSWER] = answerable.any(1) & self.config.declare
        mode_mask[:, Mode.IMPOSSIBLE] = self.config.declare
        copy = None
        if self.source_head is not None:  # TYPE may copy: it needs some source, not only goal words
            copy, source_mask = self._copy_tables(inputs, elements, state, answerable, texts)
            mode_mask[:, Mode.TYPE] = source_mask.any(1)
        log_p_mode = masked_log_softmax(self.mode_head(state), mode_mask)

        # element_head([h_k, s]) and start_head([c_g, s]) on the real elements and words only (`packing`)
        element_logits = head_with_context(self.element_head, elements, state, element_mask)
        log_p_element = masked_log_softmax(element_logits, element_mask)
        log_p_answer = masked_log_softmax(element_logits, answerable)

        start_logits = head_with_context(self.start_head, goal_words, state, goal_mask)
        log_p_start = masked_log_softmax(start_logits, goal_mask)

        # span lengths: for each start s and length l + 1 that fit the goal, from the start word c_s, the end word
        # c_{s+l}, the length's embedding and the state (only those spans are computed: `packing`)
        starts = torch.arange(g, device=state.device)[:, None]
        lengths = torch.arange(1, n_len + 1, device=state.device)[None, :]
        fits = (starts + lengths)[None] <= goal_mask.sum(1)[:, None, None]  # (B, G, n_len)
        row, start, length = fits.nonzero(as_tuple=True)
        words = goal_words.flatten(0, 1)  # (B * G, w); index_select, not indexing: a fixed-order gradient (`packing`)
        hidden = torch.tanh(self.length_start(words).index_select(0, row * g + start)
                            + self.length_end(words).index_select(0, row * g + start + length)
                            + self.length_embedding.weight.index_select(0, length)
                            + self.length_state(state).index_select(0, row))
        length_logits = unpack(self.length_out(hidden).squeeze(-1), (row, start, length), fits.shape)
        log_p_length = masked_log_softmax(length_logits, fits)
        return FactorisedDistribution(log_p_mode, log_p_element, log_p_start, log_p_length, log_p_answer,
                                      copy), state

    def _copy_tables(self, inputs: Inputs, elements: torch.Tensor, state: torch.Tensor, has_text: torch.Tensor,
                     texts: torch.Tensor | None) -> tuple[CopyTables, torch.Tensor]:
        """TYPE's source and copy pointers (c over the on-screen elements with text, r over the remembered texts
        `texts`), and which sources each row has (B, 3)."""  # noqa: D205, D209
        assert self.source_head is not None and self.copy_head is not None
        b = state.shape[0]
        log_p_copy = masked_log_softmax(head_with_context(self.copy_head, elements, state, has_text), has_text)
        if self.recall_head is not None:
            assert texts is not None  # a recall head is built with the memory
            memory_mask = inputs["memory_mask"]
            log_p_recall = masked_log_softmax(head_with_context(self.recall_head, texts, state, memory_mask),
                                              memory_mask)
        else:  # no memory: one impossible slot
            memory_mask = torch.zeros(b, 1, dtype=torch.bool, device=state.device)
            log_p_recall = masked_log_softmax(state.new_zeros(b, 1), memory_mask)
        source_mask = torch.stack([inputs["goal_mask"].any(1), has_text.any(1), memory_mask.any(1)], 1)
        return CopyTables(masked_log_softmax(self.source_head(state), source_mask), log_p_copy,
                          log_p_recall), source_mask

    # -- env actions --------------------------------------------------------------------------------------------------
    def to_env_action(self, actions: Mapping[str, Any], observations: Sequence[Mapping[str, Any]]) -> list[Action]:
        """Env actions for a batch: TAP at the element's box centre, TYPE the goal span, keys, fixed scroll swipes.

        A TAP on a padded element or a span outside the goal (never sampled, only possible for hand-made ids) becomes
        `Action.invalid`, which the env executes as a flagged no-op.

        Raises:
            DataError: `actions` lacks a key or its rows do not match `observations`.
        """
        columns = {}
        for key in self.action_keys:
            if key not in actions:
                raise DataError(f"`actions` lacks {key!r}; expected {list(self.action_keys)}")
            value = actions[key]
            columns[key] = np.asarray(value.detach().cpu() if isinstance(value, torch.Tensor) else value).reshape(-1)
            if len(columns[key]) != len(observations):
                raise DataError(f"`actions[{key!r}]` has {len(columns[key])} rows for {len(observations)} observations")
        return [self._to_env_one({k: int(v[i]) for k, v in columns.items()}, obs)
                for i, obs in enumerate(observations)]

    @classmethod
    def reader(cls, config: SmallPolicyConfig) -> ObservationReader:
        """`Policy.reader`: with `config.memory_steps`, the observation with the episode memory that follows the
        previous action on the previous observation (`episode_memory.read_with_memory`, which pickles to workers
        without torch); without, the observation unchanged.
        """  # noqa: D205
        if not config.memory_steps:
            return super().reader(config)
        return ObservationReader((*cls.observation_keys, *MEMORY_KEYS),
                                 functools.partial(read_with_memory, steps=config.memory_steps,
                                                   texts=config.memory_texts))

    def _to_env_one(self, action: dict[str, int], observation: Mapping[str, Any]) -> Action:
        mode = Mode(action["mode"])
        if mode == Mode.TAP:
            k, mask = action["element"], np.asarray(observation["element_mask"])
            if not (0 <= k < len(mask) and mask[k]):
                return Action.invalid(f"TAP on element {k}, which is not on screen")
            x0, y0, x1, y1 = (float(v) for v in np.asarray(observation["element_boxes"])[k])
            return Action.tap((x0 + x1) / 2, (y0 + y1) / 2)
        if mode == Mode.ANSWER:
            k, mask = action["element"], np.asarray(observation["element_mask"])
            on_screen = 0 <= k < len(mask) and bool(mask[k])
            answer = label_text(np.asarray(observation["element_text"])[k]).strip() if on_screen else ""
            if not answer:
                return Action.invalid(f"ANSWER with element {k}, which is not on screen or has no text")
            return Action(ActionType.STATUS_TASK_COMPLETE, text=answer)
        if mode == Mode.IMPOSSIBLE:
            return Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)
        if mode == Mode.TYPE and action.get("type_source", Source.GOAL) != Source.GOAL:
            return copied_text(action, observation)
        if mode == Mode.TYPE:
            goal_words = words(observation_goal(observation), self.config.max_goal_words)
            start, length = action["span_start"], action["span_length"]
            if not (0 <= start and 1 <= length and start + length <= len(goal_words)):
                return Action.invalid(f"TYPE span ({start}, {length}) outside the goal's {len(goal_words)} words")
            return Action.type(join_span(goal_words, start, length))
        if mode == Mode.SCROLL_DOWN:
            return Action.swipe(*SCROLL_DOWN_SWIPE)
        if mode == Mode.SCROLL_UP:
            return Action.swipe(*SCROLL_UP_SWIPE)
        return Action.key(_KEY_MODES[mode])

    def from_env_action(self, action: Action, observation: Mapping[str, Any]) -> dict[str, int] | None:
        """The ids of an expert's env action (for behaviour cloning), or None when this policy cannot express it.

        Taps map to `element_at` (or to `action.element` when it names an on-screen element), TYPE to the goal span
        equal to the text, vertical swipes to SCROLL_DOWN/SCROLL_UP, BACK/HOME/ENTER/WAIT to their modes; with
        `config.declare`, an answer (STATUS_TASK_COMPLETE with text) to ANSWER with the first on-screen element whose
        text matches it (`answers_match`), and STATUS_TASK_IMPOSSIBLE to IMPOSSIBLE. Long presses, horizontal swipes,
        OPEN_APP, other declarations and unparsed actions give None. Unused fields are 0 (1 for `span_length`).

        With `config.copy_from_screen`, a TYPE whose text is no goal span maps to a copy (`type_source`) of the first
        on-screen element whose text says the same words (`episode_memory.normalised`), else of the first remembered
        text that does (with memory).
        """
        ids = self._ids_of(action, observation)
        if self.config.copy_from_screen and ids is not None:
            ids = {"type_source": int(Source.GOAL), "memory_slot": 0, **ids}
        return ids

    def _ids_of(self, action: Action, observation: Mapping[str, Any]) -> dict[str, int] | None:
        ids = {"mode": 0, "element": 0, "span_start": 0, "span_length": 1}
        kind = action.action_type
        if not action.is_parsed:
            return None
        if kind in _MODE_OF_KEY:
            return {**ids, "mode": int(_MODE_OF_KEY[kind])}
        if kind in (ActionType.STATUS_TASK_COMPLETE, ActionType.STATUS_TASK_IMPOSSIBLE):
            if not self.config.declare:
                return None
            if kind == ActionType.STATUS_TASK_IMPOSSIBLE:
                return {**ids, "mode": int(Mode.IMPOSSIBLE)}
            element = answer_element(observation, action.text)
            return None if element is None else {**ids, "mode": int(Mode.ANSWER), "element": element}
        if kind == ActionType.TYPE:
            span = find_span(action.text, words(observation_goal(observation), self.config.max_goal_words),
                             self.config.max_span_length)
            if span is not None:
                return {**ids, "mode": int(Mode.TYPE), "span_start": span[0], "span_length": span[1]}
            copy = copy_ids(action.text, observation) if self.config.copy_from_screen else None
            return None if copy is None else {**ids, "mode": int(Mode.TYPE), **copy}
        if kind != ActionType.DUAL_POINT:
            return None
        mask = np.asarray(observation["element_mask"]).astype(bool)
        if 0 <= action.element < len(mask) and mask[action.element]:
            return {**ids, "mode": int(Mode.TAP), "element": int(action.element)}
        if action.is_tap:
            element = element_at(observation, *action.touch)
            return None if element is None else {**ids, "mode": int(Mode.TAP), "element": element}
        dx, dy = action.lift[0] - action.touch[0], action.lift[1] - action.touch[1]
        if abs(dy) <= abs(dx):
            return None
        return {**ids, "mode": int(Mode.SCROLL_DOWN if dy < 0 else Mode.SCROLL_UP)}


def answer_element(observation: Mapping[str, Any], answer: str) -> int | None:
    """The first on-screen element whose text says `answer` (`answers_match`), or None (no answer, or none says it)."""
    if not answer.strip():
        return None
    texts = np.asarray(observation["element_text"])
    for k in np.flatnonzero(np.asarray(observation["element_mask"]).astype(bool)):
        if answers_match(label_text(texts[k]), answer):
            return int(k)
    return None


def element_at(observation: Mapping[str, Any], x: float, y: float) -> int | None:
    """The element under (x, y) screen fractions: the smallest clickable one whose box holds it, else the smallest.

    Returns:
        The element row, or None when no on-screen element's box contains the point.
    """
    inside = elements_under(observation, x, y)
    clickable = inside & np.asarray(observation["element_flags"])[:, _CLICKABLE].astype(bool)
    return smallest(observation, clickable if clickable.any() else inside)
