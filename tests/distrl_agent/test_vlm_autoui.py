"""`VLMPolicy` on AutoUI's encoder-decoder (issue 46): a T5 reading a SigLIP encoder's projected image features.

A tiny random AutoUI folder is built offline (`tiny_vlm.build_tiny_autoui`). The same end-to-end checks as the
decoder-only families (`test_vlm_families.py`, whose helpers this module reuses): sampling and teacher forcing agree
token by token, a row scores the same alone, left/right-padded or picked out of a batch, the update rules train on
stored actions (the frozen vision encoder excepted), LoRA, float32 master weights and activation checkpointing work
on T5, a run trains, resumes and exports a folder that loads back and acts the same; and a folder of another family
is refused with its name and the supported ones.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from test_vlm_families import make_policy, observations, stored_trajectories

from distrl_agent.algorithms.common import policy_pass
from distrl_agent.algorithms.rules import make_update_rule
from distrl_agent.config import load_config
from distrl_agent.errors import CheckpointError, ConfigError
from distrl_agent.export import export_policy
from distrl_agent.policies.autoui_backbone import EncoderDecoderBackbone
from distrl_agent.policies.autoui_model import AUTOUI_FILE, AutoUIModel, load_autoui_model
from distrl_agent.policies.tiny_vlm import EOS_ID, build_tiny_autoui, build_tiny_text_model
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_backbone import load_backbone
from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
from distrl_agent.runtime.train import train
from distrl_agent.types import collate

T5_ATTENTION = ("q", "k", "v", "o")


@pytest.fixture(scope="module")
def autoui(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_autoui(tmp_path_factory.mktemp("autoui") / "model")


def make_eos_likely(policy: VLMPolicy, strength: float = 4.0) -> None:
    """Point EOS's output row along the decoder's mean state, so that sampled actions end at varied lengths."""
    inputs = policy.preprocess(observations(3, seed=5))
    with torch.no_grad():
        actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(9))
        scored = policy.parts.score_tokens(inputs, actions["tokens"], torch.ones_like(actions["tokens"]).bool())
        mean = scored.token_hidden.reshape(-1, scored.token_hidden.shape[-1]).mean(0)
        policy.parts.head.weight[EOS_ID] = strength * mean / mean.norm() ** 2


def test_the_folder_loads_as_t5_reading_a_frozen_vision_encoder(autoui: Path) -> None:
    """The folder holds JSON and safetensors only; it loads as an encoder-decoder whose encoder output starts with
    the projected image patches, whose decoder gives T5's own logits, and whose vision encoder is frozen (AutoUI's
    default) unless the folder says not."""  # noqa: D205, D209
    assert json.loads((autoui / AUTOUI_FILE).read_text())["freeze_vision"] is True
    assert not list(autoui.rglob("*.bin")) and not list(autoui.rglob("*.py"))
    parts = load_backbone(autoui)
    assert isinstance(parts, EncoderDecoderBackbone) and isinstance(parts.model, AutoUIModel)
    assert type(parts.model.text).__name__ == "T5ForConditionalGeneration"
    assert not any(p.requires_grad for p in parts.model.vision.parameters())
    policy = make_policy(autoui)
    inputs = policy.preprocess(observations(2))
    assert inputs["pixel_values"].shape == (2, 3, 32, 32)
    encoded, mask = parts.prompt_features(inputs)
    patches = (32 // 8) ** 2
    assert encoded.shape[1] == patches + inputs["input_ids"].shape[1] and (mask[:, :patches] == 1).all()
    with torch.no_grad():  # the first columns are the screenshot's: another screen changes them, the text's not
        other = parts.prompt_features({**inputs, "pixel_values": inputs["pixel_values"].flip(-1)})[0]
    assert (other[:, :patches] - encoded[:, :patches]).abs().max() > 1e-3
    torch.testing.assert_close(other[:, patches:], encoded[:, patches:])
    tokens = torch.tensor([[0, 40, 41, 42], [0, 50, 51, 52]])  # the decoder start id, then three tokens
    with torch.no_grad():  # the policy's decoder path gives T5's own logits for E(s)
        hidden, _ = parts.model.decode(tokens, encoded, mask)
        own = parts.model.text(encoder_outputs=(encoded,), attention_mask=mask, decoder_input_ids=tokens).logits
    torch.testing.assert_close(parts.head(hidden), own)
    trainable = build_tiny_autoui(autoui.parent / "trainable_vision", freeze_vision=False)
    assert all(p.requires_grad for p in load_autoui_model(trainable).vision.parameters())


def test_sampling_and_teacher_forcing_agree(autoui: Path) -> None:
    """`act`'s log mu is `evaluate`'s log pi of the same tokens (1e-4 per token), sampled and greedy, with actions
    ending at EOS at varied lengths."""  # noqa: D205, D209
    policy = make_policy(autoui, temperature=0.8)
    make_eos_likely(policy)
    inputs = policy.preprocess(observations(3, seed=1))
    lengths = set()
    for deterministic, seed in ((False, 0), (False, 3), (True, 0)):
        actions, log_mu = policy.act(inputs, deterministic, generator=torch.Generator().manual_seed(seed))
        out = policy.evaluate(inputs, actions)
        assert (out.token_log_prob.detach() - log_mu).abs().max() < 1e-4  # token by token, zeros past the length
        assert ((out.log_prob.detach() - log_mu.sum(1)).abs() / actions["length"]).max() < 1e-4
        ended = actions["length"] < 16
        last = actions["tokens"].gather(1, (actions["length"] - 1)[:, None]).squeeze(1)
        assert (last[ended] == EOS_ID).all()
        lengths |= set(actions["length"].tolist())
    assert len(lengths) >= 3, lengths  # rows of several lengths were scored


def test_a_row_scores_the_same_alone_padded_left_or_right_or_picked_out(autoui: Path) -> None:
    """Padding on either side and row selection change no row's log-prob, V(s) or V(g)."""
    policy = make_policy(autoui)
    make_eos_likely(policy)
    screens = observations(3)
    inputs = policy.preprocess(screens)
    actions, _ = policy.act(inputs, generator=torch.Generator().manual_seed(0))
    assert len(set(actions["length"].tolist())) > 1
    batched = policy.evaluate(inputs, actions)
    goal_value = policy.instruction_value(inputs)
    for row in range(3):
        one = {k: v[row:row + 1] for k, v in actions.items()}
        alone = policy.preprocess(screens[row:row + 1])
        scored = policy.evaluate(alone, one)
        torch.testing.assert_close(scored.log_prob, batched.log_prob[row:row + 1], rtol=1e-5, atol=1e-4)
        torch.testing.assert_close(scored.value, batched.value[row:row + 1], rtol=1e-5, atol=1e-5)
        torch.testing.assert_close(policy.instruction_value(alone), goal_value[row:row + 1], rtol=1e-5, atol=1e-5)
    policy.parts.tokenizer.padding_side = "right"
    right = policy.preprocess(screens)
    assert (right["attention_mask"][:, 0] == 1).all() and (right["attention_mask"][:, -1] == 0).any()
    on_right = policy.evaluate(right, actions)
    torch.testing.assert_close(on_right.token_log_prob, batched.token_log_prob, rtol=1e-5, atol=1e-4)
    torch.testing.assert_close(on_right.value, batched.value, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(policy.instruction_value(right), goal_value, rtol=1e-5, atol=1e-5)
    order = torch.tensor([2, 0])
    picked = policy.evaluate({k: v[order] for k, v in inputs.items()}, {k: v[order] for k, v in actions.items()})
    torch.testing.assert_close(picked.log_prob, batched.log_prob[order], rtol=1e-5, atol=1e-4)


def test_update_rules_train_t5_and_the_projection_never_the_frozen_vision(autoui: Path) -> None:
    """The learner's pass scores stored actions as sampled; A-RIDE, DigiRL, PPO and GRPO give finite losses whose
    Adam steps move T5 and the projection and leave the frozen vision encoder as it was."""  # noqa: D205, D209
    policy = make_policy(autoui)
    batch = collate(stored_trajectories(policy))
    stored = policy_pass(policy, batch)
    torch.testing.assert_close(stored.log_pi.detach()[batch.mask], batch.log_mu[batch.mask], rtol=1e-5, atol=1e-3)
    model = policy.backbone
    optimizer = torch.optim.Adam([p for p in policy.parameters() if p.requires_grad], lr=1e-3)
    for name in ("a-ride", "digirl", "ppo", "grpo"):
        before = {k: v.detach().clone() for k, v in model.named_parameters()}
        optimizer.zero_grad()
        rule = make_update_rule(name)
        prepared = () if rule.prepare is None else (rule.prepare(policy, batch),)
        loss, _, _ = rule.loss(policy, batch, *prepared)
        assert torch.isfinite(loss), name
        loss.backward()
        optimizer.step()
        moved = {k for k, v in model.named_parameters() if not torch.equal(v, before[k])}
        assert "projection.weight" in moved and "text.shared.weight" in moved, name
        assert any(k.startswith("text.encoder.block.1.") for k in moved), name  # through cross-attention too
        assert not any(k.startswith("vision.") for k in moved), name


def test_lora_master_weights_and_checkpointing_work_on_t5(autoui: Path) -> None:
    """LoRA on T5's q, k, v, o trains adapters and the projection only; default (decoder-only) targets are refused
    with T5's layer names; bf16 with float32 master weights acts and scores consistently; activation checkpointing
    keeps every gradient."""  # noqa: D205, D209
    with pytest.raises(ConfigError, match=r"'q'.*'v'"):
        make_policy(autoui, lora_rank=4)
    lora = make_policy(autoui, lora_rank=4, lora_target_modules=T5_ATTENTION)
    trainable = {k for k, p in lora.backbone.named_parameters() if p.requires_grad}
    assert trainable and all("lora_" in k or k.startswith("projection.") for k in trainable)
    assert any(".SelfAttention.q.lora_A" in k for k in trainable) and "projection.weight" in trainable
    master = make_policy(autoui, dtype="bfloat16")
    master.keep_master_weights()
    assert next(master.backbone.parameters()).dtype == torch.float32
    inputs = master.preprocess(observations(2))
    actions, log_mu = master.act(inputs, generator=torch.Generator().manual_seed(0))  # computes in bf16
    torch.testing.assert_close(master.evaluate(inputs, actions).log_prob.detach(), log_mu.sum(1), rtol=1e-2,
                               atol=0.1)

    def gradients(**overrides: object) -> tuple[dict[str, torch.Tensor], int]:
        policy = make_policy(autoui, lora_target_modules=T5_ATTENTION, **overrides)
        feed_forward = policy.backbone.text.decoder.block[0].layer[-1].DenseReluDense
        calls, run = [], feed_forward.forward  # its runs (module hooks do not fire in the recomputation)

        def counted(*args: object, **kwargs: object) -> torch.Tensor:
            calls.append(1)
            return run(*args, **kwargs)

        feed_forward.forward = counted
        policy.train()
        screens = policy.preprocess(observations(2))
        policy.evaluate(screens, actions).log_prob.sum().backward()
        return {k: p.grad.clone() for k, p in policy.named_parameters() if p.grad is not None}, len(calls)

    for rank in (0, 4):
        (plain, plain_calls), (kept, kept_calls) = gradients(lora_rank=rank), gradients(
            lora_rank=rank, gradient_checkpointing=True)
        assert kept_calls == 2 * plain_calls > 0, (rank, plain_calls, kept_calls)
        assert plain.keys() == kept.keys() and len(plain) > 4
        for key, grad in plain.items():
            torch.testing.assert_close(kept[key], grad, rtol=1e-4, atol=1e-5)


def test_an_autoui_lora_run_trains_resumes_and_exports_a_folder_that_acts_the_same(autoui: Path,
                                                                                     tmp_path: Path) -> None:
    """`distrl train` with an AutoUI LoRA policy makes updates and resumes; `export_policy` merges the adapters into
    an AutoUI folder that `load_backbone` loads and whose policy acts exactly as the trained one."""  # noqa: D205, D209
    overrides = ["policy.kind=vlm", f"policy.vlm.model_path={autoui}", "policy.vlm.max_new_tokens=16",
                 "policy.vlm.value_hidden_dim=16", "policy.vlm.lora_rank=4",
                 "policy.vlm.lora_target_modules=[q,k,v,o]", "learner.lr=0.01", "env.screenshot_width=32",
                 "runtime.minutes=3", "runtime.workers=1", "runtime.envs_per_worker=2",
                 "runtime.warm_start_episodes=0", "runtime.eval_episodes=1", "env.max_steps=3",
                 "learner.batch_size=2", "learner.min_replay_trajectories=2", "learner.critic_warmup_updates=0",
                 f"run_dir={tmp_path / 'run'}"]
    first = train(load_config(overrides=[*overrides, "runtime.max_updates=2"]), show_progress=False)
    assert first["updates"] >= 2
    again = train(load_config(overrides=[*overrides, "runtime.max_updates=4"]), resume=tmp_path / "run",
                  show_progress=False)
    assert again["updates"] >= 4 and again["resumes"] == 1
    saved = read_policy(find_checkpoint(tmp_path / "run"))
    trained = VLMPolicy(saved.config)
    trained.load_weights(saved.weights)
    result = export_policy(tmp_path / "run", tmp_path / "export", trust=True)
    assert result.kind == "model" and result.base is None
    assert isinstance(load_backbone(tmp_path / "export"), EncoderDecoderBackbone)
    merged = load_autoui_model(tmp_path / "export").text.state_dict()
    base = load_autoui_model(autoui).text.state_dict()
    query = "encoder.block.0.layer.0.SelfAttention.q.weight"
    assert not torch.equal(merged[query], base[query])  # the trained adapter is in the merged weight
    exported = VLMPolicy(saved.config.replace(model_path=str(tmp_path / "export"), lora_rank=0))
    inputs = trained.preprocess(observations(3, seed=4))
    for policy in (trained, exported):
        policy.eval()
    mine, mine_mu = trained.act(inputs, generator=torch.Generator().manual_seed(1))
    theirs, theirs_mu = exported.act(inputs, generator=torch.Generator().manual_seed(1))
    assert torch.equal(mine["tokens"], theirs["tokens"]) and torch.equal(mine["length"], theirs["length"])
    torch.testing.assert_close(theirs_mu, mine_mu, rtol=1e-5, atol=1e-4)  # W + BA merged: float rounding


def test_a_folder_of_another_family_names_it_and_the_supported_ones(autoui: Path, tmp_path: Path) -> None:
    """A text-only LLM and a bare T5 (AutoUI's text half) are refused naming their model type and the families
    that load; a malformed autoui.json names what is wrong."""  # noqa: D205, D209
    with pytest.raises(CheckpointError, match=r"(?s)'llama' model.*Idefics3.*Qwen2-VL.*AutoUI"):
        load_backbone(build_tiny_text_model(tmp_path / "llama"))
    with pytest.raises(CheckpointError, match=r"'t5' model \(T5ForConditionalGeneration\) without the vision"):
        load_backbone(autoui / "text")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / AUTOUI_FILE).write_text(json.dumps({"format": "autoui", "format_version": 1, "text": "../text",
                                                  "vision": "vision", "projection": "p.safetensors"}))
    with pytest.raises(CheckpointError, match="`text` must name a file or folder inside"):
        load_backbone(broken)
