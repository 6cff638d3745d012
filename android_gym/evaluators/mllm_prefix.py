"""Shared-prefix reuse for the MLLM judge: the prompt's instructions and few-shot examples run once, not per request.

Every judge request starts with the same tokens (chat header, instructions, examples: ~80% of the prompt). The
judge runs them once at load, keeps the model's key/value cache, and feeds each batch only the request-specific rest
(goal, action, image tokens). Rows are right-padded, so each row's real tokens keep the positions they would have
alone; the next-token logits are read at each row's last real token. Besides the speed-up per request, this is what
makes batching pay on CPUs: without it every row of a padded batch re-runs the long prefix under a full attention
mask. `SharedPrefix.build` checks on a probe batch that the answers do not change, and returns None (reuse off)
when they do, e.g. for models whose positions are not plain 1-D (Qwen2-VL's multimodal rotary positions).
"""

from __future__ import annotations

import copy
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

Encode = Callable[[list[tuple[str, str, list[Any]]], str], Any]
"""(requests of (goal, last action, screens), padding side) -> processor inputs on the model's device."""

BOUNDARY_MARGIN_TOKENS = 2
"""Tokens left out at the end of the common prefix, so a BPE merge across the boundary never changes a request."""

_PROBES = (("Open the Settings app", "PRESS_HOME", 96), ("Search for a 4k monitor on amazon.com", 'TYPE "ab"', 160))


@dataclass
class SharedPrefix:
    """The request-independent start of every prompt and the model's key/value cache after it (batch of one).

    Attributes:
        ids: the prefix token ids, shape (P,), on the model's device.
        cache: the model's cache after running `ids`; copied, never modified, by each batch.
        cache_kwarg: the forward argument that takes a cache ("cache" in recent transformers, else
            "past_key_values").
    """

    ids: Any
    cache: Any
    cache_kwarg: str

    @classmethod
    def build(cls, model: Any, encode: Encode, tolerance: float,
              yes_no: tuple[list[int], list[int]]) -> SharedPrefix | None:
        """Find the common prefix of two probe requests, cache it, and check it changes no answer.

        Args:
            model: the loaded image-text-to-text model.
            encode: the judge's request encoder.
            tolerance: largest allowed difference of P(yes) between the reused and the full computation.
            yes_no: the token ids of "yes" and of "no".

        Returns:
            The prefix, or None when there is none worth reusing or the check fails (logged).
        """
        import torch

        probes = [(goal, action, [np.full((64, 32, 3), shade, np.uint8)]) for goal, action, shade in _PROBES]
        inputs = encode(probes, "right")
        ids = inputs["input_ids"]
        differs = (ids[0] != ids[1]).nonzero()
        length = int(differs[0, 0]) - BOUNDARY_MARGIN_TOKENS if len(differs) else 0
        if length < 8:
            return None
        parameters = inspect.signature(model.forward).parameters
        cache_kwarg = "cache" if "cache" in parameters else "past_key_values"
        with torch.inference_mode():
            out = model(input_ids=ids[:1, :length], use_cache=True)
        cache = getattr(out, "cache", None) or getattr(out, "past_key_values", None)
        if cache is None or not hasattr(cache, "batch_repeat_interleave"):
            return None
        prefix = cls(ids[0, :length].clone(), cache, cache_kwarg)
        try:
            reused = p_yes(next_token_log_probs(model, inputs, prefix), yes_no)
        except Exception as e:  # noqa: BLE001  (a model that cannot take a cache simply runs without reuse)
            log.warning("mllm judge: shared-prefix reuse off, the model rejects a cache: %s: %s", type(e).__name__, e)
            return None
        full = p_yes(next_token_log_probs(model, inputs, None), yes_no)
        gap = float((reused - full).abs().max())
        if gap > tolerance:
            log.warning("mllm judge: shared-prefix reuse off, it changes P(yes) by %.3g > %.3g", gap, tolerance)
            return None
        return prefix

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def matches(self, input_ids: Any) -> bool:
        """Whether every row of `input_ids` (B, L) starts with the prefix."""
        length = len(self)
        return input_ids.shape[1] > length and bool((input_ids[:, :length] == self.ids).all())


def next_token_log_probs(model: Any, inputs: Any, prefix: SharedPrefix | None) -> Any:
    """Log-probabilities (B, vocab) of each row's next token, for right-padded `inputs`, reusing `prefix` if it fits."""
    import torch

    ids, mask = inputs["input_ids"], inputs["attention_mask"]
    last = mask.sum(dim=1) - 1  # right padding: each row's last real token
    with torch.inference_mode():
        if prefix is not None and prefix.matches(ids):
            length = len(prefix)
            cache = copy.deepcopy(prefix.cache)
            cache.batch_repeat_interleave(ids.shape[0])
            rest = {k: (v[:, length:] if _is_per_token(k, v, ids) else v) for k, v in inputs.items()}
            rest["attention_mask"] = mask  # the mask covers the cached prefix too
            out = model(**rest, **{prefix.cache_kwarg: cache}, logits_to_keep=(last - length)[:, None])
        else:
            out = model(**inputs, logits_to_keep=last[:, None])
    return torch.log_softmax(out.logits[:, 0, :].float(), dim=-1)


def p_yes(log_p: Any, yes_no: tuple[list[int], list[int]]) -> Any:
    """P(yes) / (P(yes) + P(no)) per row, from next-token log-probabilities (B, vocab)."""
    import torch

    yes_ids, no_ids = yes_no
    return torch.sigmoid(torch.logsumexp(log_p[:, yes_ids], dim=-1) - torch.logsumexp(log_p[:, no_ids], dim=-1))


def _is_per_token(key: str, value: Any, ids: Any) -> bool:
    """Whether an input is aligned with the tokens (input_ids, token type ids), so the prefix is cut from it."""
    shape = getattr(value, "shape", None)
    return key != "attention_mask" and shape is not None and len(shape) == 2 and tuple(shape) == tuple(ids.shape)
