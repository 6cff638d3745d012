"""Program paths for tools that take one: an `emulator` for emulator managers, an `adb` for AndroidEnv's `adb_path`.

Each is a script in a folder of the caller's (a test's temporary folder, a benchmark's output) that runs our command
with this Python, so it works whether or not the package's console scripts are installed on PATH.
"""

from __future__ import annotations

import sys
from pathlib import Path


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!{sys.executable}\nimport sys\n{body}\n")
    path.chmod(0o755)
    return path


def emulator_executable(path: Path, *extra_args: str) -> Path:
    """`android-gym emulator` at `path`, with `extra_args` after the caller's (e.g. "-sim-boot-s", "0.3")."""
    return _script(path, "from android_gym.sim.emulator.process import main\n"
                         f"sys.exit(main([*sys.argv[1:], *{list(extra_args)!r}]))")


def adb_executable(path: Path) -> Path:
    """`android-gym-adb` (adb's command line) at `path`."""
    return _script(path, "from android_gym.devices.adb_cli import main\nsys.exit(main())")
