"""Tests of `VLMPolicy` on tiny random-weight Idefics3 checkpoints built offline (the real from_pretrained path)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from android_gym.actions import Action, ActionType
from distrl_agent.algorithms.common import policy_pass
from distrl_agent.algorithms.rules import make_update_rule
from distrl_agent.errors import CheckpointError, ConfigError, DataError
from distrl_agent.policies.reader import previous_action_text
from distrl_agent.policies.tiny_vlm import build_tiny_idefics3, build_tiny_text_model
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.types import Trajectory, collate

GOALS = ("open the settings", "search for a macbook air on amazon.com", "set an alarm for 7:30")
TARGET = Action.tap(0.5, 0.25)


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Tiny checkpoints: `vlm` (hidden 32), `vlm_seed1` (same shape, other weights), `vlm_wide` (hidden 48), `text`."""
    root = tmp_path_factory.mktemp("checkpoints")
    return {"vlm": build_tiny_idefics3(root / "vlm"), "vlm_seed1": build_tiny_idefics3(root / "vlm_seed1", seed=1),
            "vlm_wide": build_tiny_idefics3(root / "vlm_wide", hidden_size=48),
            "text": build_tiny_text_model(root / "text")}


def make_policy(path: Path, **overrides: object) -> VLMPolicy:
    torch.manual_seed(0)  # the value heads are initialised in the constructor
    return VLMPolicy(VLMPolicyConfig(model_path=str(path), **overrides))


def make_observations(n: int, seed: int = 0, goal: str | None = None) -> list[dict]:
    """`n` observations with random 48x24 screenshots; goals cycle through `GOALS` unless `goal` is given."""
    rng = np.random.default_rng(seed)
    observations = [{"screenshot": rng.integers(0, 256, (48, 24, 3), dtype=np.uint8), "goal": goal or GOALS[i % 3]}
                    for i in range(n)]
    if n > 1:
        observations[1]["previous_action"] = previous_action_text(Action.key(ActionType.PRESS_HOME))
    return observations


def test_policy_loads_checkpoint_through_from_pretrained(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"])
    assert type(policy.backbone).__name__ == "Idefics3ForConditionalGeneration"
    inputs = policy.preprocess(make_observations(3))
    assert inputs["input_ids"].shape[0] == inputs["pixel_values"].shape[0] == inputs["goal_ids"].shape[0] == 3
    assert (inputs["attention_mask"][:, -1] == 1).all()  # left padding: every prompt ends at the last column


def test_act_gives_parsed_or_invalid_actions_without_crashing(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=24)
    observations = make_observations(3)
    actions, log_mu = policy.act(policy.preprocess(observations), generator=torch.Generator().manual_seed(0))
    assert actions["tokens"].shape == (3, 24) and actions["tokens"].dtype == torch.long
    assert ((actions["length"] >= 1) & (actions["length"] <= 24)).all()
    padding = torch.arange(24)[None] >= actions["length"][:, None]
    assert (actions["tokens"][padding] == 0).all()
    assert log_mu.shape == (3, 24) and torch.isfinite(log_mu).all()
    assert (log_mu[padding] == 0).all() and (log_mu[~padding] <= 0).all() and (log_mu.sum(1) < 0).all()
    env_actions = policy.to_env_action(actions, observations)
    assert len(env_actions) == 3 and all(isinstance(a, Action) for a in env_actions)
    assert all(a.is_parsed or a.action_type == ActionType.WAIT for a in env_actions)


@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_act_log_mu_equals_evaluate_log_prob_same_weights(checkpoints: dict[str, Path], temperature: float) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=32, temperature=temperature)
    inputs = policy.preprocess(make_observations(3))
    for deterministic in (False, True):
        actions, log_mu = policy.act(inputs, deterministic, generator=torch.Generator().manual_seed(1))
        out = policy.evaluate(inputs, actions)
        torch.testing.assert_close(out.log_prob.detach(), log_mu.sum(1), rtol=1e-5, atol=1e-3)
        # token by token (the ratios at the token level read these), zero after each action's tokens
        torch.testing.assert_close(out.token_log_prob.detach(), log_mu, rtol=0, atol=1e-4)
        assert out.token_mask.tolist() == (torch.arange(32)[None] < actions["length"][:, None]).tolist()


