"""Fuzz tests of the config loaders: YAML files and dotted overrides, and `gym.make` kwargs.

* `distrl_agent.config.load_config` returns a `TrainConfig` (that survives its own `to_yaml` round trip) or raises
  `distrl_agent.errors.ConfigError`, for any file bytes and any overrides: alias bombs, recursive anchors,
  `!!python/...` tags (refused, never run), 10,000-deep nesting, scalars PyYAML's constructors choke on.
* `android_gym.config.EnvConfig.from_kwargs` returns an `EnvConfig` or raises `android_gym.errors.ConfigError`
  for kwargs of any type (`task_file` excepted: it registers a suite globally, and has its own fuzz tests through
  `load_task_file`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import yaml
from hypothesis import event, example, given
from hypothesis import strategies as st

from android_gym.config import EnvConfig
from android_gym.errors import ConfigError as EnvConfigError
from distrl_agent.config import TrainConfig, load_config
from distrl_agent.errors import ConfigError

DEFAULTS = TrainConfig().to_dict()
KNOWN_KEYS = [f"{section}.{key}" for section, fields in DEFAULTS.items() if isinstance(fields, dict)
              for key in fields] + ["run_dir"]


def load(content: bytes | None, overrides: list[str]) -> TrainConfig | None:
    """`load_config` of `content` (as a file; None: no file) and `overrides`; None when it raised `ConfigError`."""
    with tempfile.TemporaryDirectory() as directory:
        path = None
        if content is not None:
            path = Path(directory) / "config.yaml"
            path.write_bytes(content)
        try:
            config = load_config(path, overrides)
        except ConfigError:
            event("refused (ConfigError)")
            return None
        event("loaded")
        assert isinstance(config, TrainConfig)
        again = Path(directory) / "resolved.yaml"
        again.write_text(config.to_yaml())
        assert load_config(again) == config, "to_yaml() does not load back to the same config"
        return config


# -- arbitrary input ---------------------------------------------------------------------------------------------------
@given(st.binary())
def test_any_file_bytes_load_or_are_a_config_error(content):
    """Any file content (invalid UTF-8 included) gives a config or `ConfigError`."""
    load(content, [])


@given(st.text())
def test_any_file_text_loads_or_is_a_config_error(text):
    """Any text file (surrogates written as invalid UTF-8) gives a config or `ConfigError`."""
    load(text.encode("utf-8", "surrogatepass"), [])


@given(st.lists(st.text(max_size=40), max_size=4))
def test_any_overrides_load_or_are_a_config_error(overrides):
    """Arbitrary override strings give a config or `ConfigError`."""
    load(None, overrides)


# -- near-valid YAML ---------------------------------------------------------------------------------------------------
TRICKY_SCALARS = ["2001-13-01", "2001-02-30 10:00:00", "!!timestamp x", "!!int x", "!!float x", "!!binary a",
                  "!!set {a, b}", "!!omap [a]", "9" * 5000, "0x" + "f" * 50, "1e99999", ".nan", ".inf", "-.inf",
                  "~", "null", "yes", "on", "1_000", "3e-4", "0o17", "1:20", "[" * 5000, "{a: 1", "'unterminated",
                  "!!python/object/apply:os.system ['true']", "!!python/name:os.system", "&a [*a]", "*undefined",
                  "<<: 1", "? [a]\n: 1", "\t", "", "-", "a: b: c"]
values = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.integers(), st.floats(),
                   st.text(max_size=12), st.sampled_from(["local", "ray", "sim", "adb:sim-{index}", "oracle", "digirl",
                                                          "a-ride", "small", "vlm", "default", "off", "emulator"]),
                   st.lists(st.integers(0, 5), max_size=3), st.dictionaries(st.text(max_size=8),
                                                                            st.integers(0, 3), max_size=2))
keys = st.one_of(st.sampled_from(KNOWN_KEYS), st.text(max_size=12),
                 st.builds("{}.{}".format, st.sampled_from(list(DEFAULTS)), st.text(max_size=8)))


def assign(data: dict, dotted: str, value: object) -> None:
    """Set `data[a][b]... = value` for the dotted key, replacing non-dict sections."""
    node = data
    parts = dotted.split(".")
    for part in parts[:-1]:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    node[parts[-1]] = value


@given(st.lists(st.tuples(keys, values), max_size=5), st.booleans())
def test_schema_shaped_yaml_loads_or_is_a_config_error(assignments, from_defaults):
    """A resolved config (or an empty one) with random keys set to random values, written with `safe_dump`."""
    data = TrainConfig().to_dict() if from_defaults else {}
    for dotted, value in assignments:
        assign(data, dotted, value)
    load(yaml.safe_dump(data, allow_unicode=True).encode(), [])


def same_type_value(dotted: str) -> st.SearchStrategy[object]:
    """Values of the type of `dotted`'s default (so most configs are valid and the round trip is exercised)."""
    section, _, key = dotted.rpartition(".")
    default = DEFAULTS[section][key] if section else DEFAULTS[key]
    if isinstance(default, bool) or default is None:
        return st.one_of(st.booleans(), st.none())
    if isinstance(default, int):
        return st.integers(0, 10**9)
    if isinstance(default, float):
        return st.one_of(st.floats(0, 1), st.floats(0, 1e6), st.sampled_from([float("inf"), 1e-300]))
    return st.just(default)


