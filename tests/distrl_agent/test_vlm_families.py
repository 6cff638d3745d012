"""`VLMPolicy` on each model family it supports (issue 46): Idefics3, Qwen2-VL, Qwen2.5-VL, Qwen3-VL.

Tiny random checkpoints are built offline (`tiny_vlm`). Each family: rows keep their own inputs (a row scores the
same alone, in a padded batch, or picked out of one, as the learner picks rows), sampling and teacher forcing agree,
the Qwen models see the 3-D rotary positions they compute themselves, every update rule trains on stored actions,
and a Qwen run trains, resumes and exports.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from distrl_agent.algorithms.common import policy_pass
from distrl_agent.algorithms.rules import make_update_rule
from distrl_agent.config import load_config
from distrl_agent.export import export_policy
from distrl_agent.policies.tiny_vlm import QWEN_FAMILIES, build_tiny_idefics3, build_tiny_qwen_vl
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_backbone import load_backbone
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.policies.vlm_inputs import QwenInputs, text_positions
from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
from distrl_agent.runtime.train import train
from distrl_agent.types import Trajectory, collate

FAMILIES = ("idefics3", *QWEN_FAMILIES)
GOALS = ("open the settings", "search for a macbook air on amazon.com", "set an alarm")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("families")
    return {f: build_tiny_idefics3(root / f) if f == "idefics3" else build_tiny_qwen_vl(root / f, f)
            for f in FAMILIES}


def make_policy(path: Path, **overrides: object) -> VLMPolicy:
    torch.manual_seed(0)
    return VLMPolicy(VLMPolicyConfig(model_path=str(path), max_new_tokens=16, **overrides))


def observations(n: int, seed: int = 0, shape: tuple[int, int, int] | None = None) -> list[dict]:
    """Screens of two sizes unless `shape` is given (Qwen rows then hold different patch counts), and goals of
    different lengths."""  # noqa: D205, D209
    rng = np.random.default_rng(seed)
    shapes = [shape] if shape else [(48, 24, 3), (40, 40, 3)]
    return [{"screenshot": rng.integers(0, 256, shapes[i % len(shapes)], dtype=np.uint8), "goal": GOALS[i % 3]}
            for i in range(n)]


@pytest.mark.parametrize("family", FAMILIES)
def test_a_row_scores_the_same_alone_padded_or_picked_out(checkpoints: dict[str, Path], family: str) -> None:
    """Left padding and row selection (what `policy_pass` does to a batch) change no row's log-prob or value."""
    policy = make_policy(checkpoints[family])
    screens = observations(3)
    inputs = policy.preprocess(screens)
    actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(0))
    batched = policy.evaluate(inputs, actions)
    for row in range(3):
        one = {k: v[row:row + 1] for k, v in actions.items()}
        alone = policy.evaluate(policy.preprocess(screens[row:row + 1]), one)
        torch.testing.assert_close(alone.log_prob, batched.log_prob[row:row + 1], rtol=1e-5, atol=1e-4)
        torch.testing.assert_close(alone.value, batched.value[row:row + 1], rtol=1e-5, atol=1e-5)
    order = torch.tensor([2, 0])
    picked = policy.evaluate({k: v[order] for k, v in inputs.items()}, {k: v[order] for k, v in actions.items()})
    torch.testing.assert_close(picked.log_prob, batched.log_prob[order], rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("family", FAMILIES)
def test_sampling_and_teacher_forcing_agree(checkpoints: dict[str, Path], family: str) -> None:
    """`act`'s log mu is `evaluate`'s log pi of the same tokens (1e-4 per token), sampled and greedy."""
    policy = make_policy(checkpoints[family], temperature=0.8)
    inputs = policy.preprocess(observations(3, seed=1))
    for deterministic in (False, True):
        actions, log_mu = policy.act(inputs, deterministic, generator=torch.Generator().manual_seed(2))
        out = policy.evaluate(inputs, actions)
        tokens = actions["length"].float()
        assert ((out.log_prob.detach() - log_mu.sum(1)).abs() / tokens).max() < 1e-4
        assert (out.token_log_prob.detach() - log_mu).abs().max() < 1e-4  # token by token, zeros past the length


@pytest.mark.parametrize("family", QWEN_FAMILIES)
def test_qwen_prompts_see_the_models_own_rotary_positions(checkpoints: dict[str, Path], family: str) -> None:
    """The policy's prompt hidden states equal the model's own forward, where the model computes M-RoPE itself
    from the image grid; plain 1-D positions (what the policy used to pass) give other states.
    """  # noqa: D205
    policy = make_policy(checkpoints[family])
    inputs = policy.preprocess(observations(2))
    family_inputs = policy.parts.inputs
    assert isinstance(family_inputs, QwenInputs)
    image = family_inputs.model_kwargs(inputs)
    types = (inputs["input_ids"] == family_inputs.image_pad_id).int()
    policy.parts.base.rope_deltas = None  # the model's own path, fresh
    with torch.no_grad():
        own = policy.parts.base(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"],
                                mm_token_type_ids=types, **image).last_hidden_state
        ours, _ = policy._run(inputs["input_ids"], inputs["attention_mask"], *policy._prompt(inputs))
        flat, _ = policy._run(inputs["input_ids"], inputs["attention_mask"], image,
                              text_positions(inputs["attention_mask"]))
    real = inputs["attention_mask"].bool()
    torch.testing.assert_close(ours[real], own[real], rtol=1e-5, atol=1e-5)
    assert (flat[real] - own[real]).abs().max() > 1e-3


def stored_trajectories(policy: VLMPolicy) -> list[Trajectory]:
    """Two trajectories (2 and 3 steps) acted by `policy` (one screen size: a batch stacks the screenshots)."""
    trajectories = []
    for length, seed, shape in ((2, 0, (48, 24, 3)), (3, 1, (48, 24, 3))):
        screens = observations(length + 1, seed, shape)
        for screen in screens:
            screen["goal"] = GOALS[seed]
        actions, log_mu = policy.act(policy.preprocess(screens[:-1]), generator=torch.Generator().manual_seed(seed))
        rewards = np.zeros(length, np.float32)
        rewards[-1] = 1.0
        trajectories.append(Trajectory(
            observations={"screenshot": np.stack([s["screenshot"] for s in screens]),
                          "goal": np.array([s["goal"] for s in screens]),
                          "previous_action": np.array([""] * len(screens))},
            actions={k: v.numpy() for k, v in actions.items()}, rewards=rewards, dones=rewards > 0,
            log_mu=log_mu.sum(1).numpy(), token_log_mu=log_mu.numpy(), policy_version=np.zeros(length, np.int64),
            goal=GOALS[seed],
            # as a worker playing GRPO's groups labels them: this return, and its group's (returns 1 and 0)
            metadata={"group": {"id": 0, "return": float(seed == 0), "mean": 0.5, "std": 0.7071, "members": 2}},
        ).validate())
    return trajectories


@pytest.mark.parametrize("family", FAMILIES)
def test_every_update_rule_trains_on_stored_actions(checkpoints: dict[str, Path], family: str) -> None:
    """The learner's batch pass scores stored actions as they were sampled, and A-RIDE, DigiRL, PPO and GRPO give
    finite losses whose gradients reach the backbone.
    """  # noqa: D205
    policy = make_policy(checkpoints[family])
    batch = collate(stored_trajectories(policy))
    stored = policy_pass(policy, batch)
    torch.testing.assert_close(stored.log_pi.detach()[batch.mask], batch.log_mu[batch.mask], rtol=1e-5, atol=1e-3)
    for name in ("a-ride", "digirl", "ppo", "grpo"):
        policy.zero_grad()
        rule = make_update_rule(name)
        prepared = () if rule.prepare is None else (rule.prepare(policy, batch),)  # PPO's and GRPO's targets
        loss, _, _ = rule.loss(policy, batch, *prepared)
        assert torch.isfinite(loss), name
        loss.backward()
        assert policy.backbone.get_output_embeddings().weight.grad is not None, name


def test_ratio_levels_weigh_an_off_token_by_their_grain_and_never_read_padding(checkpoints: dict[str, Path]) -> None:
    """One token whose behaviour log-prob is 3 nats above the policy's (ratio e^-3, every other ratio 1): the sequence
    level weighs its whole step by e^-3, the token level that token alone, GSPO's level the step by e^(-3/n); values
    written past each step's tokens change nothing. A-RIDE's rho and GRPO's behaviour weight alike.
    """  # noqa: D205
    policy = make_policy(checkpoints["idefics3"])
    batch = collate(stored_trajectories(policy))
    tokens, length = batch.actions["tokens"], batch.actions["length"]  # actions of 2..6 tokens, padding after them
    length.copy_(torch.where(batch.mask, 2 + torch.arange(length.numel()).reshape(length.shape) % 5, length))
    tokens.masked_fill_(torch.arange(tokens.shape[-1]) >= length[..., None], 0)
    with torch.no_grad():
        stored = policy_pass(policy, batch)
    token_mu = stored.token_log_pi.clone()
    token_mu[0, 1, 0] += 3.0
    batch.token_log_mu, batch.log_mu = token_mu, token_mu.sum(-1)
    steps, n_tokens, first = int(batch.mask.sum()), int(stored.token_mask.sum()), int(length[0, 1])
    assert stored.token_mask.sum(-1).tolist() == torch.where(batch.mask, length, 0).tolist()
    expected = {"sequence": 1 - (1 - np.exp(-3)) / steps, "token": 1 - (1 - np.exp(-3)) / n_tokens,
                "sequence_mean": 1 - (1 - np.exp(-3 / first)) / steps}

    def weights(level: str) -> tuple[float, float]:
        a_ride, grpo = make_update_rule("a-ride", {"ratio_level": level}), make_update_rule("grpo",
                                                                                           {"ratio_level": level})
        with torch.no_grad():
            rho = a_ride.loss(policy, batch)[1]["charts/rho_mean"]
            weight = grpo.loss(policy, batch, grpo.prepare(policy, batch))[1]["charts/behaviour_weight_mean"]
        return rho, weight

    for level, want in expected.items():
        assert weights(level) == pytest.approx((want, want), abs=1e-4), level
    batch.token_log_mu = token_mu.masked_fill(~stored.token_mask, -7.0)  # past each action's last token
    for level, want in expected.items():
        assert weights(level) == pytest.approx((want, want), abs=1e-4), level


def test_the_kl_penalty_reads_the_ratio_levels_grain(checkpoints: dict[str, Path]) -> None:
    """A reference 2 nats above the policy on one token: k3 = e^2 - 2 - 1 on that token alone at the token level
    (DeepSeekMath's per-token KL), on its whole step at the sequence level, on e^(2/n) - 2/n - 1 for GSPO's; read by
    A-RIDE's and GRPO's penalty alike."""  # noqa: D205, D209
    from dataclasses import replace

    from distrl_agent.algorithms.common import policy_log_probs

    policy = make_policy(checkpoints["idefics3"])
    batch = collate(stored_trajectories(policy))
    with torch.no_grad():
        stored = policy_pass(policy, batch)
    mine = policy_log_probs(stored)
    token_ref = stored.token_log_pi.clone()
    token_ref[0, 1, 0] += 2.0
    ref = replace(mine, steps=token_ref.sum(-1), tokens=token_ref)
    steps, n_tokens, first = int(batch.mask.sum()), int(stored.token_mask.sum()), int(stored.token_mask[0, 1].sum())

    def k3(x: float) -> float:
        return float(np.exp(x) - x - 1)

    expected = {"sequence": k3(2.0) / steps, "token": k3(2.0) / n_tokens, "sequence_mean": k3(2.0 / first) / steps}
    for level, want in expected.items():
        a_ride = make_update_rule("a-ride", {"ratio_level": level, "kl_coef": 0.1})
        grpo = make_update_rule("grpo", {"ratio_level": level, "kl_coef": 0.1})
        with torch.no_grad():
            kl_a = a_ride.loss(policy, batch, ref)[1]["losses/kl_to_reference"]
            targets = replace(grpo.prepare(policy, batch, reference=policy), log_ref=ref)
            kl_g = grpo.loss(policy, batch, targets)[1]["losses/kl_to_reference"]
        assert (kl_a, kl_g) == pytest.approx((want, want), rel=1e-3), level


def test_a_qwen_run_trains_resumes_and_exports(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    """`distrl train` with a Qwen2-VL policy makes updates, resumes from its checkpoint, and exports a folder that
    loads back with equal logits.
    """  # noqa: D205
    path = str(checkpoints["qwen2_vl"])
    overrides = ["policy.kind=vlm", f"policy.vlm.model_path={path}", "policy.vlm.max_new_tokens=16",
                 "policy.vlm.value_hidden_dim=16", "env.screenshot_width=32", "runtime.minutes=3",
                 "runtime.workers=1", "runtime.envs_per_worker=2", "runtime.warm_start_episodes=1",
                 "runtime.warm_start_updates=2", "runtime.eval_episodes=1", "learner.batch_size=2",
                 "learner.min_replay_trajectories=2", "learner.critic_warmup_updates=0", f"run_dir={tmp_path / 'run'}"]
    first = train(load_config(overrides=[*overrides, "runtime.max_updates=2"]), show_progress=False)
    assert first["updates"] >= 2
    again = train(load_config(overrides=[*overrides, "runtime.max_updates=4"]), resume=tmp_path / "run",
                  show_progress=False)
    assert again["updates"] >= 4 and again["resumes"] == 1
    saved = read_policy(find_checkpoint(tmp_path / "run"))
    policy = VLMPolicy(saved.config.replace(model_path=path))
    policy.load_weights(saved.weights)
    policy.eval()
    export_policy(tmp_path / "run", tmp_path / "export", trust=True)
    exported = load_backbone(tmp_path / "export")
    inputs = policy.preprocess(observations(1))
    image, positions = policy._prompt(inputs)
    with torch.no_grad():
        mine = policy.parts.head(policy._run(inputs["input_ids"], inputs["attention_mask"], image, positions)[0])
        theirs = exported.head(exported.base(input_ids=inputs["input_ids"], attention_mask=inputs["attention_mask"],
                                             position_ids=positions, **image).last_hidden_state)
    torch.testing.assert_close(mine, theirs, rtol=1e-5, atol=1e-5)