def test_act_same_generator_seed_same_actions(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=16)
    inputs = policy.preprocess(make_observations(2))
    first, _ = policy.act(inputs, generator=torch.Generator().manual_seed(3))
    second, _ = policy.act(inputs, generator=torch.Generator().manual_seed(3))
    assert torch.equal(first["tokens"], second["tokens"])


def test_teacher_forcing_raises_log_prob_until_greedy_action_is_target(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"])
    observations = make_observations(1)
    inputs = policy.preprocess(observations)
    actions = policy.collate_actions([policy.from_env_action(TARGET, observations[0])])
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
    log_probs = []
    for _ in range(100):
        out = policy.evaluate(inputs, actions)
        loss = -out.log_prob.mean()
        optimizer.zero_grad()
        loss.backward()
        assert policy.backbone.lm_head.weight.grad is not None
        optimizer.step()
        log_probs.append(float(out.log_prob.detach()))
    assert log_probs[5] > log_probs[0] and log_probs[-1] > log_probs[0] + 100
    greedy, _ = policy.act(inputs, deterministic=True)
    assert policy.to_env_action(greedy, observations) == [TARGET]


@pytest.mark.parametrize("action", [
    TARGET, Action.swipe(0.5, 0.7, 0.5, 0.3), Action.type("macbook air"), Action.key(ActionType.PRESS_BACK),
    Action.key(ActionType.PRESS_HOME), Action.key(ActionType.PRESS_ENTER), Action.key(ActionType.STATUS_TASK_COMPLETE),
    Action(ActionType.STATUS_TASK_COMPLETE, text="(650) 555-0123"), Action.key(ActionType.STATUS_TASK_IMPOSSIBLE),
])  # an answer and an impossibility declaration too: World's answer and infeasible tasks
def test_from_env_action_then_to_env_action_round_trips(checkpoints: dict[str, Path], action: Action) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=160)
    observation = make_observations(1)[0]
    ids = policy.from_env_action(action, observation)
    assert ids is not None and ids["tokens"].shape == (160,) and ids["tokens"][ids["length"] - 1] == 2  # EOS
    assert policy.to_env_action(policy.collate_actions([ids]), [observation]) == [action]


def test_from_env_action_unrepresentable_gives_none(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=64)
    observation = make_observations(1)[0]
    assert policy.from_env_action(Action.key(ActionType.WAIT), observation) is None  # AutoUI has no WAIT
    assert policy.from_env_action(Action.invalid("garbled"), observation) is None
    assert policy.from_env_action(TARGET, observation) is None  # ~120 byte tokens > 64
    assert policy.from_env_action(Action.type("<image>"), make_observations(1)[0]) is None  # a placeholder id


def test_state_dict_transport_makes_outputs_equal(checkpoints: dict[str, Path]) -> None:
    source, target = make_policy(checkpoints["vlm"], max_new_tokens=16), make_policy(checkpoints["vlm_seed1"],
                                                                                     max_new_tokens=16)
    inputs = source.preprocess(make_observations(2))
    actions, log_mu = source.act(inputs, generator=torch.Generator().manual_seed(0))
    assert not torch.allclose(target.evaluate(inputs, actions).log_prob, log_mu.sum(1), atol=1e-3)
    target.load_state_dict({k: v.clone() for k, v in source.state_dict().items()})
    out, reference = target.evaluate(inputs, actions), source.evaluate(inputs, actions)
    torch.testing.assert_close(out.log_prob, reference.log_prob)
    torch.testing.assert_close(out.value, reference.value)
    torch.testing.assert_close(target.instruction_value(inputs), source.instruction_value(inputs))


