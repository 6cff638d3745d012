"""The sim's ADB front: simulated phones behind the ADB host protocol (and an adbd endpoint) for the real client stack.

`AdbFront` is a loopback ADB server (what `adbutils` and the `adb` command line talk to on port 5037);
`AdbdEndpoint` is the device side that a real `adb` server reaches with `adb connect`. Both serve `SimTarget`s:
simulated phones with an emulated Android shell, file system, settings, and fault injection.
"""

from android_gym.sim.adb.faults import FaultConfig
from android_gym.sim.adb.server import AdbFront
from android_gym.sim.adb.target import SimTarget

__all__ = ["AdbFront", "FaultConfig", "SimTarget"]
