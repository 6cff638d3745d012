"""Trajectory-level replay: the sum tree, the circular prioritised buffer and the A-RIDE priority formula."""

from distrl_agent.replay.buffer import TrajectoryReplay
from distrl_agent.replay.priority import trajectory_priority
from distrl_agent.replay.sum_tree import SumTree

__all__ = ["SumTree", "TrajectoryReplay", "trajectory_priority"]