def test_load_state_dict_other_shape_raises_checkpoint_error(checkpoints: dict[str, Path]) -> None:
    policy, wide = make_policy(checkpoints["vlm"]), make_policy(checkpoints["vlm_wide"])
    with pytest.raises(CheckpointError, match="mis-shaped"):
        policy.load_state_dict(wide.state_dict())


def test_non_vlm_checkpoint_raises_clear_error(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="image-text-to-text"):
        make_policy(checkpoints["text"])
    with pytest.raises(CheckpointError, match="not a directory"):
        make_policy(tmp_path / "missing")


def test_lora_without_peft_raises_config_error(checkpoints: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "peft", None)  # importing peft now fails, as when it is not installed
    with pytest.raises(ConfigError, match="peft"):
        make_policy(checkpoints["vlm"], lora_rank=4)


def test_evaluate_rejects_actions_it_cannot_score(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=8)
    inputs = policy.preprocess(make_observations(2))
    tokens = torch.full((2, 8), 70)
    with pytest.raises(DataError, match="1..8"):
        policy.evaluate(inputs, {"tokens": tokens, "length": torch.tensor([0, 3])})
    image_id = policy.parts.inputs.processor.image_token_id
    with pytest.raises(DataError, match="never emits"):
        policy.evaluate(inputs, {"tokens": tokens.index_fill(1, torch.tensor([1]), image_id),
                                 "length": torch.tensor([3, 3])})
    with pytest.raises(DataError, match="tokens"):
        policy.evaluate(inputs, {"tokens": tokens[:, :4], "length": torch.tensor([3, 3])})


def test_preprocess_without_screenshot_raises_data_error(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"])
    with pytest.raises(DataError, match="screenshot_width"):
        policy.preprocess([{"goal": "open the settings"}])


def test_critics_detached_from_backbone_and_instruction_value_blind_to_screen(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"])
    observations = make_observations(2)
    inputs = policy.preprocess(observations)
    (policy.value(inputs).sum() + policy.instruction_value(inputs).sum()).backward()
    assert policy.value_head[0].weight.grad is not None and policy.instruction_value_head[0].weight.grad is not None
    assert all(p.grad is None for p in policy.backbone.parameters())
    actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(0))
    torch.testing.assert_close(policy.evaluate(inputs, actions).value, policy.value(inputs))  # V(s) ignores a_t
    other = policy.preprocess([{**o, "screenshot": 255 - o["screenshot"]} for o in observations])
    torch.testing.assert_close(policy.instruction_value(other), policy.instruction_value(inputs))
    assert not torch.allclose(policy.value(other), policy.value(inputs))


def test_token_entropy_estimate_is_finite_positive_and_differentiable(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=12, entropy_estimate="token_entropy")
    inputs = policy.preprocess(make_observations(2))
    actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(0))
    entropy = policy.evaluate(inputs, actions).entropy
    assert torch.isfinite(entropy).all() and (entropy > 0).all()
    entropy.sum().backward()
    assert policy.backbone.lm_head.weight.grad is not None


def test_learner_update_rules_run_on_stored_token_actions(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=16)
    trajectories = []
    for length, seed in ((2, 0), (3, 1)):
        observations = make_observations(length + 1, seed, goal=GOALS[seed])
        inputs = policy.preprocess(observations[:-1])
        actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(seed))
        rewards = np.zeros(length, np.float32)
        rewards[-1] = 1.0
        trajectories.append(Trajectory(
            observations={"screenshot": np.stack([o["screenshot"] for o in observations]),
                          "goal": np.array([o["goal"] for o in observations]),
                          "previous_action": np.array([o.get("previous_action", "") for o in observations])},
            actions={k: v.numpy() for k, v in actions.items()}, rewards=rewards, dones=rewards > 0,
            log_mu=log_mu.sum(1).numpy(), token_log_mu=log_mu.numpy(), policy_version=np.zeros(length, np.int64),
            goal=GOALS[seed]).validate())
    batch = collate(trajectories)
    stored = policy_pass(policy, batch)
    torch.testing.assert_close(stored.log_pi.detach()[batch.mask], batch.log_mu[batch.mask], rtol=1e-5, atol=1e-3)
    torch.testing.assert_close(stored.token_log_pi.detach()[batch.mask], batch.token_log_mu[batch.mask], rtol=0,
                               atol=1e-4)
    for name in ("a-ride", "digirl"):
        loss, metrics, _ = make_update_rule(name).loss(policy, batch)
        assert torch.isfinite(loss)
        policy.zero_grad()
        loss.backward()
        assert policy.value_head[0].weight.grad is not None


