"""Tests of `distrl_agent.runtime.weights.SharedWeights`: one shared copy per version, consistent reads."""

from __future__ import annotations

import multiprocessing as mp

import numpy as np
import pytest

from distrl_agent.errors import CheckpointError
from distrl_agent.runtime.weights import SharedWeights

CTX = mp.get_context("spawn")


def _template(value: float) -> dict[str, np.ndarray]:
    return {"w": np.full((3, 4), value, np.float32), "b": np.full(5, value, np.float64), "n": np.array(7)}


def _read_in_child(shared: SharedWeights, out) -> None:
    version, weights, _ = shared.read()
    out.send((version, {k: v.tolist() for k, v in weights.items()}))


def test_read_returns_none_before_first_publish() -> None:
    """A reader sees nothing until the writer publishes."""
    shared = SharedWeights(_template(0.0), CTX)
    assert shared.version == -1 and shared.read() is None


def test_publish_then_read_round_trips_every_tensor() -> None:
    """The newest version comes back whole, with shapes and dtypes."""
    shared = SharedWeights(_template(0.0), CTX)
    shared.publish(1, _template(1.0))
    shared.publish(2, _template(2.5))
    version, weights, published_at = shared.read()
    assert version == 2 and shared.version == 2 and published_at > 0
    for key, value in _template(2.5).items():
        np.testing.assert_array_equal(weights[key], value)
        assert weights[key].dtype == value.dtype


def test_publish_rejects_weights_of_another_layout() -> None:
    """A tensor of another shape or a missing one raises CheckpointError naming it."""
    shared = SharedWeights(_template(0.0), CTX)
    with pytest.raises(CheckpointError, match="'w'"):
        shared.publish(1, {**_template(0.0), "w": np.zeros((4, 3), np.float32)})
    with pytest.raises(CheckpointError, match="lacks 'b'"):
        shared.publish(1, {"w": np.zeros((3, 4), np.float32), "n": np.array(7)})


def test_reader_in_another_process_sees_the_published_version() -> None:
    """A spawned process reads the version published before it started."""
    shared = SharedWeights(_template(0.0), CTX)
    shared.publish(9, _template(4.0))
    reader, writer = CTX.Pipe(duplex=False)
    child = CTX.Process(target=_read_in_child, args=(shared, writer))
    child.start()
    version, weights = reader.recv()
    child.join(timeout=30)
    assert version == 9 and weights["b"] == [4.0] * 5


def test_reads_reuse_one_buffer_per_process() -> None:
    """Every read copies into one private buffer, not fresh megabytes per version.

    The next read overwrites the arrays of the last; the state a spawned worker is sent carries no buffer.
    """
    shared = SharedWeights(_template(0.0), CTX)
    shared.publish(1, _template(1.0))
    _, first, _ = shared.read()
    shared.publish(2, _template(2.0))
    _, second, _ = shared.read()
    assert np.shares_memory(first["w"], second["w"])
    np.testing.assert_array_equal(first["b"], np.full(5, 2.0))
    assert shared.__getstate__()["_copy"] is None  # what a spawned worker is sent: no copy of this process's buffer


def test_read_into_hands_the_shared_memory_itself_and_keeps_no_copy() -> None:
    """A host's service loads straight from the broadcast: no private buffer, the views are the shared bytes."""
    shared = SharedWeights(_template(0.0), CTX)
    assert shared.read_into(lambda weights, version: pytest.fail("nothing is published yet")) is None
    shared.publish(3, _template(3.0))
    seen: list[tuple[int, dict[str, np.ndarray]]] = []
    version, published_at = shared.read_into(lambda weights, v: seen.append((v, weights)))
    assert version == 3 and published_at == shared.published_at and [v for v, _ in seen] == [3]
    np.testing.assert_array_equal(seen[0][1]["w"], np.full((3, 4), 3.0, np.float32))
    assert shared._copy is None  # read() would have allocated a private copy of every tensor
    shared.publish(4, _template(4.0))
    assert seen[0][1]["b"][0] == 4.0  # a view of the shared memory: the next publish shows through it


def test_read_into_loads_again_when_a_publish_overlapped() -> None:
    """A publish during `load` (torn weights) is followed by another load of the newer version, whole."""
    shared = SharedWeights(_template(0.0), CTX)
    shared.publish(1, _template(1.0))
    loads: list[tuple[int, float]] = []

    def load(weights: dict[str, np.ndarray], version: int) -> None:
        if not loads:
            shared.publish(2, _template(2.0))  # the learner publishes while this reader copies
        loads.append((version, float(weights["w"][0, 0])))

    assert shared.read_into(load)[0] == 2
    assert loads == [(1, 2.0), (2, 2.0)]  # the first load saw a mixture; the last one is version 2 whole
