"""The simulated phone: expert and random success per suite and split, env throughput, memory, task-file coverage.

Coverage is the goal parser's, of task files the user supplies.

The World suite (issue 17) also gets a table per template: its tier and kind (cross-app, answer, infeasible), the
expert's success on each of its splits (train and test, or the held-out split that holds it) and its median length,
with the suite's targets: every template >= 98% on every split, a median expert length >= 8 steps over the templates
with at least a quarter of them >= 15, a random agent <= 1% (it also declares answers and impossibility at random),
and elements-only steps/s at least half the general suite's.

Task files: the everyday instructions (`EVERYDAY_FILE`: 122 lines written before the parser work for them, issue
49), and the goal lists `DISTRL_BENCH_TASK_FILES` names (AitW's General and Web Shopping lists, say; separated by
commas). For each, the share of lines the goal parser covers (target 90% for the everyday list, 95% for others, 98%
for a file whose name says "webshop"), per family, and the expert's and a random agent's success over the covered
lines (targets 98% and 2%).

The dumps (issue 49, `sim_dumps`): the median node depth and clickable share of the sim's `uiautomator dump`s along
the expert's World episodes, against the range of real phones' captures, and the share carrying Android 13-14's
attributes.

Throughput is judged as a ratio that survives a change of machine: how many times faster than the emulator it stands
in for (the `emulator` latency preset's mean step) one sim step is. The absolute steps/s are reported beside it,
without a target, to be read against the report's machine-speed calibration.
"""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import ActionType, action_space
from android_gym.sim.latency import LatencyConfig
from android_gym.tasks.files import file_coverage
from android_gym.tasks.suites import SPLITS, declares, split_of_template
from benchmarks.result import Result, is_tiny, markdown_table
from benchmarks.sim_dumps import dump_figures

TASK_FILES_ENV = "DISTRL_BENCH_TASK_FILES"
EVERYDAY_FILE = Path(__file__).resolve().parents[1] / "tests" / "android_gym" / "tasks" / "everyday_instructions.txt"
"""Everyday instructions across every app (issue 49), always measured when the repository's tests are there."""

SUITES = {"general": "android_gym/General-v0", "webshop": "android_gym/WebShop-v0", "world": "android_gym/World-v0",
          "androidworld": "android_gym/AndroidWorld-v0"}
RANDOM_TARGETS = {"world": 1.0, "androidworld": 1.0}
"""A random agent's success target per suite where it is not 2%."""
EMULATOR_SPEEDUP_TARGETS = {"elements_only": 1000.0, "screenshot_224": 300.0}
"""Sim steps per emulator step the sim must reach: three orders of magnitude with UI elements only, so that the
instant-phone benchmarks are bound by the learner and not by the phone, and 300x with 224-px screenshots (a ~7 ms
step, below the forward pass of any policy that reads the pixels)."""

TINY_TEMPLATE_STRIDE = 12
"""Tiny mode measures every 12th World template only (its figures are code-path checks, not results)."""

def success_rate(env_id: str, split: str, episodes: int, agent: str, seed: int = 0, **make: object) -> float:
    """Fraction of `episodes` the expert (or a uniformly random agent) solves, default perturbations.

    `make` goes to `gym.make` (a `task_file`, say); with `make["task_file"]`, episode i plays the i-th covered goal
    of the file (cycling), so that every covered line is played once when `episodes` is their number.
    """
    env = gym.make(env_id, split=split, screenshot_width=0, **make)
    tasks = [t for t in env.unwrapped.tasks if t.template.name != "uncovered"] if "task_file" in make else []
    space = action_space()
    space.seed(seed)
    rng = np.random.default_rng(seed)
    # taps, swipes, typing and keys; and the declarations where a suite's tasks are won by them (answers with random
    # text, "impossible"), so that an agent declaring at random is measured too
    kinds = [a.value for a in ActionType if a.value <= 4]
    if declares(env.unwrapped.config.suite):
        kinds += [ActionType.STATUS_TASK_COMPLETE.value, ActionType.STATUS_TASK_IMPOSSIBLE.value]
    wins = 0
    for episode in range(episodes):
        options = {"task": tasks[episode % len(tasks)]} if tasks else None
        env.reset(seed=seed * 100_000 + episode, options=options)
        done, reward = False, 0.0
        while not done:
            if agent == "expert":
                action = env.unwrapped.expert_action()
            else:  # uniform over the action kinds an agent would use, uniform points, random goal-free text
                action = space.sample()
                action["action_type"] = int(rng.choice(kinds))
            _, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += reward > 0
    env.close()
    return wins / episodes


