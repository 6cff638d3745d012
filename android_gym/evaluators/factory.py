"""`make_evaluator`: build an evaluator from `gym.make(..., evaluator=..., evaluator_options=...)`.

Specs:

* `"oracle"` — exact state checks (the simulated phone, or ADB state queries);
* `"mllm:<local path>"` — a local VLM checkpoint (`MllmEvaluator`);
* `"http:<base url>"` — an OpenAI-compatible server (`HttpEvaluator`; needs the `model` option);
* `"py:<module>:<class>"` — your own `Evaluator` subclass, imported by name in each process that builds an env
  (workers too) and called with the options as keyword arguments, e.g. `"py:my_judges:LengthJudge"`;
* `"A|B"` — the first known verdict of A, then B (`FallbackEvaluator`), e.g. `"oracle|mllm:/models/smolvlm"`;
* `"A&B"` — A's verdict unless the state check B says False (`VetoEvaluator`), e.g. `"http:http://h:8000/v1&oracle"`;
  `&` binds tighter than `|`. (A base URL that itself contains `|` or `&` needs the Python API.)

Options (a dict): fields of `MllmJudgeConfig` / `HttpJudgeConfig` for the one judge kind in the spec (or nested under
"mllm" / "http" when both appear); "cache": False or `CacheConfig` fields (caching is on by default); "service":
`ServiceConfig` fields; "share": False to give this env a private judge. By default every env of a process with the
same spec and options shares ONE judge (one model in memory) through a batching `JudgeService`.

>>> make_evaluator("oracle")
OracleEvaluator()
>>> parse_spec("oracle|mllm:/models/smolvlm&oracle")
[[('oracle', '')], [('mllm', '/models/smolvlm'), ('oracle', '')]]
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import Field

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError, unknown_name
from android_gym.evaluators.base import Evaluator, OracleEvaluator
from android_gym.evaluators.cache import CacheConfig, CachingEvaluator
from android_gym.evaluators.combine import FallbackEvaluator, VetoEvaluator
from android_gym.evaluators.http import HttpEvaluator, HttpJudgeConfig
from android_gym.evaluators.mllm import MllmEvaluator, MllmJudgeConfig
from android_gym.evaluators.service import JudgeService, ServiceConfig
from android_gym.plugins import IMPORT_PATH, load_class

KINDS = ("oracle", "mllm", "http", "py")
JUDGE_KINDS = ("mllm", "http", "py")
CODE_KINDS = ("py",)
"""Spec kinds that import code by name: a run folder cannot choose them (`distrl_agent.run_folder`)."""

FACTORY_OPTIONS = ("cache", "service", "share")

Term = tuple[str, str]
"""(kind, target): ("mllm", "/models/smolvlm"), ("oracle", "")."""


def parse_spec(spec: str) -> list[list[Term]]:
    """Parse an evaluator spec into fallback alternatives, each a judge followed by its vetoes.

    Raises:
        ConfigError: empty parts, an unknown kind (with the closest one), a missing or unexpected target.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ConfigError(f"`evaluator` must be a non-empty spec such as 'oracle' or 'mllm:/path', got {spec!r}")
    chain = []
    for alternative in spec.split("|"):
        terms = []
        for part in alternative.split("&"):
            kind, sep, target = part.strip().partition(":")
            kind = kind.strip().lower()
            if kind not in KINDS:
                raise unknown_name("evaluator kind", kind or part, list(KINDS))
            if kind == "oracle" and sep:
                raise ConfigError(f"`evaluator` part {part.strip()!r}: 'oracle' takes no target")
            if kind in JUDGE_KINDS and not target.strip():
                example = {"mllm": "mllm:/models/smolvlm", "http": "http:http://localhost:8000/v1",
                           "py": "py:my_judges:LengthJudge"}[kind]
                raise ConfigError(f"`evaluator` part {part.strip()!r} needs a target, e.g. {example!r}")
            if kind == "py" and not IMPORT_PATH.fullmatch(target.strip()):
                raise ConfigError(f"`evaluator` part {part.strip()!r}: 'py:' takes an import path "
                                  "'<module>:<class>', e.g. 'py:my_judges:LengthJudge'")
            terms.append((kind, target.strip()))
        chain.append(terms)
    return chain


class OracleConfig(ConfigModel):
    """The oracle's term in a spec: exact state checks, nothing to configure."""


class PyJudgeConfig(ConfigModel):
    """A user's `Evaluator` class by import path (`"py:<module>:<class>"`) and its keyword arguments.

    Attributes:
        target: "<module>:<class>", imported when the judge is built (in every process that builds one).
        kwargs: the judge's constructor arguments (the spec's options; plain data).
    """

    target: str
    kwargs: dict[str, Any] = Field(default_factory=dict)


