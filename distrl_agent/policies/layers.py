"""Small layers the UI encoders share: an MLP, a masked mean and attention pooling over padded rows."""

from __future__ import annotations

import torch
from torch import nn

from distrl_agent.policies.factorised import masked_log_softmax


def mlp(*sizes: int) -> nn.Sequential:
    """Linear layers of the given widths with ReLU between them (none after the last)."""
    layers: list[nn.Module] = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


def masked_mean(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Mean of x (B, N, D) over the rows where mask (B, N) is True; zeros when none is."""
    m = mask.to(x.dtype).unsqueeze(-1)
    return (x * m).sum(1) / m.sum(1).clamp(min=1.0)


def attention_pool(x: torch.Tensor, scores: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Softmax(scores)-weighted sum of x (B, N, D) over valid rows; zeros when no row is valid."""
    weights = masked_log_softmax(scores, mask).exp() * mask.any(1, keepdim=True).to(x.dtype)
    return (weights.unsqueeze(-1) * x).sum(1)
