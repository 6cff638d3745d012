"""`SmallPolicyConfig`: the shape of a `SmallPolicy` (its own module: the policy and its `UIEncoder` both read it)."""

from __future__ import annotations

from dataclasses import dataclass

from distrl_agent.errors import ConfigError

CRITIC_ENCODERS = ("separate", "detached", "shared")
"""`SmallPolicyConfig.critic_encoder` choices."""


@dataclass(frozen=True)
class SmallPolicyConfig:
    """Shape of a `SmallPolicy`; two policies exchange weights only if their configs match.

    Attributes:
        vocab_size: hashed word ids (8192: few collisions among a few thousand distinct UI/goal words, 0.5M params).
        max_goal_words: G, goal words kept (24 covers AitW/AndroidWorld goals).
        max_label_words: W, words kept per element label (8: labels are short; `element_text` holds 32 bytes).
        max_span_length: L, longest TYPE span in goal words (8: search queries, names, addresses).
        word_dim: width of word embeddings and goal-word encodings.
        hidden_dim: d, width of element encodings, the state and the heads (128 keeps a batch of 64 fast on CPU).
        class_dim: width of the element-class embedding.
        critic_encoder: what the critic heads V(s), V(g) read.
            "separate" (default): an encoder of their own, trained only by the critic loss and started as a copy of
            the actor's (`copy_actor_encoder_to_critic`, done after the warm start). The actor's features need only
            rank the elements of a screen; a critic on them (detached) valued "tap Search" above "open Clock" for an
            alarm goal (0.51 vs 0.35 where the truth was 0 vs > 0), so its advantages taught every goal the web
            tasks' first step and A-RIDE unlearned the Settings and Clock tasks.
            "detached": the actor's features, cut from its graph (the critic cannot move the actor's features).
            "shared": the actor's features with critic gradients reaching them (a randomly initialised critic then
            collapsed a warm-started actor from 68% to 12% test success within 20 s in our runs).
        word_affinity: element encodings also read a learned bilinear affinity between the label's words and the
            goal's, so that goals can point at apps and rows that share no word with them ("Set an alarm" -> Clock);
            False keeps exact word matching only.
    """

    vocab_size: int = 8192
    max_goal_words: int = 24
    max_label_words: int = 8
    max_span_length: int = 8
    word_dim: int = 64
    hidden_dim: int = 128
    class_dim: int = 16
    critic_encoder: str = "separate"
    word_affinity: bool = True

    def __post_init__(self) -> None:
        if self.vocab_size < 2:
            raise ConfigError(f"`vocab_size` must be >= 2 (id 0 is padding), got {self.vocab_size}")
        for name in ("max_goal_words", "max_label_words", "max_span_length", "word_dim", "hidden_dim", "class_dim"):
            if getattr(self, name) < 1:
                raise ConfigError(f"`{name}` must be >= 1, got {getattr(self, name)}")
        if self.critic_encoder not in CRITIC_ENCODERS:
            raise ConfigError(f"`critic_encoder` must be one of {list(CRITIC_ENCODERS)}, got {self.critic_encoder!r}")
