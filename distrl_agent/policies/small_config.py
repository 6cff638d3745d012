"""`SmallPolicyConfig`: the shape of a `SmallPolicy` (its own module: the policy and its `UIEncoder` both read it)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal, get_args

from pydantic import Field, model_validator

from android_gym.config_model import ConfigModel, FieldError
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
        copy_from_screen: TYPE may also type a text read from the screen (issue 50): the action key `type_source`
            says whether TYPE types a goal span, an on-screen element's text (`element`), or, with memory, a text
            remembered from an earlier screen of the episode (`memory_slot`). Off (default) the action keys, the
            weights and the outputs are those of a policy without it; a training config turns it on by itself for a
            suite whose experts type text that is not in the goal (World: 21 of its 85 typing templates) unless set.
        memory_steps: k, the last k actions of the episode (mode, and the words of the element acted on or of the
            text typed) that the state reads, and with them the texts seen on earlier screens (`memory_texts`);
            0 (default) is no memory. `observe` writes them into the observation (`episode_memory`), so the learner
            re-encodes exactly what the worker acted on. A training config sets 8 for World (chains of 19 steps on
            average, whose screen alone often does not say which sub-goal is done) unless set.
        memory_texts: M, distinct texts of non-clickable elements remembered from earlier screens, most recent first
            (used only with `memory_steps`). 64 because on World's train split the texts its experts type from an
            earlier screen were within the 64 most recent in 26 of 28 cases (16: 1, 32: 12).

    Every width and count is bounded above as well as below, and checked before anything is built, because a config
    also arrives inside a checkpoint's learner.json, which `distrl eval` builds a policy from (issue 43: a
    `vocab_size` of 1e8 asked for 25.6 GB). Each bound is far above any use, and together they cap a policy at
    about 1 GB of float32 weights (`MAX_EMBEDDING_ENTRIES` bounds the largest table); the reason for each is beside
    it.
    """

    error_type: ClassVar[type[Exception]] = ConfigError

    # 2**20 hashed ids: 128x the default, whose collisions among a few thousand UI words are already rare.
    vocab_size: Annotated[int, Field(ge=2, le=2**20)] = 8192  # id 0 is padding
    # 512 goal words: 10x the longest goal of any suite (World's 52); sizes G-long arrays per step.
    max_goal_words: Annotated[int, Field(ge=1, le=512)] = 24
    # 64 words per label: `element_text` holds 32 bytes, so at most 16 words; sizes K x W arrays per screen.
    max_label_words: Annotated[int, Field(ge=1, le=64)] = 8
    # 512: a span cannot be longer than the goal (`max_goal_words`' bound).
    max_span_length: Annotated[int, Field(ge=1, le=512)] = 8
    # 1024 / 2048 / 256: 16x the defaults; the widest layers then hold ~50M weights per encoder.
    word_dim: Annotated[int, Field(ge=1, le=1024)] = 64
    hidden_dim: Annotated[int, Field(ge=1, le=2048)] = 128
    class_dim: Annotated[int, Field(ge=1, le=256)] = 16
    critic_encoder: CriticEncoder = "separate"
    word_affinity: bool = True
    declare: bool = False
    copy_from_screen: bool = False
    # 64 actions: 3x World's mean chain (19 steps); sizes a k x element_text_len array per stored step.
    memory_steps: Annotated[int, Field(ge=0, le=64)] = 0
    # 512 texts: 8x the default; sizes an M x element_text_len array per stored step.
    memory_texts: Annotated[int, Field(ge=1, le=512)] = 64

    @model_validator(mode="after")
    def _check_embedding(self) -> SmallPolicyConfig:
        if self.vocab_size * self.word_dim > MAX_EMBEDDING_ENTRIES:
            raise FieldError("vocab_size", f"at most {MAX_EMBEDDING_ENTRIES:,} // word_dim ({self.word_dim}) = "
                             f"{MAX_EMBEDDING_ENTRIES // self.word_dim:,}, so that the word embedding stays within "
                             f"{MAX_EMBEDDING_ENTRIES * 4 // 2**20} MiB", self.vocab_size)
        return self


MAX_EMBEDDING_ENTRIES = 2**26
"""Largest `vocab_size * word_dim` (256 MiB of float32 per word-embedding table, 128x the default's): the two
bounds alone would allow 4 GiB."""
