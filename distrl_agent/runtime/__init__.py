"""Rollout workers, the learner, and the transports that connect them (local processes by default, Ray at scale)."""
