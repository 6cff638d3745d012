"""The `Policy` contract every distrl_agent policy implements (the small UI policy, the VLM policy).

A policy is a `torch.nn.Module` that turns a batch of raw env observations into model inputs (`preprocess`), samples
actions with their behaviour log-probabilities on rollout workers (`act`), re-scores stored actions with gradients on
the learner (`evaluate`), and converts between its own action ids and `android_gym.actions.Action`. Replay stores raw
observation arrays and the policy's action ids, so the learner re-encodes with the current code and weights.

Weights travel as a plain `state_dict`; `shape_signature()` names every tensor's shape so that loading a checkpoint of
another architecture fails with a message that says which tensors differ, not with torch's size-mismatch dump.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from android_gym.actions import Action
from distrl_agent.errors import CheckpointError, DataError
from distrl_agent.policies.reader import ObservationReader

Inputs = dict[str, torch.Tensor]
"""Model inputs produced by `Policy.preprocess` (policy-specific keys, batch first)."""
Actions = dict[str, torch.Tensor]
"""A batch of policy actions: `Policy.action_keys` -> (B,) int64 tensors."""


@dataclass(frozen=True)
class PolicyOutput:
    """What the learner needs from one forward pass over a batch of (s_t, a_t).

    Attributes:
        log_prob: (B,) log π_θ(a_t|s_t) in nats, differentiable.
        entropy: (B,) H(π_θ(·|s_t)) in nats (exact for factorised categorical policies), differentiable.
        value: (B,) V_φ(s_t), differentiable.
        token_log_prob: (B, K) log π_θ of each token of a sequence action (zero after its length; the rows sum to
            `log_prob`), differentiable; None for a policy whose actions are one choice.
        token_mask: (B, K) bool, true on each action's tokens; set with `token_log_prob`.
    """

    log_prob: torch.Tensor
    entropy: torch.Tensor
    value: torch.Tensor
    token_log_prob: torch.Tensor | None = None
    token_mask: torch.Tensor | None = None


@dataclass(frozen=True)
class StatesOutput:
    """What the learner needs from one pass over a batch's states, some with a stored action and some without.

    Attributes:
        log_prob: (A,) log π_θ(a|s) of the A rows that have an action, in their order, differentiable.
        entropy: (A,) H(π_θ(·|s)) of those rows, differentiable.
        values: (N,) V_φ(s) of every row, differentiable.
        token_log_prob: (A, K) log π_θ of each token of those rows' actions (`PolicyOutput.token_log_prob`), or None.
        token_mask: (A, K) bool, true on those actions' tokens, or None.
    """

    log_prob: torch.Tensor
    entropy: torch.Tensor
    values: torch.Tensor
    token_log_prob: torch.Tensor | None = None
    token_mask: torch.Tensor | None = None


class Policy(nn.Module, abc.ABC):
    """An actor-critic over phone observations.

    Subclasses guarantee: `act` and `evaluate` agree (exp(log_mu) is the probability `evaluate` gives the same action
    under the same weights); invalid choices (padded elements, out-of-range spans) are never sampled; `config` is a
    frozen dataclass from which `type(policy)(config)` rebuilds a policy that accepts this one's `state_dict`.

    Attributes:
        config: the frozen dataclass the policy was built from.
        action_keys: the names of the discrete action fields, in a fixed order.
        observation_keys: the observation entries `preprocess` reads besides the goal, as `observe` returns them;
            workers store exactly these in trajectories (and the env must be made to provide them).
    """

    config: Any
    action_keys: tuple[str, ...] = ()
    observation_keys: tuple[str, ...] = ()

    @property
    def device(self) -> torch.device:
        """The device of the policy's parameters (where `preprocess` puts its tensors)."""
        return next(self.parameters()).device

    @abc.abstractmethod
    def preprocess(self, observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None = None) -> Inputs:
        """Encode a batch of env observations (numpy dicts as the env returns them) into model inputs.

        Args:
            observations: one observation per batch row.
            goals: goal texts overriding `observation["goal"]`; None reads them from the observations.

        Raises:
            DataError: an observation lacks what the policy reads or has malformed arrays.
        """

    @abc.abstractmethod
    def act(self, inputs: Inputs, deterministic: bool = False,
            generator: torch.Generator | None = None) -> tuple[Actions, torch.Tensor]:
        """Sample (or, if `deterministic`, pick the mode of) one action per row, without gradients.

        Returns:
            (actions, log_mu): the action ids and their (B,) log-probabilities under the current weights; a policy
            whose actions are token sequences returns (B, K) instead, the log-probability of each token (zero after
            a row's last), whose sum over K is the action's (workers store both: `Trajectory.token_log_mu`).
        """

    @abc.abstractmethod
    def evaluate(self, inputs: Inputs, actions: Actions) -> PolicyOutput:
        """Return log π(a|s), H(π(·|s)) and V(s) for stored actions, with gradients."""

    @abc.abstractmethod
    def value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) state value V(s)."""

    def evaluate_states(self, inputs: Inputs, actions: Actions, acted: torch.Tensor) -> StatesOutput:
        """`evaluate` on the rows where `acted` (N,) is True, with `actions` given for those rows in order, and V(s)
        of every row (the learner's pass over a batch: states with an action, and each trajectory's final state).

        The default calls `evaluate` and `value` on the two sets of rows; a policy that can encode every row in one
        pass overrides it.
        """  # noqa: D205
        with_action = torch.nonzero(acted).squeeze(1)
        without = torch.nonzero(~acted).squeeze(1)
        out = self.evaluate({k: v.index_select(0, with_action) for k, v in inputs.items()}, actions)
        values = out.value.new_zeros(len(acted)).index_put((with_action.to(out.value.device),), out.value)
        if len(without):
            rest = self.value({k: v.index_select(0, without) for k, v in inputs.items()})
            values = values.index_put((without.to(values.device),), rest)
        return StatesOutput(out.log_prob, out.entropy, values, out.token_log_prob, out.token_mask)

    @abc.abstractmethod
    def instruction_value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) instruction value V(g): a critic of the goal alone (DigiRL), blind to the screen."""

    @abc.abstractmethod
    def to_env_action(self, actions: Mapping[str, Any], observations: Sequence[Mapping[str, Any]]) -> list[Action]:
        """The env `Action` of each row of `actions` (tensors, arrays or lists), given the observations acted on."""

    @abc.abstractmethod
    def from_env_action(self, action: Action, observation: Mapping[str, Any]) -> dict[str, int] | None:
        """The policy's action ids for an expert's env `action` on `observation`; None if it cannot express it."""

    def observe(self, observation: Mapping[str, Any], previous_action: Action | None,
                previous_observation: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The env observation as this policy reads it, given the action taken before it and the observation (as
        read) that action was chosen on (both None at an episode's start).

        Workers and demonstration collection call it on every observation before `preprocess` and store its
        `observation_keys`. It is this policy's `reader` at work: a function of its arguments and the config alone.
        """  # noqa: D205
        return type(self).reader(self.config).observe(observation, previous_action, previous_observation)

    @classmethod
    def reader(cls, config: Any) -> ObservationReader:
        """How a policy of `config` reads observations, as a function of the config alone (never of the weights), in
        a form that unpickles without torch: the host's inference service hands it to workers that never build the
        model (`runtime/inference.py`).

        The default keeps `observation_keys` and returns an observation unchanged; a policy that conditions on its own
        history (the VLM's "Previous Actions") returns a reader that adds it.
        """  # noqa: D205
        return ObservationReader(tuple(cls.observation_keys))

    def keep_master_weights(self) -> None:
        """Train in full precision: keep float32 weights and compute in the policy's own precision (autocast).

        The learner and the warm start call it on the policy they train, before making its optimiser, so that updates
        smaller than a low-precision weight's step are not rounded away; workers act with the weights as built. The
        default does nothing (a float32 policy is its own master copy).
        """

    def copy_actor_encoder_to_critic(self) -> None:
        """Start the critic's own features from the actor's (called after a warm start).

        The default does nothing: for policies whose critics read the actor's features, there is nothing to copy.
        """

    def concat_inputs(self, parts: Sequence[Inputs]) -> Inputs | None:
        """Stack `preprocess` outputs of separate calls row-wise, as one call over all their rows would return them.

        The learner uses it to encode each replayed trajectory once instead of at every update. The default returns
        None: the policy's inputs cannot be merged (the learner then re-encodes every batch).
        """
        return None

    # -- shared helpers ---------------------------------------------------------------------------------------------
    def collate_actions(self, actions: Sequence[Mapping[str, int]]) -> Actions:
        """Stack per-step action dicts (as `from_env_action` returns them) into a batch of tensors.

        Raises:
            DataError: an action lacks one of `action_keys`.
        """
        for i, a in enumerate(actions):
            missing = [k for k in self.action_keys if k not in a]
            if missing:
                raise DataError(f"action {i} lacks {missing}; expected the keys {list(self.action_keys)}")
        return {k: torch.tensor([int(a[k]) for a in actions], dtype=torch.long, device=self.device)
                for k in self.action_keys}

    def shape_signature(self) -> dict[str, tuple[int, ...]]:
        """Every state_dict entry's shape, which two policies must share for weights to transfer."""
        return {name: tuple(t.shape) for name, t in self.state_dict().items()}

    def check_state_dict(self, state_dict: Mapping[str, Any]) -> None:
        """Check that `state_dict` fits this policy's architecture.

        Raises:
            CheckpointError: names missing, unexpected and mis-shaped tensors (at most five of each) and the config
                this policy was built with.
        """
        mine = self.shape_signature()
        theirs = {name: tuple(getattr(t, "shape", ())) for name, t in state_dict.items()}
        missing = sorted(set(mine) - set(theirs))
        unexpected = sorted(set(theirs) - set(mine))
        wrong = [f"{n}: checkpoint {theirs[n]} vs policy {mine[n]}" for n in sorted(set(mine) & set(theirs))
                 if theirs[n] != mine[n]]
        if not (missing or unexpected or wrong):
            return
        parts = [f"{label} {items[:5]}" + (f" and {len(items) - 5} more" if len(items) > 5 else "")
                 for label, items in (("missing", missing), ("unexpected", unexpected), ("mis-shaped", wrong)) if items]
        raise CheckpointError(f"the checkpoint does not fit {type(self).__name__}({self.config}): " + "; ".join(parts)
                              + ". Build the policy with the config the checkpoint was trained with.")

    def trainable_state_keys(self) -> list[str]:
        """The `state_dict` entries training can change: parameters that require grad, and every buffer.

        Weights travel between learner and workers as these only: the rest (a VLM's frozen backbone under LoRA)
        is rebuilt by every process from the same config, so shipping it each version would copy gigabytes for nothing.
        """
        changing = {name for name, p in self.named_parameters() if p.requires_grad}
        changing |= {name for name, _ in self.named_buffers()}
        return [k for k in self.state_dict() if k in changing]

    def load_weights(self, weights: Mapping[str, Any]) -> None:
        """Load a whole `state_dict`, or only the `trainable_state_keys` entries (the rest stays as built).

        Args:
            weights: name -> numpy array or tensor.

        Raises:
            CheckpointError: mis-shaped or unknown entries, or a partial dict that lacks a trainable entry.
        """
        # a read-only array (Ray hands weights out zero-copy) is copied: torch cannot wrap it safely
        state = {k: torch.as_tensor(np.array(v) if isinstance(v, np.ndarray) and not v.flags.writeable else v)
                 for k, v in weights.items()}
        if state.keys() == self.state_dict().keys():
            self.load_state_dict(state)
            return
        self.check_weights(state)
        super().load_state_dict(state, strict=False)

    def check_weights(self, weights: Mapping[str, Any]) -> None:
        """Check that `load_weights` would take `weights` (a whole state_dict, or every trainable entry), loading
        nothing: a policy built on the meta device checks a file's weights without memory for them.

        Raises:
            CheckpointError: mis-shaped or unknown entries, or a partial dict that lacks a trainable entry.
        """  # noqa: D205
        self.check_state_dict({**self.state_dict(), **weights})  # shapes, and names this policy does not have
        missing = [k for k in self.trainable_state_keys() if k not in weights]
        if missing:
            raise CheckpointError(f"the weights lack {len(missing)} trainable tensors of {type(self).__name__}, e.g. "
                                  f"{missing[:5]}; send the whole state_dict or every `trainable_state_keys()` entry")

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False) -> Any:
        """Load weights after `check_state_dict` (when `strict`), so architecture mismatches raise `CheckpointError`.

        Raises:
            CheckpointError: `strict` and the checkpoint's tensors do not match this policy's shapes.
        """
        if strict:
            self.check_state_dict(state_dict)
        return super().load_state_dict(state_dict, strict=strict, assign=assign)
