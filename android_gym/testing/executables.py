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


def simulated_sdk(root: Path, *emulator_args: str) -> Path:
    """An Android SDK folder at `root` whose emulator is `android-gym emulator` (with `emulator_args` after the
    caller's) and whose adb is `android-gym-adb`, laid out as the real SDK (`emulator/emulator`,
    `platform-tools/adb`), so that `sdk_root` or $ANDROID_SDK_ROOT finds both as it would a real SDK's. Returns `root`.
    """  # noqa: D205
    emulator_executable(root / "emulator" / "emulator", *emulator_args)
    adb_executable(root / "platform-tools" / "adb")
    return root
