"""`ProgramTarget`: what the ADB front's shell programs (`input`, `am`, `cat`, ...) see of the phone they run on.

`SimTarget` implements it; the programs are written against this view, so that the target can build its shell from
them without the two modules importing each other.
"""

from __future__ import annotations

import threading
from typing import Protocol

from android_gym.sim.adb.logd import LogBuffer
from android_gym.sim.admin import PhoneAdmin
from android_gym.sim.latency import Settling


class ProgramTarget(Protocol):
    """One simulated phone's state as shell programs read and change it (see `SimTarget` for the fields' meaning)."""

    phone: PhoneAdmin
    files: dict[str, bytes]
    props: dict[str, str]
    settings: dict[tuple[str, str], str]
    imes: list[str]
    stop_event: threading.Event
    logd: LogBuffer
    settling: Settling

    def free_bytes(self, replacing: str = "") -> int:
        """Bytes a new file may still hold within the phone's storage quota (`replacing`'s own bytes not counted)."""
        ...

    def observe(self) -> None:
        """Let the log see the phone's activities as they are now (`LogBuffer.observe`)."""
        ...

    def png(self) -> bytes:
        """The screen as `screencap -p` writes it."""
        ...

    def raw(self) -> bytes:
        """The screen as `screencap` (no -p) writes it."""
        ...