JudgeTerm = OracleConfig | MllmJudgeConfig | HttpJudgeConfig | PyJudgeConfig
"""One term of a spec, typed."""


class EvaluatorConfig(ConfigModel):
    """An evaluator spec and its options, parsed and checked: what `make_evaluator` builds (nothing loaded yet).

    Attributes:
        alternatives: the spec's `|` alternatives, each a judge followed by its `&` vetoes.
        cache: the judges' cache (None: off).
        service: how a shared judge batches.
        share: whether envs of one process with the same config share one judge.
    """

    alternatives: tuple[tuple[JudgeTerm, ...], ...]
    cache: CacheConfig | None = Field(default_factory=CacheConfig)
    service: ServiceConfig = Field(default_factory=ServiceConfig)
    share: bool = True


def code_terms(spec: Any) -> list[str]:
    """The parts of an evaluator spec that import code by name (`CODE_KINDS`); [] for anything else.

    >>> code_terms("py:my_judges:Strict&oracle"), code_terms("oracle|mllm:/m"), code_terms(None)
    (['py:my_judges:Strict'], [], [])
    """
    if not isinstance(spec, str):
        return []
    parts = (part.strip() for alternative in spec.split("|") for part in alternative.split("&"))
    return [part for part in parts if part.partition(":")[0].strip().lower() in CODE_KINDS]


def parse_evaluator(spec: str, options: Mapping[str, Any] | None = None) -> EvaluatorConfig:
    """The typed config of the evaluator `spec` names with `options` (see the module docstring); nothing is built.

    >>> parse_evaluator("http:http://localhost:8000/v1&oracle", {"model": "m"}).alternatives[0][0].model
    'm'

    Raises:
        ConfigError: a bad spec, unknown or misplaced options (with the closest name), a bad option value.
    """
    chain = parse_spec(spec)
    if options is not None and not isinstance(options, Mapping):
        raise ConfigError(f"`evaluator_options` must be a dict, got {options!r}")
    options = dict(options or {})
    per_kind = _split_options(chain, options)
    configs = {(kind, target): _judge_config(kind, target, *per_kind[kind])
               for terms in chain for kind, target in terms if kind in JUDGE_KINDS}
    cache, service = _service_configs(options) if configs else (None, ServiceConfig())
    share = options.get("share", True)
    if not isinstance(share, bool):
        raise ConfigError(f"`evaluator_options.share` must be true or false, got {share!r}")
    alternatives = tuple(tuple(configs.get((kind, target), OracleConfig()) for kind, target in terms)
                         for terms in chain)
    return EvaluatorConfig(alternatives=alternatives, cache=cache, service=service, share=share)


def make_evaluator(spec: str | Evaluator | EvaluatorConfig, options: Mapping[str, Any] | None = None) -> Evaluator:
    """Build the evaluator `spec` names (a spec, or its parsed config); an `Evaluator` instance is returned as is.

    Raises:
        ConfigError: a bad spec, unknown or misplaced options (with the closest name), or a judge that rejects its
            configuration (missing model path, a checkpoint that is not a VLM, a bad URL, ...).
    """
    if isinstance(spec, Evaluator):
        if options:
            raise ConfigError("`evaluator_options` only apply to evaluator specs (strings), not to instances")
        return spec
    # Every judge's config is checked before anything is built, so a bad option leaves no shared judge behind.
    config = spec if isinstance(spec, EvaluatorConfig) else parse_evaluator(spec, options)
    alternatives = []
    for terms in config.alternatives:
        built = [_build_term(term, config.cache, config.service, config.share) for term in terms]
        alternatives.append(built[0] if len(built) == 1 else _vetoed(built))
    return alternatives[0] if len(alternatives) == 1 else FallbackEvaluator(alternatives)


def _vetoed(built: list[Evaluator]) -> Evaluator:
    evaluator = built[0]
    for veto in built[1:]:
        evaluator = VetoEvaluator(evaluator, veto)
    return evaluator


def _split_options(chain: list[list[Term]], options: dict[str, Any]) -> dict[str, tuple[dict[str, Any], str]]:
    """Route options to judge kinds (nested under the kind's name, or flat when the spec has one judge kind).

    Returns:
        kind -> (its options, their dotted key for messages: "evaluator_options" or "evaluator_options.<kind>").
    """
    kinds = sorted({kind for terms in chain for kind, _ in terms if kind in JUDGE_KINDS})
    for kind in JUDGE_KINDS:
        if kind in options and kind not in kinds:
            raise ConfigError(f"`evaluator_options[{kind!r}]` given but the spec has no {kind} judge")
        if kind in options and not isinstance(options[kind], Mapping | None):
            fields = _CONFIGS.get(kind, PyJudgeConfig).__name__
            raise ConfigError(f"`evaluator_options.{kind}` must be a dict of {fields} fields, got {options[kind]!r}")
    per_kind = {kind: (dict(options.get(kind) or {}), f"evaluator_options.{kind}") for kind in kinds}
    flat = {k: v for k, v in options.items() if k not in FACTORY_OPTIONS and k not in JUDGE_KINDS}
    if flat and len(kinds) != 1:
        where = "has no model judge" if not kinds else f"has {' and '.join(kinds)} judges: nest them by kind"
        raise ConfigError(f"`evaluator_options` {sorted(flat)} cannot be placed: the spec {where}")
    if flat:
        nested, _ = per_kind[kinds[0]]
        per_kind[kinds[0]] = ({**nested, **flat}, "evaluator_options")
    return per_kind


