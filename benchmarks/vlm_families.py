"""Each VLM family the policy reads (issue 46): act/evaluate log-prob agreement, behaviour cloning to held-out steps.

Families: Idefics3 (SmolVLM's type), Qwen2-VL, Qwen2.5-VL, Qwen3-VL (decoder-only, 3-D rotary positions) and AutoUI
(a T5 encoder-decoder reading a SigLIP encoder's features), each a random-weight checkpoint built offline
(`distrl_agent.policies.tiny_vlm`) at the tests' size ("tiny") or 128 wide ("small": 0.4-1.1 M parameters, the
AutoUI one with more heads and decoder layers, see `build_small_autoui`).

1. Agreement: `act` samples an action per General-suite screen (temperature 1, a batch of prompts of different
   lengths) and stores each token's log mu; `evaluate` scores the same tokens by teacher forcing. The figure is the
   largest |log mu - log pi| over every real token (nats); target 1e-4.
2. Behaviour cloning: expert steps of the General suite's train split (noise 0), each action written as the AutoUI
   text the policy would emit (`VLMPolicy.from_env_action`), train the policy by maximum likelihood
   (`runtime.warm_start.behaviour_clone`); it then acts greedily on the expert's steps of episodes of the TEST split
   (goals never seen in training), and the figure is the share of those steps whose parsed action type
   (`parse_action` of the decoded text; unparsable text counts as wrong) is the expert's; target 90%. Beside it, the
   majority share: what always answering the commonest type scores, the floor a policy that ignores the screen,
   goal and previous action reaches. The prompt puts the previous action last (`PROMPT_TEMPLATE`): the General
   suite's next action type follows mostly from it (tap the search bar, type, press enter) and from the goal.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from android_gym.actions import ActionType
from android_gym.actions_text import parse_action
from benchmarks.result import Result, markdown_table

FAMILIES = ("idefics3", "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "autoui")
"""The model families `VLMPolicy` reads, in the order the benchmark reports them."""
SIZES = ("tiny", "small")
ENV_ID = "android_gym/General-v0"
SCREENSHOT_WIDTH_PX = 32
MAX_NEW_TOKENS = 176
"""Longest action in tokens: the byte-level tokenizer spends one token per byte, and the General suite's longest
expert action text is 154 bytes (a DUAL_POINT with 4-decimal points, or a TYPE of a long query) plus EOS."""
PROMPT_TEMPLATE = "{image}Goal: {goal}\nPrevious Actions: {previous_action}\nNext Action: "
"""AutoUI's fields with the previous action last, next to the answer (measured on Idefics3, 128 wide: 69% after 100
updates of 32 with the default template, previous action first; 91% after 300 updates of 16 with this one)."""
GAP_TARGET_NATS = 1e-4
ACCURACY_TARGET_PCT = 90.0


def build_family(family: str, directory: str | Path, size: str = "tiny") -> Path:
    """Write a random-weight checkpoint of `family` at `size` into `directory` (created if needed), offline.

    Args:
        family: one of `FAMILIES`.
        directory: the folder `VLMPolicyConfig.model_path` will name.
        size: "tiny" (the tests' checkpoints: a text model 32 wide, ~60k parameters) or "small" (128 wide, 0.4-1.1 M
            parameters: what behaviour cloning learns the General suite's action types with in a minute or two of
            CPU).

    Returns:
        The directory, as a `Path`.

    Raises:
        ValueError: an unknown `family` or `size`, naming the known ones.
    """
    from distrl_agent.policies.tiny_vlm import build_tiny_autoui, build_tiny_idefics3, build_tiny_qwen_vl

    if family not in FAMILIES:
        raise ValueError(f"`family` must be one of {FAMILIES}, got {family!r}")
    if size not in SIZES:
        raise ValueError(f"`size` must be one of {SIZES}, got {size!r}")
    width = 32 if size == "tiny" else 128
    if family == "idefics3":
        return build_tiny_idefics3(directory, hidden_size=width)
    if family == "autoui":
        return build_tiny_autoui(directory, d_model=width) if size == "tiny" else build_small_autoui(directory, width)
    return build_tiny_qwen_vl(directory, family, hidden_size=width)


def build_small_autoui(directory: str | Path, d_model: int, seed: int = 0) -> Path:
    """Write a random AutoUI folder as `tiny_vlm.build_tiny_autoui` does, with a T5 that can learn action strings.

    A T5 decoder knows where it is in the action only through its self-attention's relative-position biases (a
    decoder-only VLM also copies the format from the previous action in its own context; T5's cross-attention has no
    positions). The tiny builder's T5 (8 buckets up to 32 tokens, 2 heads, 2 decoder layers) learns the ~150-byte
    action strings (one token per byte, fixed parts that repeat: `", "`, `_point": "[`) too slowly: measured at
    d_model 128 and 300 updates, it writes `": ": "...` loops and 0-35% parsable actions at lr 5e-4..2e-3. This one
    has T5's own buckets (32 up to 128 tokens), 8 heads and 4 decoder layers (2 encoder layers), which reached 76% in
    300 updates.

    Raises:
        ValueError: `d_model` is not a positive multiple of 8 (the heads).
    """
    from distrl_agent.policies.tiny_vlm import build_tiny_autoui

    return build_tiny_autoui(directory, d_model=d_model, seed=seed, num_heads=8, decoder_layers=4,
                             position_buckets=32, max_distance=128)


def make_policy(model_dir: str | Path, seed: int = 0) -> Any:
    """A `VLMPolicy` on `model_dir` with this benchmark's settings (temperature 1, `MAX_NEW_TOKENS`), in eval mode.

    `seed` seeds the value heads' initial weights (the backbone's come from the checkpoint).
    """
    from distrl_agent.policies.vlm import VLMPolicy
    from distrl_agent.policies.vlm_config import VLMPolicyConfig

    torch.manual_seed(seed)
    policy = VLMPolicy(VLMPolicyConfig(model_path=str(model_dir), max_new_tokens=MAX_NEW_TOKENS,
                                       prompt_template=PROMPT_TEMPLATE, value_hidden_dim=16))
    policy.eval()
    return policy


def env_section() -> Any:
    """The trainer's env settings for this benchmark: the General suite, screenshots 32 pixels wide, no latency."""
    from distrl_agent.config import load_config

    return load_config(overrides=[f"env.env_id={ENV_ID}", f"env.screenshot_width={SCREENSHOT_WIDTH_PX}"]).env


