"""`TrainConfig`: one frozen tree of every knob of a training run, loaded from YAML with dotted overrides.

Every field is validated when the tree is built, by the one mechanism of both packages (`android_gym.config_model`):
a wrong type or an out-of-range value raises `ConfigError` naming the dotted key (`runtime.workers`), an unknown key
suggests the closest known one. The rule's coefficients and the policy's shape are typed configs too, chosen by
`learner.algorithm` and `policy.kind`, so `to_yaml()` writes every value a run used and loads back to the same tree.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import yaml
from pydantic import Field, field_validator, model_validator

from android_gym.config import EnvConfig, LatencyConfig
from android_gym.config_model import ConfigModel, FieldError, build_field
from android_gym.errors import closest
from android_gym.tasks import suites
from distrl_agent.algorithms.configs import (
    ALGORITHMS,
    RULE_CONFIGS,
    AnyRuleConfig,
    ARideConfig,
    GroupSpec,
    GRPOConfig,
    fixed_conflict,
    rule_config,
)
from distrl_agent.errors import ConfigError
from distrl_agent.policies.custom_config import CustomPolicyConfig
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.policies.vlm_config import VLMPolicyConfig

AtLeastOne = Annotated[int, Field(ge=1)]
NonNegativeInt = Annotated[int, Field(ge=0)]
Seconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]
"""A finite duration > 0, in seconds."""
DEFAULT_ENV_ID = "android_gym/General-v0"


class Section(ConfigModel):
    """Base of the sections: their errors are `distrl_agent.errors.ConfigError`."""

    error_type: ClassVar[type[Exception]] = ConfigError


RUNTIME_ENV_KEYS = ("device", "device_options", "evaluator", "evaluator_options")
"""`env` fields that say where the phones and the judge are, not what the weights learned: a resume may change them."""
MEMORY_KEYS = {"learner": ("micro_batch_size",), "vlm": ("gradient_checkpointing", "max_memory_gib")}
"""Per section, the fields that change how much memory an update takes (or may take), not the update: a resume may
change them (a run that ran out of memory resumes in micro-batches, or under another budget)."""


def paced_phones(env: Mapping[str, Any]) -> bool:
    """Whether an `env` section (as data) plays on phones that take their time: any device but the sim, or the sim
    with delays (a latency preset or latency fields not all zero, at a `latency_time_scale` above 0)."""  # noqa: D205, D209
    if env.get("device", "sim") != "sim":
        return True
    try:
        scale = env.get("latency_time_scale")
        return not LatencyConfig.coerce(env.get("latency", "off"), None if scale is None else float(scale)).is_off
    except (ValueError, TypeError):  # the env section's own check names what is wrong
        return False


class EnvSection(EnvConfig):
    """Which environments the workers run: android_gym's `EnvConfig` (every `gym.make` kwarg), plus how to run them.

    Every field of `android_gym.config.EnvConfig` is a field here, checked by the same code (the device, its options
    and the judge's spec included; nothing connects). The trainer adds or changes:

    Attributes:
        env_id: a registered android_gym id; `suite` follows it (set `task_file` to train on your own task list).
        screenshot_width: 0 here (no screenshots): the small policy reads UI elements only; the VLM policy needs
            pixels, e.g. 128.
        env_processes: run each env in its own process and act on whichever is ready (DistRL's collection); None
            turns it on for phones that take their time (`paced_phones`: every device but the sim, where each step
            waits on the device, and the sim with delays), and off for the instant sim, where processes would only
            add overhead.
        device: the phone of each env: "sim" (a simulated phone per env), or an ADB device spec where `{index}`
            stands for the env's number, e.g. "adb:sim-{index}" (the phones of the sim's ADB front,
            `android-gym serve-adb`). Training envs are numbered 0 .. workers * envs_per_worker - 1 and evaluation
            envs follow them, so no two envs drive one phone; the front (or your device farm) must serve them all.
            Over several hosts, `{slot}` and `{port}` number the envs of each machine instead (`emulator@{port}`:
            the host's own running emulators; `android_gym.devices.host_slots`), and `emulator:<avd>` launches one
            per env on the host the env runs on.
        split: "train" only: the runtime collects on the train split and evaluates on the test split.
    """

    error_type: ClassVar[type[Exception]] = ConfigError

    env_id: str = DEFAULT_ENV_ID
    screenshot_width: int = 0
    env_processes: bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _suite_follows_env_id(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and "suite" not in data:
            suite = registered_suite(data.get("env_id", DEFAULT_ENV_ID))
            if suite is not None:
                return {**data, "suite": suite}
        return data

    @field_validator("env_id")
    @classmethod
    def _registered(cls, env_id: str) -> str:
        import gymnasium as gym

        if registered_suite(env_id) is None and env_id not in gym.registry:
            known = sorted(k for k in gym.registry if k.startswith("android_gym/"))
            close = closest(env_id, known)
            raise ValueError(f"{env_id!r} is not registered{f'; did you mean {close!r}?' if close else ''} "
                             f"Known: {', '.join(known)}")
        return env_id

    @model_validator(mode="after")
    def _trainer_fields(self) -> EnvSection:
        suite = registered_suite(self.env_id)
        if suite is not None and self.suite != suite and self.task_file is None:
            raise FieldError("suite", f"{suite!r}, the suite of `env.env_id` {self.env_id} (choose another env_id)",
                             self.suite)
        if self.split != "train":
            raise FieldError("split", "'train': the runtime collects on train and evaluates on test", self.split)
        return self

    def device_for(self, index: int) -> Any:
        """The device spec of env number `index` (`{index}` in `device` replaced by it).

        >>> EnvSection(device="adb:sim-{index}").device_for(3)
        'adb:sim-3'
        """
        return self.device.replace("{index}", str(index)) if isinstance(self.device, str) else self.device

    def make_kwargs(self, index: int) -> dict[str, Any]:
        """`gym.make` kwargs of env number `index`: every `EnvConfig` field but the split, which the caller gives."""
        kwargs = {name: getattr(self, name) for name in EnvConfig.model_fields if name != "split"}
        return {**kwargs, "device": self.device_for(index)}

    @property
    def uses_processes(self) -> bool:
        """Whether workers run one process per env (see `env_processes`)."""
        if self.env_processes is None:
            return paced_phones({"device": self.device, "latency": self.latency,
                                 "latency_time_scale": self.latency_time_scale})
        return bool(self.env_processes)


def registered_suite(env_id: Any) -> str | None:
    """The suite a registered android_gym id makes (its `suite` kwarg); None for anything else.

    >>> registered_suite("android_gym/WebShop-v0")
    'webshop'
    """
    import gymnasium as gym

    import android_gym  # noqa: F401  (registers the env ids)

    if not isinstance(env_id, str) or env_id not in gym.registry:
        return None
    suite = gym.registry[env_id].kwargs.get("suite")
    return suite if isinstance(suite, str) else None


class LearnerSection(Section):
    """The learner's update loop.

    Attributes:
        algorithm: one of `distrl_agent.algorithms.ALGORITHMS`.
        coefficients: the rule's coefficients, typed by `algorithm` (`distrl_agent/algorithms/configs.py`: e.g.
            {"entropy_coef": 0.01} for A-RIDE); fields left out keep their defaults, and the saved config lists all.
        lr: Adam learning rate (1e-4, the paper's: at 1e-3 and 3e-4 the small policy's success oscillated or
            collapsed in 3-4 minute async runs; at 1e-4 with the staleness cap of 20 it rose steadily).
        lr_final_fraction: the learning rate falls linearly from `lr` to `lr * lr_final_fraction` over the run's
            wall-clock budget (`runtime.minutes`, IMPALA-style annealing; 1.0 keeps it constant). 0.1: late in a
            run, a constant rate let the greedy policy drop 8-18 points at one evaluation (20 min: 89 -> 81%;
            6 min seed 2: 86 -> 68%); annealed, the same seeds ended at 88% and 86% without the drop.
        batch_size: trajectories per update.
        micro_batch_size: trajectories per forward and backward pass (None: the whole batch at once). The batch's
            gradient is accumulated over its micro-batches, each loss weighted by its share of what the rule's loss
            averages over, and the optimiser steps once per batch: the same update as the whole batch (up to float
            rounding) in the memory of one micro-batch. Rules whose loss reads the whole batch refuse it (DigiRL's
            top fraction, PPO's standardised advantages, PPO/GRPO at ratio_level "token").
        updates_per_round: updates after each ingest of new trajectories (then weights are published); an update is
            one sampled batch, on which PPO takes `epochs` gradient steps (each a version), the other rules one.
        max_grad_norm: gradient clipping (L2 norm).
        replay_capacity_steps: replay size in steps (paper: 10,000).
        alpha: priority exponent of the prioritised replay (0: uniform sampling).
        beta_start, beta_end: the importance-sampling correction's exponent goes from `beta_start` to `beta_end`
            over `beta_anneal_updates` updates (1: full correction of the prioritised sampling's bias).
        beta_anneal_updates: updates over which `beta_start` anneals to `beta_end`.
        max_staleness: drop trajectories whose policy lags the learner by more versions (updates) than this
            (20: the sim outruns the learner ~10x, and much staler data destabilised the actor). On paced phones
            the default is no cap (`PACED_PHONE_BOUNDS`): there 20 versions are seconds of learning, the cap drops
            ~96% of what is collected and cost A-RIDE 13.7 points (ALGORITHM.md, the paper's regime).
        refresh_every_updates: recompute every priority this often (they go stale as pi moves).
        min_replay_trajectories: updates start once the replay holds this many.
        critic_warmup_updates: the first updates train only the critic (actor loss weight 0), so that a critic
            initialised at random does not feed noise advantages to a warm-started actor.
        max_samples_per_insert: a rate limiter, as Reverb's sample-to-insert ratio: the learner makes an update
            only while the trajectories it has sampled, this batch included, stay within this many per trajectory
            inserted, and otherwise waits for collection (counted: `learner/rate_limited`). 4 (default): on the
            instant phone the learner would otherwise draw each trajectory ~3 times before the staleness cap drops
            it, and drop 97-99% of what is collected (docs/TRAINING.md, "How stale the data may be"); 0 turns it
            off, as in the paper, where the learner trains whenever it can (the default on paced phones:
            `PACED_PHONE_BOUNDS`).
        max_times_sampled: retire a trajectory from the replay once drawn this many times (Reverb's
            `max_times_sampled`, `replay/retired_sampled`), so that used data leaves as used rather than through the
            staleness cap; 4 (default), with `max_samples_per_insert` 4: each trajectory is drawn about 4 times and
            then leaves; None keeps it until the cap or eviction removes it (the default on paced phones).
    """

    algorithm: str = "a-ride"
    coefficients: AnyRuleConfig = Field(default_factory=ARideConfig)
    lr: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1e-4
    lr_final_fraction: Annotated[float, Field(ge=0, le=1)] = 0.1
    batch_size: AtLeastOne = 32
    micro_batch_size: AtLeastOne | None = None
    updates_per_round: AtLeastOne = 4
    max_grad_norm: Annotated[float, Field(gt=0, allow_inf_nan=False)] = 1.0
    replay_capacity_steps: AtLeastOne = 10_000
    alpha: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 0.6
    beta_start: Annotated[float, Field(ge=0, le=1)] = 0.4
    beta_end: Annotated[float, Field(ge=0, le=1)] = 1.0
    beta_anneal_updates: AtLeastOne = 2_000
    max_staleness: NonNegativeInt = 20
    refresh_every_updates: AtLeastOne = 200
    min_replay_trajectories: AtLeastOne = 32
    critic_warmup_updates: NonNegativeInt = 100
    max_samples_per_insert: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 4.0
    max_times_sampled: AtLeastOne | None = 4

    @model_validator(mode="before")
    @classmethod
    def _typed_coefficients(cls, data: Any) -> Any:
        """`coefficients` become the config of the rule `algorithm` names, with the values that name fixes."""
        if not isinstance(data, Mapping):
            return data
        name = data.get("algorithm", "a-ride")
        if not isinstance(name, str) or name not in RULE_CONFIGS:
            close = closest(str(name), ALGORITHMS)
            raise FieldError("algorithm", f"one of {', '.join(ALGORITHMS)}"
                             f"{f' (did you mean {close!r}?)' if close else ''}", name)
        rule_class, fixed = RULE_CONFIGS[name]
        values = data.get("coefficients")
        config = build_field(rule_class, values, "coefficients")
        conflict = fixed_conflict(name, values)
        if conflict is not None:
            key, value, given = conflict
            raise FieldError(f"coefficients.{key}", f"{value!r}, as the rule `{name}` fixes it", given)
        return {**data, "coefficients": config.replace(**fixed) if fixed else config}

    @model_validator(mode="after")
    def _micro_batches_split_the_loss(self) -> LearnerSection:
        if self.micro_batch_size is not None and (why := self.coefficients.micro_batch_refusal()) is not None:
            raise FieldError("micro_batch_size", f"unset for {self.algorithm}: {why}", self.micro_batch_size)
        return self

    def versions_per_update(self) -> int:
        """E: the weights versions one update makes (PPO's `epochs` gradient steps on its batch; 1 for the others)."""
        return int(getattr(self.coefficients, "epochs", 1))

    def consumed_per_update(self) -> float:
        """R: trajectories the learner consumes per update: `batch_size`, divided by `max_samples_per_insert` when that
        rate limit is on (each trajectory is then drawn that many times)."""  # noqa: D205, D209
        reuse = self.max_samples_per_insert if self.max_samples_per_insert > 0 else 1.0
        return self.batch_size / reuse

    @property
    def group_spec(self) -> GroupSpec | None:
        """How the workers play groups for this algorithm (GRPO's G and length penalty); None for the other rules."""
        return self.coefficients.groups if isinstance(self.coefficients, GRPOConfig) else None


class RuntimeSection(Section):
    """How collection runs.

    Attributes:
        runtime: "local" (processes on this machine) or "ray" (actors on a Ray cluster; `pip install ".[ray]"`).
        address: Ray cluster to join ("auto": the one `ray start` made on this machine, "host:port": a head node);
            None starts a private single-machine cluster.
        connect_timeout_s: seconds to wait for the Ray address to answer before failing.
        workers: rollout workers (default: cores - 1, at least 1); more than the cores warns and still runs.
        envs_per_worker: environments each worker steps in one batch.
        worker_cpus: CPUs each Ray worker actor reserves (the local runtime ignores it).
        worker_resources: custom Ray resources each worker actor requires, e.g. {"emulator": 1} so workers land on
            hosts started with `ray start --resources='{"emulator": 4}'` (the local runtime ignores it).
        max_worker_restarts: restarts of one worker (after a crash or a kill) before the run fails.
        worker_buffer_trajectories: finished trajectories a worker holds while the learner is not reading; beyond
            it the oldest is dropped and counted (`runtime/dropped_trajectories`).
        max_offpolicyness: η, the producer-side staleness bound (AReaL's `max_head_offpolicyness`): a worker starts an
            episode only while the fleet's admitted episodes stay within what the learner consumes within η updates
            of the weights it holds, and otherwise idles until newer weights come (`runtime/admission.py`,
            `runtime/admission_waits`). An update is one sampled batch, one version for every rule but PPO, whose
            `epochs` steps on it are one update, as AReaL counts them. 3 (default): with 4 draws per insert, the
            fleet's first allowance is one batch, and the data the learner trains on lags it by a few updates;
            None: off, workers start episodes whenever a slot is free and the learner's `max_staleness` alone
            bounds the data's age (as the paper runs; the default on paced phones, `PACED_PHONE_BOUNDS`). η times the
            versions of an update must not exceed `learner.max_staleness`; ignored in sync rounds, which bound
            themselves.
        fault_prefixes: when a device fault cuts an episode, ship the steps before the faulted one as a truncated
            trajectory that bootstraps from the last state the phone reported cleanly (`runtime/fault_prefixes`),
            instead of discarding the whole episode. The faulted step itself never ships: whether its action reached
            the phone is unknown. Only for rules that bootstrap truncated episodes (`a-ride*`, `ppo`).
        inference: where the workers' actions are computed. "worker": each worker process holds its own copy of the
            policy (the small policy: a copy is a few MB, and the workers' cores act in parallel); "host": one
            inference service per host holds the one copy and answers every worker's requests in batches
            (`runtime/inference.py`; a VLM: N workers would otherwise load N copies of the model); "auto"
            (default): "host" for the VLM policy, "worker" otherwise. On Ray, "host" means one service actor per node
            that runs workers.
        sync: DigiRL's synchronous protocol (all workers finish a round with the same weights, then the learner
            trains, then weights go out).
        sync_lockstep: in sync rounds, workers step their environments in lock-step as DigiRL's collector does
            (one batched action, then wait for every environment's step); False lets each environment play its
            round at its own pace, with a barrier only at the round's end. Matters only with env processes
            (slow devices); the in-process worker is lock-step anyway.
        episodes_per_round: episodes each worker plays per round in sync mode.
        minutes: wall-clock budget of the run, in minutes (counted across resumes).
        max_updates: also stop once the learner has made this many updates (None: no cap; counted across resumes).
        max_env_steps: also stop once the workers have taken this many environment steps (None: no cap; counted
            across resumes). The run ends at whichever budget is spent first, and the learning rate anneals with
            the largest spent fraction of the three.
        eval_every_s: seconds between evaluations on the test split.
        eval_splits: the splits each periodic evaluation plays, "test" among them (the progress bar's figure); the
            suite's unseen splits besides it (World: "unseen_templates", "unseen_apps") make a learning curve per
            level of generalisation (each split costs `eval_episodes` more greedy episodes per evaluation).
        eval_episodes: episodes per evaluation (and in the final summary, per split).
        eval_deferred: each periodic evaluation keeps a copy of the weights, and the copies are played after the
            budget is spent, so that the learning curve takes no training time. Inline (False), the learner waits for
            each evaluation, and so do the workers of a sync round, while asynchronous workers keep collecting: at
            equal wall-clock that favours the asynchronous protocol (World: 3 splits x 100 episodes, ~25 s a point
            on 2 cores, a third of a 10-minute run at 8 points). Deferred, each point holds a copy of the trainable
            weights until the end (the small policy's: ~7 MB; a VLM's adapters), the progress bar shows no test
            figure until then, and a run that crashes loses the points it had not played.
        checkpoint_every_s: seconds between checkpoints during training (one is also written at the end).
        warm_start_episodes: noisy expert demonstrations for behaviour cloning before RL (0 = cold start).
        warm_start_noise: probability a demonstration step is replaced by a random action.
        warm_start_labels: what a random step teaches: "taken" (the random action itself: an imperfect clone) or
            "expert" (the expert's action in that state: the noise only shows recoveries, DART).
        warm_start_updates: behaviour-cloning gradient steps.
        warm_start_anneal: the cloning learning rate falls linearly to 0 over the updates (the last steps average
            their batches' noise instead of following it); off, it stays constant. 480 annealed updates (default
            since 2026-12-07): the clone of 120 constant-rate updates swung with its seed and with any change to the
            phone; measured over seeds 0-4 (100 greedy test episodes each): 120 constant 12 / 30 / 15 / 16 / 14%,
            480 constant 53 / 43 / 35 / 44 / 20%, 480 annealed 58 / 56 / 60 / 49 / 48% (docs/TRAINING.md).
        warm_start_from: start from these policy weights instead of cloning (the `warm_start_*` settings are then
            unused): a `.safetensors` file (every run that clones saves its clone as `<run_dir>/warm_start.safetensors`,
            so World's minutes of cloning are spent once), or a run folder (its newest checkpoint's policy: train on
            from another run's result with a fresh optimizer and replay). The weights must fit `policy`.
        seed: seeds workers, learner and evaluation.
    """

    runtime: Literal["local", "ray"] = "local"
    address: str | None = None
    connect_timeout_s: Seconds = 30.0
    workers: AtLeastOne | None = None
    envs_per_worker: AtLeastOne = 8
    worker_cpus: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 1.0
    worker_resources: dict[str, Annotated[float, Field(gt=0, allow_inf_nan=False)]] = Field(default_factory=dict)
    max_worker_restarts: NonNegativeInt = 20
    worker_buffer_trajectories: AtLeastOne = 256
    max_offpolicyness: AtLeastOne | None = 3
    fault_prefixes: bool = False
    inference: Literal["auto", "worker", "host"] = "auto"
    sync: bool = False
    sync_lockstep: bool = True
    episodes_per_round: AtLeastOne = 16
    minutes: Annotated[float, Field(gt=0)] = 20.0
    max_updates: AtLeastOne | None = None
    max_env_steps: AtLeastOne | None = None
    eval_every_s: Annotated[float, Field(gt=0)] = 120.0
    eval_splits: tuple[str, ...] = ("test",)
    eval_episodes: AtLeastOne = 100
    eval_deferred: bool = False
    checkpoint_every_s: Annotated[float, Field(gt=0)] = 300.0
    warm_start_episodes: NonNegativeInt = 400
    warm_start_noise: Annotated[float, Field(ge=0, le=1)] = 0.7
    warm_start_labels: Literal["taken", "expert"] = "taken"
    warm_start_updates: NonNegativeInt = 480
    warm_start_anneal: bool = True
    warm_start_from: str | None = None
    seed: NonNegativeInt = 0

    @field_validator("warm_start_from")
    @classmethod
    def _resolved_start(cls, value: str | None) -> str | None:
        # resolved when the user gives it: `runs/latest/...` must name the earlier run, not the one this run makes
        return None if value is None else str(Path(os.fspath(value)).resolve())

    def worker_count(self) -> int:
        """`workers`, or the cores minus one for the learner (at least one)."""
        return self.workers or max(1, (os.cpu_count() or 2) - 1)


class PolicySection(Section):
    """Which policy the workers act with and the learner trains (`distrl_agent.policies.build`).

    Attributes:
        kind: "small" (the CPU-trainable UI-element policy), "vlm" (the AutoUI-style `transformers` policy that
            reads screenshots and writes action text; needs `vlm.model_path` and `env.screenshot_width` > 0), or
            "custom" (your own `Policy` subclass, named in `custom.target`).
        small: the small policy's shape (`SmallPolicyConfig`; fields left out keep their defaults).
        vlm: the VLM policy's config (`VLMPolicyConfig`, `model_path` required: a local checkpoint directory with its
            processor; nothing is downloaded); None while `kind` is small.
        custom: your policy (`CustomPolicyConfig`: `target` "<module>:<class>" and its `config` fields); None unless
            `kind` is custom. See `distrl_agent/policies/custom.py`.
    """

    kind: Literal["small", "vlm", "custom"] = "small"
    small: SmallPolicyConfig = Field(default_factory=SmallPolicyConfig)
    vlm: VLMPolicyConfig | None = None
    custom: CustomPolicyConfig | None = None

    @model_validator(mode="before")
    @classmethod
    def _empty_vlm_is_none(cls, data: Any) -> Any:
        # configs written before the sections were typed hold `vlm: {}` for the small policy
        if isinstance(data, Mapping) and data.get("vlm") == {}:
            return {**data, "vlm": None}
        return data

    @model_validator(mode="after")
    def _chosen_kind_is_whole(self) -> PolicySection:
        if self.kind == "vlm" and self.vlm is None:
            raise FieldError("vlm.model_path", "a local checkpoint directory with its processor, since `policy.kind` "
                             "is vlm", None)
        if self.kind == "custom" and self.custom is None:
            raise FieldError("custom.target", "your Policy class as '<module>:<class>', since `policy.kind` is custom",
                             None)
        return self

    def policy_config(self) -> SmallPolicyConfig | VLMPolicyConfig | CustomPolicyConfig:
        """The `SmallPolicyConfig`, `VLMPolicyConfig` or `CustomPolicyConfig` of the chosen kind."""
        if self.kind == "vlm" and self.vlm is not None:
            return self.vlm
        if self.kind == "custom" and self.custom is not None:
            return self.custom
        return self.small


SUITE_WARM_STARTS: dict[str, dict[str, Any]] = {
    "world": {"warm_start_episodes": 4000, "warm_start_noise": 0.0, "warm_start_updates": 4000,
              "warm_start_anneal": True},
}
"""`runtime` warm-start fields a suite needs instead of the defaults (set in a config, they win).

World: its chains run 16 steps on average, so a clone must get nearly every step right, and on unseen goals that
takes many clean demonstrations rather than noisy ones. Measured (session 40, 100 held-out expert episodes of the
test split, greedy): 800 episodes with 30% random steps and 1,500 updates (the earlier setting) got 69% of held-out
steps right and 1% test success; 4,000 clean episodes (43,000 steps, under a minute to collect) and 4,000 annealed
updates get 84% of the steps right and 19% / 5% / 1% success on unseen instances / templates / apps (the
generalisation section's evaluation), under its 40% ceiling: headroom for RL. About 8 minutes on 2 cores."""


SUITE_COEFFICIENTS: dict[str, dict[str, dict[str, Any]]] = {
    "world": {"a-ride": {"kl_coef": 0.1}},
}
"""Rule coefficients a suite needs instead of the rule's defaults, for the small policy (set in a config, they win).

World, A-RIDE: a KL penalty to the warm start (`kl_coef` 0.1; the paper has none, and elsewhere the default stays 0).
Measured (generalisation section, 32 emulator-paced phones, 3 seeds x 10 minutes, docs/benchmarks): without it the
policy drifts from its clone (entropy 0.34 -> 0.54 nats) and falls from 18.0 to 8.7% on unseen instances; with it
it holds, 19.3 +- 2.9% (+1.3 points over the warm start [-0.1, +2.8]; 10.7 above A-RIDE without it [-0.5, +21.9]
and 3.0 above it on unseen templates [+0.5, +5.5]). Small policy only: for a VLM the reference is a second copy of
its weights, a memory cost left to the user's choice."""


PACED_PHONE_BOUNDS: dict[str, dict[str, Any]] = {
    "learner": {"max_staleness": 1_000_000, "max_samples_per_insert": 0.0, "max_times_sampled": None},
    "runtime": {"max_offpolicyness": None},
}
"""The data bounds on phones that take their time (a latency preset, an emulator, a phone over ADB), instead of the
instant phone's defaults (set in a config, they win): no staleness cap, no reuse limits, no admission, as the paper
runs. There collection is the bottleneck, and the instant phone's bounds starve the learner. Measured (slow-device
section, 32 emulator-paced phones, 3 seeds x 10 minutes, docs/benchmarks): the cap of 20 versions drops ~96% of what
is collected and cost A-RIDE 13.7 points (paired 95% interval [-24.9, -2.5]); admission and the reuse limits left
the learner idle 98% of the time, 65 updates against 2,003, and every seed lower: 42.0 +- 25.4% against
70.7 +- 2.3% test success (paired -28.7 [-95.3, +38.0], not separable over 3 seeds)."""


@functools.cache
def longest_goal_words(suite: str) -> int:
    """The most words (as the small policy splits them) in a goal of `suite`, over every split it has."""
    from distrl_agent.policies.text import words

    return max(len(words(task.goal)) for split in suites.splits_of(suite) for task in suites.tasks(suite, split))


class TrainConfig(Section):
    """The whole run: env, policy, learner, runtime, and where outputs go.

    Attributes:
        run_dir: the run's folder; None (default) gives each run a new one, `runs/<date>-<time>-<algorithm>-<suite>`,
            with `runs/latest` pointing at the newest. A folder named here must be empty unless the run resumes it
            or overwrites it (`distrl_agent.runtime.run_dir`).
    """

    env: EnvSection = Field(default_factory=EnvSection)
    policy: PolicySection = Field(default_factory=PolicySection)
    learner: LearnerSection = Field(default_factory=LearnerSection)
    runtime: RuntimeSection = Field(default_factory=RuntimeSection)
    run_dir: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _fit_to_suite(cls, data: Any) -> Any:
        """Fit the run to its suite wherever the config does not say otherwise: the small policy's ANSWER and
        IMPOSSIBLE modes for a suite with such tasks (`policy.small.declare`), copying text from the screen and a
        memory of the episode for a suite with cross-app templates, which carry text from one app to another
        (`policy.small.copy_from_screen`, `memory_steps` = 8; issue 50), room for its longest goal
        (`policy.small.max_goal_words`), the suite's warm start (`SUITE_WARM_STARTS`) and the small policy's rule
        coefficients (`SUITE_COEFFICIENTS`)."""  # noqa: D205, D209
        if not isinstance(data, Mapping):
            return data
        env, policy = data.get("env") or {}, data.get("policy") or {}
        if isinstance(env, Mapping):
            suite = env.get("suite") or registered_suite(env.get("env_id", DEFAULT_ENV_ID)) or "general"
        else:
            suite = getattr(env, "suite", "general")
        suite = str(suite)
        if suite not in suites.suite_names():
            return data
        out = dict(data)
        runtime = data.get("runtime") or {}
        if isinstance(runtime, Mapping) and (suited := SUITE_WARM_STARTS.get(suite)):
            out["runtime"] = {**suited, **runtime}  # what the config sets wins
        learner = data.get("learner") or {}
        if isinstance(learner, Mapping) and isinstance(policy, Mapping) and policy.get("kind", "small") == "small":
            given = learner.get("coefficients") or {}
            suited = SUITE_COEFFICIENTS.get(suite, {}).get(str(learner.get("algorithm", "a-ride")))
            if suited and isinstance(given, Mapping):
                out["learner"] = {**learner, "coefficients": {**suited, **given}}
        small = (policy.get("small") or {}) if isinstance(policy, Mapping) else None
        if isinstance(small, Mapping):
            fitted = dict(small)
            if "declare" not in small and suites.declares(suite):
                fitted["declare"] = True
            if any("cross-app" in t.tags for t in suites.templates(suite)):
                fitted.setdefault("copy_from_screen", True)
                fitted.setdefault("memory_steps", 8)
            if "max_goal_words" not in small:  # the whole goal, where goals outgrow the default (World's chains)
                default = SmallPolicyConfig.model_fields["max_goal_words"].default
                fitted["max_goal_words"] = max(default, longest_goal_words(suite))
            if fitted != small:
                out["policy"] = {**policy, "small": fitted}
        return out

    @model_validator(mode="before")
    @classmethod
    def _fit_to_device_pace(cls, data: Any) -> Any:
        """On phones that take their time, the data bounds of `PACED_PHONE_BOUNDS` wherever the config does not set
        them (the defaults are the instant phone's)."""  # noqa: D205, D209
        if not isinstance(data, Mapping) or not isinstance(env := data.get("env") or {}, Mapping) \
                or not paced_phones(env):
            return data
        out = dict(data)
        for section, bounds in PACED_PHONE_BOUNDS.items():
            given = data.get(section) or {}
            if isinstance(given, Mapping):
                out[section] = {**{k: v for k, v in bounds.items() if k not in given}, **given}
        return out

    @model_validator(mode="after")
    def _consistent(self) -> TrainConfig:
        if self.policy.kind == "vlm" and self.env.screenshot_width == 0:
            raise ConfigError("`policy.kind=vlm` reads screenshots: set `env.screenshot_width` (e.g. 128)")
        groups = self.learner.group_spec
        if groups is not None and self.runtime.sync and self.runtime.episodes_per_round % groups.size:
            raise ConfigError(f"`runtime.episodes_per_round` ({self.runtime.episodes_per_round}) must be a multiple of "
                              f"the group size {groups.size} (`learner.coefficients.group_size`), or rounds end with "
                              "groups cut short")
        if (eta := self.runtime.max_offpolicyness) is not None and not self.runtime.sync:
            self._admission_can_start(eta)
        self._check_eval_splits()
        if self.runtime.fault_prefixes and not self.learner.coefficients.bootstraps_truncation:
            raise ConfigError(f"`runtime.fault_prefixes` ships episodes cut by a fault, which "
                              f"`{self.learner.algorithm}` would score as failures (it reads whole episodes); use it "
                              "with a-ride* or ppo")
        return self

    def _check_eval_splits(self) -> None:
        """`runtime.eval_splits` holds "test" once, and only splits the suite has."""
        chosen = self.runtime.eval_splits
        if "test" not in chosen or len(set(chosen)) != len(chosen):
            raise ConfigError(f"`runtime.eval_splits` ({list(chosen)}) must hold \"test\" (the curve's split), each "
                              "split at most once")
        if self.env.task_file is None and self.env.suite in suites.suite_names():
            known = suites.splits_of(self.env.suite)
            if unknown := [split for split in chosen if split not in known]:
                raise ConfigError(f"`runtime.eval_splits` names {unknown}, not splits of suite {self.env.suite!r}; "
                                  f"its splits: {list(known)}")

    def inference_on_host(self) -> bool:
        """Whether the workers ask one inference service per host (`runtime.inference`, "auto" resolved)."""
        return self.runtime.inference == "host" or (self.runtime.inference == "auto" and self.policy.kind == "vlm")

    def _admission_can_start(self, eta: int) -> None:
        """Admission's bound must sit under the learner's cap and let the first update happen (`runtime/admission`)."""
        per_update, versions = self.learner.consumed_per_update(), self.learner.versions_per_update()
        if self.learner.max_staleness < eta * versions:
            span = "" if versions == 1 else f" updates of {versions} versions each"
            raise ConfigError(f"`learner.max_staleness` ({self.learner.max_staleness}) is below "
                              f"`runtime.max_offpolicyness` ({eta}){span}: the learner would drop data admission let "
                              "in; raise the cap or lower η")
        first = (eta + 1) * per_update
        if first < self.learner.min_replay_trajectories:
            need = math.ceil(self.learner.min_replay_trajectories / per_update) - 1
            raise ConfigError(f"`runtime.max_offpolicyness` ({eta}) admits {first:g} trajectories before the first "
                              f"update, fewer than `learner.min_replay_trajectories` "
                              f"({self.learner.min_replay_trajectories}): the learner would never start; "
                              f"use η >= {need}")

    def to_dict(self) -> dict[str, Any]:
        """Every value as plain data (for YAML and JSON)."""
        return self.to_data()

    def to_yaml(self) -> str:
        """The resolved config as YAML, every value included, loadable by `load_config` to an equal config."""
        return yaml.safe_dump(self.to_dict(), sort_keys=False)

    def state_keys(self) -> dict[str, Any]:
        """The flattened fields a learner checkpoint depends on (env, policy, learner; the runtime may change)."""
        data = self.to_dict()
        data["env"] = {k: v for k, v in data["env"].items() if k not in RUNTIME_ENV_KEYS}
        for key in MEMORY_KEYS["learner"]:
            data["learner"].pop(key)
        return _without_memory_keys(_flatten({key: data[key] for key in ("env", "policy", "learner")}))


def load_config(path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()) -> TrainConfig:
    """A `TrainConfig` from an optional YAML file and `key.sub=value` overrides (values parsed as YAML).

    YAML is read with `yaml.safe_load` (no `!!python/...` tags), and the loaded tree is bounded before it is
    used: more than `MAX_CONFIG_VALUES` values once aliases are expanded (an alias bomb, a recursive anchor) or
    deeper than `MAX_CONFIG_DEPTH` is refused.

    Raises:
        ConfigError: unknown keys (with the closest name), bad types or values (naming the dotted key), an unreadable
            or non-UTF-8 file, YAML that does not parse (or is too large or deep, as above); never another error.

    >>> load_config(overrides=["learner.algorithm=digirl", "runtime.workers=2"]).runtime.workers
    2
    """
    data = read_config_file(path) if path is not None else {}
    apply_overrides(data, overrides)
    return TrainConfig.from_data(data)


def read_config_file(path: str | Path) -> dict[str, Any]:
    """The mapping a YAML config file holds (an empty file: {}), read safely and bounded (see `load_config`).

    Raises:
        ConfigError: the file is unreadable, not UTF-8, not YAML, too large or deep, or not a mapping.
    """
    try:
        data = _safe_load(Path(path).read_text()) or {}
    except (OSError, UnicodeDecodeError, *_YAML_ERRORS) as e:
        raise ConfigError(f"cannot read config file {path}: {_one_line(e)}") from e
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path} must hold a mapping, got {type(data).__name__}")
    _check_size(data)
    return data


def override_key(item: str) -> str:
    """The dotted key of an override `section.key=value`.

    >>> override_key("env.evaluator=http://localhost:8000/v1")
    'env.evaluator'

    Raises:
        ConfigError: `item` has no `=` or no key.
    """
    key, sep, _ = item.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override {item!r} must look like section.key=value")
    return key.strip()


def apply_overrides(data: dict[str, Any], overrides: list[str] | tuple[str, ...]) -> None:
    """Set each `section.key=value` of `overrides` in `data` (values parsed as YAML), in order.

    The coefficients belong to their rule: an override that changes `learner.algorithm` drops the coefficients
    `data` held for the old rule (the new rule starts from its defaults, and overrides of its coefficients apply).

    >>> data = {"learner": {"algorithm": "a-ride", "coefficients": {"rho_bar_max": 1.0}}}
    >>> apply_overrides(data, ["learner.algorithm=ppo", "learner.coefficients.epochs=2"])
    >>> data["learner"]
    {'algorithm': 'ppo', 'coefficients': {'epochs': 2}}

    Raises:
        ConfigError: an override without `=`, through a key that is not a section, or with invalid YAML.
    """
    for item in overrides:
        if override_key(item) == "learner.algorithm":
            _drop_other_rules_coefficients(data, item)
        parts = override_key(item).split(".")
        node = data
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"override {item!r}: `{part}` is not a section")
        try:
            node[parts[-1]] = _parse_value(item.partition("=")[2])
        except _YAML_ERRORS as e:
            raise ConfigError(f"override {item!r}: the value is not valid YAML: {_one_line(e)}") from e
    _check_size(data)


def _one_line(error: Exception) -> str:
    """An error's message on one line: PyYAML's "problem at line L, column C" without its drawn context.

    >>> try:
    ...     yaml.safe_load("learner: [unclosed")
    ... except yaml.YAMLError as e:
    ...     print(_one_line(e))
    expected ',' or ']', but got '<stream end>' (line 1, column 19)
    """
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        mark = error.problem_mark
        return f"{error.problem} (line {mark.line + 1}, column {mark.column + 1})"
    return " ".join(str(error).split())


def _drop_other_rules_coefficients(data: dict[str, Any], item: str) -> None:
    learner = data.get("learner")
    if not isinstance(learner, dict) or "coefficients" not in learner:
        return
    try:
        algorithm = _parse_value(item.partition("=")[2])
    except _YAML_ERRORS:
        return  # `apply_overrides` reports the bad value
    if algorithm != learner.get("algorithm", "a-ride"):
        del learner["coefficients"]


MAX_CONFIG_VALUES = 10_000
"""Most values (mappings, lists and scalars, aliases expanded) a config may hold; a `TrainConfig` has about 70."""
MAX_CONFIG_DEPTH = 32
"""Deepest nesting a config may have; a `TrainConfig` is 3-4 deep."""

# PyYAML's safe loader raises more than YAMLError on hostile text (issue 20): ValueError for a 5,000-digit int or the
# date 2001-13-01, AttributeError for `!!timestamp x`, RecursionError for 10,000 nested brackets.
_YAML_ERRORS = (yaml.YAMLError, ValueError, TypeError, AttributeError, OverflowError, RecursionError)


# A quoted scalar, a comment, or a flow bracket; quoted text and comments are skipped when counting nesting.
_FLOW_TOKENS = re.compile(r"""'(?:[^']|'')*'|"(?:[^"\\]|\\.)*"|(?:^|(?<=\s))#[^\n]*|[\[\]{}]""", re.M)


def _safe_load(text: str) -> Any:
    """`yaml.safe_load`, refusing flow collections nested deeper than `MAX_CONFIG_DEPTH` before PyYAML sees them.

    PyYAML's scanner spends O(depth) per token on such nesting (1.3 s for 2,000 `[`, issue 20) before its parser
    recurses into RecursionError; counting the brackets outside quotes and comments first is linear and fast.
    """
    depth = 0
    for match in _FLOW_TOKENS.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth > MAX_CONFIG_DEPTH:
                raise ConfigError(f"YAML nests `[`/`{{` deeper than {MAX_CONFIG_DEPTH}; a config is 3-4 levels deep")
        elif token in ("]", "}"):
            depth = max(0, depth - 1)
    return yaml.safe_load(text)


def _check_size(data: Any) -> None:
    """Raise `ConfigError` when `data` expands past `MAX_CONFIG_VALUES` or nests past `MAX_CONFIG_DEPTH`.

    Aliases are shared references after `safe_load`, so a billion-laughs document loads in microseconds; the cost
    comes later, when a message's repr() or `dataclasses.asdict` expands it (issue 20: 113 s to format one error).
    The walk is iterative and stops at the limit, so it costs at most `MAX_CONFIG_VALUES` steps.
    """
    count, stack = 0, [(data, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_CONFIG_VALUES or depth > MAX_CONFIG_DEPTH:
            raise ConfigError(f"the config holds more than {MAX_CONFIG_VALUES} values or nests deeper than "
                              f"{MAX_CONFIG_DEPTH} once YAML aliases are expanded (an alias bomb or a recursive "
                              "anchor?); write the values out")
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list | tuple | set) else ()
        stack.extend((child, depth + 1) for child in children)


def complete_state_keys(saved: Mapping[str, Any]) -> dict[str, Any]:
    """A checkpoint's saved `state_keys`, with its sub-configs written out as this version writes them.

    Before the sections were typed, `learner.coefficients`, `policy.small` and `policy.vlm` held the overrides only
    (`{}` for the defaults); filled in, they compare equal to this version's keys for the same run. Values this
    version refuses are left as they were (and so reported as different).

    >>> complete_state_keys({"learner.algorithm": "digirl", "learner.coefficients": {}})["learner.coefficients"]
    {'gamma': 0.9, 'top_fraction': 0.1, 'advantage_offset': 0.05, 'value_coef': 0.5, 'actor_coef': 1.0}
    """
    out = dict(saved)
    try:
        if isinstance(out.get("learner.coefficients"), dict):
            algorithm = out.get("learner.algorithm", "a-ride")
            out["learner.coefficients"] = rule_config(algorithm, out["learner.coefficients"]).to_data()
        if isinstance(out.get("policy.small"), dict):
            out["policy.small"] = SmallPolicyConfig.from_data(out["policy.small"]).to_data()
    except ConfigError:
        pass
    if out.get("policy.vlm") == {}:
        out["policy.vlm"] = None
    return _without_memory_keys(out)


def _without_memory_keys(keys: dict[str, Any]) -> dict[str, Any]:
    """`keys` without the VLM's `MEMORY_KEYS` fields (a checkpoint of an earlier version lacks one: it then matches)."""
    if isinstance(keys.get("policy.vlm"), dict):
        keys["policy.vlm"] = {k: v for k, v in keys["policy.vlm"].items() if k not in MEMORY_KEYS["vlm"]}
    return keys


def config_differences(saved: Mapping[str, Any], mine: Mapping[str, Any]) -> list[str]:
    """The keys in which a checkpoint's saved `state_keys` differ from this run's, each as "`key` checkpoint A vs
    config B", sorted by key.

    The saved keys are completed first (`complete_state_keys`), and a key added since the checkpoint was written
    matches when this run leaves it at its default.

    >>> config_differences({"learner.lr": 0.001}, {"learner.lr": 0.05})
    ['`learner.lr` checkpoint 0.001 vs config 0.05']
    """  # noqa: D205
    full = complete_state_keys(saved)
    ours = json.loads(json.dumps(dict(mine)))
    defaults = json.loads(json.dumps(TrainConfig().state_keys()))
    differ = sorted(k for k in set(full) | set(ours) if full.get(k) != ours.get(k)
                    and not (k not in full and ours.get(k) == defaults.get(k)))
    return [f"`{k}` checkpoint {full.get(k)!r} vs config {ours.get(k)!r}" for k in differ]


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and key not in ("coefficients", "small", "vlm", "custom"):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _parse_value(raw: str) -> Any:
    """An override value parsed as YAML, with the float forms YAML 1.1 leaves as strings ("3e-4") read as floats.

    >>> _parse_value("3e-4"), _parse_value("true"), _parse_value("{a: 1}")
    (0.0003, True, {'a': 1})
    """
    value = _safe_load(raw)
    if isinstance(value, str) and _EXPONENT_FLOAT.fullmatch(value.strip()):
        return float(value)
    return value


_EXPONENT_FLOAT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+")