def expert_episodes(env_id: str, template: str, split: str, episodes: int) -> list[tuple[bool, int]]:
    """(solved, steps) of the expert's `episodes` episodes of one template on one split, default perturbations."""
    env = gym.make(env_id, split=split, task=template, screenshot_width=0)
    out = []
    for episode in range(episodes):
        env.reset(seed=episode)
        steps, reward, done = 0, 0.0, False
        while not done:
            _, reward, terminated, truncated, _ = env.step(env.unwrapped.expert_action())
            steps += 1
            done = terminated or truncated
        out.append((reward > 0, steps))
    env.close()
    return out


def template_figures(result: Result, suite: str, episodes: int, stride: int = 1) -> None:
    """Per template of `suite` (every `stride`-th): the expert's success on each of its splits (`episodes` each) and
    its median length (solved episodes); the worst template's success, and for World the median of the medians and the
    share of templates >= 15 steps (its design targets)."""  # noqa: D205, D209
    from android_gym.tasks.suites import templates

    rows, worst, medians = [], 100.0, []
    for template in templates(suite)[::stride]:
        where = split_of_template(suite, template)
        # a template whose few goals all train (tasks/splits.py: no goal in both splits) has no test to play
        splits = tuple(s for s in SPLITS if template.values(s)) if where == "seen" else (where,)
        played = {split: expert_episodes(SUITES[suite], template.name, split, episodes) for split in splits}
        rates = {split: 100 * np.mean([ok for ok, _ in runs]) for split, runs in played.items()}
        lengths = [steps for runs in played.values() for ok, steps in runs if ok]
        median = float(np.median(lengths)) if lengths else float("nan")
        worst = min(worst, *rates.values())
        medians.append(median)
        tags = ", ".join(tag for tag in template.tags if "." not in tag) or "-"
        rows.append([template.name, template.tier, tags, template.max_steps,
                     " / ".join(f"{split} {rate:.0f}%" for split, rate in rates.items()), f"{median:g}"])
    result.add(f"{suite}/expert_success_worst_template", worst, "%", target=98.0)
    if suite == "world":
        result.add("world/median_expert_steps", float(np.nanmedian(medians)), "steps", target=8.0)
        result.add("world/templates_of_15_steps_or_more", 100 * float(np.mean([m >= 15 for m in medians])), "%",
                   target=25.0)
    label = {"world": "World", "androidworld": "AndroidWorld"}.get(suite, suite)
    result.tables.append(markdown_table([f"{label} template", "tier", "kind", "max steps",
                                         f"expert success ({episodes} per split)", "median expert steps"], rows))


def world_policy_figures(result: Result, cloning: tuple[int, int] | None, episodes: int) -> None:
    """The small policy after the main job's warm start on World (behaviour cloning on noisy expert play: the
    training config's World warm start, or `cloning` = (episodes, updates) when given), greedy, per split and tier:
    the suite should leave it far from saturated.

    Tier success is the mean of its templates' success rates (the evaluation spreads `episodes` evenly over the
    split's templates)."""  # noqa: D205, D209
    from android_gym.tasks.suites import SUITE_SPLITS, templates
    from distrl_agent.config import load_config
    from distrl_agent.runtime.collect import evaluate_by_task
    from distrl_agent.runtime.train import warm_start

    smaller = [f"runtime.warm_start_episodes={cloning[0]}", f"runtime.warm_start_updates={cloning[1]}"] \
        if cloning else []
    config = load_config(overrides=["env.env_id=android_gym/World-v0", *smaller])
    weights = warm_start(config)
    tier_of = {f"world/{t.name}": t.tier for t in templates("world")}  # evaluations name tasks suite/template
    rows = []
    for split in SUITE_SPLITS:
        overall, by_template = evaluate_by_task(config, weights, 0, split, episodes)
        result.add(f"world/warm_started_small_policy/{split}", 100 * overall, "%")
        cells = []
        for tier in ("easy", "medium", "hard"):
            rates = [rate for name, rate in by_template.items() if tier_of[name] == tier]
            cells.append(f"{100 * np.mean(rates):.0f}% ({len(rates)})" if rates else "-")
            if rates:
                result.add(f"world/warm_started_small_policy/{split}/{tier}", 100 * float(np.mean(rates)), "%")
        rows.append([split, f"{100 * overall:.1f}%", *cells])
    result.tables.append(markdown_table(
        ["World split", f"warm-started small policy ({episodes} episodes)", "easy (templates)", "medium", "hard"],
        rows))
    rt = config.runtime
    result.notes.append(f"World small policy: the training config's warm start ({rt.warm_start_episodes} expert "
                        f"episodes with {rt.warm_start_noise:.0%} random steps, {rt.warm_start_updates} "
                        "behaviour-cloning updates, ANSWER/IMPOSSIBLE modes on), no RL; greedy evaluation.")


