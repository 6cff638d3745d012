"""Host-local slots: the envs of one machine numbered 0, 1, 2, ... whichever process built them (issue 47).

A run's `{index}` numbers its envs over every host, so on a second host it names serials and ports of emulators that
host does not run. In a device spec, `{slot}` is instead the lowest number no other env on this machine holds
(claimed across processes as the emulator ports are, `emulator_console.claim`; a claim whose process died is taken
over), and `{port}` the console port of that slot's emulator when a host starts its emulators the usual way, one after
another (`emulator -port 5554`, `5556`, ...): 5554 + 2 x slot. So `emulator@{port}` attaches each env to one of the
emulators of the host it runs on, and `adb:emulator-{port}` drives it over ADB alone.

>>> fill("emulator@{port}", 2), fill("adb:phone-{slot}", 0), uses_slot("emulator:pixel_7")
('emulator@5558', 'adb:phone-0', False)
"""

from __future__ import annotations

import threading
from typing import Any

from android_gym.devices.emulator_console import claim, unclaim
from android_gym.errors import DeviceOfflineError

FIRST_CONSOLE_PORT = 5554
"""The console port of slot 0: the emulator's own first port (`emulator-5554`)."""
MAX_SLOTS = 1024
PLACEHOLDERS = ("{slot}", "{port}")


def uses_slot(spec: Any) -> bool:
    """Whether the device spec `spec` names a host slot (`{slot}` or `{port}`)."""
    return isinstance(spec, str) and any(p in spec for p in PLACEHOLDERS)


def fill(spec: Any, slot: int) -> Any:
    """`spec` with `{slot}` and `{port}` replaced for host slot `slot` (anything but a string as it is)."""
    if not isinstance(spec, str):
        return spec
    return spec.replace("{slot}", str(slot)).replace("{port}", str(FIRST_CONSOLE_PORT + 2 * slot))


class HostSlot:
    """One slot of this machine, held until `release()` (or until this process ends).

    Guarantees: no two live holders on this machine, in one process or several, hold the same number; `claim()`
    returns the lowest free number, so a host's envs take 0, 1, 2, ... in the order they start.
    """

    _held: set[int] = set()
    _lock = threading.Lock()

    def __init__(self, number: int) -> None:
        self.number = number
        self._is_held = True

    @classmethod
    def claim(cls) -> HostSlot:
        """The lowest free slot of this machine, now held.

        Raises:
            DeviceOfflineError: all `MAX_SLOTS` are held.
        """
        with cls._lock:
            for number in range(MAX_SLOTS):
                if number not in cls._held and claim(f"slot-{number}"):
                    cls._held.add(number)
                    return cls(number)
        raise DeviceOfflineError(f"all {MAX_SLOTS} host slots of this machine are held; close some envs")

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        with self._lock:
            if self._is_held:
                self._is_held = False
                self._held.discard(self.number)
                unclaim(f"slot-{self.number}")

    def __repr__(self) -> str:
        return f"HostSlot({self.number})"
