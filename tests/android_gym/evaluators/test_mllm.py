"""The local MLLM judge on a tiny random Idefics3 checkpoint loaded through `from_pretrained(path)`.

The checkpoint's answers are noise; these tests check the machinery: loading, prompting, batching, the shared-prefix
reuse, both answer modes, and that bad inputs give clear errors at construction and unknown verdicts at run time.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from judge_helpers import observation, screen

from android_gym.errors import ConfigError
from android_gym.evaluators import mllm
from android_gym.evaluators.base import Observation
from android_gym.evaluators.mllm import MllmEvaluator, MllmJudgeConfig, answer_token_ids, text_verdict
from android_gym.evaluators.prompts import parse_answer


@pytest.fixture(scope="module")
def judge(tiny_vlm_path: Path) -> MllmEvaluator:
    """One loaded logits-mode judge shared by the module's tests (loading is the slow part)."""
    evaluator = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path)))
    evaluator.start()
    yield evaluator
    evaluator.close()


def test_loads_through_auto_classes_without_torchvision(judge: MllmEvaluator) -> None:
    assert type(judge._model).__name__ == "Idefics3ForConditionalGeneration"
    assert type(judge._processor).__name__ == "Idefics3Processor"
    assert importlib.util.find_spec("torchvision") is None or "torchvision" not in sys.modules


def test_logits_verdict_is_deterministic_and_keeps_raw_text(judge: MllmEvaluator, tasks) -> None:
    first = judge.judge(tasks[0], observation(1))
    again = judge.judge(tasks[0], observation(1))
    assert first.is_known and 0.0 <= first.score <= 1.0
    assert first.success == (first.score >= 0.5)
    assert first.score == again.score and first.raw.startswith("P(yes)=")
    assert first.source == "mllm" and first.latency_s > 0


def test_batch_matches_one_by_one(judge: MllmEvaluator, tasks) -> None:
    items = [(tasks[i % len(tasks)], observation(i)) for i in range(5)]
    alone = [judge.judge(*item).score for item in items]
    together = [v.score for v in judge.judge_batch(items)]
    assert together == pytest.approx(alone, abs=1e-4)
    assert judge.stats()["judge/batches"] >= 6


def test_shared_prefix_reuse_changes_no_answer(tiny_vlm_path: Path, judge: MllmEvaluator, tasks) -> None:
    plain = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path), reuse_prefix=False))
    items = [(tasks[i], observation(10 + i)) for i in range(3)]
    plain.start()
    assert plain._prefix is None
    assert [v.score for v in plain.judge_batch(items)] == pytest.approx(
        [v.score for v in judge.judge_batch(items)], abs=1e-4)
    assert judge._prefix is not None and len(judge._prefix) > 100  # the few-shot start is reused
    plain.close()


def test_bad_screens_are_unknown_and_do_not_spoil_the_batch(judge: MllmEvaluator, tasks) -> None:
    bad = [Observation(None, np.zeros((32, 32), np.uint8)), Observation(None, screen(0)[:2, :2]),
           Observation(None, None)]
    verdicts = judge.judge_batch([(tasks[0], o) for o in bad] + [(tasks[0], observation(3))])
    assert [v.is_known for v in verdicts] == [False, False, False, True]
    assert "shape (32, 32)" in verdicts[0].error and "8..8192" in verdicts[1].error


def test_answers_with_neither_yes_nor_no_are_unknown_with_raw(tiny_vlm_path: Path, tasks) -> None:
    strict = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path), min_answer_mass=0.99))
    verdict = strict.judge(tasks[0], observation(0))
    assert verdict.success is None and "neither yes nor no" in verdict.error
    assert verdict.raw.startswith("P(yes)=")
    assert strict.stats()["judge/unknown"] == 1


def test_generate_mode_parses_the_text_it_keeps(tiny_vlm_path: Path, tasks) -> None:
    generator = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path), mode="generate", max_new_tokens=6))
    verdicts = generator.judge_batch([(tasks[0], observation(0)), (tasks[1], observation(1))])
    for verdict in verdicts:
        assert verdict.success == parse_answer(verdict.raw)
        assert verdict.is_known or "neither" in verdict.error


def test_screenshot_history_sends_earlier_screens(tiny_vlm_path: Path, tasks) -> None:
    two = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path), screenshot_history=2, image_width=32))
    two.start()
    inputs = two._encode([(tasks[0], observation(0, history=(screen(5), screen(6))))])
    assert inputs["pixel_values"].shape[1] == 2  # two images in the one request
    assert two.judge(tasks[0], observation(0, history=(screen(5),))).is_known