@given(st.lists(st.sampled_from(KNOWN_KEYS).flatmap(lambda k: st.tuples(st.just(k), same_type_value(k))), max_size=6),
       st.booleans())
def test_type_correct_values_load_and_round_trip_or_are_a_config_error(assignments, as_overrides):
    """Known keys set to values of their default's type, in a file or as overrides.

    Most load, and must come back equal from `to_yaml`; the rest are range `ConfigError`s.
    """
    if as_overrides:
        load(None, [f"{key}={yaml.safe_dump(value, default_flow_style=True).strip().removesuffix('...').strip()}"
                    for key, value in assignments])
    else:
        data: dict = {}
        for dotted, value in assignments:
            assign(data, dotted, value)
        load(yaml.safe_dump(data).encode(), [])


@given(st.lists(st.tuples(keys, st.one_of(st.sampled_from(TRICKY_SCALARS), values.map(str))), max_size=4))
@example([("runtime.workers", "9" * 5000)])
@example([("runtime.workers", "[" * 5000)])
@example([("run_dir", "2001-13-01")])
@example([("run_dir", "!!timestamp x")])
def test_overrides_with_tricky_yaml_values_load_or_are_a_config_error(assignments):
    """`key=value` overrides whose values are scalars PyYAML's constructors raise odd errors on."""
    load(None, [f"{key}={value}" for key, value in assignments])


@given(st.sampled_from(TRICKY_SCALARS), st.sampled_from(KNOWN_KEYS))
def test_tricky_scalars_in_a_file_load_or_are_a_config_error(scalar, dotted):
    """The same scalars as values of a YAML file."""
    load(yaml_at(dotted, scalar).encode(), [])


# -- attacks: alias bombs, recursive anchors, python tags, deep nesting ------------------------------------------------
def yaml_at(dotted: str, value: str) -> str:
    """A YAML document that sets the dotted key to the flow-style `value`."""
    parts = dotted.split(".")
    lines = ["  " * depth + f"{part}:" for depth, part in enumerate(parts[:-1])]
    return "\n".join([*lines, "  " * (len(parts) - 1) + f"{parts[-1]}: {value}"]) + "\n"


def alias_bomb(levels: int, fan_out: int) -> str:
    """A billion-laughs flow list: level k holds `fan_out` aliases of level k - 1 (fan_out ** levels strings)."""
    items = [f"&l0 [{', '.join(['lol'] * fan_out)}]"]
    items += [f"&l{k} [{', '.join([f'*l{k - 1}'] * fan_out)}]" for k in range(1, levels + 1)]
    return "[" + ", ".join(items) + "]"


@given(st.integers(1, 9), st.integers(2, 10), st.sampled_from(KNOWN_KEYS + ["learner.coefficients.gamma",
                                                                          "policy.small.hidden_dim", "env"]),
       st.booleans())
