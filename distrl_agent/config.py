"""`TrainConfig`: one frozen tree of every knob of a training run, loaded from YAML with dotted overrides.

Every field is validated when the tree is built: a wrong type or an out-of-range value raises `ConfigError` naming the
dotted key (`runtime.workers`), an unknown key suggests the closest known one.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from distrl_agent.algorithms import ALGORITHMS, make_update_rule
from distrl_agent.algorithms.grpo import GroupSpec
from distrl_agent.errors import ConfigError


def _require(key: str, is_ok: bool, expected: str, value: Any) -> None:
    if not is_ok:
        raise ConfigError(f"`{key}` must be {expected}, got {value!r}")


RUNTIME_ENV_KEYS = ("device", "device_options", "evaluator", "evaluator_options")
"""`env` fields that say where the phones and the judge are, not what the weights learned: a resume may change them."""


@dataclass(frozen=True)
class EnvSection:
    """Which environments the workers run.

    Attributes:
        env_id: a registered android_gym id.
        perturbations: sim perturbation level: "none", "default" or "hard".
        latency: sim latency preset ("off", "emulator", "fast-emulator"); off for training on the sim.
        latency_time_scale: multiplies sim latency (benchmarks shrink emulator time), >= 0.
        max_elements: UI-element rows in observations (the small policy attends over them).
        screenshot_width: width in pixels of the observations' screenshots (0: none; the small policy reads UI
            elements only, the VLM policy needs pixels, e.g. 128).
        env_processes: run each env in its own process and act on whichever is ready (DistRL's collection); None
            turns it on whenever `latency` is not "off" (slow devices), and off for the instant sim, where processes
            would only add overhead.
        device: the phone of each env: "sim" (a simulated phone per env), or an ADB device spec where `{index}`
            stands for the env's number, e.g. "adb:sim-{index}" (the phones of the sim's ADB front,
            `android-gym serve-adb`). Training envs are numbered 0 .. workers * envs_per_worker - 1 and evaluation
            envs follow them, so no two envs drive one phone; the front (or your device farm) must serve them all.
        device_options: options of ADB devices (`android_gym.devices.adb.AdbConfig` fields, e.g. {"port": 5038,
            "timeout_s": 2, "retries": 2}).
        evaluator: the reward judge (`android_gym` evaluator spec: "oracle", "http:<url>&oracle", ...).
        evaluator_options: options of the judge (e.g. {"model": "...", "timeout_s": 10, "deadline_s": 30}).
    """

    env_id: str = "android_gym/General-v0"
    perturbations: str = "default"
    latency: str = "off"
    latency_time_scale: float = 1.0
    max_elements: int = 48
    screenshot_width: int = 0
    env_processes: bool | None = None
    device: str = "sim"
    device_options: dict[str, Any] = field(default_factory=dict)
    evaluator: str = "oracle"
    evaluator_options: dict[str, Any] = field(default_factory=dict)

    def device_for(self, index: int) -> str:
        """The device spec of env number `index` (`{index}` in `device` replaced by it).

        >>> EnvSection(device="adb:sim-{index}").device_for(3)
        'adb:sim-3'
        """
        return self.device.replace("{index}", str(index))

    def make_kwargs(self, index: int) -> dict[str, Any]:
        """`gym.make` kwargs of env number `index`: the observation, sim, device and judge fields of this section."""
        kwargs: dict[str, Any] = {
            "screenshot_width": self.screenshot_width, "max_elements": self.max_elements,
            "perturbations": self.perturbations, "latency": self.latency, "latency_time_scale": self.latency_time_scale,
            "device": self.device_for(index), "evaluator": self.evaluator}
        if self.device_options:
            kwargs["device_options"] = dict(self.device_options)
        if self.evaluator_options:
            kwargs["evaluator_options"] = dict(self.evaluator_options)
        return kwargs

    @property
    def uses_processes(self) -> bool:
        """Whether workers run one process per env (see `env_processes`)."""
        return self.latency != "off" if self.env_processes is None else bool(self.env_processes)

    def __post_init__(self) -> None:
        import gymnasium as gym

        import android_gym  # noqa: F401  (registers the env ids)
        from android_gym.errors import AndroidGymError
        from android_gym.sim.latency import LatencyConfig
        from android_gym.sim.perturbations import PerturbationConfig

        if self.env_id not in gym.registry:
            known = sorted(k for k in gym.registry if k.startswith("android_gym/"))
            close = difflib.get_close_matches(self.env_id, known, 1)
            raise ConfigError(f"`env.env_id` {self.env_id!r} is not registered"
                              f"{f'; did you mean {close[0]!r}?' if close else ''} Known: {', '.join(known)}")
        for key, coerce in (("perturbations", PerturbationConfig.coerce), ("latency", LatencyConfig.coerce)):
            try:
                coerce(getattr(self, key))
            except AndroidGymError as e:
                raise ConfigError(f"`env.{key}`: {e}") from e
        _require("env.latency_time_scale", self.latency_time_scale >= 0, ">= 0", self.latency_time_scale)
        _require("env.max_elements", self.max_elements >= 1, ">= 1", self.max_elements)
        _require("env.screenshot_width", self.screenshot_width >= 0, ">= 0", self.screenshot_width)
        _require("env.device", self.device == "sim" or self.device.startswith("adb"),
                 "'sim' or an 'adb:...' spec (with `{index}` for one phone per env)", self.device)
        from android_gym.config import EnvConfig
        from android_gym.errors import ConfigError as EnvConfigError

        try:  # the android_gym side validates the device, options and judge spec (nothing connects yet)
            EnvConfig(device=self.device_for(0), device_options=self.device_options or None,
                      evaluator=self.evaluator, evaluator_options=self.evaluator_options or None)
        except EnvConfigError as e:
            raise ConfigError(f"`env`: {e}") from e


@dataclass(frozen=True)
class LearnerSection:
    """The learner's update loop.

    Attributes:
        algorithm: one of `distrl_agent.algorithms.ALGORITHMS`.
        coefficients: overrides of the algorithm's config dataclass (e.g. {"entropy_coef": 0.01}).
        lr: Adam learning rate (1e-4, the paper's: at 1e-3 and 3e-4 the small policy's success oscillated or
            collapsed in 3-4 minute async runs; at 1e-4 with the staleness cap of 20 it rose steadily).
        lr_final_fraction: the learning rate falls linearly from `lr` to `lr * lr_final_fraction` over the run's
            wall-clock budget (`runtime.minutes`, IMPALA-style annealing; 1.0 keeps it constant). 0.1: late in a
            run, a constant rate let the greedy policy drop 8-18 points at one evaluation (20 min: 89 -> 81%;
            6 min seed 2: 86 -> 68%); annealed, the same seeds ended at 88% and 86% without the drop.
        batch_size: trajectories per update.
        updates_per_round: updates after each ingest of new trajectories (then weights are published); an update is
            one sampled batch, on which PPO takes `epochs` gradient steps (each a version), the other rules one.
        max_grad_norm: gradient clipping (L2 norm).
        replay_capacity_steps: replay size in steps (paper: 10,000).
        alpha: priority exponent; beta_start -> beta_end over `beta_anneal_updates` updates (IS correction).
        max_staleness: drop trajectories whose policy lags the learner by more versions (updates) than this
            (20: the sim outruns the learner ~10x, and much staler data destabilised the actor).
        refresh_every_updates: recompute every priority this often (they go stale as pi moves).
        min_replay_trajectories: updates start once the replay holds this many.
        critic_warmup_updates: the first updates train only the critic (actor loss weight 0), so that a critic
            initialised at random does not feed noise advantages to a warm-started actor.
        max_samples_per_insert: a rate limiter, as Reverb's sample-to-insert ratio: the learner makes an update
            only while the trajectories it has sampled, this batch included, stay within this many per trajectory
            inserted, and otherwise waits for collection (counted: `learner/rate_limited`). 0 (default) turns it
            off, as in the paper, where the learner trains whenever it can.
    """

    algorithm: str = "a-ride"
    coefficients: dict[str, Any] = field(default_factory=dict)
    lr: float = 1e-4
    lr_final_fraction: float = 0.1
    batch_size: int = 32
    updates_per_round: int = 4
    max_grad_norm: float = 1.0
    replay_capacity_steps: int = 10_000
    alpha: float = 0.6
    beta_start: float = 0.4
    beta_end: float = 1.0
    beta_anneal_updates: int = 2_000
    max_staleness: int = 20
    refresh_every_updates: int = 200
    min_replay_trajectories: int = 32
    critic_warmup_updates: int = 100
    max_samples_per_insert: float = 0.0

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            close = difflib.get_close_matches(self.algorithm, ALGORITHMS, 1)
            raise ConfigError(f"`learner.algorithm` {self.algorithm!r} is unknown"
                              f"{f'; did you mean {close[0]!r}?' if close else ''} Known: {', '.join(ALGORITHMS)}")
        try:
            make_update_rule(self.algorithm, self.coefficients)
        except (ConfigError, TypeError) as e:
            raise ConfigError(f"`learner.coefficients`: {e}") from e
        for key in ("batch_size", "updates_per_round", "replay_capacity_steps", "refresh_every_updates",
                    "min_replay_trajectories", "beta_anneal_updates"):
            _require(f"learner.{key}", getattr(self, key) >= 1, ">= 1", getattr(self, key))
        for key in ("lr", "max_grad_norm"):
            _require(f"learner.{key}", math.isfinite(getattr(self, key)) and getattr(self, key) > 0,
                     "finite and > 0", getattr(self, key))
        _require("learner.alpha", self.alpha >= 0, ">= 0", self.alpha)
        _require("learner.lr_final_fraction", 0 <= self.lr_final_fraction <= 1, "in [0, 1]", self.lr_final_fraction)
        for key in ("beta_start", "beta_end"):
            _require(f"learner.{key}", 0 <= getattr(self, key) <= 1, "in [0, 1]", getattr(self, key))
        _require("learner.max_staleness", self.max_staleness >= 0, ">= 0", self.max_staleness)
        _require("learner.max_samples_per_insert", math.isfinite(self.max_samples_per_insert)
                 and self.max_samples_per_insert >= 0, "finite and >= 0 (0: off)", self.max_samples_per_insert)
        _require("learner.critic_warmup_updates", self.critic_warmup_updates >= 0, ">= 0",
                 self.critic_warmup_updates)

    @property
    def group_spec(self) -> GroupSpec | None:
        """How the workers play groups for this algorithm (GRPO's G and length penalty); None for the other rules."""
        return make_update_rule(self.algorithm, self.coefficients).groups


@dataclass(frozen=True)
class RuntimeSection:
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
        eval_episodes: episodes per evaluation (and in the final summary, per split).
        checkpoint_every_s: seconds between checkpoints during training (one is also written at the end).
        warm_start_episodes: noisy expert demonstrations for behaviour cloning before RL (0 = cold start).
        warm_start_noise: probability a demonstration step is replaced by a random action.
        warm_start_updates: behaviour-cloning gradient steps.
        seed: seeds workers, learner and evaluation.
    """

    runtime: str = "local"
    address: str | None = None
    connect_timeout_s: float = 30.0
    workers: int | None = None
    envs_per_worker: int = 8
    worker_cpus: float = 1.0
    worker_resources: dict[str, float] = field(default_factory=dict)
    max_worker_restarts: int = 20
    worker_buffer_trajectories: int = 256
    sync: bool = False
    sync_lockstep: bool = True
    episodes_per_round: int = 16
    minutes: float = 20.0
    max_updates: int | None = None
    max_env_steps: int | None = None
    eval_every_s: float = 120.0
    eval_episodes: int = 100
    checkpoint_every_s: float = 300.0
    warm_start_episodes: int = 400
    warm_start_noise: float = 0.7
    warm_start_updates: int = 120
    seed: int = 0

    def __post_init__(self) -> None:
        _require("runtime.runtime", self.runtime in ("local", "ray"), "'local' or 'ray'", self.runtime)
        if self.workers is not None:
            _require("runtime.workers", self.workers >= 1, ">= 1 or null (cores - 1)", self.workers)
        for key in ("envs_per_worker", "episodes_per_round", "eval_episodes", "worker_buffer_trajectories"):
            _require(f"runtime.{key}", getattr(self, key) >= 1, ">= 1", getattr(self, key))
        for key in ("minutes", "eval_every_s", "checkpoint_every_s", "connect_timeout_s"):
            _require(f"runtime.{key}", getattr(self, key) > 0, "> 0", getattr(self, key))
        for key in ("max_updates", "max_env_steps"):
            if getattr(self, key) is not None:
                _require(f"runtime.{key}", getattr(self, key) >= 1, ">= 1 or null (no cap)", getattr(self, key))
        for key in ("worker_cpus", "max_worker_restarts", "warm_start_episodes", "warm_start_updates", "seed"):
            _require(f"runtime.{key}", getattr(self, key) >= 0, ">= 0", getattr(self, key))
        _require("runtime.warm_start_noise", 0 <= self.warm_start_noise <= 1, "in [0, 1]", self.warm_start_noise)
        for name, amount in self.worker_resources.items():
            _require(f"runtime.worker_resources.{name}", isinstance(amount, (int, float)) and amount > 0,
                     "a number > 0", amount)


@dataclass(frozen=True)
class PolicySection:
    """Which policy the workers act with and the learner trains (`distrl_agent.policies.build`).

    Attributes:
        kind: "small" (the CPU-trainable UI-element policy) or "vlm" (the AutoUI-style `transformers` policy that
            reads screenshots and writes action text; needs `vlm.model_path` and `env.screenshot_width` > 0).
        small: `SmallPolicyConfig` fields that differ from its defaults.
        vlm: `VLMPolicyConfig` fields (`model_path`: a local checkpoint directory with its processor; nothing is
            downloaded).
    """

    kind: str = "small"
    small: dict[str, Any] = field(default_factory=dict)
    vlm: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.policy_config()  # validates the chosen kind's fields (the other kind's are not read)

    def policy_config(self) -> Any:
        """The `SmallPolicyConfig` or `VLMPolicyConfig` this section describes.

        Raises:
            ConfigError: an unknown kind, or an unknown, missing or bad field (named by its dotted key).
        """
        from distrl_agent.policies.build import make_policy_config

        return make_policy_config(self.kind, self.small if self.kind == "small" else self.vlm)


@dataclass(frozen=True)
class TrainConfig:
    """The whole run: env, policy, learner, runtime, and where outputs go (`run_dir`)."""

    env: EnvSection = field(default_factory=EnvSection)
    policy: PolicySection = field(default_factory=PolicySection)
    learner: LearnerSection = field(default_factory=LearnerSection)
    runtime: RuntimeSection = field(default_factory=RuntimeSection)
    run_dir: str = "runs/latest"

    def __post_init__(self) -> None:
        if self.policy.kind == "vlm" and self.env.screenshot_width == 0:
            raise ConfigError("`policy.kind=vlm` reads screenshots: set `env.screenshot_width` (e.g. 128)")
        groups = self.learner.group_spec
        if groups is not None and self.runtime.sync and self.runtime.episodes_per_round % groups.size:
            raise ConfigError(f"`runtime.episodes_per_round` ({self.runtime.episodes_per_round}) must be a multiple of "
                              f"the group size {groups.size} (`learner.coefficients.group_size`), or rounds end with "
                              "groups cut short")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (for YAML)."""
        return dataclasses.asdict(self)

    def to_yaml(self) -> str:
        """The resolved config as YAML, loadable by `load_config`."""
        return yaml.safe_dump(self.to_dict(), sort_keys=False)

    def state_keys(self) -> dict[str, Any]:
        """The flattened fields a learner checkpoint depends on (env, policy, learner; the runtime may change)."""
        env = {k: v for k, v in dataclasses.asdict(self.env).items() if k not in RUNTIME_ENV_KEYS}
        return _flatten({"env": env, "policy": dataclasses.asdict(self.policy),
                         "learner": dataclasses.asdict(self.learner)})


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
    data: dict[str, Any] = {}
    if path is not None:
        try:
            data = _safe_load(Path(path).read_text()) or {}
        except (OSError, UnicodeDecodeError, *_YAML_ERRORS) as e:
            raise ConfigError(f"cannot read config file {path}: {e}") from e
        if not isinstance(data, dict):
            raise ConfigError(f"config file {path} must hold a mapping, got {type(data).__name__}")
    for item in overrides:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"override {item!r} must look like section.key=value")
        node = data
        parts = key.strip().split(".")
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"override {item!r}: `{part}` is not a section")
        try:
            node[parts[-1]] = _parse_value(raw)
        except _YAML_ERRORS as e:
            raise ConfigError(f"override {item!r}: the value is not valid YAML: {e}") from e
    _check_size(data)
    return _build(TrainConfig, data, "")


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