def _judge_config(kind: str, target: str, values: dict[str, Any], where: str) -> ConfigModel:
    """The `MllmJudgeConfig` / `HttpJudgeConfig` / `PyJudgeConfig` of one term: its target plus its kind's options."""
    if kind == "py":
        return PyJudgeConfig(target=target, kwargs=values)
    field = _TARGETS[kind]
    if field in values:
        raise ConfigError(f"`{where}.{field}` comes from the spec ('{kind}:<{field}>'), not from the options")
    return _CONFIGS[kind].from_data({field: target, **values}, where=where)


def _service_configs(options: Mapping[str, Any]) -> tuple[CacheConfig | None, ServiceConfig]:
    """The "cache" option (False: no cache; a dict of `CacheConfig` fields) and the "service" one."""
    cache, service = options.get("cache", {}), options.get("service") or {}
    for name, value, config_type in (("cache", cache, CacheConfig), ("service", service, ServiceConfig)):
        if not (isinstance(value, Mapping) or (name == "cache" and value is False)):
            also = " or False" if name == "cache" else ""
            raise ConfigError(f"`evaluator_options.{name}` must be a dict of {config_type.__name__} fields{also}, "
                              f"got {value!r}")
    return (None if cache is False else CacheConfig.from_data(cache, where="evaluator_options.cache"),
            ServiceConfig.from_data(service, where="evaluator_options.service"))


def _build_term(term: JudgeTerm, cache_config: CacheConfig | None, service_config: ServiceConfig,
                share: bool) -> Evaluator:
    """The composition root of judges: the term's config type names the class."""
    match term:
        case OracleConfig():
            return OracleEvaluator()
        case MllmJudgeConfig():
            judge_class: Callable[[Any], Evaluator] = MllmEvaluator
        case HttpJudgeConfig():
            judge_class = HttpEvaluator
        case PyJudgeConfig():
            judge_class = _user_judge

    def build() -> Evaluator:
        judge = judge_class(term)
        return judge if cache_config is None else CachingEvaluator(judge, cache_config)

    if not share:
        return build()
    key = json.dumps([type(term).__name__, term.to_data(), None if cache_config is None else cache_config.to_data(),
                      service_config.to_data()], sort_keys=True, default=str)
    return _SHARED.client(key, build, service_config)


def _user_judge(term: PyJudgeConfig) -> Evaluator:
    """Import the class `term.target` names and build it with `term.kwargs`.

    Raises:
        ConfigError: the module or class cannot be imported, is not an `Evaluator` subclass, or refuses its kwargs.
    """
    judge_class = load_class(term.target, Evaluator, f"`evaluator` 'py:{term.target}'")
    try:
        return judge_class(**term.kwargs)
    except TypeError as e:
        raise ConfigError(f"`evaluator` 'py:{term.target}' refused its options {sorted(term.kwargs)}: {e}") from e


_CONFIGS: dict[str, type[ConfigModel]] = {"mllm": MllmJudgeConfig, "http": HttpJudgeConfig}
_TARGETS = {"mllm": "path", "http": "base_url"}
"""The config field each judge kind's spec target fills ("mllm:<path>", "http:<base_url>")."""


class _SharedJudges:
    """Process-wide registry: one `JudgeService` per (spec, options), closed when its last client closes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._services: dict[str, tuple[JudgeService, int]] = {}

    def client(self, key: str, build: Callable[[], Evaluator], config: ServiceConfig) -> Evaluator:
        with self._lock:
            if key in self._services:
                service, users = self._services[key]
            else:
                service, users = JudgeService(build(), config), 0  # build() raises config errors here, once
            self._services[key] = (service, users + 1)
        return service.client(on_close=lambda: self._release(key))

    def _release(self, key: str) -> None:
        with self._lock:
            service, users = self._services[key]
            if users > 1:
                self._services[key] = (service, users - 1)
                return
            del self._services[key]
        service.close()

    def __len__(self) -> int:
        return len(self._services)


_SHARED = _SharedJudges()