def test_bfloat16_backbone_acts_and_scores_consistently(checkpoints: dict[str, Path]) -> None:
    policy = make_policy(checkpoints["vlm"], max_new_tokens=16, dtype="bfloat16")
    inputs = policy.preprocess(make_observations(2))
    assert inputs["pixel_values"].dtype == torch.bfloat16 and policy.backbone.dtype == torch.bfloat16
    actions, log_mu = policy.act(inputs, generator=torch.Generator().manual_seed(0))
    out = policy.evaluate(inputs, actions)
    assert out.log_prob.dtype == out.value.dtype == torch.float32  # scores and heads stay float32
    torch.testing.assert_close(out.log_prob.detach(), log_mu.sum(1), rtol=1e-2, atol=0.1)


def _changed_fraction(policy: VLMPolicy, steps: int = 3, lr: float = 1e-5) -> float:
    """The fraction of backbone weights that `steps` Adam steps on one imitation batch change (float32 compared)."""
    observations = make_observations(2)
    inputs = policy.preprocess(observations)
    actions = policy.collate_actions([policy.from_env_action(TARGET, o) for o in observations])
    before = {k: v.detach().float().clone() for k, v in policy.backbone.named_parameters()}
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    for _ in range(steps):
        loss = -policy.evaluate(inputs, actions).log_prob.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    changed = sum(int((p.detach().float() != before[k]).sum()) for k, p in policy.backbone.named_parameters())
    return changed / sum(v.numel() for v in before.values())


def test_bfloat16_training_keeps_float32_master_weights(checkpoints: dict[str, Path]) -> None:
    """Small updates of a bf16 backbone are kept as float32's are, where training the bf16 weights rounds them away."""
    full = _changed_fraction(make_policy(checkpoints["vlm"]))
    master = make_policy(checkpoints["vlm"], dtype="bfloat16")
    master.keep_master_weights()
    assert master.backbone.dtype == torch.float32
    inputs = master.preprocess(make_observations(2))
    actions, log_mu = master.act(inputs, generator=torch.Generator().manual_seed(0))  # computes in bf16
    torch.testing.assert_close(master.evaluate(inputs, actions).log_prob.detach(), log_mu.sum(1), rtol=1e-2,
                               atol=0.1)
    kept = _changed_fraction(master)
    rounded = _changed_fraction(make_policy(checkpoints["vlm"], dtype="bfloat16"))
    assert full > 0.3 and kept > 0.9 * full, (full, kept)
    assert rounded < 0.5 * full, (full, rounded)  # the bf16 weights themselves: most steps rounded away


