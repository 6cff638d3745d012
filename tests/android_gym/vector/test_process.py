"""Tests of `android_gym.vector.process`: the child-process handle the env pool and the local runtime share."""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import time
from multiprocessing.connection import Connection

import pytest

from android_gym.vector.process import ChildProcess, stop_children

CONTEXT = mp.get_context("fork")
GOODBYE = pickle.dumps("goodbye")


def _polite(conn: Connection) -> None:
    """Leaves when told to."""
    if conn.recv() == "goodbye":
        return


def _deaf(conn: Connection) -> None:
    """Never reads its pipe."""
    time.sleep(60)


def _chatty(conn: Connection) -> None:
    """Writes a message bigger than the pipe's buffer first, then reads its goodbye."""
    conn.send_bytes(b"x" * (8 << 20))  # blocks until the parent reads it
    if conn.recv() == "goodbye":
        return


def _exit_3(conn: Connection) -> None:
    os._exit(3)


def _start(target) -> ChildProcess:
    child = ChildProcess("test-child", target, (), CONTEXT)
    child.start()
    return child


def test_exit_reason_names_the_signal_or_the_code() -> None:
    killed, exited = _start(_deaf), _start(_exit_3)
    os.kill(killed.pid, signal.SIGKILL)
    for child in (killed, exited):
        child.process.join(5)
    assert killed.exit_reason() == "was killed by SIGKILL"
    assert exited.exit_reason() == "exited with code 3"
    for child in (killed, exited):
        child.kill()


def test_the_childs_death_reads_as_end_of_file_and_a_send_to_it_fails() -> None:
    """The parent keeps no copy of the child's end: a dead child is seen on the pipe, not only on its sentinel."""
    child = _start(_exit_3)
    child.process.join(5)
    assert child.conn is not None and child.conn.poll(5)
    with pytest.raises(EOFError):
        child.conn.recv()
    time.sleep(0.05)
    assert not child.is_alive()
    child.kill()


def test_kill_is_idempotent_and_start_runs_a_fresh_child() -> None:
    child = _start(_deaf)
    first = child.pid
    child.kill()
    child.kill()
    assert not child.is_alive()
    assert not child.send_message("anything")  # a closed pipe is a failed send, not an exception
    child.start()
    assert child.is_alive() and child.pid != first
    child.kill()


def test_stop_children_lets_the_polite_go_and_kills_the_deaf_after_the_timeout() -> None:
    polite, deaf = _start(_polite), _start(_deaf)
    started = time.monotonic()
    stop_children([polite, deaf], GOODBYE, timeout_s=0.5)
    assert time.monotonic() - started < 10
    assert polite.exit_reason() == "exited with code 0"
    assert deaf.exit_reason() == "was killed by SIGKILL"
    assert not polite.is_alive() and not deaf.is_alive()


def test_stop_children_reads_what_a_child_is_still_sending_so_that_it_can_hear_its_goodbye() -> None:
    chatty = _start(_chatty)
    time.sleep(0.2)  # it is now blocked on its big write
    stop_children([chatty], GOODBYE, timeout_s=10)
    assert chatty.exit_reason() == "exited with code 0"  # not killed: the goodbye reached it