def expert_steps(policy: Any, split: str, episodes: int, seed: int) -> list[tuple[dict, str, dict[str, Any]]]:
    """(observation, goal, action ids) of every expert step of `episodes` episodes of the General suite's `split`.

    `runtime.warm_start.collect_demonstrations` at noise 0 on `split`: observations are what `policy.observe` makes
    of the env's (with the previous action's text), the ids `policy.from_env_action` of the expert's action; steps
    whose action the policy cannot write are played, not kept. Episode resets are seeded from `seed`, away from the
    training demonstrations' seeds.
    """
    from distrl_agent.runtime.warm_start import collect_demonstrations

    return collect_demonstrations(env_section(), episodes, 0.0, policy, seed, split=split,
                                  first_reset_seed=20_000_000)


# -- agreement ------------------------------------------------------------------------------------------------------
def largest_token_gap(log_mu: torch.Tensor, token_log_pi: torch.Tensor, length: torch.Tensor) -> float:
    """The largest |log mu - log pi| over the real tokens of every row (nats); tokens past a row's `length` are ignored.

    Args:
        log_mu: (B, T) per-token behaviour log-probs (`VLMPolicy.act`'s second output).
        token_log_pi: (B, T) per-token log-probs of the same tokens (`PolicyOutput.token_log_prob`).
        length: (B,) real tokens per row, 1..T.

    >>> largest_token_gap(torch.tensor([[-1.0, -2.0, 0.0]]), torch.tensor([[-1.5, -2.0, 9.0]]), torch.tensor([2]))
    0.5
    """
    real = torch.arange(log_mu.shape[1], device=log_mu.device)[None] < length[:, None]
    return float(torch.where(real, (log_mu - token_log_pi).abs(), 0.0).max())


def agreement(model_dir: str | Path, observations: Sequence[Mapping[str, Any]], seed: int = 0) -> float:
    """The largest per-token |log mu (act, sampled) - log pi (evaluate of the same tokens)| over `observations`, nats.

    One batch: the policy samples an action per observation at temperature 1 (the prompts' lengths differ, so rows
    are padded), then scores the stored tokens by teacher forcing.

    Args:
        model_dir: a checkpoint folder (`build_family`).
        observations: `policy.observe` dicts with `screenshot` (uint8 H×W×3) and `goal`.
        seed: seeds the sampling.

    Raises:
        DataError: an observation lacks a screenshot or a goal (`VLMPolicy.preprocess`).
    """
    policy = make_policy(model_dir)
    inputs = policy.preprocess(list(observations))
    with torch.no_grad():
        actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(seed))
        token_log_pi = policy.evaluate(inputs, actions).token_log_prob
    return largest_token_gap(log_mu, token_log_pi, actions["length"])


