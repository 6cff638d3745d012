"""`android-gym`: list the task suites, and play an episode (expert or random agent) saved as a GIF and a log."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections import Counter
from pathlib import Path

import gymnasium as gym
import numpy as np
from PIL import Image

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import ActionType, action_space
from android_gym.actions_text import format_action
from android_gym.devices.host_capacity import (
    CORES_PER_EMULATOR,
    MEMORY_GIB_PER_EMULATOR,
    RESERVED_CORES,
    RESERVED_MEMORY_GIB,
    emulator_capacity,
    this_host,
)
from android_gym.registration import ENV_IDS
from android_gym.tasks import suites
from android_gym.viewer import annotate, describe

log = logging.getLogger("android_gym")


def cmd_tasks(args: argparse.Namespace) -> int:
    """Print every suite's templates with train/test instance counts and example goals, or a goal list's coverage."""
    if args.coverage is not None:
        return _coverage(args.coverage)
    for suite in [args.suite] if args.suite else suites.suite_names():
        templates = suites.templates(suite)
        splits = suites.splits_of(suite)
        by_split = {s: suites.tasks(suite, s) for s in splits}
        print(f"{suite}: " + " / ".join(f"{len(by_split[s])} {s}" for s in splits) + " tasks")
        counts = Counter((t.template.name, t.split) for group in by_split.values() for t in group)
        for template in templates:
            where = suites.split_of_template(suite, template)
            if where == "seen":
                sizes = f"train {counts[template.name, 'train']:>4}  test {counts[template.name, 'test']:>4}"
            else:
                sizes = f"{where} {counts[template.name, where]:>4}"
            example = next(t.goal for t in template.tasks("train") or template.tasks("test"))
            tags = ",".join(_short_tag(tag) for tag in template.tags) or "-"
            print(f"  {template.name:<24} {sizes:<21}  max_steps {template.max_steps:>2}  {template.tier:<6}  "
                  f"{tags:<28}  e.g. {example!r}")
    return 0


def _short_tag(tag: str) -> str:
    """A tag as the listing shows it: an app by its label ("org.tasks" -> "Tasks")."""
    from android_gym.sim.apps import DEFAULT_APPS

    return next((app.label for app in DEFAULT_APPS if app.package == tag), tag)


def _coverage(path: str) -> int:
    """Print which lines of a goal list the goal parser turns into checkable tasks (exit 2 on an unreadable file)."""
    from android_gym.errors import ConfigError
    from android_gym.tasks.files import file_coverage

    try:
        report = file_coverage(path)
    except ConfigError as e:
        print(f"android-gym tasks: error: {e}", file=sys.stderr)
        return 2
    print(report.render())
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Play one episode and save frames (GIF + PNG strip) and the action log (JSONL)."""
    env_id = args.env if args.env.startswith("android_gym/") else f"android_gym/{args.env}"
    if env_id not in ENV_IDS:
        print(f"unknown env {args.env!r}; known: {', '.join(ENV_IDS)}", file=sys.stderr)
        return 2
    env = gym.make(env_id, split=args.split, screenshot_width=0, render_mode="rgb_array",
                   render_width=args.width, perturbations=args.perturbations)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = {"task": args.task} if args.task is not None else None
    obs, info = env.reset(seed=args.seed, options=options)
    rng = np.random.default_rng(args.seed)
    space = action_space()
    space.seed(args.seed)
    frames, actions, captions = [env.render()], [], []
    records = []
    print(f"task: {info['task']}  goal: {info['goal']!r}")
    goal = info["goal"]
    done = False
    while not done:
        if args.agent == "expert":
            action = env.unwrapped.expert_action()
        else:
            action = space.sample()
            action["action_type"] = int(rng.choice([a.value for a in ActionType if a.value <= 4]))
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
        frames.append(env.render())
        act = info["action"]
        try:
            text = format_action(act)
        except Exception:  # noqa: BLE001  (some actions have no AutoUI form; the repr is logged instead)
            text = repr(act)
        records.append({"step": info["step"], "action": text, "valid": info["action_valid"],
                        "had_effect": info["had_effect"], "reward": reward, "error": info.get("error")})
        actions.append(act)
        captions.append(f"step {info['step']}: {describe(act)}" + ("" if info["action_valid"] else " (invalid)"))
        print(f"  step {info['step']:>2}: {text}  reward={reward}")
    env.close()
    success = bool(records and records[-1]["reward"] > 0)
    ending = f"end: {'success' if success else 'failure'} after {len(records)} steps"
    images = [annotate(frame, goal, caption, action)
              for frame, caption, action in zip(frames, [*captions, ending], [*actions, None], strict=True)]
    images[0].save(out / "episode.gif", save_all=True, append_images=images[1:], duration=900, loop=0)
    shown = images[:12]
    strip = Image.new("RGB", (sum(i.width for i in shown) + 8 * len(shown), max(i.height for i in shown)), "white")
    x = 0
    for image in shown:
        strip.paste(image, (x, 0))
        x += image.width + 8
    strip.save(out / "strip.png")
    (out / "actions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    print(f"{'success' if success else 'failure'} in {len(records)} steps; wrote {out}/episode.gif, strip.png, "
          "actions.jsonl")
    return 0


