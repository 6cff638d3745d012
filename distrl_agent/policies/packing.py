"""Layers run on the real rows of a padded batch only: what makes the small policy's learner fast (issue 45).

A batch of screens is padded to the most elements any screen has (48), while screens hold 27 on average: most of an
update's arithmetic went into encoding padding that every later step masks out. And a learner's batch holds each
distinct state ~2.5 times (trajectories of one task share their first screens, a refused tap leaves the screen as it
was): `distinct_rows` finds them, so a policy encodes each once. The padding functions give the real rows
the values the padded computation gave them (up to float rounding) and zeros on padding, which every reader of the
padded rows masks (`masked_log_softmax`, `masked_mean`, `attention_pool`), so the policy's outputs, its gradients
and its weights' layout are unchanged.

Rows that many positions share are gathered with `index_select`, whose gradient sums them in a fixed order: plain
indexing's gradient (`index_put_` with accumulation) sums duplicates in a thread-dependent order on CPU, and a
resumed learner must reproduce an update bit for bit.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import torch
from torch import nn


def unpack(rows: torch.Tensor, index: tuple[torch.Tensor, ...], shape: torch.Size) -> torch.Tensor:
    """Rows (M, ...) computed at the positions `index` (`mask.nonzero(as_tuple=True)`) of a padded `shape`, laid out
    in that shape: (*shape, ...), zeros elsewhere (differentiable).

    >>> unpack(torch.tensor([[1.0], [2.0]]), (torch.tensor([0, 1]), torch.tensor([1, 0])), torch.Size([2, 2]))[..., 0]
    tensor([[0., 1.],
            [2., 0.]])
    """  # noqa: D205
    return rows.new_zeros(*shape, *rows.shape[1:]).index_put(index, rows)


def head_with_context(head: nn.Sequential, items: torch.Tensor, context: torch.Tensor,
                      mask: torch.Tensor) -> torch.Tensor:
    """`head(cat([items, context broadcast over N]))` as logits (B, N), computed on the real items only.

    The head's first layer is split, W [x; s] + b = W_x x + (W_s s + b): the context's part is computed once per row of
    the batch rather than once per item, and padded items (where `mask` is False) get logit 0 (they are masked).

    Args:
        head: an `mlp` whose first layer is a Linear over [item features (D), context features (C)] and whose last
            layer has one output.
        items: (B, N, D) per-item features (elements, goal words).
        context: (B, C) per-row features (the state).
        mask: (B, N) the real items.
    """
    first = head[0]
    width = items.shape[-1]
    index = mask.nonzero(as_tuple=True)
    per_row = nn.functional.linear(context, first.weight[:, width:], first.bias)  # (B, H)
    hidden = nn.functional.linear(items[index], first.weight[:, :width]) + per_row.index_select(0, index[0])
    return unpack(head[1:](hidden).squeeze(-1), index, mask.shape)


def distinct_rows(inputs: Mapping[str, torch.Tensor]) -> tuple[dict[str, torch.Tensor], torch.Tensor] | None:
    """The distinct rows of a batch of inputs, and the index of each row among them; None when no row repeats.

    Rows are equal when every tensor of `inputs` is equal on them (compared exactly, as the bytes of float64 values,
    which hold every id, flag and float32 value of the encodings without rounding); the distinct rows come in the
    order they first appear, and `distinct[k][inverse]` is `inputs[k]`.

    Each row is compared as one byte string (numpy's sort of a void view): `torch.unique(dim=0)` compares rows
    pairwise, a call per row, which cost a World update ~70 ms.

    >>> batch = {"x": torch.tensor([[3, 4], [1, 2], [3, 4]]), "m": torch.tensor([True, False, True])}
    >>> rows, inverse = distinct_rows(batch)
    >>> rows["x"].tolist(), inverse.tolist()
    ([[3, 4], [1, 2]], [0, 1, 0])
    """
    n = next(iter(inputs.values())).shape[0]
    if n == 0:
        return None
    keys = torch.cat([value.detach().reshape(n, -1).to(torch.float64) for _, value in sorted(inputs.items())], 1)
    keys = np.ascontiguousarray(keys.cpu().numpy())
    rows = keys.view(np.dtype((np.void, keys.dtype.itemsize * keys.shape[1]))).reshape(n)
    _, first, inverse = np.unique(rows, return_index=True, return_inverse=True)
    if len(first) == n:
        return None
    order = np.argsort(first)  # the distinct rows in order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    device = next(iter(inputs.values())).device
    first_rows = torch.from_numpy(first[order]).to(device)
    inverse_rows = torch.from_numpy(rank[inverse.reshape(n)]).to(device)
    return {k: v.index_select(0, first_rows) for k, v in inputs.items()}, inverse_rows
