"""`distrl`: train (the main job), evaluate a checkpoint, or collect data only (throughput).

Every subcommand takes `--config FILE`, flags built from the config's `runtime` section (`--workers 4 --sync
--runtime ray --address auto ...`) and `section.key=value` overrides, applied in that order. Examples:

    distrl train                                   # sim `general` suite, A-RIDE, local runtime, all cores
    distrl train --minutes 5 --workers 2 learner.algorithm=digirl --sync
    distrl train --resume runs/latest              # continue a run from its checkpoint and config.yaml
    distrl eval --checkpoint runs/latest --split test --episodes 100
    distrl collect --seconds 30 --envs-per-worker 16
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import replace
from pathlib import Path

from android_gym.errors import UnsafePathError
from android_gym.safe_files import write_text
from android_gym.tasks.suites import SUITE_SPLITS
from distrl_agent.algorithms.configs import ALGORITHMS
from distrl_agent.config import RuntimeSection, TrainConfig, load_config
from distrl_agent.errors import DistrlError, UntrustedConfigError
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.run_folder import TRUST_FLAG, load_run_config

_SHORTCUTS = {"algorithm": "learner.algorithm", "env_id": "env.env_id", "run_dir": "run_dir"}


def resolve_config(args: argparse.Namespace, run_dir: str | Path | None = None) -> TrainConfig:
    """The config of a command: `--config` (else `run_dir`'s config.yaml, vetted, else defaults), then flags, then
    positional overrides.

    A run folder's config.yaml is data (`distrl_agent.run_folder`): the judge, phones, task file, model path and
    cluster it names are used only when given again or with `--trust-run-dir`.
    """  # noqa: D205
    overrides = []
    fields = RuntimeSection.model_fields
    for name, dotted in [*((name, f"runtime.{name}") for name in fields), *_SHORTCUTS.items()]:
        value = getattr(args, name, None)
        if value is not None:
            is_flag = name in fields and fields[name].annotation is bool
            overrides.append(f"{dotted}={'true' if is_flag else value}")
    overrides += args.override
    if run_dir is None:
        return load_config(args.config, overrides)
    return load_run_config(run_dir, args.config, overrides, trust=getattr(args, "trust_run_dir", False))


def cmd_train(args: argparse.Namespace) -> int:
    """Train with the resolved config; print it first and the summary last."""
    from distrl_agent.runtime.train import train

    if args.resume:
        args.run_dir = args.resume
    config = resolve_config(args, args.resume)
    print("resolved config (saved to run_dir/config.yaml):\n" + config.to_yaml(), flush=True)
    summary = train(config, resume=args.resume, show_progress=not args.quiet)
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}, indent=2))
    unseen = "".join(f", {k.removesuffix('_success').replace('_', ' ')} success {v:.1%}" for k, v in summary.items()
                     if k.startswith("unseen_") and k.endswith("_success"))
    print(f"done: train success {summary['train_success']:.1%}, test success {summary['test_success']:.1%}{unseen} "
          f"after {summary['minutes']} min, {summary['env_steps']} env steps, {summary['updates']} updates; "
          f"outputs in {config.run_dir}")
    print(episode_accounting(summary))
    print(replay_accounting(summary))
    if (groups := group_accounting(summary)) is not None:
        print(groups)
    return 0


def episode_balance(summary: dict) -> dict[str, float]:
    """Where every episode the workers started went, from a run's summary; `unaccounted` must be 0.

    started = unfinished at the end + lost in progress with killed workers + finished (as of each worker's last
    report: `runtime/discarded_partial_episodes` estimates what a killed worker really had under way), and each
    finished episode is
    not shipped (a fault or an unknown verdict without a prefix to ship, a dropped GRPO group, a group still
    incomplete), dropped by a full worker buffer, lost with a killed worker, in flight, or received by the learner.
    Each term is counted on its own, so `unaccounted` is a check, not a remainder (runs before these counters: NaN).

    >>> b = episode_balance({"runtime/episodes_started": 10, "runtime/unfinished_episodes": 2, "runtime/episodes": 8,
    ...                      "runtime/faulty_episodes": 1, "runtime/trajectories_received": 7})
    >>> b["not_shipped"], b["unaccounted"]
    (1.0, 0.0)
    """
    get = lambda key: float(summary.get(f"runtime/{key}", 0.0))  # noqa: E731
    if "runtime/episodes_started" not in summary:
        return {"unaccounted": float("nan")}
    not_shipped = (get("faulty_episodes") - get("fault_prefixes") + get("unknown_verdict_cuts")
                   - get("unknown_verdict_prefixes") + get("group_members_dropped") + get("held_in_groups"))
    balance = {
        "started": get("episodes_started"), "unfinished": get("unfinished_episodes"),
        "lost_in_progress": get("lost_in_progress"), "finished": get("episodes"),
        "not_shipped": not_shipped, "dropped": get("dropped_trajectories"), "lost_finished": get("lost_with_workers"),
        "in_flight": get("trajectories_in_flight"), "received": get("trajectories_received"),
    }
    started_gap = balance["started"] - balance["unfinished"] - balance["lost_in_progress"] - balance["finished"]
    finished_gap = (balance["finished"] - not_shipped - balance["dropped"] - balance["lost_finished"]
                    - balance["in_flight"] - balance["received"])
    balance["unaccounted"] = abs(started_gap) + abs(finished_gap)
    return balance


def episode_accounting(summary: dict) -> str:
    """One line saying where every started episode went (`episode_balance`).

    >>> print(episode_accounting({"runtime/episodes_started": 380, "runtime/unfinished_episodes": 16,
    ...                           "runtime/episodes": 364, "runtime/faulty_episodes": 4,
    ...                           "runtime/trajectories_received": 360}))
    episodes: 380 started; 16 unfinished at the end, 0 lost in progress with killed workers, 364 finished: 4 not \
shipped (faults, unknown verdicts, GRPO group filters), 0 dropped by full worker buffers, 0 lost with killed workers, \
0 in flight at the end, 360 received by the learner; unaccounted: 0
    """
    b = episode_balance(summary)
    if "started" not in b:
        return "episodes: this run predates the episode counters"
    return (f"episodes: {b['started']:,.0f} started; {b['unfinished']:,.0f} unfinished at the end, "
            f"{b['lost_in_progress']:,.0f} lost in progress with killed workers, {b['finished']:,.0f} finished: "
            f"{b['not_shipped']:,.0f} not shipped (faults, unknown verdicts, GRPO group filters), {b['dropped']:,.0f} "
            f"dropped by full worker buffers, {b['lost_finished']:,.0f} lost with killed workers, "
            f"{b['in_flight']:,.0f} in flight at the end, {b['received']:,.0f} received by the learner; "
            f"unaccounted: {b['unaccounted']:,.0f}")


def replay_accounting(summary: dict) -> str:
    """Where the finished episodes of a run went: the workers' buffers, the staleness cap, eviction, sampling.

    >>> print(replay_accounting({"runtime/episodes": 1873, "runtime/faulty_episodes": 0,
    ...                          "runtime/dropped_trajectories": 1135, "replay/inserted": 514,
    ...                          "replay/dropped_stale": 450, "replay/evicted": 0, "replay/sampled": 1542,
    ...                          "replay/samples_per_inserted": 3.0}))
    replay: of 1,873 episodes, 0 cut by faults, 1,135 dropped by full worker buffers before the learner saw them; \
514 inserted, 450 dropped as stale (learner.max_staleness), 0 evicted (learner.replay_capacity_steps); \
1,542 samples drawn, 3.00 per inserted trajectory
    >>> replay_accounting({"runtime/episodes": 100, "runtime/faulty_episodes": 40, "runtime/fault_prefixes": 31})[:78]
    'replay: of 100 episodes, 40 cut by faults (31 of them shipped up to the fault)'
    """
    count = {k: int(summary.get(k, 0)) for k in ("runtime/episodes", "runtime/faulty_episodes",
                                                   "runtime/fault_prefixes", "runtime/dropped_trajectories",
                                                   "replay/inserted", "replay/dropped_stale", "replay/evicted",
                                                   "replay/sampled")}
    prefixes = (f" ({count['runtime/fault_prefixes']:,} of them shipped up to the fault)"
                if count["runtime/fault_prefixes"] else "")
    return (f"replay: of {count['runtime/episodes']:,} episodes, {count['runtime/faulty_episodes']:,} cut by faults"
            f"{prefixes}, "
            f"{count['runtime/dropped_trajectories']:,} dropped by full worker buffers before the learner saw them; "
            f"{count['replay/inserted']:,} inserted, {count['replay/dropped_stale']:,} dropped as stale "
            f"(learner.max_staleness), {count['replay/evicted']:,} evicted (learner.replay_capacity_steps); "
            f"{count['replay/sampled']:,} samples drawn, {summary.get('replay/samples_per_inserted', 0.0):.2f} per "
            "inserted trajectory")


def group_accounting(summary: dict) -> str | None:
    """Where the groups of a GRPO run went (None when the workers played no groups).

    >>> print(group_accounting({"runtime/groups_released": 90, "runtime/groups_uniform": 30,
    ...                         "runtime/groups_too_small": 1, "runtime/group_members_lost": 5}))
    groups: 90 released to the learner, 30 dropped as uniform (every member returned the same: no signal), \
1 dropped with fewer than 2 members left; 5 members lost to faults
    >>> group_accounting({"runtime/episodes": 10}) is None
    True
    """
    keys = ("runtime/groups_released", "runtime/groups_uniform", "runtime/groups_too_small",
            "runtime/group_members_lost")
    count = {k: int(summary.get(k, 0)) for k in keys}
    if not any(count.values()):
        return None
    return (f"groups: {count[keys[0]]:,} released to the learner, {count[keys[1]]:,} dropped as uniform (every "
            f"member returned the same: no signal), {count[keys[2]]:,} dropped with fewer than 2 members left; "
            f"{count[keys[3]]:,} members lost to faults")


def cmd_eval(args: argparse.Namespace) -> int:
    """Evaluate a run's checkpoint on a split; print the result and write it to `--out`."""
    from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
    from distrl_agent.runtime.collect import evaluate_by_task

    run = Path(args.checkpoint)
    config = resolve_config(args, run)
    checkpoint = find_checkpoint(run)
    saved = read_policy(checkpoint)
    if isinstance(saved.config, VLMPolicyConfig) and not args.trust_run_dir:
        saved = replace(saved, config=user_model_path(saved.config, config, checkpoint))
    version = saved.version
    rate, by_task = evaluate_by_task(config, saved.weights, version, args.split, args.episodes, args.eval_seed,
                                     saved.config)
    result = {"checkpoint": str(checkpoint), "version": version, "split": args.split, "episodes": args.episodes,
              "success": rate, "success_by_task": by_task}
    out = Path(args.out) if args.out else run / f"eval_{args.split}.json"
    write_text(out, json.dumps(result, indent=2))
    print(json.dumps(result))
    return 0


def user_model_path(saved: VLMPolicyConfig, config: TrainConfig, checkpoint: Path) -> VLMPolicyConfig:
    """The checkpoint's VLM policy config with the model folder the user named (`policy.vlm.model_path`).

    A checkpoint's learner.json is data like its config.yaml: the model folder it names is loaded only when the user
    names it (the weights then come from the checkpoint) or trusts the folder.

    Raises:
        UntrustedConfigError: the user named no VLM model folder.
    """
    if config.policy.vlm is None:
        raise UntrustedConfigError(
            f"the checkpoint in {checkpoint} holds a VLM policy whose model folder is {saved.model_path!r}; a run "
            "folder cannot choose a model folder to load for you. Give it yourself "
            f"(`policy.kind=vlm policy.vlm.model_path=DIR`), or pass {TRUST_FLAG} if you trust {checkpoint.parent}")
    return saved.replace(model_path=config.policy.vlm.model_path)


def cmd_collect(args: argparse.Namespace) -> int:
    """Collect with the untrained policy for `--seconds`; print throughput and write it to run_dir/collect.json.

    collect.json holds the resolved config too (a run's own config.yaml in the same run_dir is left alone).
    """
    from distrl_agent.runtime.collect import collect

    config = resolve_config(args)
    print("resolved config:\n" + config.to_yaml(), flush=True)
    run_dir = Path(config.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    result = collect(config, args.seconds, save_to=args.save)
    write_text(run_dir / "collect.json", json.dumps({**result, "config": config.to_dict()}, indent=2))
    print(json.dumps(result))
    return 0


def _add_config_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="YAML config file")
    group = parser.add_argument_group("runtime (each sets runtime.<name>)")
    for name, field in RuntimeSection.model_fields.items():
        flag = "--" + name.replace("_", "-")
        if field.annotation is bool:
            group.add_argument(flag, dest=name, action="store_true", default=None, help=f"set runtime.{name}")
        else:
            group.add_argument(flag, dest=name, metavar="VALUE", help=f"runtime.{name} (YAML value)")
    for name, dotted in _SHORTCUTS.items():
        known = f" (one of: {', '.join(ALGORITHMS)})" if name == "algorithm" else ""
        parser.add_argument("--" + name.replace("_", "-"), dest=name, metavar="VALUE", help=f"sets {dotted}{known}")
    parser.add_argument("override", nargs="*", help="overrides like learner.algorithm=digirl runtime.minutes=5")


def build_parser() -> argparse.ArgumentParser:
    """The `distrl` argument parser."""
    parser = argparse.ArgumentParser(prog="distrl", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    train_p = sub.add_parser("train", help="train an agent (the main job)")
    train_p.add_argument("--resume", metavar="DIR", help="continue the run in DIR from its checkpoint")
    train_p.add_argument("--quiet", action="store_true", help="no progress bar")
    train_p.set_defaults(func=cmd_train)
    eval_p = sub.add_parser("eval", help="evaluate a checkpoint")
    eval_p.add_argument("--checkpoint", required=True, metavar="DIR", help="a run directory")
    eval_p.add_argument("--split", choices=SUITE_SPLITS, default="test",
                        help="held-out values (test), or, on World, held-out templates or apps")
    eval_p.add_argument("--episodes", type=int, default=100)
    eval_p.add_argument("--eval-seed", type=int, default=12345, help="seeds the evaluation episodes")
    eval_p.add_argument("--out", help="result file (default: DIR/eval_<split>.json)")
    eval_p.set_defaults(func=cmd_eval)
    collect_p = sub.add_parser("collect", help="collect data only, for throughput measurement")
    collect_p.add_argument("--seconds", type=float, default=30.0, help="measured collection time")
    collect_p.add_argument("--save", metavar="FILE", help="also write the trajectories to this .npz")
    collect_p.set_defaults(func=cmd_collect)
    for p in (train_p, eval_p, collect_p):
        _add_config_flags(p)
    for p in (train_p, eval_p):
        p.add_argument(TRUST_FLAG, action="store_true",
                       help="take the judge, phones, task file, model path and Ray address that the run folder's "
                            "config.yaml names (without it, each must be given again)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of `distrl`; returns 2 on a usage, config, checkpoint or runtime error."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    args = build_parser().parse_args(argv)
    if getattr(args, "episodes", 1) < 1:
        print("distrl: error: `--episodes` must be >= 1", file=sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except (DistrlError, UnsafePathError) as e:
        print(f"distrl: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("distrl: interrupted (`distrl train` wrote a checkpoint first: continue with --resume)", file=sys.stderr)
        return 130
