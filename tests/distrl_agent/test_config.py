"""Tests of `distrl_agent.config`: loading, overrides, and errors that name the offending key."""

from __future__ import annotations

import subprocess
import sys

import pytest

from distrl_agent.config import TrainConfig, load_config
from distrl_agent.errors import ConfigError


def test_load_config_applies_dotted_overrides_to_sections() -> None:
    """Overrides reach nested fields and are parsed as YAML values."""
    config = load_config(overrides=["runtime.workers=3", "learner.lr=0.01", "runtime.sync=true",
                                    "runtime.worker_resources={emulator: 1}", "run_dir=/tmp/x"])
    assert config.runtime.workers == 3
    assert config.learner.lr == 0.01
    assert config.runtime.sync is True
    assert config.runtime.worker_resources == {"emulator": 1}
    assert config.run_dir == "/tmp/x"


def test_load_config_round_trips_through_yaml_file(tmp_path) -> None:
    """A saved resolved config loads back to an equal config."""
    config = load_config(overrides=["learner.algorithm=digirl", "runtime.minutes=2"])
    path = tmp_path / "config.yaml"
    path.write_text(config.to_yaml())
    assert load_config(path) == config


def test_load_config_accepts_int_for_float_field() -> None:
    """An int where a float is expected is accepted (YAML writes 1 for 1.0)."""
    assert load_config(overrides=["runtime.minutes=1"]).runtime.minutes == 1.0


@pytest.mark.parametrize(("override", "key"), [
    ("runtime.wokers=2", "`runtime.wokers`"),
    ("lerner.lr=0.1", "`lerner`"),
])
def test_load_config_rejects_unknown_key_with_suggestion(override: str, key: str) -> None:
    """An unknown key is named and the closest known one suggested."""
    with pytest.raises(ConfigError, match="did you mean") as info:
        load_config(overrides=[override])
    assert key in str(info.value)


@pytest.mark.parametrize(("override", "key"), [
    ("runtime.workers=two", "runtime.workers"),
    ("runtime.sync=1", "runtime.sync"),
    ("learner.lr=-1", "learner.lr"),
    ("learner.lr=.inf", "learner.lr"),
    ("learner.max_grad_norm=.nan", "learner.max_grad_norm"),
    ("learner.batch_size=0", "learner.batch_size"),
    ("learner.beta_start=2", "learner.beta_start"),
    ("runtime.minutes=0", "runtime.minutes"),
    ("runtime.runtime=slurm", "runtime.runtime"),
    ("runtime.warm_start_noise=1.5", "runtime.warm_start_noise"),
    ("runtime.worker_resources={emulator: 0}", "runtime.worker_resources.emulator"),
    ("runtime.checkpoint_every_s=-5", "runtime.checkpoint_every_s"),
    ("env.env_id=android_gym/Genral-v0", "env.env_id"),
    ("env.perturbations=hrd", "env.perturbations"),
    ("learner.algorithm=a-rid", "learner.algorithm"),
    ("learner.coefficients={gama: 0.5}", "learner.coefficients"),
    ("runtime=3", "runtime"),
])
def test_load_config_rejects_bad_value_naming_key(override: str, key: str) -> None:
    """A bad type or out-of-range value raises ConfigError naming the dotted key."""
    with pytest.raises(ConfigError, match=f"`{key}"):
        load_config(overrides=[override])


def test_load_config_rejects_malformed_override() -> None:
    """An override without `=` says what it should look like."""
    with pytest.raises(ConfigError, match="section.key=value"):
        load_config(overrides=["runtime.workers"])


def test_load_config_rejects_unreadable_file(tmp_path) -> None:
    """A missing file and a non-mapping file raise ConfigError naming the file."""
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.yaml")
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="mapping"):
        load_config(tmp_path / "list.yaml")


def test_state_keys_cover_env_and_learner_but_not_runtime() -> None:
    """The keys a checkpoint depends on exclude the runtime section (workers may change on resume)."""
    keys = TrainConfig().state_keys()
    assert "learner.lr" in keys and "env.env_id" in keys and "learner.coefficients" in keys
    assert not any(k.startswith("runtime.") for k in keys)