def catalogue_figures(result: Result) -> None:
    """Templates per suite, the apps they run in, and how many of AndroidWorld's 116 tasks the AndroidWorld suite
    serves (issue 48's targets: >= 110 of 116; >= 450 templates on >= 30 apps in all)."""  # noqa: D205, D209
    from android_gym.tasks.androidworld.catalogue import ANDROIDWORLD_TASKS
    from android_gym.tasks.suites import templates

    rows, every, apps = [], set(), set()
    for suite in SUITES:
        chosen = templates(suite)
        every |= {(suite, t.name) for t in chosen}
        mine = {package for t in chosen for package in t.apps}
        apps |= mine
        result.add(f"templates/{suite}", float(len(chosen)), "templates")
        rows.append([suite, str(len(chosen)), str(len(mine))])
    result.add("templates/all_suites", float(len(every)), "templates", target=450.0)
    result.add("apps/with_templates", float(len(apps)), "apps", target=30.0)
    served = len(templates("androidworld"))
    result.add("androidworld/tasks_on_suite", float(served), "of 116", target=110.0)
    result.tables.append(markdown_table(["suite", "templates", "apps its templates use"], rows))
    result.notes.append(f"AndroidWorld: {served} of its {len(ANDROIDWORLD_TASKS)} tasks on `AndroidWorld-v0` "
                        "(docs/ANDROIDWORLD.md maps the rest).")


def throughput(env_id: str, screenshot_width: int, seconds: float, xml: bool = False) -> float:
    """Env steps per second (env.step and the resets as episodes end, expert actions) on this process; `xml`: with
    `info["ui_xml"]` too (the device-shaped dump written every step)."""  # noqa: D205, D209
    env = gym.make(env_id, screenshot_width=screenshot_width, include_elements=True, include_xml=xml)
    try:
        return expert_steps_per_s(env, seconds, first_seed=1)
    finally:
        env.close()


def expert_steps_per_s(env: gym.Env, seconds: float, first_seed: int = 0) -> float:
    """Steps/s over `seconds` of stepping: `env.step` and the resets between episodes (a rollout's cost), the
    expert's own time excluded. On the General suite a reset (a phone of 32 apps built) costs about what five steps do,
    so it is about half of this figure's time."""  # noqa: D205, D209
    env.reset(seed=first_seed)
    steps, spent, episode = 0, 0.0, first_seed
    while spent < seconds:
        action = env.unwrapped.expert_action()
        t0 = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            episode += 1
            env.reset(seed=episode)
        spent += time.perf_counter() - t0
        steps += 1
    return steps / spent


def memory_per_env_mib(env_id: str, n: int = 16) -> float:
    """Python heap growth per live env (tracemalloc), after one reset and a few steps each."""
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    envs = []
    for i in range(n):
        env = gym.make(env_id, screenshot_width=224)
        env.reset(seed=i)
        for _ in range(3):
            env.step(env.unwrapped.expert_action())
        envs.append(env)
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / n / 2**20


