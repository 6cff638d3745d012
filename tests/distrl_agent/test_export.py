"""`distrl export` (distrl_agent/export.py): a trained VLM leaves the project as a folder transformers (or peft)
loads, and acts there exactly as it did in training.

A tiny random Idefics3 checkpoint is built offline and trained for two updates by a real `distrl train` run.
"""  # noqa: D205

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from safetensors.torch import load_file

from distrl_agent.cli import main
from distrl_agent.config import load_config
from distrl_agent.errors import ConfigError, UntrustedConfigError
from distrl_agent.export import POLICY_FILE, VALUE_HEADS_FILE, export_policy
from distrl_agent.policies.tiny_vlm import build_tiny_idefics3
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
from distrl_agent.runtime.train import train

SCREEN = 32
SHORT_RUN = ["runtime.minutes=3", "runtime.max_updates=2", "runtime.workers=1", "runtime.envs_per_worker=2",
             "runtime.warm_start_episodes=1", "runtime.warm_start_updates=2", "runtime.eval_episodes=1",
             "learner.batch_size=2", "learner.min_replay_trajectories=2", "learner.critic_warmup_updates=0"]


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build_tiny_idefics3(tmp_path_factory.mktemp("vlm") / "tiny"))


def _vlm(model_path: str, *extra: str) -> list[str]:
    return ["policy.kind=vlm", f"policy.vlm.model_path={model_path}", "policy.vlm.max_new_tokens=16",
            "policy.vlm.value_hidden_dim=16", f"env.screenshot_width={SCREEN}", *SHORT_RUN, *extra]


def _train(run_dir: Path, overrides: list[str]) -> Path:
    train(load_config(overrides=[*overrides, f"run_dir={run_dir}"]), show_progress=False)
    return run_dir


def _trained_policy(run_dir: Path, model_path: str) -> VLMPolicy:
    saved = read_policy(find_checkpoint(run_dir))
    policy = VLMPolicy(saved.config.replace(model_path=model_path))
    policy.load_weights(saved.weights)
    return policy.eval()


def _observation(seed: int = 0) -> dict:
    screen = np.random.default_rng(seed).integers(0, 256, (SCREEN * 2, SCREEN, 3), dtype=np.uint8)
    return {"screenshot": screen, "goal": "Open the clock app", "previous_action": np.array("None")}


@pytest.fixture(scope="module")
def vlm_run(model_path: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _train(tmp_path_factory.mktemp("runs") / "vlm", _vlm(model_path))


def test_an_exported_model_loads_in_transformers_and_acts_as_trained(vlm_run: Path, model_path: str,
                                                                     tmp_path: Path, capsys) -> None:
    from transformers import AutoModelForImageTextToText, AutoProcessor

    out = tmp_path / "export"
    assert main(["export", "--checkpoint", str(vlm_run), "--out", str(out), f"policy.vlm.model_path={model_path}"]) == 0
    assert "exported the model" in capsys.readouterr().out
    trained = _trained_policy(vlm_run, model_path)
    loaded = AutoModelForImageTextToText.from_pretrained(out, local_files_only=True).eval()
    processor = AutoProcessor.from_pretrained(out, local_files_only=True)
    inputs = trained.preprocess([_observation()])
    model_inputs = {k: v for k, v in inputs.items() if k not in ("goal_ids", "goal_mask")}
    with torch.no_grad():
        exported_logits = loaded(**model_inputs).logits
        trained_logits = trained.backbone(**model_inputs).logits
        base_logits = AutoModelForImageTextToText.from_pretrained(model_path, local_files_only=True)(
            **model_inputs).logits
    assert torch.allclose(exported_logits, trained_logits, atol=1e-6)
    assert not torch.allclose(base_logits, trained_logits, atol=1e-6)  # the training's weights, not the base's
    assert processor.tokenizer("Goal").input_ids == trained.parts.tokenizer("Goal").input_ids

    # the folder is a model path this project acts with: same greedy actions, same values with the saved heads
    meta = json.loads((out / POLICY_FILE).read_text())
    assert meta["format"] == "model" and meta["version"] == read_policy(find_checkpoint(vlm_run)).version
    again = VLMPolicy(VLMPolicyConfig.from_data({**meta["policy_config"], "model_path": str(out)})).eval()
    heads = load_file(str(out / VALUE_HEADS_FILE))
    for name in ("value_head", "instruction_value_head"):
        getattr(again, name).load_state_dict({k.removeprefix(f"{name}."): v for k, v in heads.items()
                                              if k.startswith(f"{name}.")})
    observations = [_observation(seed) for seed in range(3)]
    mine, theirs = trained.preprocess(observations), again.preprocess(observations)
    with torch.no_grad():
        acted, _ = trained.act(mine, deterministic=True)
        acted_again, _ = again.act(theirs, deterministic=True)
        assert torch.equal(acted["tokens"], acted_again["tokens"])
        assert torch.allclose(trained.value(mine), again.value(theirs), atol=1e-6)


def test_export_refuses_what_it_cannot_or_may_not_write(vlm_run: Path, model_path: str, tmp_path: Path,
                                                        capsys) -> None:
    with pytest.raises(UntrustedConfigError, match=r"policy\.vlm\.model_path"):  # the folder's model: not loaded
        export_policy(vlm_run, tmp_path / "a")
    assert main(["export", "--checkpoint", str(vlm_run), "--out", str(tmp_path / "a")]) == 2
    assert "policy.vlm.model_path" in capsys.readouterr().err
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not an empty folder.*--overwrite"):
        export_policy(vlm_run, busy, overrides=[f"policy.vlm.model_path={model_path}"])
    result = export_policy(vlm_run, busy, overrides=[f"policy.vlm.model_path={model_path}"], overwrite=True)
    assert result.kind == "model" and (busy / "notes.txt").read_text() == "mine" and (busy / POLICY_FILE).exists()
    small = _train(tmp_path / "small", [*SHORT_RUN, "runtime.warm_start_episodes=2"])
    with pytest.raises(ConfigError, match="trained a SmallPolicy.*safetensors"):
        export_policy(small, tmp_path / "b")
    assert not (tmp_path / "b").exists()


def test_a_lora_run_exports_an_adapter_that_peft_applies_to_its_base(model_path: str, tmp_path: Path) -> None:
    peft = pytest.importorskip("peft")
    from transformers import AutoModelForImageTextToText

    run = _train(tmp_path / "lora", _vlm(model_path, "policy.vlm.lora_rank=4"))
    result = export_policy(run, tmp_path / "adapter", trust=True)
    assert result.kind == "lora-adapter" and result.base == str(Path(model_path).resolve())
    config = json.loads((tmp_path / "adapter" / "adapter_config.json").read_text())
    assert config["base_model_name_or_path"] == result.base and config["r"] == 4
    base = AutoModelForImageTextToText.from_pretrained(result.base, local_files_only=True)
    adapted = peft.PeftModel.from_pretrained(base, tmp_path / "adapter").eval()
    trained = _trained_policy(run, model_path)
    inputs = {k: v for k, v in trained.preprocess([_observation()]).items() if k not in ("goal_ids", "goal_mask")}
    with torch.no_grad():
        assert torch.allclose(adapted(**inputs).logits, trained.backbone(**inputs).logits, atol=1e-6)
