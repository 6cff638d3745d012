"""Tests of `distrl_agent.runtime` (a package, so its module names never collide with other test folders)."""
