"""`make_evaluator`: build an evaluator from `gym.make(..., evaluator=..., evaluator_options=...)`.

Specs:

* `"oracle"` — exact state checks (the simulated phone, or ADB state queries);
* `"mllm:<local path>"` — a local VLM checkpoint (`MllmEvaluator`);
* `"http:<base url>"` — an OpenAI-compatible server (`HttpEvaluator`; needs the `model` option);
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
from dataclasses import fields
from typing import Any

from android_gym.errors import ConfigError, unknown_name
from android_gym.evaluators.base import Evaluator, OracleEvaluator
from android_gym.evaluators.cache import CacheConfig, CachingEvaluator
from android_gym.evaluators.combine import FallbackEvaluator, VetoEvaluator
from android_gym.evaluators.http import HttpEvaluator, HttpJudgeConfig
from android_gym.evaluators.mllm import MllmEvaluator, MllmJudgeConfig
from android_gym.evaluators.service import JudgeService, ServiceConfig

KINDS = ("oracle", "mllm", "http")
JUDGE_KINDS = ("mllm", "http")
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
                example = "mllm:/models/smolvlm" if kind == "mllm" else "http:http://localhost:8000/v1"
                raise ConfigError(f"`evaluator` part {part.strip()!r} needs a target, e.g. {example!r}")
            terms.append((kind, target.strip()))
        chain.append(terms)
    return chain


def make_evaluator(spec: str | Evaluator, options: Mapping[str, Any] | None = None) -> Evaluator:
    """Build the evaluator `spec` names (see the module docstring); an `Evaluator` instance is returned as is.

    Raises:
        ConfigError: a bad spec, unknown or misplaced options (with the closest name), or a judge that rejects its
            configuration (missing model path, a checkpoint that is not a VLM, a bad URL, ...).
    """
    if isinstance(spec, Evaluator):
        if options:
            raise ConfigError("`evaluator_options` only apply to evaluator specs (strings), not to instances")
        return spec
    chain = parse_spec(spec)
    options = dict(options or {})
    per_kind = _split_options(chain, options)
    alternatives = []
    for terms in chain:
        built = [_build_term(kind, target, per_kind.get(kind, {}), options) for kind, target in terms]
        alternatives.append(built[0] if len(built) == 1 else _vetoed(built))
    return alternatives[0] if len(alternatives) == 1 else FallbackEvaluator(alternatives)


def _vetoed(built: list[Evaluator]) -> Evaluator:
    evaluator = built[0]
    for veto in built[1:]:
        evaluator = VetoEvaluator(evaluator, veto)
    return evaluator


def _split_options(chain: list[list[Term]], options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Route options to judge kinds: nested under the kind's name, or flat when the spec has one judge kind."""
    kinds = sorted({kind for terms in chain for kind, _ in terms if kind in JUDGE_KINDS})
    per_kind: dict[str, dict[str, Any]] = {kind: dict(options.get(kind) or {}) for kind in kinds}
    flat = {k: v for k, v in options.items() if k not in FACTORY_OPTIONS and k not in JUDGE_KINDS}
    for kind in JUDGE_KINDS:
        if kind in options and kind not in kinds:
            raise ConfigError(f"`evaluator_options[{kind!r}]` given but the spec has no {kind} judge")
    if flat and len(kinds) != 1:
        where = "has no model judge" if not kinds else f"has {' and '.join(kinds)} judges: nest them by kind"
        raise ConfigError(f"`evaluator_options` {sorted(flat)} cannot be placed: the spec {where}")
    if flat:
        per_kind[kinds[0]].update(flat)
    for kind, kind_options in per_kind.items():
        known = [f.name for f in fields(_CONFIGS[kind]) if f.name not in ("path", "base_url")]
        for key in kind_options:
            if key not in known:
                raise unknown_name(f"{kind} judge option", key, known + list(FACTORY_OPTIONS))
    return per_kind


def _build_term(kind: str, target: str, kind_options: dict[str, Any], options: Mapping[str, Any]) -> Evaluator:
    if kind == "oracle":
        return OracleEvaluator()
    cache = options.get("cache", {})
    cache_config = None if cache is False else CacheConfig(**_checked(CacheConfig, cache, "cache"))
    service_config = ServiceConfig(**_checked(ServiceConfig, options.get("service") or {}, "service"))

    def build() -> Evaluator:
        judge = _JUDGES[kind](target, kind_options)
        return judge if cache_config is None else CachingEvaluator(judge, cache_config)

    if not options.get("share", True):
        return build()
    key = json.dumps([kind, target, kind_options, cache, options.get("service") or {}], sort_keys=True, default=str)
    return _SHARED.client(key, build, service_config)


def _checked(config_type: type, values: Any, name: str) -> dict[str, Any]:
    if not isinstance(values, Mapping):
        raise ConfigError(f"`evaluator_options[{name!r}]` must be a dict of {config_type.__name__} fields or False, "
                          f"got {values!r}")
    known = [f.name for f in fields(config_type)]
    for key in values:
        if key not in known:
            raise unknown_name(f"{name} option", key, known)
    return dict(values)


_JUDGES: dict[str, Callable[[str, dict[str, Any]], Evaluator]] = {
    "mllm": lambda path, options: MllmEvaluator(MllmJudgeConfig(path=path, **options)),
    "http": lambda url, options: HttpEvaluator(HttpJudgeConfig(base_url=url, **options)),
}
_CONFIGS: dict[str, type] = {"mllm": MllmJudgeConfig, "http": HttpJudgeConfig}


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
