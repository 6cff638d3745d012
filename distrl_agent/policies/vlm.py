"""`VLMPolicy`: an AutoUI-style vision-language policy on `transformers` that writes actions as text.

Input: the screenshot, the goal and the previous action (AutoUI's "Previous Actions"), formatted by
`VLMPolicyConfig.prompt_template`. Output: action text in the AutoUI/DigiRL string form, e.g.
``Action Decision: "action_type": "DUAL_POINT", "touch_point": "[y, x]", ...``, read by
`android_gym.actions.parse_action`; text it cannot parse becomes `Action.invalid` (executed as a flagged no-op).

The policy π(a|s) over token sequences a = (a_1 .. a_n) is
    log π(a|s) = Σ_j log softmax(z_j / temperature)[a_j],      z_j = logits after s, a_<j,
with image-placeholder ids (and ids the tokenizer cannot decode) masked out, so sampling (`act`) and teacher forcing
(`evaluate`) score the very same distribution, and `act`'s log_mu equals `evaluate`'s log_prob up to float error.
A sequence ends at an EOS id (counted in the sequence) or after `max_new_tokens` tokens (then it has no EOS).

Entropy: the exact entropy of a distribution over sequences is intractable. `evaluate` returns a per-sequence
surrogate (`policies/sequence_entropy.py`) whose value estimates H(π(·|s)) and whose gradient, in expectation over
a ~ π, is ∇H: per `entropy_estimate`, Σ_j H(π(·|s, a_<j)) along the stored sequence with the score term of the prefix
("token_entropy", the default: lower variance), or −log π(a|s) with its score-function gradient ("neg_log_prob", the
sampled estimate A-RIDE.md names). Plain autograd through −log π(a|s) would give the entropy bonus no gradient at all.

Action storage (replay, `Trajectory.actions`, `Batch.actions`): two integer keys, `action_keys = ("tokens", "length")`:
    tokens: int64 [max_new_tokens] per step: the generated token ids, EOS included, zero-padded after `length`;
    length: int64 scalar per step: the number of real tokens, 1..max_new_tokens.
So a trajectory of T steps stores tokens [T, max_new_tokens] and length [T]; a `Batch` holds [B, L, max_new_tokens]
and [B, L], which `algorithms.common.policy_pass` indexes to [N, max_new_tokens] and [N] for `evaluate`.

Architectures: what differs between a decoder-only VLM and AutoUI's encoder-decoder (T5 reading a vision encoder's
features, `autoui_model`) lives behind the backbone's `start`/`step`/`score_tokens`/`prompt_features`/
`text_features` (`vlm_backbone`, `autoui_backbone`); this module is the same for both.

Observations: `screenshot` (uint8 H×W×3, make the env with `screenshot_width > 0`), `goal` (or the `goals`
argument), and optionally `previous_action` (AutoUI text of the last action, see `reader.previous_action_text`;
missing or empty reads "None", as at the first step).

Critics: V(s) and the instruction value V(g) are MLPs on [mean, last] of the text model's final hidden states, of
the prompt (screen + goal + previous action) and of the goal alone (no image) respectively; for AutoUI's
encoder-decoder, of the encoder's states (image features and prompt) and of the goal's encoding. Unless
`critic_trains_backbone`, they read detached features, so critic losses train only the heads and never move the
actor's weights.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from android_gym.actions import Action
from android_gym.actions_text import format_action, parse_action
from android_gym.errors import ConfigError as EnvConfigError
from distrl_agent.errors import CheckpointError, DataError
from distrl_agent.policies.base import Actions, Inputs, Policy, PolicyOutput
from distrl_agent.policies.reader import ObservationReader, with_previous_action
from distrl_agent.policies.sequence_entropy import sequence_entropy
from distrl_agent.policies.vlm_backbone import attach_lora, checkpoint_activations, load_backbone
from distrl_agent.policies.vlm_budget import check_budget
from distrl_agent.policies.vlm_config import VLMPolicyConfig

VLM_ACTION_KEYS = ("tokens", "length")
"""`VLMPolicy.action_keys`: token ids [max_new_tokens] (zero-padded) and the number of real ones."""


def _mlp(n_in: int, n_hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(n_in, n_hidden), nn.Tanh(), nn.Linear(n_hidden, 1))


class VLMPolicy(Policy):
    """The text-action policy: samples action strings from a VLM, scores them by teacher forcing, and values states.

    See the module docstring for the distribution, the action storage and the critics. `act` and `evaluate` agree
    when the model has no active dropout (call `eval()` on workers; real VLMs ship with dropout 0).

    Raises (constructor):
        CheckpointError: `config.model_path` is not a local VLM checkpoint with a processor.
        ConfigError: LoRA is requested and `peft` is missing or matches no module.
    """

    action_keys = VLM_ACTION_KEYS
    observation_keys = ("screenshot", "previous_action")

    def __init__(self, config: VLMPolicyConfig) -> None:
        super().__init__()
        self.config = config
        device = config.torch_device()  # "auto" resolved; a GPU torch cannot see refused here, before anything runs
        check_budget(config.model_path, getattr(torch, config.dtype), config.max_memory_gib)  # before loading it
        parts = load_backbone(config.model_path, getattr(torch, config.dtype), device)
        if config.chat_template and not getattr(parts.tokenizer, "chat_template", None):
            raise CheckpointError(f"`policy.vlm.chat_template` is true but the tokenizer in {config.model_path!r} "
                                  "has no chat template; save the model's tokenizer with its template, or set "
                                  "`policy.vlm.chat_template=false` to use `prompt_template` as it is")
        if config.lora_rank:
            attach_lora(parts.adapted_model, config.lora_rank, config.lora_alpha, config.lora_dropout,
                        config.lora_target_modules)
        if config.gradient_checkpointing:
            checkpoint_activations(parts.adapted_model)
        self.backbone = parts.model
        self.parts = parts  # processor, ids and the model's sub-modules (registered through `backbone`)
        width = 2 * parts.hidden_size
        self.value_head = _mlp(width, config.value_hidden_dim).to(device)
        self.instruction_value_head = _mlp(width, config.value_hidden_dim).to(device)
        self.register_buffer("_eos_ids", torch.tensor(parts.eos_ids, device=device), persistent=False)
        vocab_mask = torch.zeros(parts.vocab_size, dtype=torch.bool, device=device)
        vocab_mask[list(parts.banned_ids)] = True
        self.register_buffer("_banned", vocab_mask, persistent=False)
        self._autocast: torch.dtype | None = None  # the compute dtype when the weights are float32 masters

    def keep_master_weights(self) -> None:
        """A bfloat16/float16 backbone becomes float32 and computes in its dtype under autocast (`Policy`).

        Without master weights, Adam's steps at a VLM's learning rates round away: at lr 1e-5, 3 steps changed
        14.6% of a bf16 backbone's weights against 94% in float32.
        """
        dtype = getattr(torch, self.config.dtype)
        if dtype in (torch.bfloat16, torch.float16):
            self.backbone.float()
            self._autocast = dtype

    def _precision(self) -> contextlib.AbstractContextManager[None]:
        """Autocast to the configured dtype around the backbone when it holds float32 master weights."""
        if self._autocast is None:
            return contextlib.nullcontext()
        return torch.autocast(self.device.type, dtype=self._autocast)

    @property
    def device(self) -> torch.device:
        """The device of the value heads (the backbone lives on the same one)."""
        return self.value_head[0].weight.device

    # -- inputs -------------------------------------------------------------------------------------------------------
    @classmethod
    def reader(cls, config: VLMPolicyConfig) -> ObservationReader:
        """The observation with `previous_action`: the AutoUI text of the action before it ("None" at the start)."""
        return ObservationReader(cls.observation_keys, with_previous_action)

    def _as_chat(self, prompt: str) -> str:
        """`prompt` as the user's turn of the tokenizer's chat template, the assistant's turn opened after it."""
        return str(self.parts.tokenizer.apply_chat_template([{"role": "user", "content": [{"type": "text",
                                                                                          "text": prompt}]}],
                                                            tokenize=False, add_generation_prompt=True))

    def preprocess(self, observations: Sequence[Mapping[str, Any]], goals: Sequence[str] | None = None) -> Inputs:
        """Tokenise prompts and process screenshots into model inputs on the policy's device.

        Returns:
            `input_ids`/`attention_mask` (B, S) left-padded prompts, the family's image tensors, batch first, floats
            in `dtype` (`vlm_inputs`: `pixel_values`, `pixel_attention_mask` for Idefics3; `pixel_values` padded per
            row, `image_patches`, `image_grid_thw` for Qwen-VL; `pixel_values` (B, C, H, W) for AutoUI), and
            `goal_ids`/`goal_mask` (B, G).

        Raises:
            DataError: an observation lacks a uint8 H×W×3 `screenshot` or a goal; `goals` has the wrong length.
        """
        if goals is not None and len(goals) != len(observations):
            raise DataError(f"`goals` has {len(goals)} entries for {len(observations)} observations")
        c, parts = self.config, self.parts
        prompts, images, goal_texts = [], [], []
        for i, obs in enumerate(observations):
            goal = str(goals[i] if goals is not None else obs.get("goal", ""))
            screenshot = np.asarray(obs.get("screenshot", np.zeros(0, np.uint8)))
            if screenshot.dtype != np.uint8 or screenshot.ndim != 3 or screenshot.shape[-1] != 3:
                raise DataError(f"observation {i} needs a uint8 H×W×3 `screenshot` (make the env with "
                                f"screenshot_width > 0), got {screenshot.dtype} {screenshot.shape}")
            if not goal:
                raise DataError(f"observation {i} has no goal text; pass `goals` or an observation with `goal`")
            previous = str(obs.get("previous_action", "")) or "None"
            prompt = c.prompt_template.format(image=parts.image_token, goal=goal, previous_action=previous)
            prompts.append(self._as_chat(prompt) if c.chat_template else prompt)
            goal_texts.append(c.goal_template.format(goal=goal))
            images.append(screenshot)
        if not prompts:
            raise DataError("`observations` is empty")
        batch = parts.inputs.encode(prompts, images)
        goal_batch = parts.tokenizer(goal_texts, return_tensors="pt", padding=True)
        dtype = getattr(torch, c.dtype)
        inputs = {k: v.to(self.device, dtype if v.is_floating_point() else None) for k, v in batch.items()}
        inputs["goal_ids"] = goal_batch["input_ids"].to(self.device)
        inputs["goal_mask"] = goal_batch["attention_mask"].to(self.device)
        return inputs

    # -- the network --------------------------------------------------------------------------------------------------
    def _run(self, input_ids: torch.Tensor, attention_mask: torch.Tensor, extra: Mapping[str, torch.Tensor],
             positions: torch.Tensor, cache: Any = None, use_cache: bool = False) -> tuple[torch.Tensor, Any]:
        """A decoder-only backbone's `Backbone.run` under the policy's precision (hidden states and the cache)."""
        with self._precision():
            return self.parts.run(input_ids, attention_mask, dict(extra), positions, cache, use_cache)

    def _prompt(self, inputs: Inputs) -> tuple[dict[str, torch.Tensor], torch.Tensor]:
        """A decoder-only backbone's image inputs of the rows and their prompt positions (`vlm_inputs`)."""
        return self.parts.prompt_inputs(inputs)

    def _log_softmax(self, hidden: torch.Tensor) -> torch.Tensor:
        """Log π(·|...) over the vocabulary (float32), temperature applied, banned ids at -inf."""
        with self._precision():
            logits = self.parts.head(hidden).float() / self.config.temperature
        return torch.log_softmax(logits.masked_fill(self._banned, float("-inf")), -1)

    def _features(self, hidden: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """[masked mean, last real column] of hidden states (B, S, h) -> (B, 2h) float32, detached unless configured.

        The last real column is the last column of a left-padded row, and also found in a right-padded one.
        """
        keep = mask.bool().unsqueeze(-1)
        mean = torch.where(keep, hidden, 0).sum(1) / keep.sum(1).clamp(min=1)
        last = (mask.bool() * torch.arange(mask.shape[1], device=mask.device)).argmax(1)  # largest unmasked index
        features = torch.cat([mean, hidden[torch.arange(hidden.shape[0], device=hidden.device), last]], -1).float()
        return features if self.config.critic_trains_backbone else features.detach()

    def act(self, inputs: Inputs, deterministic: bool = False,
            generator: torch.Generator | None = None) -> tuple[Actions, torch.Tensor]:
        """Generate one action string per row (greedy if `deterministic`) with a KV cache, without gradients.

        Returns:
            ({"tokens": (B, max_new_tokens) int64 zero-padded, "length": (B,) int64}, log_mu (B, max_new_tokens)
            float32 nats), log_mu being log π of each generated token (EOS included) under the temperature-scaled
            distribution, zero after a row's length (the action's log π is the row's sum).
        """
        ids = inputs["input_ids"]
        b, n_max = ids.shape[0], self.config.max_new_tokens
        tokens = torch.zeros(b, n_max, dtype=torch.long, device=ids.device)
        length = torch.zeros(b, dtype=torch.long, device=ids.device)
        log_mu = torch.zeros(b, n_max, dtype=torch.float32, device=ids.device)
        done = torch.zeros(b, dtype=torch.bool, device=ids.device)
        with torch.no_grad():
            with self._precision():
                hidden, state = self.parts.start(inputs, n_max)
            for t in range(n_max):
                log_p = self._log_softmax(hidden)
                if deterministic:
                    token = log_p.argmax(-1)
                else:
                    probs = log_p.exp()
                    on = generator.device if generator is not None else probs.device
                    token = torch.multinomial(probs.to(on), 1, generator=generator).squeeze(1).to(ids.device)
                token = token.masked_fill(done, 0)
                tokens[:, t] = token
                log_mu[:, t] = torch.where(done, 0.0, log_p.gather(1, token[:, None]).squeeze(1))
                length += (~done).long()
                done |= torch.isin(token, self._eos_ids)
                if bool(done.all()) or t == n_max - 1:
                    break
                with self._precision():
                    hidden = self.parts.step(state, token)
        return {"tokens": tokens, "length": length}, log_mu

    def evaluate(self, inputs: Inputs, actions: Actions) -> PolicyOutput:
        """Teacher-forced log π(a|s) (summed over the stored tokens), the entropy estimate and V(s), with gradients.

        `token_log_prob` holds each token's log π, zero-padded to `max_new_tokens` (the layout of `act`'s log_mu).

        Raises:
            DataError: `actions` lacks `tokens`/`length`, has the wrong shape, a length outside 1..max_new_tokens,
                or a token id the policy never emits (an image placeholder, an id past the vocabulary).
        """
        tokens, length = self._check_actions(actions, inputs["input_ids"].shape[0])
        n = int(length.max()) if len(length) else 1
        tokens = tokens[:, :n]
        token_mask = torch.arange(n, device=tokens.device)[None] < length[:, None]
        with self._precision():
            scored = self.parts.score_tokens(inputs, tokens, token_mask)
        log_p = self._log_softmax(scored.token_hidden)
        token_log_p = torch.where(token_mask, log_p.gather(-1, tokens[..., None]).squeeze(-1), 0.0)
        log_prob = token_log_p.sum(1)
        entropy = sequence_entropy(log_p, tokens, token_mask, self.config.entropy_estimate)
        value = self.value_head(self._features(scored.prompt_hidden, scored.prompt_mask)).squeeze(-1)
        pad = (0, self.config.max_new_tokens - n)
        return PolicyOutput(log_prob, entropy, value, torch.nn.functional.pad(token_log_p, pad),
                            torch.nn.functional.pad(token_mask, pad))

    def value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) V(s) from the prompt's hidden states (screen, goal and previous action)."""
        with torch.set_grad_enabled(torch.is_grad_enabled() and self.config.critic_trains_backbone):
            with self._precision():
                hidden, mask = self.parts.prompt_features(inputs)
            features = self._features(hidden, mask)
        return self.value_head(features).squeeze(-1)

    def instruction_value(self, inputs: Inputs) -> torch.Tensor:
        """(B,) V(g) from the goal text alone (reads only `goal_ids` and `goal_mask`; no image)."""
        with torch.set_grad_enabled(torch.is_grad_enabled() and self.config.critic_trains_backbone):
            with self._precision():
                hidden, mask = self.parts.text_features(inputs["goal_ids"], inputs["goal_mask"])
            features = self._features(hidden, mask)
        return self.instruction_value_head(features).squeeze(-1)

    # -- actions ------------------------------------------------------------------------------------------------------
    def _check_actions(self, actions: Mapping[str, Any], rows: int) -> tuple[torch.Tensor, torch.Tensor]:
        missing = [k for k in VLM_ACTION_KEYS if k not in actions]
        if missing:
            raise DataError(f"`actions` lacks {missing}; expected {list(VLM_ACTION_KEYS)}")
        tokens = torch.as_tensor(actions["tokens"], device=self.device).long()
        length = torch.as_tensor(actions["length"], device=self.device).long().reshape(-1)
        n_max = self.config.max_new_tokens
        if tokens.shape != (rows, n_max) or length.shape != (rows,):
            raise DataError(f"`actions` must hold tokens ({rows}, {n_max}) and length ({rows},), got "
                            f"{tuple(tokens.shape)} and {tuple(length.shape)}")
        if rows and (int(length.min()) < 1 or int(length.max()) > n_max):
            raise DataError(f"`actions['length']` must lie in 1..{n_max}, got {length.tolist()[:10]}")
        real = torch.arange(n_max, device=tokens.device)[None] < length[:, None]
        vocab = self._banned.shape[0]
        bad = real & ((tokens < 0) | (tokens >= vocab) | self._banned[tokens.clamp(0, vocab - 1)])
        if bool(bad.any()):
            raise DataError(f"`actions['tokens']` holds ids the policy never emits in rows "
                            f"{torch.nonzero(bad.any(1)).flatten().tolist()[:10]} (image placeholders or ids "
                            "outside the vocabulary); drop those steps")
        return tokens, length

    def decode(self, actions: Mapping[str, Any]) -> list[str]:
        """The action text of each row (special tokens such as EOS removed)."""
        tokens = np.asarray(torch.as_tensor(actions["tokens"]).cpu()).reshape(-1, self.config.max_new_tokens)
        length = np.asarray(torch.as_tensor(actions["length"]).cpu()).reshape(-1)
        return [self.parts.tokenizer.decode(row[:max(0, int(n))].tolist(), skip_special_tokens=True)
                for row, n in zip(tokens, length, strict=True)]

    def to_env_action(self, actions: Mapping[str, Any], observations: Sequence[Mapping[str, Any]]) -> list[Action]:
        """`parse_action` of each row's decoded text; unparsable text gives `Action.invalid` (never raises on it).

        Raises:
            DataError: `actions` lacks a key or its rows do not match `observations`.
        """
        if any(k not in actions for k in VLM_ACTION_KEYS):
            raise DataError(f"`actions` must hold {list(VLM_ACTION_KEYS)}, got {sorted(actions)}")
        texts = self.decode(actions)
        if len(texts) != len(observations):
            raise DataError(f"`actions` has {len(texts)} rows for {len(observations)} observations")
        return [parse_action(text) for text in texts]

    def from_env_action(self, action: Action, observation: Mapping[str, Any]) -> dict[str, Any] | None:
        """`{"tokens": int64 [max_new_tokens], "length": int}` of the AutoUI text of `action` plus EOS.

        Returns None when AutoUI cannot write the action (WAIT, OPEN_APP, LONG_PRESS, element indices, unparsed
        actions), when its text holds ids the policy never emits, or when it is longer than `max_new_tokens`.
        """
        if not action.is_parsed:
            return None
        try:
            text = format_action(action)
        except EnvConfigError:
            return None
        ids = [*self.parts.tokenizer(text, add_special_tokens=False)["input_ids"], self.parts.eos_ids[0]]
        if len(ids) > self.config.max_new_tokens or any(i >= len(self._banned) or self._banned[i] for i in ids[:-1]):
            return None
        tokens = np.zeros(self.config.max_new_tokens, np.int64)
        tokens[:len(ids)] = ids
        return {"tokens": tokens, "length": len(ids)}

    def collate_actions(self, actions: Sequence[Mapping[str, Any]]) -> Actions:
        """Stack `from_env_action` dicts into {"tokens": (B, max_new_tokens), "length": (B,)} int64 tensors.

        Raises:
            DataError: an action lacks a key or has tokens of another length.
        """
        for i, a in enumerate(actions):
            if any(k not in a for k in VLM_ACTION_KEYS) or np.shape(a["tokens"]) != (self.config.max_new_tokens,):
                raise DataError(f"action {i} must hold tokens ({self.config.max_new_tokens},) and a length")
        return {"tokens": torch.as_tensor(np.stack([np.asarray(a["tokens"]) for a in actions]), dtype=torch.long,
                                          device=self.device),
                "length": torch.tensor([int(a["length"]) for a in actions], dtype=torch.long, device=self.device)}
