"""`distrl`: train (the main job), evaluate a checkpoint, or collect data only."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time

from distrl_agent.config import load_config
from distrl_agent.errors import DistrlError


def cmd_train(args: argparse.Namespace) -> int:
    """Train with the resolved config; print it first and the summary last."""
    from distrl_agent.runtime.train import train

    overrides = list(args.override)
    if args.resume:
        overrides.append(f"run_dir={args.resume}")
    config = load_config(args.config, overrides)
    print("resolved config:\n" + json.dumps(config.to_dict(), indent=2))
    summary = train(config, resume=args.resume)
    print(f"done: train success {summary['train_success']:.1%}, test success {summary['test_success']:.1%} "
          f"after {summary['minutes']} min, {summary['env_steps']} env steps, {summary['updates']} updates; "
          f"outputs in {config.run_dir}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    """Evaluate a run's checkpoint on a split."""
    import torch

    from distrl_agent.runtime.train import evaluate

    config = load_config(args.config, args.override)
    blob = torch.load(f"{args.checkpoint}/checkpoint/learner.pt", weights_only=False)
    weights = {k: v.numpy() for k, v in blob["policy"].items()}
    rate = evaluate(config, weights, 0, args.split, args.episodes)
    print(json.dumps({"split": args.split, "episodes": args.episodes, "success": rate}))
    return 0


def cmd_collect(args: argparse.Namespace) -> int:
    """Collect with the (untrained) policy for a while and report throughput; no learning."""
    from distrl_agent.runtime.worker import Worker

    config = load_config(args.config, args.override)
    worker = Worker(0, config.env, config.runtime.envs_per_worker, seed=config.runtime.seed)
    worker.start()
    start = time.monotonic()
    trajectories = []
    while time.monotonic() - start < args.seconds:
        trajectories += worker.step()
    elapsed = time.monotonic() - start
    worker.close()
    print(json.dumps({"seconds": round(elapsed, 2), "trajectories": len(trajectories),
                      "steps": worker.stats["steps"], "steps_per_s": round(worker.stats["steps"] / elapsed, 1)}))
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The `distrl` argument parser."""
    parser = argparse.ArgumentParser(prog="distrl", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, func, helptext in (("train", cmd_train, "train an agent (the main job)"),
                                 ("eval", cmd_eval, "evaluate a checkpoint"),
                                 ("collect", cmd_collect, "collect data only, for throughput measurement")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("--config", help="YAML config file")
        p.add_argument("override", nargs="*", help="overrides like learner.algorithm=digirl runtime.minutes=5")
        p.set_defaults(func=func)
        if name == "train":
            p.add_argument("--resume", help="a run directory to resume from its checkpoint")
        if name == "eval":
            p.add_argument("--checkpoint", required=True, help="a run directory")
            p.add_argument("--split", choices=("train", "test"), default="test")
            p.add_argument("--episodes", type=int, default=100)
        if name == "collect":
            p.add_argument("--seconds", type=float, default=30.0)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of `distrl`."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except DistrlError as e:
        print(f"distrl: error: {e}", file=sys.stderr)
        return 2