# -- behaviour cloning ----------------------------------------------------------------------------------------------
def action_type_scores(expert: Sequence[ActionType], predicted: Sequence[ActionType | None]) -> dict[str, float]:
    """Shares (0..1) of the steps whose predicted type is the expert's, and of the expert's commonest type.

    `None` in `predicted` is text that did not parse: always wrong.

    Raises:
        ValueError: the sequences differ in length or are empty.

    >>> s = action_type_scores([ActionType.TYPE] * 3 + [ActionType.PRESS_ENTER], [ActionType.TYPE, None] * 2)
    >>> s["accuracy"], s["majority_share"], s["steps"]
    (0.5, 0.75, 4)
    """
    if len(expert) != len(predicted) or not expert:
        raise ValueError(f"`expert` and `predicted` must be non-empty and of one length, got {len(expert)} and "
                         f"{len(predicted)}")
    counts = Counter(expert)
    correct = sum(p is not None and p == e for e, p in zip(expert, predicted, strict=True))
    return {"accuracy": correct / len(expert), "majority_share": max(counts.values()) / len(expert),
            "steps": len(expert)}


def greedy_types(policy: Any, steps: Sequence[tuple[dict, str, dict[str, Any]]],
                 batch_size: int = 64) -> list[ActionType | None]:
    """The action type of the text `policy` writes greedily for each step (None where `parse_action` fails)."""
    types: list[ActionType | None] = []
    for i in range(0, len(steps), batch_size):
        chunk = steps[i:i + batch_size]
        observations = [obs for obs, _, _ in chunk]
        with torch.no_grad():
            actions, _ = policy.act(policy.preprocess(observations, [goal for _, goal, _ in chunk]),
                                    deterministic=True)
        types += [a.action_type if a.is_parsed else None for a in policy.to_env_action(actions, observations)]
    return types


def label_type(policy: Any, ids: Mapping[str, Any]) -> ActionType:
    """The action type of a training label: `parse_action` of the AutoUI text `from_env_action` encoded.

    Raises:
        ValueError: the label does not parse back (the round trip is broken).
    """
    text = policy.decode({"tokens": np.asarray(ids["tokens"])[None], "length": np.array([ids["length"]])})[0]
    action = parse_action(text)
    if not action.is_parsed:
        raise ValueError(f"the label text {text!r} does not parse back: {action.parse_error}")
    return action.action_type


def bc_accuracy(model_dir: str | Path, updates: int, seed: int = 0, *, train_episodes: int = 100,
                held_out_episodes: int = 40, lr: float = 3e-3, batch_size: int = 32, anneal: bool = False,
                ) -> dict[str, float]:
    """Behaviour-clone a policy on expert steps of the train split; score its greedy action types on the test split.

    Args:
        model_dir: a checkpoint folder (`build_family`); the policy trains a copy in memory.
        updates: Adam steps of `behaviour_clone`.
        seed: seeds the value heads, the episodes and the minibatches.
        train_episodes: expert episodes of the General train split (noise 0) whose steps are the training data.
        held_out_episodes: expert episodes of the test split whose steps are scored (none is trained on).
        lr: Adam's learning rate.
        batch_size: steps per update.
        anneal: the learning rate falls linearly to 0 over the updates (`behaviour_clone`).

    Returns:
        `accuracy` and `majority_share` (0..1, see `action_type_scores`), `steps` (held-out steps scored),
        `train_steps`, `nll` (the last batch's mean negative log-likelihood per action, nats), `parameters` (the
        backbone's), `train_s` and `score_s` (seconds training and acting greedily).

    Raises:
        ValueError: no held-out step, or a label that does not parse back.
    """
    from distrl_agent.runtime.warm_start import behaviour_clone, collect_demonstrations

    policy = make_policy(model_dir, seed)
    data = collect_demonstrations(env_section(), train_episodes, 0.0, policy, seed=seed)
    held_out = expert_steps(policy, "test", held_out_episodes, seed)
    if not held_out:
        raise ValueError(f"{held_out_episodes} test-split episodes gave no step the policy can write")
    expert = [label_type(policy, ids) for _, _, ids in held_out]
    start = time.perf_counter()
    nll = behaviour_clone(policy, data, updates, lr=lr, batch_size=batch_size, seed=seed, anneal=anneal)
    train_s = time.perf_counter() - start
    predicted = greedy_types(policy, held_out)
    score_s = time.perf_counter() - start - train_s
    return {**action_type_scores(expert, predicted), "train_steps": len(data), "nll": nll,
            "parameters": sum(p.numel() for p in policy.backbone.parameters()), "train_s": train_s,
            "score_s": score_s}