@pytest.mark.parametrize("make, message", [
    (lambda tmp: tmp / "missing", "is not a directory"),
    (lambda tmp: tmp, "has no config.json"),
    (lambda tmp: _write(tmp, "config.json", "{not json"), "not valid JSON"),
    (lambda tmp: _write(tmp, "config.json", json.dumps({"model_type": "llama"})), "not an image-text-to-text"),
    (lambda tmp: _write(tmp, "config.json", json.dumps({"model_type": "idefics3"})), "no processor_config.json"),
])
def test_bad_checkpoints_fail_at_construction(tmp_path: Path, make, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MllmEvaluator(MllmJudgeConfig(path=str(make(tmp_path))))


@pytest.mark.parametrize("options, message", [
    ({"mode": "sample"}, "`mode`"), ({"device": "tpu"}, "`device`"), ({"dtype": "int4"}, "`dtype`"),
    ({"image_width": 4}, "`image_width`"), ({"threshold": 2.0}, "`threshold`"), ({"max_batch": 0}, "`max_batch`"),
    ({"screenshot_history": 0}, "`screenshot_history`"),
])
def test_bad_options_fail_at_construction(options: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        MllmJudgeConfig(path="/x", **options)


def test_cuda_without_a_gpu_fails_at_construction(tiny_vlm_path: Path) -> None:
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    with pytest.raises(ConfigError, match="no CUDA GPU"):
        MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path), device="cuda"))


def test_corrupt_weights_raise_on_start_and_give_unknown_verdicts(tiny_vlm_path: Path, tmp_path: Path, tasks) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(tiny_vlm_path, broken)
    (broken / "model.safetensors").write_bytes(b"not a safetensors file")
    evaluator = MllmEvaluator(MllmJudgeConfig(path=str(broken)))
    verdict = evaluator.judge(tasks[0], observation(0))  # never raises into the env
    assert verdict.success is None and "could not be loaded" in verdict.error
    with pytest.raises(ConfigError, match="could not be loaded"):
        evaluator.start()


def test_yes_and_no_need_distinct_first_tokens() -> None:
    class SameFirstToken:
        def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
            return [7, len(text)]

    with pytest.raises(ConfigError, match="no distinct first tokens"):
        answer_token_ids(SameFirstToken())


def _write(folder: Path, name: str, text: str) -> Path:
    (folder / name).write_text(text)
    return folder


def test_a_checkpoint_without_chat_template_is_refused(tiny_vlm_path: Path, tmp_path: Path, tasks) -> None:
    plain = tmp_path / "no_template"
    shutil.copytree(tiny_vlm_path, plain)
    (plain / "chat_template.jinja").unlink()
    evaluator = MllmEvaluator(MllmJudgeConfig(path=str(plain)))
    with pytest.raises(ConfigError, match="no chat template"):
        evaluator.start()
    assert "no chat template" in evaluator.judge(tasks[0], observation(0)).error


# -- answers that must not raise (#43) -------------------------------------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(text=st.text() | st.sampled_from(["", "Status: success" * 500, "yes \ud800 no", "\x00" * 50]))
def test_any_generated_text_is_a_verdict_or_unknown(text: str) -> None:
    verdict = text_verdict(text)
    assert verdict.success is parse_answer(text) and verdict.raw == text
    assert verdict.score == (1.0 if verdict.success else 0.0)
    assert bool(verdict.error) == (verdict.success is None)


def test_generate_mode_reads_whatever_the_model_decodes(tiny_vlm_path: Path, tasks, monkeypatch) -> None:
    generator = MllmEvaluator(MllmJudgeConfig(path=str(tiny_vlm_path), mode="generate", max_new_tokens=2))
    generator.start()
    decoded = ["Status: failure", "", "\ud800 yes", "<|endoftext|>" * 100]
    monkeypatch.setattr(generator._processor.tokenizer, "batch_decode", lambda *args, **kwargs: decoded)
    verdicts = generator.judge_batch([(tasks[0], observation(i)) for i in range(len(decoded))])
    assert [v.success for v in verdicts] == [False, None, True, None]
    assert [v.raw for v in verdicts] == decoded and all(v.source == "mllm" for v in verdicts)


def test_non_finite_log_probabilities_are_unknown_not_a_nan_score(judge: MllmEvaluator, tasks, monkeypatch) -> None:
    real = mllm.next_token_log_probs
    monkeypatch.setattr(mllm, "next_token_log_probs", lambda *args: real(*args) * float("nan"))
    verdict = judge.judge(tasks[0], observation(2))
    assert verdict.success is None and "not finite" in verdict.error and verdict.score == 0.0