def run(quick: bool, out: Path) -> Result:
    """Measure the sim's figures; `quick` uses fewer episodes and shorter timings, tiny mode the fewest."""
    tiny = is_tiny()
    episodes = 3 if tiny else 60 if quick else 200
    seconds = 0.2 if tiny else 1.5 if quick else 8.0
    memory_envs = 2 if tiny else 8 if quick else 16
    result = Result(config={"episodes_per_split": episodes, "perturbations": "default",
                            "seconds_per_throughput": seconds, "envs_for_memory": memory_envs})
    rows = []
    for suite, env_id in SUITES.items():
        row = [suite]
        for split in ("train", "test"):
            rate = success_rate(env_id, split, episodes, "expert")
            result.add(f"expert_success/{suite}/{split}", 100 * rate, "%", target=98.0)
            row.append(f"{100 * rate:.1f}%")
        rate = success_rate(env_id, "train", episodes, "random", seed=1)
        result.add(f"random_success/{suite}", 100 * rate, "%", target=RANDOM_TARGETS.get(suite, 2.0),
                   higher_is_better=False)
        row.append(f"{100 * rate:.1f}%")
        rows.append(row)
    result.tables.append(markdown_table(["suite", "expert train", "expert test", "random agent"], rows))
    catalogue_figures(result)
    elements = throughput(SUITES["general"], 0, seconds)
    with_xml = throughput(SUITES["general"], 0, seconds, xml=True)
    pixels = throughput(SUITES["general"], 224, seconds)
    emulator_step_s = LatencyConfig.coerce("emulator").mean_step_s
    for name, rate in (("elements_only", elements), ("screenshot_224", pixels)):
        result.add(f"emulator_speedup/{name}", rate * emulator_step_s, "x", target=EMULATOR_SPEEDUP_TARGETS[name])
        result.add(f"steps_per_s/{name}", rate, "steps/s")
    for suite in ("world", "androidworld"):
        rate = throughput(SUITES[suite], 0, seconds)
        result.add(f"{suite}/steps_per_s_vs_general", rate / elements, "x", target=0.5)
    stride = TINY_TEMPLATE_STRIDE if tiny else 1  # tiny mode runs the code paths (a few templates), not the figures
    for suite, every in (("world", stride), ("androidworld", 4 * stride)):
        template_figures(result, suite, 1 if tiny else 4 if quick else 20, every)
    world_policy_figures(result, (8, 5) if tiny else (120, 240) if quick else None,
                         4 if tiny else 60 if quick else 300)
    dump_figures(result, 1 if tiny else 2 if quick else 5, stride)
    mem = memory_per_env_mib(SUITES["general"], memory_envs)
    result.add("memory_per_env", mem, "MiB")
    result.add("steps_per_s/elements_and_xml", with_xml, "steps/s")
    result.tables.append(markdown_table(
        ["observation", "steps/s (one core)", "sim steps per emulator step"],
        [["UI elements only", f"{elements:,.0f}", f"{elements * emulator_step_s:,.0f}"],
         ["elements + uiautomator XML", f"{with_xml:,.0f}", f"{with_xml * emulator_step_s:,.0f}"],
         ["elements + 224-px screenshot", f"{pixels:,.0f}", f"{pixels * emulator_step_s:,.0f}"]]))
    result.notes.append(f"Sim steps per emulator step: steps/s x the emulator preset's mean step "
                        f"({emulator_step_s:.2f} s).")
    result.notes.append(f"Memory per env (Python heap, tracemalloc): {mem:.2f} MiB.")
    files = [EVERYDAY_FILE] if EVERYDAY_FILE.is_file() and not tiny else []
    files += [Path(p.strip()) for p in os.environ.get(TASK_FILES_ENV, "").split(",") if p.strip()]
    for path in files:
        task_file_figures(result, path, random_episodes=episodes)
    return result


def task_file_figures(result: Result, path: Path, random_episodes: int) -> None:
    """Coverage of one goal list, per family, and expert (every covered line) and random success over it."""
    report = file_coverage(path)
    stem = path.stem
    target = 98.0 if "webshop" in stem.lower() else 90.0 if path.name == EVERYDAY_FILE.name else 95.0
    result.add(f"goal_coverage/{stem}", 100 * report.fraction, "%", target=target)
    missed = report.missed_by_family()
    families = sorted({*report.by_family(), *missed}, key=lambda f: (-report.by_family().get(f, 0), f))
    result.tables.append(markdown_table(
        [f"{stem}: family", "covered lines", "uncovered lines"],
        [[f, report.by_family().get(f, 0), missed.get(f, 0)] for f in families]))
    if not report.covered:
        result.notes.append(f"{path}: no line covered, so no success figures.")
        return
    expert = success_rate("android_gym/General-v0", "train", report.covered, "expert", task_file=str(path))
    result.add(f"goal_expert_success/{stem}", 100 * expert, "%", target=98.0)
    random = success_rate("android_gym/General-v0", "train", min(random_episodes, report.covered), "random", seed=1,
                          task_file=str(path))
    result.add(f"goal_random_success/{stem}", 100 * random, "%", target=2.0, higher_is_better=False)
    result.notes.append(f"{path}: {report.covered} of {report.total} lines covered; the expert played each covered "
                        f"line once, the random agent {min(random_episodes, report.covered)} of them.")
