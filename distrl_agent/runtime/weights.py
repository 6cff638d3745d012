"""`SharedWeights`: the local runtime's weight broadcast, one copy in shared memory per version (a seqlock).

The learner process writes each version once into a shared byte buffer; worker processes copy it out when they see a
newer version, between steps. Readers never take a lock, so a worker killed mid-read (SIGKILL) cannot block the
learner or the other workers:

    writer:  seq += 1 (odd: writing) -> copy tensors, version, published_at -> seq += 1 (even: stable)
    reader:  s1 = seq (retry while odd) -> copy the buffer -> s2 = seq; the copy is whole iff s1 == s2

Each reader copies into one private buffer of its own, reused for every version: a fresh copy per version (about one a
second, megabytes each) made a worker's resident memory creep (heap fragmentation, measured by the soak benchmark).

One writer only (the learner's process). The handles are multiprocessing shared ctypes, passed to worker processes
as `Process` arguments (they cannot travel through queues).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from distrl_agent.errors import CheckpointError

if TYPE_CHECKING:  # a worker process unpickles `SharedWeights`; one served by a host's service never imports torch
    import torch

    from distrl_agent.policies.base import Policy


def to_numpy(tensor: torch.Tensor) -> np.ndarray:
    """A detached CPU numpy copy of a weight tensor; bfloat16, which numpy lacks, as float32 (loading casts back)."""
    import torch

    tensor = tensor.detach().cpu()
    return (tensor.float() if tensor.dtype == torch.bfloat16 else tensor).numpy().copy()


def trainable_weights(policy: Policy, keys: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """`policy`'s trainable weights as numpy arrays: what workers load each version.

    `keys`: `policy.trainable_state_keys()`, passed by a caller that ships weights often (the learner) so that they
    are not found again each time; None finds them.
    """
    state = policy.state_dict()
    return {k: to_numpy(state[k]) for k in (policy.trainable_state_keys() if keys is None else keys)}


class SharedWeights:
    """A versioned state_dict in shared memory: `publish` in the learner process, `read` in workers.

    Args:
        template: name -> array of every tensor (shapes and dtypes are fixed from here on).
        context: the multiprocessing context whose shared ctypes to use.
    """

    def __init__(self, template: Mapping[str, Any], context: Any) -> None:
        self.layout: list[tuple[str, tuple[int, ...], str, int]] = []  # (name, shape, dtype, offset)
        offset = 0
        for name, value in template.items():
            array = np.asarray(value)
            self.layout.append((name, tuple(array.shape), array.dtype.str, offset))
            offset += array.nbytes
        self.nbytes = offset
        self._buffer = context.RawArray("B", max(1, offset))
        self._seq = context.RawValue("q", 0)
        self._version = context.RawValue("q", -1)
        self._published_at = context.RawValue("d", 0.0)
        self._copy: np.ndarray | None = None  # this process's read buffer (never pickled: each reader has its own)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_copy": None}

    @property
    def version(self) -> int:
        """The newest published version (-1 before the first `publish`); a cheap read, no copy."""
        return int(self._version.value)

    @property
    def published_at(self) -> float:
        """When the newest version was published (`time.time()` seconds); a cheap read."""
        return float(self._published_at.value)

    def publish(self, version: int, weights: Mapping[str, Any]) -> None:
        """Write `weights` as `version` (single writer; readers see either the old or the new version whole).

        Raises:
            CheckpointError: `weights` lacks a tensor of the template or has another shape or dtype.
        """
        buffer = np.frombuffer(self._buffer, np.uint8)
        arrays = []
        for name, shape, dtype, offset in self.layout:
            if name not in weights:
                raise CheckpointError(f"`weights` lacks {name!r}; the broadcast layout was fixed at start")
            array = np.asarray(weights[name], order="C")
            if array.shape != shape or array.dtype.str != dtype:
                raise CheckpointError(f"`weights[{name!r}]` is {array.shape} {array.dtype.str}, expected {shape} "
                                      f"{dtype}")
            arrays.append((array, offset))
        self._seq.value += 1  # odd: a write is in progress
        for array, offset in arrays:
            buffer[offset:offset + array.nbytes] = array.reshape(-1).view(np.uint8)
        self._version.value = int(version)
        self._published_at.value = time.time()
        self._seq.value += 1  # even: stable again

    def read_into(self, load: Callable[[Mapping[str, np.ndarray], int], None], timeout_s: float = 10.0,
                  ) -> tuple[int, float] | None:
        """Hand `load(weights, version)` the newest weights as views of the shared memory, again until no publish
        overlapped; (version, published_at) of what `load` took last, or None if none is published.

        For a reader that copies them straight into its model (a host's inference service, `policy.load_weights`):
        the process then holds the weights once, in the model, without `read`'s private copy beside it (a model's
        size again, per process). `load` must copy what it keeps: the views change with the next publish.

        Raises:
            TimeoutError: no load without an overlapping publish within `timeout_s` seconds.
        """  # noqa: D205
        buffer = np.frombuffer(self._buffer, np.uint8)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            before = self._seq.value
            if before % 2:
                time.sleep(0.0005)
                continue
            version, published_at = int(self._version.value), float(self._published_at.value)
            if version < 0:
                return None
            load(self._views(buffer), version)
            if self._seq.value == before:  # no publish overlapped: what `load` took is one version, whole
                return version, published_at
        raise TimeoutError(f"no load of the shared weights without a publish overlapping it within {timeout_s} s")

    def read(self, timeout_s: float = 10.0) -> tuple[int, dict[str, np.ndarray], float] | None:
        """A consistent copy: (version, name -> array, published_at wall-clock seconds), or None if none published.

        The arrays view this process's read buffer, which the next `read` overwrites: load them (`load_weights`
        copies into the policy) or copy them before reading again.

        Raises:
            TimeoutError: no consistent copy within `timeout_s` seconds (the writer would have to publish
                continuously faster than one copy takes).
        """
        def copy(_: Mapping[str, np.ndarray], __: int) -> None:  # the whole buffer at once, not tensor by tensor
            if self._copy is None:
                self._copy = np.empty(self.nbytes, np.uint8)
            self._copy[:] = np.frombuffer(self._buffer, np.uint8)[:self.nbytes]

        got = self.read_into(copy, timeout_s)
        return None if got is None or self._copy is None else (got[0], self._views(self._copy), got[1])

    def _views(self, data: np.ndarray) -> dict[str, np.ndarray]:
        """Every tensor of the layout as a view of the bytes `data` (the shared buffer, or a reader's copy)."""
        return {name: np.frombuffer(data, np.dtype(dtype), int(np.prod(shape)), offset).reshape(shape)
                for name, shape, dtype, offset in self.layout}
