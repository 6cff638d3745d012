"""Shared fixtures of the evaluator tests: the tiny VLM checkpoint, fake chat servers, tasks, screens, judges."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from android_gym.evaluators import factory
from android_gym.tasks import suites
from android_gym.tasks.base import Task
from android_gym.testing.fake_openai import FakeChatServer, Reply
from android_gym.testing.tiny_vlm import build_tiny_idefics3


@pytest.fixture(scope="session")
def tiny_vlm_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random Idefics3 checkpoint, built once per test session and loaded like a real one."""
    return build_tiny_idefics3(tmp_path_factory.mktemp("tiny_idefics3"))


@pytest.fixture
def fake_server() -> Iterator[Callable[..., FakeChatServer]]:
    """A factory of started `FakeChatServer`s on free 127.0.0.1 ports, all closed at teardown even on failure."""
    servers: list[FakeChatServer] = []

    def start(replies: Sequence[Reply] = (), default: Reply | Callable | None = None) -> FakeChatServer:
        server = FakeChatServer(replies, default or Reply())
        servers.append(server)
        return server.start()

    try:
        yield start
    finally:
        for server in servers:
            server.close()


@pytest.fixture(autouse=True)
def no_leaked_shared_judges() -> Iterator[None]:
    """Every test closes the envs and clients it opens, so no shared judge service outlives it."""
    yield
    assert len(factory._SHARED) == 0, "a test left a shared judge service open (close its envs/clients)"


@pytest.fixture
def tasks() -> tuple[Task, ...]:
    """A few tasks of different templates."""
    every = suites.tasks("general", "train")
    seen: dict[str, Task] = {}
    for task in every:
        seen.setdefault(task.name, task)
    return tuple(seen.values())
