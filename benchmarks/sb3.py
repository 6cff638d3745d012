"""Outside reference: stable-baselines3 PPO on the same suite through the SB3 wrappers, with a wall-clock budget.

PPO sees the flattened observation (UI-element arrays and the goal's bytes, no screenshot) and acts on the
MultiDiscrete grid (kind x screen cell x goal span); it starts from scratch (no demonstrations), unlike our agents.
"""

from __future__ import annotations

import time
from pathlib import Path

from stable_baselines3 import PPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger

from android_gym.wrappers import make_sb3_env
from benchmarks.result import Result, is_tiny, markdown_table


class _Deadline(BaseCallback):
    """Stops learning once `seconds` of wall-clock have passed."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def success_rate(model: PPO, split: str, episodes: int, seed: int = 0) -> float:
    """Greedy success of `model` on `split`."""
    env = make_sb3_env("android_gym/General-v0", split=split, screenshot_width=0)
    wins = 0
    for i in range(episodes):
        obs, _ = env.reset(seed=seed + i)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += reward > 0
    env.close()
    return wins / episodes


def run(quick: bool, out: Path) -> Result:
    """Train PPO for the budget and report train/test success (tiny mode: 256 steps, 3 evaluation episodes)."""
    tiny = is_tiny()
    minutes = 0.5 if quick else 20.0
    episodes = 3 if tiny else 30 if quick else 200
    n_steps = 128 if tiny else 512
    total_steps = 2 * n_steps if tiny else 10**9  # tiny: two rollouts and their updates; else the deadline stops it
    env = make_sb3_env("android_gym/General-v0", screenshot_width=0)
    model = PPO("MultiInputPolicy", env, n_steps=n_steps, batch_size=min(128, n_steps), seed=0, device="cpu",
                verbose=0)
    model.set_logger(Logger(None, []))  # by default SB3 makes an empty /tmp/SB3-<date> folder per `learn`
    start = time.monotonic()
    model.learn(total_timesteps=total_steps, callback=_Deadline(minutes * 60))
    elapsed = time.monotonic() - start
    train_rate, test_rate = success_rate(model, "train", episodes), success_rate(model, "test", episodes, 10_000)
    result = Result(config={"algorithm": f"PPO (SB3 defaults, n_steps {n_steps})", "minutes": minutes,
                            "max_env_steps": total_steps, "eval_episodes": episodes})
    result.add("ppo/train_success", 100 * train_rate, "%")
    result.add("ppo/test_success", 100 * test_rate, "%")
    result.add("ppo/env_steps_per_s", model.num_timesteps / elapsed, "steps/s")
    result.tables.append(markdown_table(["agent", "env steps", "train success", "test success"],
                                        [["SB3 PPO (from scratch)", model.num_timesteps, f"{100 * train_rate:.1f}%",
                                          f"{100 * test_rate:.1f}%"]]))
    result.notes.append("DQN is not run: its Discrete action space would need the 57,344 joint grid actions "
                        "flattened into one, which SB3's DQN cannot explore in this budget.")
    env.close()
    return result
