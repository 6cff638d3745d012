"""`policies.packing`: layers on the real rows of a padded batch give what the padded computation gives there."""

from __future__ import annotations

import torch

from distrl_agent.policies.layers import mlp
from distrl_agent.policies.packing import head_with_context


def test_head_with_context_equals_the_head_over_the_concatenation_on_real_items() -> None:
    """The split first layer, W [x; s] + b = W_x x + (W_s s + b), gives the padded head's logits on real items, 0 on
    padding, and the same gradients to every weight."""  # noqa: D205, D209
    torch.manual_seed(0)
    head, items, context = mlp(5 + 3, 7, 1), torch.randn(4, 6, 5), torch.randn(4, 3)
    mask = torch.rand(4, 6) > 0.4
    mask[0] = False  # a row without any real item
    packed = head_with_context(head, items, context, mask)
    padded = head(torch.cat([items, context[:, None].expand(-1, 6, -1)], -1)).squeeze(-1)
    torch.testing.assert_close(packed[mask], padded[mask])
    assert torch.equal(packed[~mask], torch.zeros_like(packed[~mask]))
    grads = [torch.autograd.grad(out[mask].square().sum(), list(head.parameters())) for out in (packed, padded)]
    for got, want in zip(*grads, strict=True):
        torch.testing.assert_close(got, want)

