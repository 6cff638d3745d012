"""`SmallPolicyConfig`: the shape of a `SmallPolicy` (its own module: the policy and its `UIEncoder` both read it)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, get_args

from pydantic import Field

from android_gym.config_model import ConfigModel
from distrl_agent.errors import ConfigError

CriticEncoder = Literal["separate", "detached", "shared"]
CRITIC_ENCODERS: tuple[str, ...] = get_args(CriticEncoder)
"""`SmallPolicyConfig.critic_encoder` choices."""


class SmallPolicyConfig(ConfigModel):
    """Shape of a `SmallPolicy`; two policies exchange weights only if their configs match.

    Attributes:
        vocab_size: hashed word ids (8192: few collisions among a few thousand distinct UI/goal words, 0.5M params).
        max_goal_words: G, goal words kept (24 covers AitW/AndroidWorld goals; a training config raises it to its
            suite's longest goal unless set: World's chains reach 52).
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
        declare: whether the policy may declare the task done with an answer (mode ANSWER: an element's text) or
            impossible (IMPOSSIBLE). Off, both modes are masked, so that exploration never ends an episode early on a
            suite whose tasks are all solved by the state; a training config turns it on by itself for a suite with
            "answer" or "infeasible" templates (World) unless it is set.
    """

    error_type: ClassVar[type[Exception]] = ConfigError

    vocab_size: Annotated[int, Field(ge=2)] = 8192  # id 0 is padding
    max_goal_words: Annotated[int, Field(ge=1)] = 24
    max_label_words: Annotated[int, Field(ge=1)] = 8
    max_span_length: Annotated[int, Field(ge=1)] = 8
    word_dim: Annotated[int, Field(ge=1)] = 64
    hidden_dim: Annotated[int, Field(ge=1)] = 128
    class_dim: Annotated[int, Field(ge=1)] = 16
    critic_encoder: CriticEncoder = "separate"
    word_affinity: bool = True
    declare: bool = False
