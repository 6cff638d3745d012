"""The exception tree of `distrl_agent`: one subclass per failure, so callers catch the narrowest one."""

from __future__ import annotations


class DistrlError(Exception):
    """Base of every error raised by `distrl_agent`."""


class ConfigError(DistrlError, ValueError):
    """A constructor argument or hyperparameter is invalid; the message names the argument and the valid range."""


class UntrustedConfigError(ConfigError):
    """A run folder's config.yaml reaches outside the folder or loads code; the message names each key and the flag.

    See `distrl_agent.run_folder`: a judge, phones, a task file, a model or a cluster named by a folder is used only
    when the user names it again or passes `--trust-run-dir`; `trust_remote_code` never comes from a folder.
    """


class RunDirError(DistrlError):
    """A run cannot write into its folder: it holds an earlier run (resume it, or pass `--overwrite`), the folder to
    resume does not exist, or the path is not a folder. See `distrl_agent.runtime.run_dir`."""  # noqa: D205, D209


class DataError(DistrlError, ValueError):
    """Data is malformed: NaN/inf values, an empty trajectory, mismatched lengths or shapes, a negative priority."""


class ReplayError(DistrlError, RuntimeError):
    """The replay buffer was used in a way its state does not allow (sampling an empty buffer, an oversized insert)."""


class CheckpointError(DistrlError):
    """A checkpoint could not be written or read back (unserialisable field, missing key, incompatible config)."""


class WorkerError(DistrlError, RuntimeError):
    """A rollout worker failed beyond recovery; the message carries the worker index and its last traceback.

    Raised when a worker keeps crashing past `runtime.max_worker_restarts`, or breaks the synchronous protocol.
    """


class ClusterError(DistrlError, RuntimeError):
    """The distributed runtime cannot run: Ray is not installed, or the cluster address did not answer in time."""
