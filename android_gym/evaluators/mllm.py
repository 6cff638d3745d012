"""`MllmEvaluator`: a local multimodal LLM (any `transformers` image-text-to-text checkpoint) as the success judge.

The checkpoint is loaded with `AutoProcessor` + `AutoModelForImageTextToText.from_pretrained(path)` — SmolVLM
(Idefics3), Qwen2-VL, LLaVA, ... — and never needs torchvision. Each request is the few-shot prompt
(`android_gym.evaluators.prompts`) around the last screenshot(s) and the previous action, formatted by the
checkpoint's own chat template. Two ways to answer:

* `mode="logits"` (default, deterministic, one forward pass): P(yes) = softmax over the next-token log-probabilities
  summed over the tokens that start "yes" vs "no"; success when P(yes) >= `threshold`.
* `mode="generate"`: greedy decoding of up to `max_new_tokens`, parsed for "Status: success|failure" (DigiRL's format)
  or a yes/no.

`judge_batch` runs many environments' requests as padded batches of up to `max_batch`.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import ConfigError
from android_gym.evaluators.base import Evaluator, Observation, Verdict, unknown
from android_gym.evaluators.images import screenshot_problem, to_pil
from android_gym.evaluators.mllm_prefix import SharedPrefix, next_token_log_probs
from android_gym.evaluators.prompts import JudgePrompt, Mode, answer_verdict
from android_gym.extras import require_extra
from android_gym.tasks.base import Task

log = logging.getLogger(__name__)

Dtype = Literal["auto", "float32", "bfloat16", "float16"]
DTYPES: tuple[str, ...] = get_args(Dtype)
YES_WORDS = ("yes", "Yes", "YES", " yes", " Yes")
NO_WORDS = ("no", "No", "NO", " no", " No")


class MllmJudgeConfig(ConfigModel):
    """Configuration of a local MLLM judge.

    Attributes:
        path: a local checkpoint directory (config.json, weights, processor and tokenizer files).
        mode: "logits" (P(yes) from one forward pass; deterministic) or "generate" (decode, then parse the text).
        device: "cpu", "cuda", "cuda:N" or "auto" (cuda when available).
        dtype: "auto" (float32 on CPU, bfloat16 on CUDA), "float32", "bfloat16" or "float16".
        threshold: P(yes) at or above which the verdict is success (logits mode), in [0, 1].
        min_answer_mass: in logits mode, the verdict is unknown when P(yes) + P(no) over the whole vocabulary is
            below this (the model is not answering the question); 0 disables the check.
        max_new_tokens: decoding budget in tokens (generate mode); the default fits DigiRL-style answers.
        max_batch: requests per forward pass; larger batches are split.
        image_width: resize screenshots to this many pixels wide (aspect kept) before the processor; None keeps the
            env's `render_width`.
        screenshot_history: screens per request, the current one included (1 = only the last screen).
        prompt_path: a prompt file (see `android_gym.evaluators.prompts`); None uses the default few-shot prompt.
        processor_kwargs: extra `AutoProcessor.from_pretrained` kwargs (e.g. {"do_image_splitting": False}).
        reuse_prefix: in logits mode, run the prompt's request-independent start (instructions and few-shot examples,
            most of the tokens) once at load and reuse its key/value cache for every request; switched off by itself
            when a self-check at load shows the model's answers change with it (e.g. multimodal rotary positions).
    """

    path: str
    mode: Mode = "logits"
    device: str = "cpu"
    dtype: Dtype = "auto"
    threshold: float = Field(default=0.5, ge=0, le=1)
    min_answer_mass: float = Field(default=0.0, ge=0, le=1)
    max_new_tokens: int = Field(default=96, ge=1)
    max_batch: int = Field(default=8, ge=1)
    image_width: int | None = Field(default=None, ge=16, le=4096)
    screenshot_history: int = Field(default=1, ge=1, le=8)
    prompt_path: str | None = None
    processor_kwargs: Mapping[str, Any] = Field(default_factory=dict)
    reuse_prefix: bool = True

    @model_validator(mode="after")
    def _check_device(self) -> MllmJudgeConfig:
        if not re.fullmatch(r"cpu|auto|cuda(:\d+)?", self.device):
            raise FieldError("device", "'cpu', 'cuda', 'cuda:N' or 'auto'", self.device)
        return self


def checkpoint_problem(path: str) -> str | None:
    """Why `path` is not a loadable local image-text-to-text checkpoint, or None (reads only small JSON files)."""
    from transformers.models.auto.modeling_auto import MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES

    folder = Path(path).expanduser()
    if not folder.is_dir():
        return (f"model path {path!r} is not a directory; pass a local checkpoint folder (download it first, e.g. "
                "`hf download HuggingFaceTB/SmolVLM-256M-Instruct --local-dir DIR`)")
    config_file = folder / "config.json"
    if not config_file.is_file():
        return f"model path {path!r} has no config.json; is it a transformers checkpoint?"
    try:
        model_type = json.loads(config_file.read_text()).get("model_type")
    except (OSError, ValueError) as e:
        return f"{config_file} is not valid JSON: {e}"
    if model_type not in MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES:
        return (f"checkpoint {path!r} has model_type {model_type!r}, which is not an image-text-to-text model "
                "(a VLM such as idefics3/smolvlm, qwen2_vl, llava); a text-only LLM cannot judge screenshots")
    if not any((folder / name).is_file() for name in ("processor_config.json", "preprocessor_config.json")):
        return f"checkpoint {path!r} has no processor_config.json or preprocessor_config.json (image processor)"
    return None


class MllmEvaluator(Evaluator):
    """A local VLM judge (see the module docstring).

    Guarantees: `judge`/`judge_batch` never raise; a bad screenshot, a load failure, an answer with neither yes nor
    no or any model error gives an unknown verdict with the reason in `error` and the model text in `raw`.
    Thread-safe (one forward pass at a time). The model loads in `start()` or on the first call.

    Raises:
        ConfigError: at construction, for a missing path, a checkpoint that is not a VLM, a bad prompt file, or
            `device="cuda"` without a GPU; in `start()`, when the checkpoint cannot be loaded.
    """

    needs_screenshot = True

    def __init__(self, config: MllmJudgeConfig) -> None:
        require_extra("mllm", "the local multimodal judge (evaluator='mllm:<dir>')")
        problem = checkpoint_problem(config.path)
        if problem:
            raise ConfigError(f"mllm judge: {problem}")
        if config.device.startswith("cuda"):
            import torch

            if not torch.cuda.is_available():
                raise ConfigError(f"mllm judge: `device` is {config.device!r} but torch sees no CUDA GPU; use 'cpu' "
                                  "or 'auto'")
        self.config = config
        self.prompt = JudgePrompt.load(config.prompt_path)
        self.screenshot_history = config.screenshot_history
        self._lock = threading.Lock()
        self._model: Any = None
        self._processor: Any = None
        self._device = "cpu"
        self._prefix: SharedPrefix | None = None
        self._yes_ids: list[int] = []
        self._no_ids: list[int] = []
        self._load_error: str | None = None
        self._counts = {"judge/calls": 0, "judge/requests": 0, "judge/unknown": 0, "judge/batches": 0}

    def __repr__(self) -> str:
        c = self.config
        return f"MllmEvaluator(path={c.path!r}, mode={c.mode!r}, device={c.device!r}, dtype={c.dtype!r})"

    # -- lifecycle -----------------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Load the processor and the model (idempotent).

        Raises:
            ConfigError: the checkpoint cannot be loaded, has no chat template, or its tokenizer has no distinct
                first tokens for "yes" and "no".
        """
        with self._lock:
            self._load_locked()

    def close(self) -> None:
        """Drop the model (its memory is freed when nothing else holds it)."""
        with self._lock:
            self._model = self._processor = self._prefix = None

    def stats(self) -> dict[str, float]:
        """`judge/calls` (requests that reached the model), `judge/requests`, `judge/unknown`, `judge/batches`."""
        return dict(self._counts)

    # -- judging -------------------------------------------------------------------------------------------------------
    def judge(self, task: Task, observation: Observation) -> Verdict:
        """The verdict on `task` from the screenshot(s) in `observation`; never raises."""
        return self.judge_batch([(task, observation)])[0]

    def judge_batch(self, items: Sequence[tuple[Task, Observation]]) -> list[Verdict]:
        """Verdicts for many requests, run as padded batches of up to `max_batch`; never raises."""
        verdicts: list[Verdict | None] = [None] * len(items)
        ready: list[int] = []
        for i, (_, observation) in enumerate(items):
            problem = screenshot_problem(observation.screenshot)
            if problem:
                verdicts[i] = unknown(problem, source="mllm")
            else:
                ready.append(i)
        for start in range(0, len(ready), self.config.max_batch):
            chunk = ready[start:start + self.config.max_batch]
            for i, verdict in zip(chunk, self._run_chunk([items[i] for i in chunk]), strict=True):
                verdicts[i] = verdict
        done = [v for v in verdicts if v is not None]
        with self._lock:
            self._counts["judge/requests"] += len(done)
            self._counts["judge/unknown"] += sum(not v.is_known for v in done)
        return done

    def _run_chunk(self, items: list[tuple[Task, Observation]]) -> list[Verdict]:
        started = time.perf_counter()
        try:
            with self._lock:
                self._load_locked()
                if self.config.mode == "logits":
                    verdicts = self._read_logits(self._encode(items, "right"))
                else:  # generation appends after the last column, so rows are padded on the left
                    verdicts = self._generate(self._encode(items, "left"))
                self._counts["judge/calls"] += len(items)
                self._counts["judge/batches"] += 1
        except Exception as e:  # noqa: BLE001  (a judge fault is an unknown verdict, never an exception in the env)
            log.warning("mllm judge failed on a batch of %d: %s: %s", len(items), type(e).__name__, e)
            spent = time.perf_counter() - started
            return [unknown(f"{type(e).__name__}: {e}", latency_s=spent, source="mllm") for _ in items]
        per_item = (time.perf_counter() - started) / len(items)
        return [Verdict(v.success, v.score, v.raw, per_item, False, v.error, "mllm") for v in verdicts]

    # -- internals -----------------------------------------------------------------------------------------------------
    def _load_locked(self) -> None:
        if self._model is not None:
            return
        if self._load_error is not None:
            raise ConfigError(self._load_error)
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor

        c = self.config
        path = str(Path(c.path).expanduser())
        device = c.device if c.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
        dtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}.get(
            c.dtype, torch.bfloat16 if device.startswith("cuda") else torch.float32)
        try:
            processor = AutoProcessor.from_pretrained(path, **dict(c.processor_kwargs))
            model = AutoModelForImageTextToText.from_pretrained(path, dtype=dtype).to(device).eval()
        except Exception as e:
            self._load_error = f"mllm judge: checkpoint {c.path!r} could not be loaded: {type(e).__name__}: {e}"
            raise ConfigError(self._load_error) from e
        try:
            if getattr(processor, "chat_template", None) is None:
                raise ConfigError(f"mllm judge: checkpoint {c.path!r} has no chat template (chat_template.jinja)")
            self._yes_ids, self._no_ids = answer_token_ids(processor.tokenizer)
        except ConfigError as e:
            self._load_error = str(e)  # the same answer next time, without reloading the weights
            raise
        self._processor, self._model, self._device = processor, model, device
        if c.mode == "logits" and c.reuse_prefix:
            tolerance = 1e-4 if dtype == torch.float32 else 2e-2
            try:
                self._prefix = SharedPrefix.build(model, self._encode_requests, tolerance,
                                                  (self._yes_ids, self._no_ids))
            except Exception as e:  # noqa: BLE001  (reuse is an optimisation: without it the judge still works)
                log.warning("mllm judge: shared-prefix reuse off: %s: %s", type(e).__name__, e)
        log.info("mllm judge loaded %s on %s (%s); shared-prefix reuse %s", c.path, device, dtype,
                 "on" if self._prefix else "off")

    def _encode(self, items: list[tuple[Task, Observation]], padding_side: str = "right") -> Any:
        requests = []
        for task, observation in items:
            screens = [*observation.history, observation.screenshot][-self.config.screenshot_history:]
            requests.append((task.goal, observation.last_action, [s for s in screens if screenshot_problem(s) is None]))
        return self._encode_requests(requests, padding_side)

    def _encode_requests(self, requests: list[tuple[str, str, list[Any]]], padding_side: str = "right") -> Any:
        """Processor inputs for (goal, last action, screens) requests, padded on `padding_side`."""
        texts, images = [], []
        for goal, last_action, screens in requests:
            head, _, tail = self.prompt.render(goal, last_action, self.config.mode)
            content = [{"type": "text", "text": head.text}, *({"type": "image"} for _ in screens),
                       {"type": "text", "text": tail.text}]
            texts.append(self._processor.apply_chat_template([{"role": "user", "content": content}],
                                                             add_generation_prompt=True, tokenize=False))
            images.append([to_pil(s, self.config.image_width) for s in screens])
        self._processor.tokenizer.padding_side = padding_side
        inputs = self._processor(text=texts, images=images, return_tensors="pt", padding=True)
        return inputs.to(self._device)

    def _read_logits(self, inputs: Any) -> list[Verdict]:
        import torch

        log_p = next_token_log_probs(self._model, inputs, self._prefix)
        log_yes = torch.logsumexp(log_p[:, self._yes_ids], dim=-1)
        log_no = torch.logsumexp(log_p[:, self._no_ids], dim=-1)
        p_yes = torch.sigmoid(log_yes - log_no).tolist()
        mass = (log_yes.exp() + log_no.exp()).tolist()
        top = log_p.argmax(dim=-1).tolist()
        verdicts = []
        for score, m, token in zip(p_yes, mass, top, strict=True):
            raw = (f"P(yes)={score:.4f} P(yes)+P(no)={m:.4g} "
                   f"top token {self._processor.tokenizer.decode([token])!r}")
            if not math.isfinite(score):  # NaN/inf logits (e.g. float16 overflow) would make a NaN score (#43)
                verdicts.append(unknown("the model's log-probabilities of yes/no are not finite numbers", raw))
            elif m < self.config.min_answer_mass:
                verdicts.append(unknown(f"the model answers neither yes nor no (P(yes)+P(no) = {m:.3g} < "
                                        f"min_answer_mass {self.config.min_answer_mass})", raw))
            else:
                verdicts.append(Verdict(score >= self.config.threshold, score, raw))
        return verdicts

    def _generate(self, inputs: Any) -> list[Verdict]:
        import torch

        tokenizer = self._processor.tokenizer
        with torch.inference_mode():
            out = self._model.generate(**inputs, max_new_tokens=self.config.max_new_tokens, do_sample=False,
                                       pad_token_id=tokenizer.pad_token_id)
        texts = tokenizer.batch_decode(out[:, inputs["input_ids"].shape[1]:], skip_special_tokens=True)
        return [text_verdict(text) for text in texts]


def text_verdict(text: str) -> Verdict:
    """The verdict in one generated answer, keeping the text as `raw`; never raises for any string.

    >>> text_verdict("Status: success").success, text_verdict("???").error
    (True, "the answer has neither 'Status: success|failure' nor yes/no")
    """
    verdict = answer_verdict(text)
    return Verdict(verdict.success, verdict.score, text, error=verdict.error)


def answer_token_ids(tokenizer: Any) -> tuple[list[int], list[int]]:
    """The first token ids of the spellings of "yes" and of "no", without ids the two share (a bare space).

    Raises:
        ConfigError: the tokenizer gives "yes" and "no" no distinct first token.
    """

    def first_ids(words: tuple[str, ...]) -> set[int]:
        ids = (tokenizer.encode(w, add_special_tokens=False) for w in words)
        return {i[0] for i in ids if i}

    yes, no = first_ids(YES_WORDS), first_ids(NO_WORDS)
    shared = yes & no
    yes, no = yes - shared, no - shared
    if not yes or not no:
        raise ConfigError("mllm judge: the tokenizer has no distinct first tokens for 'yes' and 'no'; use "
                          "mode='generate'")
    return sorted(yes), sorted(no)
