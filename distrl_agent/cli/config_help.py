"""`distrl train --help-config [SECTION]`: every setting of a run, its value in the resolved config, what it does.

The descriptions are the config classes' own docstrings (`ConfigModel.field_docs`), so the help cannot drift from
the code; the values are those of the config the command line resolves to, so `--help-config learner
learner.algorithm=ppo` shows PPO's coefficients and the defaults a suite changes.
"""

from __future__ import annotations

import json
import textwrap
import types
from collections.abc import Iterator
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from android_gym.config_model import ConfigModel
from distrl_agent.config import TrainConfig
from distrl_agent.policies.custom_config import CustomPolicyConfig
from distrl_agent.policies.vlm_config import VLMPolicyConfig

_NESTED = {"policy": ("small", "vlm", "custom"), "learner": ("coefficients",)}
"""Fields that are sections of their own: listed after their parent, not inside it."""


def config_sections(config: TrainConfig) -> Iterator[tuple[str, type[ConfigModel], ConfigModel | None]]:
    """(dotted prefix, config class, its value in `config` or None) for every section, in reading order."""
    yield "env", type(config.env), config.env
    yield "policy", type(config.policy), config.policy
    yield "policy.small", type(config.policy.small), config.policy.small
    yield "policy.vlm", VLMPolicyConfig, config.policy.vlm
    yield "policy.custom", CustomPolicyConfig, config.policy.custom
    yield "learner", type(config.learner), config.learner
    yield "learner.coefficients", type(config.learner.coefficients), config.learner.coefficients
    yield "runtime", type(config.runtime), config.runtime
    yield "", TrainConfig, config


def section_names(config: TrainConfig) -> list[str]:
    """The names `--help-config` takes: each section's dotted prefix, and `run_dir`."""
    return [prefix or "run_dir" for prefix, _, _ in config_sections(config)]


def describe_config(config: TrainConfig, section: str | None = None, width: int = 100) -> str:
    """Every setting (of `section` and its subsections, or all) as `key = value  (type)` and its description.

    >>> print(describe_config(TrainConfig(), "run_dir").splitlines()[1])
    run_dir = null  (str | null)

    Raises:
        KeyError: `section` is not one of `section_names(config)`.
    """
    names = section_names(config)
    if section is not None and section not in names:
        raise KeyError(section)
    out = []
    for prefix, cls, value in config_sections(config):
        name = prefix or "run_dir"
        if section is not None and name != section and not name.startswith(section + "."):
            continue
        out.append(_header(name, cls, config))
        docs = cls.field_docs()
        for field, info in cls.model_fields.items():
            if field in _NESTED.get(prefix, ()) or (not prefix and field != "run_dir"):
                continue
            key = f"{prefix}.{field}" if prefix else field
            out.append(f"{key} = {_shown(value, field, info)}  ({_type_name(info.annotation, info.metadata)})")
            doc = docs.get(field, "(undocumented)")
            out.append(textwrap.fill(doc, width, initial_indent="    ", subsequent_indent="    "))
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _header(name: str, cls: type[ConfigModel], config: TrainConfig) -> str:
    if name == "learner.coefficients":
        return f"# learner.coefficients: the rule's, for learner.algorithm={config.learner.algorithm}"
    if name == "policy.vlm":
        return "# policy.vlm: the VLM policy (policy.kind=vlm); model_path is required"
    if name == "policy.custom":
        return "# policy.custom: your own Policy class (policy.kind=custom); target is required"
    if name == "run_dir":
        return "# run_dir: where the run writes"
    summary = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
    return f"# {name}: {summary}"


def _shown(value: ConfigModel | None, field: str, info: Any) -> str:
    if value is not None:
        return json.dumps(value.to_data()[field])
    if info.is_required():
        return "(required)"
    default = info.get_default(call_default_factory=True)
    return json.dumps(default.to_data() if isinstance(default, ConfigModel) else default)


def _type_name(annotation: Any, metadata: list[Any] = ()) -> str:  # type: ignore[assignment]
    """A short readable name of a field's type, with its bounds: `int >= 1 | null`, `"local" | "ray"`."""
    origin = get_origin(annotation)
    if origin is Annotated:
        base, *extra = get_args(annotation)
        return _type_name(base, [m for item in extra for m in getattr(item, "metadata", [item])])
    if origin is Literal:
        return " | ".join(json.dumps(a) for a in get_args(annotation))
    if origin in (Union, types.UnionType):
        return " | ".join(_type_name(a) for a in get_args(annotation))
    if annotation is type(None):
        return "null"
    if origin is not None:
        args = ", ".join(_type_name(a) for a in get_args(annotation) if a is not Ellipsis)
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    name = getattr(annotation, "__name__", str(annotation))
    bounds = [f"{op} {getattr(m, attr)}" for m in metadata for attr, op in
              (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")) if getattr(m, attr, None) is not None]
    return " ".join([name, *(" and ".join(bounds).split(" ") if bounds else [])])