def test_a_resume_may_change_what_an_update_costs_in_memory_but_not_the_update() -> None:
    """A run that ran out of memory resumes in micro-batches, with gradient checkpointing or under another weight
    budget: its checkpoint still matches. A changed learning rate is another run."""  # noqa: D205, D209
    from distrl_agent.config import config_differences

    vlm = ["policy.kind=vlm", "env.screenshot_width=64"]
    saved = load_config(overrides=[*vlm, "policy.vlm={model_path: /m, max_memory_gib: 4}"]).state_keys()
    for change in (["learner.micro_batch_size=4", "policy.vlm={model_path: /m, max_memory_gib: 4}"],
                   ["policy.vlm={model_path: /m, max_memory_gib: 4, gradient_checkpointing: true}"],
                   ["policy.vlm={model_path: /m, max_memory_gib: 12}"], ["policy.vlm={model_path: /m}"]):
        assert config_differences(saved, load_config(overrides=[*vlm, *change]).state_keys()) == [], change
    other = load_config(overrides=[*vlm, "policy.vlm={model_path: /m, max_memory_gib: 4}", "learner.lr=0.5"])
    assert config_differences(saved, other.state_keys()) == ["`learner.lr` checkpoint 0.0001 vs config 0.5"]


def test_saved_config_holds_every_coefficient_and_policy_field(tmp_path) -> None:
    """`to_yaml` writes the values the run used, not the overrides: a default changed later cannot alter a rerun."""
    config = load_config(overrides=["learner.algorithm=ppo", "learner.coefficients={clip_eps: 0.1}",
                                    "policy.small={hidden_dim: 64}"])
    data = config.to_dict()
    assert data["learner"]["coefficients"] == {"gamma": 0.9, "lam": 0.95, "clip_eps": 0.1, "is_clip": 1.0,
                                               "behaviour_weight": "truncate", "ratio_level": "sequence", "epochs": 4,
                                               "normalize_advantages": True, "entropy_coef": 0.01, "value_coef": 0.5,
                                               "actor_coef": 1.0}
    assert data["policy"]["small"]["hidden_dim"] == 64 and data["policy"]["small"]["vocab_size"] == 8192
    path = tmp_path / "config.yaml"
    path.write_text(config.to_yaml())
    again = load_config(path)
    assert again == config and again.learner.coefficients.clip_eps == 0.1


def test_ablation_fixes_its_coefficient_and_refuses_a_conflicting_one() -> None:
    """`a-ride-no-entropy` is A-RIDE with β = 0: the typed config says so, and setting β against it is refused."""
    assert load_config(overrides=["learner.algorithm=a-ride-no-entropy"]).learner.coefficients.entropy_coef == 0.0
    assert load_config(overrides=["learner.algorithm=a-ride-no-retrace"]).learner.coefficients.use_retrace is False
    with pytest.raises(ConfigError, match="`learner.coefficients.entropy_coef` must be 0.0"):
        load_config(overrides=["learner.algorithm=a-ride-no-entropy", "learner.coefficients={entropy_coef: 0.05}"])


@pytest.mark.parametrize("algorithm", ["a-ride", "a-ride-uniform", "a-ride-no-retrace", "a-ride-no-entropy", "ppo"])
def test_fault_prefixes_are_taken_by_the_rules_that_bootstrap_a_cut_episode(algorithm: str) -> None:
    config = load_config(overrides=[f"learner.algorithm={algorithm}", "runtime.fault_prefixes=true"])
    assert config.runtime.fault_prefixes


@pytest.mark.parametrize("algorithm", ["digirl", "filtered-bc", "grpo"])
def test_fault_prefixes_are_refused_by_the_rules_that_read_whole_episodes(algorithm: str) -> None:
    """DigiRL's Monte-Carlo returns, Filtered BC's success filter and GRPO's group outcomes would take a cut episode
    for a failure: the config says so rather than train on it."""  # noqa: D205, D209
    assert not load_config(overrides=[f"learner.algorithm={algorithm}"]).runtime.fault_prefixes
    with pytest.raises(ConfigError, match=f"`runtime.fault_prefixes`.*`{algorithm}`"):
        load_config(overrides=[f"learner.algorithm={algorithm}", "runtime.fault_prefixes=true"])


def test_config_written_by_an_earlier_version_loads(tmp_path) -> None:
    """Before the sections were typed, a saved config held only overrides: `coefficients: {}`, `vlm: {}`."""
    path = tmp_path / "config.yaml"
    path.write_text("policy: {kind: small, small: {}, vlm: {}}\nlearner: {algorithm: digirl, coefficients: {}}\n")
    config = load_config(path)
    assert config.policy.vlm is None and config.learner.coefficients.top_fraction == 0.1


