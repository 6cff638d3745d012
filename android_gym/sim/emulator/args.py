"""The Android emulator's command line, parsed into `EmulatorArgs` (single-dash words, no prefix matching).

The real emulator takes `-avd NAME -port P -no-window ...`; argparse would accept `-po` for `-port` and treat
`-no-window` as a short-option cluster, so this is a small table-driven parser instead. Flags the sim does not model
are accepted and recorded in `EmulatorArgs.ignored` (the real emulator warns rather than fails for many).

>>> a = parse_args(["-avd", "Pixel_6", "-port", "5560", "-no-window", "-gpu", "swiftshader_indirect"])
>>> (a.avd, a.console_port, a.adb_port, a.is_window, a.gpu)
('Pixel_6', 5560, 5561, False, 'swiftshader_indirect')
>>> parse_args(["@Pixel_6", "-ports", "5570,5590", "-sim-boot-s", "0"]).adb_port
5590

Access flags are honoured or refused, never ignored (issue 43): `-grpc-use-token` and `-grpc-allowlist FILE` are
served (`grpc_access.py`); `-grpc-use-jwt` and the TLS flags are refused with a `ConfigError`, since a flag that asks
for protection and is dropped would leave the port open while the caller believes it closed.

>>> parse_args(["-avd", "P", "-grpc", "8554", "-grpc-use-token"]).is_grpc_token
True
>>> parse_args(["-avd", "P", "-grpc", "8554", "-grpc-use-jwt"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
android_gym.errors.ConfigError: option `-grpc-use-jwt` is not supported by the simulated emulator: it cannot ...
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from android_gym.errors import ConfigError
from android_gym.sim.latency import LATENCY_PRESETS
from android_gym.sim.perturbations import PRESETS

DEFAULT_CONSOLE_PORT = 5554  # the emulator's own default: emulator-5554, adb on 5555
SIM_FAULTS = ("crash", "hang", "refuse-snapshot")
Fault = Literal["crash", "hang", "refuse-snapshot"]


@dataclass(frozen=True)
class EmulatorArgs:
    """One emulator command line.

    Attributes:
        avd: the AVD name (`-avd NAME` or `@NAME`).
        console_port: the telnet console's TCP port (`-port P`, or the first of `-ports C,A`; 5554 by default).
        adb_port: adbd's TCP port (console + 1, or the second of `-ports C,A`).
        grpc_port: `-grpc G`: the gRPC EmulatorController and SnapshotService (grpc_service.py) serve it.
        is_grpc_token: `-grpc-use-token`: every gRPC call must carry `authorization: Bearer <token>`, the token a
            random one written to the discovery file (`grpc.token`); needs `-grpc`.
        grpc_allowlist: `-grpc-allowlist FILE`: the emulator's access JSON (which methods need no token, which the
            token may call); needs `-grpc-use-token`.
        is_window, is_skin, is_audio, is_boot_anim: False after `-no-window`, `-no-skin`, `-no-audio`,
            `-no-boot-anim` (the sim has none of them; recorded for logs).
        snapshot: `-snapshot NAME`: loaded at boot if the process holds it.
        is_snapshot_load: False after `-no-snapshot` or `-no-snapshot-load`.
        is_snapshot_save: False after `-no-snapshot`, `-no-snapshot-save` or `-read-only`.
        is_read_only: `-read-only` (several instances may share one AVD).
        is_wipe_data: `-wipe-data` (the sim always boots a fresh phone).
        gpu: `-gpu MODE`.
        adb_path: `-adb-path PATH`.
        is_verbose, is_show_kernel: `-verbose`, `-show-kernel`.
        features: every `-feature X`, in order.
        sim_boot_s: `-sim-boot-s S`: seconds from start until `sys.boot_completed` is 1.
        sim_perturbations: `-sim-perturbations LEVEL`: the phone's perturbation preset ("none", "default", "hard").
        sim_latency: `-sim-latency PRESET`: how slowly the phone settles after input and loads a snapshot
            (`android_gym.sim.latency.Settling`; "off", "emulator", "fast-emulator").
        sim_latency_scale: `-sim-latency-scale X`: multiplies those delays (benchmarks shrink a real emulator's time).
        sim_fault: `-sim-fault F`: "crash" (exit 1 at start), "hang" (boot never completes), "refuse-snapshot"
            (every snapshot load answers KO); None for a healthy emulator.
        ignored: flags the sim does not model, each with its value when it took one.
    """

    avd: str
    console_port: int = DEFAULT_CONSOLE_PORT
    adb_port: int = DEFAULT_CONSOLE_PORT + 1
    grpc_port: int | None = None
    is_grpc_token: bool = False
    grpc_allowlist: str | None = None
    is_window: bool = True
    is_skin: bool = True
    is_audio: bool = True
    is_boot_anim: bool = True
    snapshot: str | None = None
    is_snapshot_load: bool = True
    is_snapshot_save: bool = True
    is_read_only: bool = False
    is_wipe_data: bool = False
    gpu: str | None = None
    adb_path: str | None = None
    is_verbose: bool = False
    is_show_kernel: bool = False
    features: tuple[str, ...] = ()
    sim_boot_s: float = 1.0
    sim_perturbations: str = "none"
    sim_latency: str = "off"
    sim_latency_scale: float = 1.0
    sim_fault: Fault | None = None
    ignored: tuple[str, ...] = ()


# Switches: flag -> {field: value} it sets.
_SWITCHES: dict[str, dict[str, Any]] = {
    "-no-window": {"is_window": False}, "-no-skin": {"is_skin": False}, "-no-audio": {"is_audio": False},
    "-no-boot-anim": {"is_boot_anim": False},
    "-no-snapshot": {"is_snapshot_load": False, "is_snapshot_save": False},
    "-no-snapshot-load": {"is_snapshot_load": False}, "-no-snapshot-save": {"is_snapshot_save": False},
    "-read-only": {"is_read_only": True, "is_snapshot_save": False}, "-wipe-data": {"is_wipe_data": True},
    "-verbose": {"is_verbose": True}, "-show-kernel": {"is_show_kernel": True},
    "-grpc-use-token": {"is_grpc_token": True},
}
# Access flags the sim cannot honour: each is refused at start-up with its reason (issue 43), never ignored.
_REFUSED_SWITCHES = {
    "-grpc-use-jwt": "it cannot verify ES256 JSON Web Tokens; use `-grpc-use-token` (a bearer token in the "
                     "discovery file) instead",
}
_REFUSED_VALUES = {
    flag: "the simulated emulator serves gRPC on 127.0.0.1 with local credentials only, no TLS; keep the port "
          "local and use `-grpc-use-token`"
    for flag in ("-grpc-tls-key", "-grpc-tls-cer", "-grpc-tls-ca")
}


def _port(flag: str, text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise ConfigError(f"option `{flag}` takes a TCP port (an integer in 1..65535), got {text!r}")
    return port


def _ports(flag: str, text: str) -> dict[str, int]:
    console, sep, adb = text.partition(",")
    if not sep:
        raise ConfigError(f"option `{flag}` takes `<console port>,<adb port>`, got {text!r}")
    return {"console_port": _port(flag, console), "adb_port": _port(flag, adb)}


def _seconds(flag: str, text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise ConfigError(f"option `{flag}` takes a number of seconds >= 0, got {text!r}")
    return seconds


def _choice(choices: tuple[str, ...]) -> Callable[[str, str], str]:
    def check(flag: str, text: str) -> str:
        if text not in choices:
            raise ConfigError(f"option `{flag}` takes one of {', '.join(choices)}; got {text!r}")
        return text
    return check


# Valued flags: flag -> how its value becomes {field: value}.
_VALUES: dict[str, Callable[[str, str], dict[str, Any]]] = {
    "-avd": lambda f, v: {"avd": v},
    "-port": lambda f, v: _ports(f, f"{v},{_port(f, v) + 1}"),
    "-ports": _ports,
    "-grpc": lambda f, v: {"grpc_port": _port(f, v)},
    "-grpc-allowlist": lambda f, v: {"grpc_allowlist": v},
    "-snapshot": lambda f, v: {"snapshot": v},
    "-gpu": lambda f, v: {"gpu": v},
    "-adb-path": lambda f, v: {"adb_path": v},
    "-sim-boot-s": lambda f, v: {"sim_boot_s": _seconds(f, v)},
    "-sim-perturbations": lambda f, v: {"sim_perturbations": _choice(tuple(PRESETS))(f, v)},
    "-sim-fault": lambda f, v: {"sim_fault": _choice(SIM_FAULTS)(f, v)},
    "-sim-latency": lambda f, v: {"sim_latency": _choice(tuple(LATENCY_PRESETS))(f, v)},
    "-sim-latency-scale": lambda f, v: {"sim_latency_scale": _seconds(f, v)},
}


VERSION_TEXT = ("Android emulator version 35.2.10.0 (build_id android-gym) (CL:N/A)\n"
                "The simulated phone of android-gym, serving the emulator's console, adbd and gRPC on loopback.\n")
"""What `emulator -version` prints (the real emulator's first line, then what this one is)."""
HELP_TEXT = """\
Usage: emulator [options] [-qemu args]
  options:
    -avd <name>                    use a specific android virtual device (also @<name>)
    -list-avds                     list available AVDs (from $ANDROID_AVD_HOME or ~/.android/avd)
    -port <port>                   TCP port that will be used for the console (adbd on <port>+1)
    -ports <consoleport>,<adbport> TCP ports used for the console and adb bridge
    -grpc <port>                   TCP port of the gRPC EmulatorController and SnapshotService (loopback)
    -grpc-use-token                every gRPC call must carry the token written to the discovery file
    -grpc-allowlist <file>         which gRPC methods need no token, which the token may call (JSON)
    -snapshot <name>               snapshot to load at boot
    -no-snapshot                   perform a full boot and do not save state on exit
    -no-snapshot-load              do not load a snapshot at boot
    -no-snapshot-save              do not save state on exit
    -read-only                     allow running several instances of one AVD (no saved state)
    -wipe-data                     reset the user data (the simulated phone always boots fresh)
    -no-window                     no graphical window (the simulated phone never has one)
    -no-skin, -no-audio, -no-boot-anim, -gpu <mode>, -adb-path <path>, -feature <name>
                                   accepted and recorded (nothing to change on a simulated phone)
    -verbose, -show-kernel         more logging
    -version                       display emulator version number
    -help                          print this help
  simulated-phone options:
    -sim-boot-s <seconds>          seconds until sys.boot_completed is 1 (default 1)
    -sim-perturbations <level>     pop-ups, spinners, ignored taps: none (default), default, hard
    -sim-latency <preset>          seconds to settle after input and to load a snapshot: off (default),
                                   emulator (1.5 s steps, 12 s loads, heavy-tailed), fast-emulator
    -sim-latency-scale <x>         multiplies those seconds (default 1)
    -sim-fault <fault>             for tests: crash (exit 1), hang (never boots), refuse-snapshot
  refused (they ask for protection this emulator cannot give):
    -grpc-use-jwt, -grpc-tls-key, -grpc-tls-cer, -grpc-tls-ca
  Other -options are accepted and ignored, as the real emulator warns for many; -qemu passes the rest to QEMU.
"""
"""What `emulator -help` prints: the real emulator's layout, listing what this one implements."""
HELP_FLAGS = ("-help", "-h", "--help", "-help-all")
VERSION_FLAGS = ("-version", "--version")


def named_flags() -> tuple[str, ...]:
    """Every flag the parser treats by name (served, recorded or refused), which `HELP_TEXT` must list."""
    return (*_SWITCHES, *_VALUES, "-feature", *_REFUSED_SWITCHES, *_REFUSED_VALUES, "-list-avds", "-version", "-help")


def parse_args(argv: list[str]) -> EmulatorArgs:
    """Parse an emulator command line (without the program name).

    Unknown `-flag` words are accepted, taking the next word as their value unless it starts with "-"; `-qemu`
    passes everything after it to QEMU, so parsing stops there.

    Raises:
        ConfigError: `-avd` missing, a valued flag without its value, a bad value (non-integer port, unknown
            fault), an access flag the sim cannot honour (`-grpc-use-jwt`, `-grpc-tls-*`), or an access flag
            without what it protects (`-grpc-use-token` without `-grpc`, `-grpc-allowlist` without
            `-grpc-use-token`); the message names the flag.
    """
    fields: dict[str, Any] = {}
    features: list[str] = []
    ignored: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        i += 1
        if word.startswith("@") and len(word) > 1:
            fields["avd"] = word[1:]
        elif word in _REFUSED_SWITCHES or word in _REFUSED_VALUES:
            reason = _REFUSED_SWITCHES.get(word) or _REFUSED_VALUES[word]
            raise ConfigError(f"option `{word}` is not supported by the simulated emulator: {reason}")
        elif word in _SWITCHES:
            fields.update(_SWITCHES[word])
        elif word in _VALUES or word == "-feature":
            if i >= len(argv):
                raise ConfigError(f"option `{word}` needs a value; see `emulator -help`")
            value, i = argv[i], i + 1
            if word == "-feature":
                features.append(value)
            else:
                fields.update(_VALUES[word](word, value))
        elif word == "-qemu":
            ignored.append(" ".join(argv[i - 1:]))
            break
        elif word.startswith("-"):
            has_value = i < len(argv) and not argv[i].startswith("-")
            ignored.append(f"{word} {argv[i]}" if has_value else word)
            i += has_value
        else:
            raise ConfigError(f"unexpected argument {word!r}: emulator options start with `-` (or `@AVD`)")
    if not fields.get("avd"):
        raise ConfigError("no AVD given: pass `-avd NAME` (or `@NAME`)")
    _check_access(fields)
    return dataclasses.replace(EmulatorArgs(avd=fields.pop("avd")), **fields, features=tuple(features),
                               ignored=tuple(ignored))


def _check_access(fields: dict[str, Any]) -> None:
    """Refuse access flags that would protect nothing: each needs what it protects on the same command line."""
    if fields.get("is_grpc_token") and fields.get("grpc_port") is None:
        raise ConfigError("option `-grpc-use-token` protects the gRPC service, but no `-grpc PORT` was given; add "
                          "`-grpc PORT`")
    if fields.get("grpc_allowlist") and not fields.get("is_grpc_token"):
        raise ConfigError("option `-grpc-allowlist` says which methods the token may call, but no token is "
                          "required: add `-grpc-use-token` (without it every local process may call every method)")


def avd_home(env: Mapping[str, str]) -> Path:
    """Where the emulator looks for AVDs: $ANDROID_AVD_HOME, $ANDROID_EMULATOR_HOME/avd, $ANDROID_USER_HOME/avd,
    else ~/.android/avd."""  # noqa: D205, D209
    if env.get("ANDROID_AVD_HOME"):
        return Path(env["ANDROID_AVD_HOME"])
    for var in ("ANDROID_EMULATOR_HOME", "ANDROID_USER_HOME"):
        if env.get(var):
            return Path(env[var]) / "avd"
    return Path(env.get("HOME", str(Path.home()))) / ".android" / "avd"


def list_avds(home: Path) -> list[str]:
    """The AVDs of the store at `home` (each `NAME.ini`), sorted; none when there is no store."""
    return sorted(p.stem for p in home.glob("*.ini")) if home.is_dir() else []


def check_avd(name: str, home: Path) -> None:
    """Refuse an AVD a store at `home` does not hold, as the emulator does; with no AVD in a store (no SDK here, or
    AndroidEnv's empty one), the simulated phone is the image and every name is taken.

    Raises:
        ConfigError: the emulator's PANIC line, the store searched and the names it holds.
    """  # noqa: D205
    known = list_avds(home)
    if known and name not in known:
        raise ConfigError(f"PANIC: Unknown AVD name [{name}], use -list-avds to see valid list. There is no file "
                          f"{name}.ini in {home} (it holds {', '.join(known)})")
