"""`distrl`: train (the main job), evaluate, collect data only, print the config, export a trained VLM.

Every subcommand takes `--config FILE`, flags built from the config's `runtime` section (`--workers 4 --sync
--runtime ray --address auto ...`, booleans with `--no-` forms) and `section.key=value` overrides anywhere on the
line, applied in that order; `--help-config [SECTION]` lists every setting. Examples:

    distrl train --minutes 2                       # sim `general` suite, A-RIDE, local runtime, all cores
    distrl train --minutes 5 --workers 2 learner.algorithm=digirl --sync
    distrl train --resume runs/latest              # continue a run from its checkpoint and config.yaml
    distrl eval --checkpoint runs/latest --split test --episodes 100
    distrl config learner.algorithm=ppo > ppo.yaml # the resolved config, to edit and run with --config
    distrl train --help-config learner             # every learner setting, its value and what it does
    distrl export --checkpoint runs/latest --out agent policy.vlm.model_path=DIR   # a trained VLM
    distrl collect --seconds 30 --envs-per-worker 16

Each `distrl train` writes into a new folder, runs/<date>-<time>-<algorithm>-<suite>; runs/latest points at it.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence

from android_gym.errors import AndroidGymError, MissingExtraError
from android_gym.extras import require_extra

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `distrl`; returns 2 with one line on a usage, config, checkpoint, device or runtime error."""
    try:  # before anything imports torch: the core install is the environment alone
        require_extra("agent", "`distrl`")
    except MissingExtraError as e:
        print(f"distrl: error: {e}", file=sys.stderr)
        return 2
    from distrl_agent.cli.commands import COMMANDS, cmd_help_config
    from distrl_agent.cli.parser import parse_args
    from distrl_agent.errors import DistrlError

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    args = parse_args(argv, __doc__)
    try:
        if args.help_config is not None:
            return cmd_help_config(args)
        return int(COMMANDS[args.command](args))
    except (DistrlError, AndroidGymError) as e:
        print(f"distrl: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("distrl: interrupted (`distrl train` wrote a checkpoint first: continue with --resume)", file=sys.stderr)
        return 130