_SECTIONS = {"EnvSection": EnvSection, "PolicySection": PolicySection, "LearnerSection": LearnerSection,
             "RuntimeSection": RuntimeSection}


def _build(cls: type, data: dict[str, Any], prefix: str) -> Any:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    kwargs = {}
    for key, value in data.items():
        if key not in fields:
            close = difflib.get_close_matches(str(key), list(fields), 1)
            hint = f"; did you mean `{prefix}{close[0]}`?" if close else ""
            raise ConfigError(f"unknown config key `{prefix}{key}`{hint} Known: {', '.join(fields)}")
        sub = _SECTIONS.get(getattr(hints[key], "__name__", ""))
        if sub is not None:
            if not isinstance(value, dict):
                raise ConfigError(f"`{prefix}{key}` must be a mapping of its fields, got {value!r}")
            kwargs[key] = _build(sub, value, f"{prefix}{key}.")
        else:
            kwargs[key] = _coerce(f"{prefix}{key}", value, hints[key])
    return cls(**kwargs)


def _coerce(key: str, value: Any, hint: Any) -> Any:
    """`value` checked against the field's type (ints are accepted as floats); raises `ConfigError` naming `key`."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        args = typing.get_args(hint)
        if value is None and type(None) in args:
            return None
        hint = next(a for a in args if a is not type(None))
    origin = typing.get_origin(hint) or hint
    if origin is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if origin is int and isinstance(value, bool) or not isinstance(value, origin):
        raise ConfigError(f"`{key}` must be {getattr(origin, '__name__', origin)}, got {value!r}")
    return value


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict) and key not in ("coefficients", "small", "vlm"):
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