def cmd_serve_adb(args: argparse.Namespace) -> int:
    """Serve simulated phones over the ADB host protocol (and optionally as adbd) until `adb kill-server` or Ctrl-C."""
    from android_gym.sim.adb import AdbFront, FaultConfig
    from android_gym.sim.adb.adbd import AdbdEndpoint

    faults = FaultConfig.mixed(args.fault_rate, seed=args.seed) if args.fault_rate else None
    front = AdbFront(args.devices, host=args.host, port=args.port, perturbations=args.perturbations,
                     faults=faults).start()
    endpoint = None
    if args.adbd_port is not None:
        endpoint = AdbdEndpoint(front.target("sim-0"), host=args.host, port=args.adbd_port).start()
    try:
        serials = ", ".join(front.targets)
        print(f"serving {len(front.targets)} simulated phone(s) ({serials}) as an ADB server on {args.host}:"
              f"{front.port}" + (f"; sim-0 as adbd on {args.host}:{endpoint.port} (adb connect it)" if endpoint
                                 else ""), flush=True)
        if args.ready_file:
            Path(args.ready_file).write_text(json.dumps({"port": front.port,
                                                         "adbd_port": endpoint.port if endpoint else None}))
        front.wait(args.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        if endpoint is not None:
            endpoint.stop()
        front.stop()
    return 0


def cmd_emulator_capacity(args: argparse.Namespace) -> int:
    """Print this host's emulator count on stdout (alone, for `$(...)`), how it was reached on stderr."""
    cores, memory = this_host()
    try:
        count = emulator_capacity(cores, memory, args.cores_per_emulator, args.memory_gib_per_emulator,
                                  args.reserved_cores, args.reserved_memory_gib)
    except ValueError as e:
        print(f"android-gym emulator-capacity: {e}", file=sys.stderr)
        return 2
    print(f"{cores} cores, {memory:.1f} GiB; {args.reserved_cores:g} cores and {args.reserved_memory_gib:g} GiB kept "
          f"for the host; {args.cores_per_emulator:g} cores and {args.memory_gib_per_emulator:g} GiB per emulator: "
          f"{count}", file=sys.stderr)
    print(count)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `android-gym`."""
    parser = argparse.ArgumentParser(prog="android-gym", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("tasks", help="list suites, templates and split sizes")
    p.add_argument("--suite", choices=suites.suite_names())
    p.add_argument("--coverage", metavar="FILE", default=None,
                   help="instead, report which goals of a task file (one per line, AitW format) parse into "
                        "checkable tasks, per family, and why the others do not")
    p.set_defaults(func=cmd_tasks)
    p = sub.add_parser("play", help="play one episode and save it as a GIF, a PNG strip and an action log")
    p.add_argument("--env", default="General-v0", help="env id, e.g. General-v0 or WebShop-v0")
    p.add_argument("--agent", choices=("expert", "random"), default="expert")
    p.add_argument("--split", choices=suites.SUITE_SPLITS, default="train")
    p.add_argument("--task", type=int, default=None, help="task index in the split (default: drawn from the seed)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--perturbations", default="default", choices=("none", "default", "hard"))
    p.add_argument("--width", type=int, default=360, help="frame width in pixels")
    p.add_argument("--out", default="play-out", help="output folder")
    p.set_defaults(func=cmd_play)
    p = sub.add_parser("serve-adb", help="serve simulated phones over ADB (point adbutils or `adb -P` at the port)")
    p.add_argument("--port", type=int, default=5037, help="ADB server port (0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="interface (keep loopback: ADB has no authentication)")
    p.add_argument("--devices", type=int, default=1, help="number of phones, served as sim-0, sim-1, ...")
    p.add_argument("--perturbations", default="default", choices=("none", "default", "hard"))
    p.add_argument("--adbd-port", type=int, default=None, help="also serve sim-0 as adbd here (`adb connect`)")
    p.add_argument("--fault-rate", type=float, default=0.0, help="fraction of requests given injected faults")
    p.add_argument("--seed", type=int, default=0, help="seed of the fault draws")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long (default: until killed)")
    p.add_argument("--ready-file", default=None, help="write {\"port\": ..., \"adbd_port\": ...} here once serving")
    p.set_defaults(func=cmd_serve_adb)
    p = sub.add_parser("emulator-capacity", help="print how many emulators this host can run (its cores and memory "
                                                 "over one emulator's), for `ray start --resources`")
    p.add_argument("--cores-per-emulator", type=float, default=CORES_PER_EMULATOR)
    p.add_argument("--memory-gib-per-emulator", type=float, default=MEMORY_GIB_PER_EMULATOR)
    p.add_argument("--reserved-cores", type=float, default=RESERVED_CORES, help="left to the host (ADB, Ray, policy)")
    p.add_argument("--reserved-memory-gib", type=float, default=RESERVED_MEMORY_GIB)
    p.set_defaults(func=cmd_emulator_capacity)
    p = sub.add_parser("emulator", help="run a simulated phone as an Android emulator process: the emulator's "
                                        "command line (-avd, -port, -grpc, -snapshot, ...), its console and adbd",
                       add_help=False)
    p.add_argument("emulator_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=lambda args: emulator_main(args.emulator_args))
    p = sub.add_parser("adb", help="the `adb` command line (devices, shell, logcat, push, ...) over an ADB server, "
                                   "started here if none runs; also installed as `android-gym-adb`", add_help=False)
    p.add_argument("adb_args", nargs=argparse.REMAINDER)
    p.set_defaults(func=lambda args: adb_main(args.adb_args))
    return parser


def adb_main(argv: list[str]) -> int:
    """`android-gym adb ...`: adb's own command line (`devices.adb_cli`)."""
    from android_gym.devices.adb_cli import main as run_adb

    return run_adb(argv)


def emulator_main(argv: list[str]) -> int:
    """`android-gym emulator ...`: the emulator's own command line, parsed as the emulator parses it."""
    from android_gym.sim.emulator.process import main as run_emulator

    return run_emulator(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `android-gym` command."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["emulator"]:  # its flags are single-dash words argparse would take for its own
        return emulator_main(argv[1:])
    if argv[:1] == ["adb"]:
        return adb_main(argv[1:])
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":  # `python -m android_gym.cli`: how `android-gym-adb` starts a server
    sys.exit(main())
