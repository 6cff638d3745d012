"""Vectorised android_gym: `AsyncEnvPool` (partial batches, background resets, self-healing workers), its in-process
twin `SyncEnvPool` (the same API and rows), and `PoolVectorEnv`, the Gymnasium `VectorEnv` over `AsyncEnvPool`. The
SB3 adapter lives in `android_gym.vector.sb3` (it imports stable-baselines3 and torch, so it is not imported here).
"""  # noqa: D205

from android_gym.vector.errors import (
    PoolArgumentError,
    PoolError,
    PoolStateError,
    PoolTimeoutError,
    WorkerCallError,
    WorkerFailedError,
)
from android_gym.vector.pool import AsyncEnvPool
from android_gym.vector.sync_pool import SyncEnvPool
from android_gym.vector.types import EnvState, PoolConfig, PoolResult
from android_gym.vector.vector_env import EnvFactory, PoolVectorEnv, make_android_vector_env, make_vector_env

__all__ = [
    "AsyncEnvPool",
    "EnvFactory",
    "EnvState",
    "PoolArgumentError",
    "PoolConfig",
    "PoolError",
    "PoolResult",
    "PoolStateError",
    "PoolTimeoutError",
    "PoolVectorEnv",
    "SyncEnvPool",
    "WorkerCallError",
    "WorkerFailedError",
    "make_android_vector_env",
    "make_vector_env",
]
