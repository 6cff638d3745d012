"""`ChildProcess`: a parent's handle on one child process and its end of a duplex pipe, and `stop_children`.

The one place that starts, signals, reaps and explains the death of a child process. The env pool holds one per
env (`worker.WorkerProcess`); distrl_agent's local runtime holds one per rollout worker. Neither the handle nor
`stop_children` knows what the child does: the messages are the caller's protocol.

The child's target is called as `target(*args, conn)` with its end of the pipe. The parent closes that end right
after the start, so the child's death reads as end-of-file on `conn`: whole messages it sent before dying are still
read, a message cut by a SIGKILL is not.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.reduction import ForkingPickler
from typing import Any

MISSING_MAIN_GUARD = (
    "a child process is importing your script, and the script starts processes when imported ({what}): put the "
    "code that makes pools or trains under `if __name__ == \"__main__\":`, as every multiprocessing program must "
    "(the workers start with the 'forkserver' or 'spawn' method, which import the main script)")
"""Why starting a process failed in a child that imports the main script; `{what}` names what was starting."""


def is_importing_main_script() -> bool:
    """Whether this process is a child still preparing itself, which includes importing the parent's main script.

    The flag is the one multiprocessing's own check reads (`spawn._check_not_importing_main`).
    """
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def refuse_start_while_importing_main(what: str) -> None:
    """Raise the clear error instead of multiprocessing's recursion when a script lacks its main guard.

    Raises:
        RuntimeError: `is_importing_main_script()` (see `MISSING_MAIN_GUARD`).
    """
    if is_importing_main_script():
        raise RuntimeError(MISSING_MAIN_GUARD.format(what=what))


class ChildProcess:
    """Start, send to, kill and explain one child process. Restartable: `start` after `kill` runs a fresh child.

    Args:
        name: the process name (seen in `ps` and in logs).
        target: the child's body, called as `target(*args, conn)`.
        args: its arguments before the pipe end (picklable for spawn and forkserver contexts).
        context: the multiprocessing context that starts it.
        daemon: killed with the parent; a child that starts processes of its own must not be a daemon.

    Attributes:
        conn: the parent's end of the pipe (None before `start`).
        process: the `multiprocessing` process (None before `start`).
        pid: its process id (None before `start`).
    """

    def __init__(self, name: str, target: Callable[..., None], args: tuple[Any, ...], context: BaseContext,
                 daemon: bool = True) -> None:
        self.name = name
        self.target = target
        self.args = args
        self.context = context
        self.daemon = daemon
        self.conn: Connection | None = None
        self.process: Any = None
        self.pid: int | None = None
        self._exitcode_at_close: int | None = None

    def start(self) -> None:
        """Start the process; returns at once.

        Raises:
            RuntimeError: this process is itself importing the main script of another one (`__mp_main__`): the
                script starts processes at import time, without `if __name__ == "__main__":`.
        """
        refuse_start_while_importing_main(self.name)
        parent_end, child_end = self.context.Pipe(duplex=True)
        process = self.context.Process(target=self.target, args=(*self.args, child_end), name=self.name,
                                       daemon=self.daemon)
        process.start()
        child_end.close()  # only the child holds it now: its death reads as end-of-file here
        self.conn, self.process, self.pid = parent_end, process, process.pid
        self._exitcode_at_close = None

    @property
    def sentinel(self) -> int:
        """A file descriptor that becomes readable when the process ends."""
        return self.process.sentinel

    @property
    def exitcode(self) -> int | None:
        """The process's exit code (negative: the signal that killed it); None while it runs or before `start`."""
        if self.process is None:
            return None
        try:
            return self.process.exitcode
        except ValueError:  # closed by `kill`, which kept the code
            return self._exitcode_at_close

    def is_alive(self) -> bool:
        """True while the process runs (False before `start` and after it ended)."""
        return self.process is not None and self.exitcode is None

    def send(self, payload: bytes | memoryview) -> bool:
        """Send bytes already pickled; False if the pipe is broken (the child died)."""
        assert self.conn is not None
        try:
            self.conn.send_bytes(payload)
        except (OSError, ValueError):
            return False
        return True

    def send_message(self, message: object) -> bool:
        """Pickle and send `message` (as `Connection.send` would); False if the pipe is broken (the child died)."""
        return self.send(ForkingPickler.dumps(message))

    def exit_reason(self) -> str:
        """Why the process ended, for logs and `info["error"]` ("was killed by SIGKILL", "exited with code 3")."""
        code = self.exitcode
        if code is None:
            return "stopped answering"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def kill(self, join_timeout_s: float = 5.0) -> None:
        """SIGKILL the process (if alive), reap it within `join_timeout_s` seconds, and close the pipe (idempotent)."""
        if self.conn is None or self.conn.closed:
            return
        self.conn.close()
        if self.process is not None:
            if self.process.exitcode is None:
                self.process.kill()
            self.process.join(join_timeout_s)
            self._exitcode_at_close = self.process.exitcode
            try:
                self.process.close()  # frees its sentinel now rather than at garbage collection
            except ValueError:  # still running after join_timeout_s (unkillable, e.g. in uninterruptible I/O)
                pass


def stop_children(children: Sequence[ChildProcess], goodbye: bytes, timeout_s: float) -> None:
    """Send `goodbye` to every running child, wait up to `timeout_s` seconds for them to exit, SIGKILL the rest.

    While waiting, what the children still send is read and dropped: a child blocked writing a big message to a
    full pipe would otherwise never read its goodbye.
    """
    live = [c for c in children if c.process is not None and c.conn is not None and not c.conn.closed]
    for child in live:
        child.send(goodbye)
    conns = {c.conn: c for c in live}
    deadline = time.monotonic() + timeout_s
    while (alive := [c for c in live if c.is_alive()]) and time.monotonic() < deadline:
        for ready in wait([c.sentinel for c in alive] + list(conns), max(0.0, deadline - time.monotonic())):
            if ready in conns:
                try:
                    ready.recv_bytes()  # type: ignore[union-attr]
                except (EOFError, OSError):
                    del conns[ready]
    for child in live:
        child.kill()