def test_gradient_checkpointing_recomputes_layers_and_keeps_the_gradient(checkpoints: dict[str, Path]) -> None:
    """With `gradient_checkpointing` the decoder's layers run again in the backward pass (their activations were not
    kept) and every weight's gradient is the one computed without it; under LoRA too (frozen inputs)."""  # noqa: D205, D209
    observations = make_observations(2)

    def gradients(policy: VLMPolicy) -> tuple[dict[str, torch.Tensor], int]:
        layer = next(m for name, m in policy.backbone.named_modules()  # the language model's first layer
                     if name.endswith("layers.0") and "Decoder" in type(m).__name__)
        calls, run = [], layer.mlp.forward  # its MLP's runs (module hooks do not fire in the recomputation)

        def counted(*args: object, **kwargs: object) -> torch.Tensor:
            calls.append(1)
            return run(*args, **kwargs)

        layer.mlp.forward = counted
        policy.train()
        inputs = policy.preprocess(observations)
        actions = policy.collate_actions([policy.from_env_action(TARGET, o) for o in observations])
        policy.evaluate(inputs, actions).log_prob.sum().backward()
        return {k: p.grad.clone() for k, p in policy.named_parameters() if p.grad is not None}, len(calls)

    for lora in (0, 4):
        plain, plain_calls = gradients(make_policy(checkpoints["vlm"], lora_rank=lora))
        kept, kept_calls = gradients(make_policy(checkpoints["vlm"], lora_rank=lora, gradient_checkpointing=True))
        assert kept_calls == 2 * plain_calls > 0, (lora, plain_calls, kept_calls)
        assert plain.keys() == kept.keys() and len(plain) > 4
        for key, grad in plain.items():
            torch.testing.assert_close(kept[key], grad, rtol=1e-4, atol=1e-6)


def test_a_gpu_torch_cannot_see_is_refused_when_built_and_auto_falls_back(checkpoints: dict[str, Path]) -> None:
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the refusal is for machines without one")
    with pytest.raises(ConfigError, match=r"`policy.vlm.device` is 'cuda:0' but torch sees 0 GPU\(s\) here"):
        make_policy(checkpoints["vlm"], device="cuda:0")
    assert make_policy(checkpoints["vlm"], device="auto").device.type == "cpu"


def test_a_model_over_the_memory_budget_is_refused_before_it_is_loaded(checkpoints: dict[str, Path],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from safetensors import safe_open

    import distrl_agent.policies.vlm as vlm_module
    from distrl_agent.policies.vlm_budget import GIB, weights_gib

    count = 0
    for path in checkpoints["vlm"].rglob("*.safetensors"):
        with safe_open(str(path), framework="numpy") as f:
            count += sum(int(np.prod(f.get_slice(k).get_shape())) for k in f.keys())  # noqa: SIM118
    assert weights_gib(checkpoints["vlm"], torch.float32) == pytest.approx(4 * count / GIB)
    assert weights_gib(checkpoints["vlm"], torch.bfloat16) == pytest.approx(2 * count / GIB)
    size = 4 * count / GIB
    monkeypatch.setattr(vlm_module, "load_backbone", lambda *a: pytest.fail("loaded a model over its budget"))
    with pytest.raises(ConfigError, match=r"takes 0\.\d\d GiB in float32 .* over `policy.vlm.max_memory_gib`"):
        make_policy(checkpoints["vlm"], max_memory_gib=size * 0.9)
    monkeypatch.undo()
    make_policy(checkpoints["vlm"], max_memory_gib=size * 0.6, dtype="bfloat16")  # half the bytes: within it


def test_the_chat_template_wraps_the_prompt_and_a_tokenizer_without_one_is_refused(
        checkpoints: dict[str, Path], tmp_path: Path) -> None:
    import shutil

    from transformers import AutoTokenizer

    with pytest.raises(CheckpointError, match="has no chat template"):
        make_policy(checkpoints["vlm"], chat_template=True)
    folder = tmp_path / "chat"
    shutil.copytree(checkpoints["vlm"], folder)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    tokenizer.chat_template = ("{% for m in messages %}USER: {% for c in m['content'] %}{{ c['text'] }}{% endfor %}"
                               "{% endfor %}{% if add_generation_prompt %} ASSISTANT:{% endif %}")
    tokenizer.save_pretrained(folder)
    policy = make_policy(folder, chat_template=True)
    ids = policy.preprocess(make_observations(1, goal="open the settings"))["input_ids"][0]
    text = policy.parts.tokenizer.decode(ids)
    assert text.lstrip().startswith("USER:") and text.rstrip().endswith("ASSISTANT:") and "open the settings" in text
    plain = make_policy(folder).preprocess(make_observations(1, goal="open the settings"))["input_ids"][0]
    assert "USER:" not in policy.parts.tokenizer.decode(plain)  # off by default: the prompt template as it is