@example(9, 10, "runtime.workers", False)
@example(9, 10, "env", True)
def test_alias_bombs_are_a_config_error_within_the_deadline(levels, fan_out, target, as_override):
    """A billion-laughs value at any key, in a file or an override, is `ConfigError` well within the deadline."""
    bomb = alias_bomb(levels, fan_out)
    config = load(None, [f"{target}={bomb}"]) if as_override else load(yaml_at(target, bomb).encode(), [])
    assert config is None or fan_out ** levels <= 10_000


@given(st.sampled_from(["runtime: &a\n  worker_resources: *a\n", "learner:\n  coefficients: &a\n    x: *a\n",
                        "env: &a [*a]\n", "policy:\n  small: &a {hidden_dim: [*a]}\n",
                        "learner:\n  coefficients: &a {gamma: *a}\n"]))
def test_recursive_anchors_are_a_config_error(text):
    """A value that contains itself is refused (it would recurse forever in `to_dict`/`asdict`)."""
    assert load(text.encode(), []) is None


@given(st.sampled_from(["!!python/object/apply:builtins.open ['{marker}', 'w']",
                        "!!python/object/new:builtins.open ['{marker}', 'w']",
                        "!!python/object/apply:os.system ['touch {marker}']", "!!python/name:os.system",
                        "!!python/module:os", "!!python/object:builtins.object {{}}",
                        "!!python/object/apply:subprocess.check_output [['touch', '{marker}']]"]),
       st.sampled_from(["run_dir", "runtime.workers", "learner.coefficients"]), st.booleans())
def test_python_tags_are_refused_and_never_run(tag, dotted, as_override):
    """`!!python/...` tags are a `ConfigError` (safe_load), and the object they name is never built or called."""
    with tempfile.TemporaryDirectory() as directory:
        marker = Path(directory) / "pwned"
        value = tag.format(marker=marker)
        config = load(None, [f"{dotted}={value}"]) if as_override else load(yaml_at(dotted, value).encode(), [])
        assert config is None
        assert not marker.exists()


@given(st.integers(1, 10_000), st.sampled_from(["[", "{a: ", "- ", "{run_dir: "]), st.booleans())
@example(10_000, "[", False)
@example(10_000, "[", True)
def test_deep_nesting_is_a_config_error(depth, opener, as_override):
    """10,000 levels of flow or block nesting, in a file or an override, are `ConfigError` (not RecursionError)."""
    closer = {"[": "]", "{a: ": "}", "- ": "", "{run_dir: ": "}"}[opener]
    text = opener * depth + "1" + closer * depth  # "- - - 1": compact block sequences, one level per dash
    load(None, [f"runtime.workers={text}"]) if as_override else load(text.encode(), [])


# -- gym.make kwargs ---------------------------------------------------------------------------------------------------
ENV_FIELDS = [name for name in EnvConfig.model_fields if name != "task_file"]
any_value = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12),
                      st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=5), st.integers(),
                                                                           max_size=2),
                      st.sampled_from(["sim", "adb", "adb:sim-0", "train", "test", "general", "webshop", "oracle",
                                       "mllm:", "http:x", "oracle|", "none", "hard", "off", "emulator"]),
                      st.integers(0, 2000))


@given(st.dictionaries(st.one_of(st.sampled_from(ENV_FIELDS), st.text(max_size=10)), any_value, max_size=5))
@example({"render_width": "x"})
@example({"suite": None})
@example({"screenshot_width": [1]})
@example({"latency_time_scale": "fast"})
def test_env_kwargs_build_a_config_or_are_a_config_error(kwargs):
    """`gym.make` kwargs of any type give an `EnvConfig` or android_gym's `ConfigError` (never TypeError)."""
    kwargs.pop("task_file", None)
    try:
        config = EnvConfig.from_kwargs(**kwargs)
    except EnvConfigError:
        event("refused (ConfigError)")
        return
    event("built")
    assert isinstance(config, EnvConfig)
