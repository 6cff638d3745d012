"""`EmulatorPool`: N emulators of one AVD, launched staggered and booting in parallel, all or none."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from android_gym.devices.emulator import EmulatorConfig, EmulatorDevice
from android_gym.errors import ConfigError, DeviceError, EnvStateError


def _start_into(device: EmulatorDevice, errors: list[BaseException | None], i: int) -> None:
    """`device.start()`, storing what it raised at `errors[i]` (a pool thread's body)."""
    try:
        device.start()
    except BaseException as e:  # noqa: BLE001  (handed to the pool's thread, which re-raises it)
        errors[i] = e



@dataclass
class EmulatorPool:
    """N emulators of one AVD, launched `stagger_s` apart (simultaneous cold boots starve each other), booting at once.

    Guarantees: `start()` either returns N booted devices or raises having killed every emulator it launched (so
    `with EmulatorPool(...) as devices:` leaks none when a boot fails); `close()` kills every instance.

    Attributes:
        config: the AVD and its management settings (shared by every instance).
        size: number of instances.
        stagger_s: seconds between launches.
        adb: `AdbConfig` fields for every device (port, timeout_s, ...).
        sleep: how to wait (tests inject a fake).
    """

    config: EmulatorConfig
    size: int
    stagger_s: float = 10.0
    adb: dict[str, Any] = field(default_factory=dict)
    sleep: Callable[[float], None] = time.sleep
    devices: list[EmulatorDevice] = field(default_factory=list)

    def start(self) -> list[EmulatorDevice]:
        """Launch every instance `stagger_s` apart, each booting in its own thread; returns the devices once all boot.

        Takes about `(size - 1) * stagger_s` plus one boot, each device bounded as `EmulatorDevice.start()` is.

        Raises:
            DeviceError: an instance failed to boot after its relaunches (the message names which, and how many
                failed); every instance has been killed.
            EnvStateError: the pool is started already.
        """
        if self.size < 1:
            raise ConfigError(f"`size` must be >= 1, got {self.size}")
        if self.devices:
            raise EnvStateError(f"the pool already runs {len(self.devices)} emulators; close() it before start()")
        self.devices = [EmulatorDevice(self.config, sleep=self.sleep, **self.adb) for _ in range(self.size)]
        errors: list[BaseException | None] = [None] * self.size
        threads: list[threading.Thread] = []
        try:
            for i, device in enumerate(self.devices):
                if i:
                    self.sleep(self.stagger_s)
                threads.append(threading.Thread(target=_start_into, args=(device, errors, i), daemon=True,
                                                name=f"emulator-pool-{i}"))
                threads[-1].start()
        finally:
            for thread in threads:  # every start is bounded: join before killing, or a late relaunch would leak
                thread.join()
            failed = [(i, e) for i, e in enumerate(errors) if e is not None]
            if failed or len(threads) < self.size:  # a boot failed, or the launching loop itself was interrupted
                self.close()
        if failed:
            i, error = failed[0]
            if isinstance(error, DeviceError):
                raise type(error)(f"emulator {i} of the pool of {self.size} ({self.config.avd}) failed to start "
                                  f"({len(failed)} failed; all were killed): {error}") from error
            raise error
        return self.devices

    def heal(self) -> int:
        """Relaunch every unhealthy instance; returns how many were relaunched."""
        healed = 0
        for device in self.devices:
            if not device.health():
                device.close()
                device.start()
                healed += 1
        return healed

    def stats(self) -> dict[str, int]:
        """Counters summed over instances."""
        total: Counter[str] = Counter()
        for device in self.devices:
            total.update(device.stats())
        return dict(total)

    def close(self) -> None:
        """Kill every instance."""
        for device in self.devices:
            device.close()
        self.devices.clear()

    def __enter__(self) -> list[EmulatorDevice]:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