@pytest.mark.parametrize(("override", "message"), [
    ("learner.coefficients={gama: 0.5}", "did you mean `learner.coefficients.gamma`"),
    ("policy.small={hiden_dim: 8}", "did you mean `policy.small.hidden_dim`"),
    ("learner.algorithm=ppoo", "did you mean 'ppo'"),
    ("runtime.runtime=rya", "did you mean 'ray'"),
])
def test_typed_sub_configs_name_the_dotted_key_and_the_closest(override: str, message: str) -> None:
    """Errors inside the rule's and the policy's configs name the whole dotted key and the closest valid name."""
    with pytest.raises(ConfigError, match=message):
        load_config(overrides=[override])


def test_sections_refuse_silent_coercions() -> None:
    """Strict types: a string is not an int and an int is not a bool (YAML `1` for `sync` is a mistake)."""
    for override in ("runtime.workers='2'", "runtime.sync=1", "learner.batch_size=2.5"):
        with pytest.raises(ConfigError, match="`(runtime|learner)\\."):
            load_config(overrides=[override])


def test_loading_a_config_imports_no_implementation() -> None:
    """The config tree is plain data: validating one (every rule, both policies' configs) loads no torch and no loss.

    Run in a fresh interpreter, since this test process has imported everything already.
    """
    code = ("import sys; from distrl_agent.config import load_config; "
            "[load_config(overrides=[f'learner.algorithm={a}']) for a in ('a-ride', 'digirl', 'ppo', 'grpo')]; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers') "
            "or m.startswith(('distrl_agent.algorithms.', 'distrl_agent.policies.', 'distrl_agent.runtime'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    # the policies' tokenizer (standard library only) counts the suite's goal words to size `max_goal_words`
    assert loaded.stdout.strip() == str(["distrl_agent.algorithms.configs", "distrl_agent.policies.custom_config",
                                         "distrl_agent.policies.small_config", "distrl_agent.policies.text",
                                         "distrl_agent.policies.vlm_config"])


def test_env_section_is_android_gyms_env_config_plus_the_trainers_fields() -> None:
    """Every `gym.make` kwarg is a training config key, checked by android_gym's own code and passed to the envs."""
    from android_gym.config import EnvConfig
    from distrl_agent.config import EnvSection

    config = load_config(overrides=["env.env_id=android_gym/WebShop-v0", "env.max_steps=7", "env.include_xml=true",
                                    "env.device=adb:sim-{index}", "env.device_options={port: 5038}"])
    assert isinstance(config.env, EnvConfig) and config.env.suite == "webshop"
    kwargs = config.env.make_kwargs(3)
    assert kwargs["max_steps"] == 7 and kwargs["include_xml"] is True and kwargs["device"] == "adb:sim-3"
    assert "split" not in kwargs and set(kwargs) == set(EnvConfig.model_fields) - {"split"}
    EnvConfig.from_data({**kwargs, "split": "test"})  # what gym.make receives is a valid env config
    assert EnvSection().screenshot_width == 0  # the small policy reads elements only
    for overrides, key in ((["env.split=test"], "`env.split`"), (["env.suite=webshop"], "`env.suite`"),
                           (["env.render_width=4"], "`env.render_width`"),
                           (["env.device=adb:x", "env.device_options={prot: 1}"], "did you mean `.*port`")):
        with pytest.raises(ConfigError, match=key):
            load_config(overrides=overrides)


def test_the_small_policy_may_declare_exactly_where_the_suite_has_declared_tasks() -> None:
    """World has answer and infeasible tasks: its config opens ANSWER/IMPOSSIBLE unless it says otherwise."""
    assert load_config(overrides=["env.env_id=android_gym/World-v0"]).policy.small.declare is True
    assert load_config().policy.small.declare is False  # General: every task is won by the state
    assert load_config(overrides=["env.env_id=android_gym/World-v0", "policy.small.declare=false"]
                       ).policy.small.declare is False
    world = load_config(overrides=["env.env_id=android_gym/World-v0"])
    assert TrainConfig.from_data(world.to_dict()) == world  # the written config reads back the same


def test_the_small_policy_keeps_the_suites_longest_goal_whole() -> None:
    from android_gym.tasks import suites
    from distrl_agent.policies.text import words

    world = load_config(overrides=["env.env_id=android_gym/World-v0"]).policy.small.max_goal_words
    longest = max(len(words(t.goal)) for s in suites.splits_of("world") for t in suites.tasks("world", s))
    assert world == longest > 24 and load_config().policy.small.max_goal_words == 24
    assert load_config(overrides=["env.env_id=android_gym/World-v0", "policy.small.max_goal_words=30"]
                       ).policy.small.max_goal_words == 30


def test_world_gets_its_own_warm_start_unless_the_config_sets_one() -> None:
    from distrl_agent.config import SUITE_WARM_STARTS

    world = load_config(overrides=["env.env_id=android_gym/World-v0"]).runtime
    assert {k: getattr(world, k) for k in SUITE_WARM_STARTS["world"]} == SUITE_WARM_STARTS["world"]
    general = load_config().runtime
    assert (general.warm_start_episodes, general.warm_start_updates, general.warm_start_anneal) == (400, 480, True)
    mine = load_config(overrides=["env.env_id=android_gym/World-v0", "runtime.warm_start_updates=7"]).runtime
    assert mine.warm_start_updates == 7
    assert mine.warm_start_episodes == SUITE_WARM_STARTS["world"]["warm_start_episodes"]


def test_world_gives_a_ride_a_kl_penalty_unless_the_config_or_the_policy_says_otherwise(tmp_path) -> None:
    """On World the small policy's A-RIDE keeps near its warm start (`SUITE_COEFFICIENTS`); elsewhere, with another
    rule, a VLM (whose reference would double its weights) or a coefficient set, nothing changes."""  # noqa: D205, D209
    world = ["env.env_id=android_gym/World-v0"]
    fitted = load_config(overrides=world)
    assert fitted.learner.algorithm == "a-ride" and fitted.learner.coefficients.kl_coef == 0.1
    assert fitted.learner.coefficients.entropy_coef == 0.01  # the rule's other defaults stay
    assert load_config().learner.coefficients.kl_coef == 0.0
    assert load_config(overrides=[*world, "learner.coefficients.kl_coef=0"]).learner.coefficients.kl_coef == 0.0
    mine = load_config(overrides=[*world, "learner.coefficients.entropy_coef=0.02"]).learner.coefficients
    assert (mine.kl_coef, mine.entropy_coef) == (0.1, 0.02)
    assert load_config(overrides=[*world, "learner.algorithm=grpo"]).learner.coefficients.kl_coef == 0.0
    vlm = ["policy.kind=vlm", "policy.vlm.model_path=/tmp/model", "env.screenshot_width=64"]
    assert load_config(overrides=[*world, *vlm]).learner.coefficients.kl_coef == 0.0
    path = tmp_path / "config.yaml"
    path.write_text(fitted.replace(learner=fitted.learner.replace(
        coefficients=fitted.learner.coefficients.model_copy(update={"kl_coef": 0.0}))).to_yaml())
    assert load_config(path).learner.coefficients.kl_coef == 0.0  # a saved run resumes as it ran


@pytest.mark.parametrize("env", [["env.latency=emulator"], ["env.device=adb:emulator-{index}"],
                                 ["env.latency={step_median_s: 1.5}"]])
def test_paced_phones_train_without_the_instant_phones_data_bounds(tmp_path, env: list[str]) -> None:
    """Behind a latency preset, an emulator or a phone over ADB, collection is the bottleneck: no staleness cap, no
    reuse limits, no admission unless the config sets them; the saved config holds the values and reloads equal."""  # noqa: D205, D209
    paced = load_config(overrides=env)
    assert (paced.learner.max_staleness, paced.learner.max_samples_per_insert, paced.learner.max_times_sampled,
            paced.runtime.max_offpolicyness) == (1_000_000, 0.0, None, None)
    instant = load_config()
    assert (instant.learner.max_staleness, instant.learner.max_samples_per_insert, instant.learner.max_times_sampled,
            instant.runtime.max_offpolicyness) == (20, 4.0, 4, 3)
    chosen = load_config(overrides=[*env, "learner.max_staleness=20", "runtime.max_offpolicyness=3"])
    assert (chosen.learner.max_staleness, chosen.learner.max_samples_per_insert, chosen.runtime.max_offpolicyness) \
        == (20, 0.0, 3)
    path = tmp_path / "config.yaml"
    path.write_text(chosen.to_yaml())
    assert load_config(path) == chosen


@pytest.mark.parametrize("env", [["env.latency={step_median_s: 0, reset_median_s: 0}"],
                                 ["env.latency=emulator", "env.latency_time_scale=0"]])
def test_a_sim_without_delays_is_the_instant_phone(env: list[str]) -> None:
    """Latency fields all zero, or a preset scaled to nothing, is the instant sim however it is spelt: its data
    bounds, and envs stepped in the worker's process (one rule for both: `paced_phones`)."""  # noqa: D205, D209
    config = load_config(overrides=env)
    assert (config.learner.max_staleness, config.runtime.max_offpolicyness) == (20, 3)
    assert not config.env.uses_processes