# -- the section ----------------------------------------------------------------------------------------------------
AGREEMENT_SCREENS = 8
"""Observations in the agreement batch (test-split screens, goals and previous actions)."""
PLANS = {
    "tiny": {"size": "tiny", "updates": 2, "train_episodes": 3, "held_out_episodes": 2, "batch_size": 4},
    "quick": {"size": "small", "updates": 300, "train_episodes": 100, "held_out_episodes": 40, "batch_size": 16},
    "full": {"size": "small", "updates": 800, "train_episodes": 200, "held_out_episodes": 100, "batch_size": 16},
}
"""Per mode: checkpoint size, behaviour-cloning updates, expert episodes trained on and held out, steps per update."""
LEARNING_RATES = {"autoui": 1e-3}
"""Adam's learning rate per family where it is not `LEARNING_RATE`: T5 has no 1/sqrt(d) in its attention logits, so
Adam's steps (about lr per weight) move them faster than a Llama's."""
LEARNING_RATE = 2e-3
"""Adam's peak learning rate; cloning anneals it linearly to 0 (at a constant rate the last batches' noise decided the
model: 87.4% (Qwen2.5-VL) and 89.9% (AutoUI) after 800 updates, 94.8% and 95.1% annealed, same data and seed)."""


def run_families(result: Result, quick: bool, tiny: bool, families: Sequence[str] = FAMILIES,
                 seed: int = 0) -> None:
    """Measure every family's log-prob gap and behaviour-cloning accuracy into `result` (figures and a table).

    Figures per family: `vlm/<family>/logprob_gap` (nats, target <= 1e-4) and `vlm/<family>/bc_action_type_accuracy`
    (%, target 90; in tiny mode a code-path check whose target is not expected to be met).

    Args:
        result: the section's result; figures, one table, the plan in `config["families"]` and a note are added.
        quick: the quick plan (`PLANS`); ignored when `tiny`.
        tiny: the tiny plan: the tests' checkpoints, 2 updates, a handful of steps (seconds in all).
        families: which of `FAMILIES` to measure.
        seed: seeds episodes, sampling, heads and minibatches.

    Raises:
        ValueError: an unknown family.
    """
    import tempfile

    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        raise ValueError(f"`families` holds {unknown}; known: {FAMILIES}")
    mode = "tiny" if tiny else "quick" if quick else "full"
    plan = PLANS[mode]
    result.config["families"] = {"mode": mode, **plan, "lr": {f: LEARNING_RATES.get(f, LEARNING_RATE)
                                                               for f in families}, "max_new_tokens": MAX_NEW_TOKENS,
                                 "screenshot_width_px": SCREENSHOT_WIDTH_PX, "torch_threads": torch.get_num_threads()}
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for family in families:
            start = time.perf_counter()
            model = build_family(family, Path(folder) / family, plan["size"])
            screens = expert_steps(make_policy(model), "test", 2, seed + 1)[:AGREEMENT_SCREENS]
            gap = agreement(model, [obs for obs, _, _ in screens], seed)
            scores = bc_accuracy(model, plan["updates"], seed, train_episodes=plan["train_episodes"],
                                 held_out_episodes=plan["held_out_episodes"],
                                 lr=LEARNING_RATES.get(family, LEARNING_RATE),
                                 batch_size=plan["batch_size"], anneal=True)
            seconds = time.perf_counter() - start
            result.add(f"vlm/{family}/logprob_gap", gap, "nats", target=GAP_TARGET_NATS, higher_is_better=False)
            result.add(f"vlm/{family}/bc_action_type_accuracy", 100 * scores["accuracy"], "%",
                       target=ACCURACY_TARGET_PCT)
            rows.append([family, f"{scores['parameters'] / 1e6:.2f} M", f"{gap:.1e}", f"{scores['accuracy']:.1%}",
                         f"{scores['majority_share']:.1%}", scores["steps"], f"{scores['nll']:.1f}",
                         f"{scores['train_s']:.0f}", f"{seconds:.0f}"])
    result.tables.append(markdown_table(
        ["family", "parameters", "max token gap (nats)", "BC action-type accuracy", "majority share",
         "held-out steps", "final NLL (nats/action)", "BC seconds", "seconds in all"], rows))
    result.notes.append(
        f"Families ({mode}): agreement over {AGREEMENT_SCREENS} test-split screens sampled at temperature 1; behaviour "
        f"cloning for {plan['updates']} updates of {plan['batch_size']} steps (Adam, lr {LEARNING_RATE:g}, AutoUI "
        f"{LEARNING_RATES['autoui']:g}, falling linearly to 0 over the updates) on the "
        f"expert's steps of {plan['train_episodes']} train-split episodes, scored greedily on "
        f"{plan['held_out_episodes']} test-split episodes; the majority share is what always answering the "
        "commonest action type scores.")
