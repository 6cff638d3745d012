"""Registers every suite with Gymnasium: `gym.make("android_gym/General-v0")`, `gym.make("android_gym/WebShop-v0")`,
`gym.make("android_gym/World-v0")`, `gym.make("android_gym/AndroidWorld-v0")`."""  # noqa: D205, D209

from __future__ import annotations

import gymnasium as gym

ENV_IDS = {"android_gym/General-v0": "general", "android_gym/WebShop-v0": "webshop", "android_gym/World-v0": "world",
           "android_gym/AndroidWorld-v0": "androidworld"}


def register_envs() -> None:
    """Register the env ids (idempotent)."""
    for env_id, suite in ENV_IDS.items():
        if env_id in gym.registry:
            continue
        gym.register(id=env_id, entry_point="android_gym.env:AndroidEnv", kwargs={"suite": suite},
                     disable_env_checker=False,
                     vector_entry_point="android_gym.vector.vector_env:make_android_vector_env")
