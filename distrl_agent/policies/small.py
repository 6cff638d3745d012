"""`SmallPolicy`: a fast CPU-trainable UI policy over UI-element arrays, with goal-label word matching.

Architecture (d = `hidden_dim`, w = `word_dim`):

- goal words: hashed embedding + position, a width-3 convolution for neighbour context -> c_g (w); the goal alone
  pools (mean + attention) into g (d), which feeds the instruction value V(g) and queries the elements. Screen features
  (the word is in some label / in the focused field) are added to c_g after that pooling, so V(g) never sees the screen.
- elements: box, centre, size, class embedding, flags, mean hashed-word embedding of the label, match features against
  the goal, and the mean c_g of the goal words the label contains -> MLP -> h_k (d).
- state: s = MLP([g, attention-pool of h_k queried by g, mean h_k, mean c_g]).
- heads (see `factorised`): mode from s; element from [h_k, s]; span start from [c_g, s]; span length from the start
  word, the end word (whose convolution sees the word after it), a length embedding and s; V(s) from s.

Matching features are what carry over to unseen cities, products and topics; the hashed embeddings of words never
seen in training are random and add little.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from android_gym.actions import Action, ActionType
from android_gym.spaces import ELEMENT_CLASSES, ELEMENT_FLAGS
from distrl_agent.errors import ConfigError, DataError
from distrl_agent.policies.base import Actions, Inputs, Policy, PolicyOutput
from distrl_agent.policies.factorised import (
    ACTION_KEYS,
    FactorisedDistribution,
    Mode,
    masked_log_softmax,
)
from distrl_agent.policies.features import GOAL_FEATURES, LABEL_FEATURES, encode_observations, observation_goal
from distrl_agent.policies.text import find_span, join_span, words

SCROLL_DOWN_SWIPE = (0.5, 0.7, 0.5, 0.35)
"""(x0, y0, x1, y1) screen fractions of the SCROLL_DOWN swipe (finger moves up, revealing content below)."""
SCROLL_UP_SWIPE = (0.5, 0.35, 0.5, 0.7)
"""(x0, y0, x1, y1) screen fractions of the SCROLL_UP swipe."""
_KEY_MODES = {Mode.BACK: ActionType.PRESS_BACK, Mode.HOME: ActionType.PRESS_HOME, Mode.ENTER: ActionType.PRESS_ENTER,
              Mode.WAIT: ActionType.WAIT}
_MODE_OF_KEY = {kind: mode for mode, kind in _KEY_MODES.items()}
_CLICKABLE = ELEMENT_FLAGS.index("clickable")


@dataclass(frozen=True)
class SmallPolicyConfig:
    """Shape of a `SmallPolicy`; two policies exchange weights only if their configs match.

    Attributes:
        vocab_size: hashed word ids (8192: few collisions among a few thousand distinct UI/goal words, 0.5M params).
        max_goal_words: G, goal words kept (24 covers AitW/AndroidWorld goals).
        max_label_words: W, words kept per element label (8: labels are short; `element_text` holds 32 bytes).
        max_span_length: L, longest TYPE span in goal words (8: search queries, names, addresses).
        word_dim: width of word embeddings and goal-word encodings.
        hidden_dim: d, width of element encodings, the state and the heads (128 keeps a batch of 64 fast on CPU).
        class_dim: width of the element-class embedding.
        critic_trains_encoder: whether critic gradients reach the shared encoder. Off by default: a critic head that
            starts at random sends large gradients into the features the warm-started actor relies on, which
            collapsed test success from 0.68 to 0.12 within 20 s of training in our runs; the critic heads learn
            on detached features instead (as the VLM policy's do).
    """

    vocab_size: int = 8192
    max_goal_words: int = 24
    max_label_words: int = 8
    max_span_length: int = 8
    word_dim: int = 64
    hidden_dim: int = 128
    class_dim: int = 16
    critic_trains_encoder: bool = False

    def __post_init__(self) -> None:
        if self.vocab_size < 2:
            raise ConfigError(f"`vocab_size` must be >= 2 (id 0 is padding), got {self.vocab_size}")
        for name in ("max_goal_words", "max_label_words", "max_span_length", "word_dim", "hidden_dim", "class_dim"):
            if getattr(self, name) < 1:
                raise ConfigError(f"`{name}` must be >= 1, got {getattr(self, name)}")


def _mlp(*sizes: int) -> nn.Sequential:
    """Linear layers of the given widths with ReLU between them (none after the last)."""
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def _masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean of x (B, N, D) over the rows where mask (B, N) is True; zeros when none is."""
    m = mask.to(x.dtype).unsqueeze(-1)
    return (x * m).sum(1) / m.sum(1).clamp(min=1.0)


def _attention_pool(x: torch.Tensor, scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Softmax(scores)-weighted sum of x (B, N, D) over valid rows; zeros when no row is valid."""
    weights = masked_log_softmax(scores, mask).exp() * mask.any(1, keepdim=True).to(x.dtype)
    return (weights.unsqueeze(-1) * x).sum(1)


class SmallPolicy(Policy):
    """The small factorised UI policy: modes TAP/TYPE/BACK/HOME/ENTER/SCROLL_DOWN/SCROLL_UP/WAIT.

    Actions are `ACTION_KEYS` ids: `mode`, `element` (an element row, used by TAP), `span_start` and `span_length`
    (a span of goal words, typed by TYPE). See the module docstring for the architecture.
    """

    action_keys = ACTION_KEYS

    def __init__(self, config: SmallPolicyConfig | None = None) -> None:
        super().__init__()
        self.config = config = config or SmallPolicyConfig()
        w, d, g, n_len = config.word_dim, config.hidden_dim, config.max_goal_words, config.max_span_length
        self.word_embedding = nn.Embedding(config.vocab_size, w, padding_idx=0)
        self.goal_position = nn.Embedding(g, w)
        self.goal_context = nn.Conv1d(w, w, kernel_size=3, padding=1)
        self.goal_norm = nn.LayerNorm(w)
        self.goal_attention = nn.Linear(w, 1)
        self.goal_pool = _mlp(2 * w, d, d)
        self.goal_screen = nn.Linear(GOAL_FEATURES, w)
        self.class_embedding = nn.Embedding(len(ELEMENT_CLASSES), config.class_dim)
        element_in = 8 + config.class_dim + len(ELEMENT_FLAGS) + w + LABEL_FEATURES + w + 1
        self.element_encoder = _mlp(element_in, d, d)
        self.element_query = nn.Linear(d, d)
        self.state_encoder = _mlp(3 * d + w, d, d)
        self.mode_head = _mlp(d, d, len(Mode))
        self.element_head = _mlp(2 * d, d, 1)
        self.start_head = _mlp(w + d, d // 2 or 1, 1)
        self.length_start = nn.Linear(w, d // 2 or 1)
        self.length_end = nn.Linear(w, d // 2 or 1, bias=False)
        self.length_state = nn.Linear(d, d // 2 or 1, bias=False)
        self.length_embedding = nn.Embedding(n_len, d // 2 or 1)
        self.length_out = nn.Linear(d // 2 or 1, 1)
        self.value_head = _mlp(d, d, 1)
        self.instruction_value_head = _mlp(d, d, 1)

    # -- the Policy contract ------------------------------------------------------------------------------------------
    def preprocess(self, observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None = None) -> Inputs:
        """Encode observations (see `features.encode_observations` for the keys); tensors on the policy's device.

        Raises:
            DataError: an observation lacks the UI-element arrays or has malformed ones.
        """
        c = self.config
        arrays = encode_observations(observations, goals, max_goal_words=c.max_goal_words,
                                     max_label_words=c.max_label_words, vocab_size=c.vocab_size)
        device = self.device
        return {k: torch.from_numpy(v).to(device) for k, v in arrays.items()}

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
            DataError: `actions` lacks one of `ACTION_KEYS`.
        """
        missing = [k for k in ACTION_KEYS if k not in actions]
        if missing:
            raise DataError(f"`actions` lacks {missing}; expected {list(ACTION_KEYS)}")
        dist, state = self.distribution(inputs)
        value = self.value_head(self._critic_input(state)).squeeze(-1)
        return PolicyOutput(dist.log_prob(actions), dist.entropy(), value)

    def value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) V(s)."""
        goal_words, goal = self._encode_goal(inputs)
        return self.value_head(self._critic_input(self._encode_state(inputs, goal_words, goal)[1])).squeeze(-1)

    def instruction_value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) V(g) from the goal encoding alone (reads only `goal_ids` and `goal_mask`)."""
        goal = self._pool_goal(self._goal_context(inputs), inputs["goal_mask"])
        return self.instruction_value_head(self._critic_input(goal)).squeeze(-1)

    def _critic_input(self, features: torch.Tensor) -> torch.Tensor:
        """The critic heads' input: `features`, cut from the encoder's graph unless `critic_trains_encoder`."""
        return features if self.config.critic_trains_encoder else features.detach()

    # -- the network --------------------------------------------------------------------------------------------------
    def distribution(self, inputs: Inputs) -> tuple[FactorisedDistribution, torch.Tensor]:
        """The masked factorised action distribution and the state encoding s (B, d)."""
        goal_words, goal = self._encode_goal(inputs)
        elements, state = self._encode_state(inputs, goal_words, goal)
        goal_mask, element_mask = inputs["goal_mask"], inputs["element_mask"]
        b, g = goal_mask.shape
        n_len = self.config.max_span_length

        mode_mask = torch.ones(b, len(Mode), dtype=torch.bool, device=state.device)
        mode_mask[:, Mode.TAP] = element_mask.any(1)
        mode_mask[:, Mode.TYPE] = goal_mask.any(1)
        log_p_mode = masked_log_softmax(self.mode_head(state), mode_mask)

        k = elements.shape[1]
        element_logits = self.element_head(torch.cat([elements, state[:, None].expand(-1, k, -1)], -1)).squeeze(-1)
        log_p_element = masked_log_softmax(element_logits, element_mask)

        start_logits = self.start_head(torch.cat([goal_words, state[:, None].expand(-1, g, -1)], -1)).squeeze(-1)
        log_p_start = masked_log_softmax(start_logits, goal_mask)

        starts = torch.arange(g, device=state.device)[:, None]
        lengths = torch.arange(1, n_len + 1, device=state.device)[None, :]
        # end_features[:, s, l - 1] = length_end(c_{s+l-1}): the last word of the span (zero past the G words)
        end_features = nn.functional.pad(self.length_end(goal_words), (0, 0, 0, n_len - 1))
        end_features = end_features.unfold(1, n_len, 1).transpose(2, 3)
        hidden = torch.tanh(self.length_start(goal_words)[:, :, None] + end_features + self.length_embedding.weight
                            + self.length_state(state)[:, None, None])
        n_words = goal_mask.sum(1)[:, None, None]
        log_p_length = masked_log_softmax(self.length_out(hidden).squeeze(-1), (starts + lengths)[None] <= n_words)
        return FactorisedDistribution(log_p_mode, log_p_element, log_p_start, log_p_length), state

    def _goal_context(self, inputs: Inputs) -> torch.Tensor:
        """Goal-only word encodings (B, G, w): embedding + position + neighbour context; zero on padding."""
        mask = inputs["goal_mask"].unsqueeze(-1).to(self.goal_position.weight.dtype)
        x = (self.word_embedding(inputs["goal_ids"]) + self.goal_position.weight) * mask
        x = x + torch.relu(self.goal_context(x.transpose(1, 2))).transpose(1, 2)
        return self.goal_norm(x) * mask

    def _pool_goal(self, words_g: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Return g (B, d): the goal pooled by mean and by learned attention."""
        attended = _attention_pool(words_g, self.goal_attention(words_g).squeeze(-1), mask)
        return self.goal_pool(torch.cat([_masked_mean(words_g, mask), attended], -1))

    def _encode_goal(self, inputs: Inputs) -> tuple[torch.Tensor, torch.Tensor]:
        """(c_g (B, G, w) with screen features, g (B, d) goal only)."""
        context = self._goal_context(inputs)
        goal = self._pool_goal(context, inputs["goal_mask"])
        mask = inputs["goal_mask"].unsqueeze(-1).to(context.dtype)
        return context + self.goal_screen(inputs["goal_features"]) * mask, goal

    def _encode_state(self, inputs: Inputs, goal_words: torch.Tensor,
                      goal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(h_k (B, K, d), s (B, d))."""
        boxes, label_ids = inputs["element_boxes"], inputs["label_ids"]
        centre, size = (boxes[..., :2] + boxes[..., 2:]) / 2, boxes[..., 2:] - boxes[..., :2]
        has_word = (label_ids > 0).unsqueeze(-1).to(boxes.dtype)
        label_bag = (self.word_embedding(label_ids) * has_word).sum(2) / has_word.sum(2).clamp(min=1.0)
        match = inputs["match"]
        matched_words = (match / match.sum(-1, keepdim=True).clamp(min=1.0)) @ goal_words
        features = torch.cat([boxes, centre, size, self.class_embedding(inputs["element_class"]),
                              inputs["element_flags"], label_bag, inputs["label_features"], matched_words,
                              has_word.amax(2)], -1)
        elements = self.element_encoder(features)
        mask = inputs["element_mask"]
        scores = (elements @ self.element_query(goal).unsqueeze(-1)).squeeze(-1) / math.sqrt(elements.shape[-1])
        pooled = [_attention_pool(elements, scores, mask), _masked_mean(elements, mask),
                  _masked_mean(goal_words, inputs["goal_mask"])]
        state = self.state_encoder(torch.cat([goal, *pooled], -1))
        return elements, state

    # -- env actions --------------------------------------------------------------------------------------------------
    def to_env_action(self, actions: Mapping[str, Any], observations: Sequence[Mapping[str, Any]]) -> list[Action]:
        """Env actions for a batch: TAP at the element's box centre, TYPE the goal span, keys, fixed scroll swipes.

        A TAP on a padded element or a span outside the goal (never sampled, only possible for hand-made ids) becomes
        `Action.invalid`, which the env executes as a flagged no-op.

        Raises:
            DataError: `actions` lacks a key or its rows do not match `observations`.
        """
        columns = {}
        for key in ACTION_KEYS:
            if key not in actions:
                raise DataError(f"`actions` lacks {key!r}; expected {list(ACTION_KEYS)}")
            value = actions[key]
            columns[key] = np.asarray(value.detach().cpu() if isinstance(value, torch.Tensor) else value).reshape(-1)
            if len(columns[key]) != len(observations):
                raise DataError(f"`actions[{key!r}]` has {len(columns[key])} rows for {len(observations)} observations")
        return [self._to_env_one({k: int(v[i]) for k, v in columns.items()}, obs) for i, obs in enumerate(observations)]

    def _to_env_one(self, action: dict[str, int], observation: Mapping[str, Any]) -> Action:
        mode = Mode(action["mode"])
        if mode == Mode.TAP:
            k, mask = action["element"], np.asarray(observation["element_mask"])
            if not (0 <= k < len(mask) and mask[k]):
                return Action.invalid(f"TAP on element {k}, which is not on screen")
            x0, y0, x1, y1 = (float(v) for v in np.asarray(observation["element_boxes"])[k])
            return Action.tap((x0 + x1) / 2, (y0 + y1) / 2)
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
        equal to the text, vertical swipes to SCROLL_DOWN/SCROLL_UP, BACK/HOME/ENTER/WAIT to their modes. Long
        presses, horizontal swipes, OPEN_APP, STATUS_* and unparsed actions give None. Unused fields are 0 (1 for
        `span_length`).
        """
        ids = {"mode": 0, "element": 0, "span_start": 0, "span_length": 1}
        kind = action.action_type
        if not action.is_parsed:
            return None
        if kind in _MODE_OF_KEY:
            return {**ids, "mode": int(_MODE_OF_KEY[kind])}
        if kind == ActionType.TYPE:
            span = find_span(action.text, words(observation_goal(observation), self.config.max_goal_words),
                             self.config.max_span_length)
            return None if span is None else {**ids, "mode": int(Mode.TYPE), "span_start": span[0],
                                              "span_length": span[1]}
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


def element_at(observation: Mapping[str, Any], x: float, y: float) -> int | None:
    """The element under (x, y) screen fractions: the smallest clickable one whose box holds it, else the smallest.

    Returns:
        The element row, or None when no on-screen element's box contains the point.
    """
    mask = np.asarray(observation["element_mask"]).astype(bool)
    boxes = np.asarray(observation["element_boxes"], np.float64)
    clickable = np.asarray(observation["element_flags"])[:, _CLICKABLE].astype(bool)
    inside = mask & (boxes[:, 0] <= x) & (x <= boxes[:, 2]) & (boxes[:, 1] <= y) & (y <= boxes[:, 3])
    if not inside.any():
        return None
    candidates = inside & clickable if (inside & clickable).any() else inside
    area = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    return int(np.flatnonzero(candidates)[np.argmin(area[candidates])])
