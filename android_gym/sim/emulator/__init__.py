"""The simulated phone as an Android emulator process: the emulator's command line, its console, adbd, snapshots.

`process.main(argv)` is what `android-gym emulator` runs (`python -m android_gym.sim.emulator.process` too), and
`process.EmulatorProcess` is the same thing in-process; they are not imported here, so that running the module with
`-m` does not load it twice. `parse_args` reads the emulator's command line; `ConsoleServer` and `Snapshots` serve
the telnet console.
"""

from android_gym.sim.emulator.args import EmulatorArgs, parse_args
from android_gym.sim.emulator.console import ConsoleServer, Snapshots

__all__ = ["ConsoleServer", "EmulatorArgs", "Snapshots", "parse_args"]
