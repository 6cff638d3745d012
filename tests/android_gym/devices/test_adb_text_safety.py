"""Text input safety: model-generated text is typed literally and never runs a command on the device.

The front interprets every command line like Android's sh and records each executed argv, so a quoting bug would
show up as an extra command (`touch`, `reboot`, a keyevent) in `SimTarget.history`, or as a file it created.
"""

from __future__ import annotations

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.adb import AdbDevice
from android_gym.devices.adb_channel import AdbChannel

ATTACKS = [
    "; touch /sdcard/pwned", "a && reboot", "b || reboot", "$(touch /sdcard/pwned)", "`input keyevent 3`",
    "x | sh", "' ; touch /sdcard/q ; '", '" ; touch /sdcard/r ; "', "50%s off %", "$((1+1)) ${IFS} $HOME",
    "back\\slash \\; \\$(id)", "# not a comment", "> /sdcard/redir < /etc/passwd 2>&1", "&", "'", '"', "\\",
    "ünïcødé 😀 中文",
]


def focused_field(front, **kwargs) -> AdbDevice:
    """An AdbDevice showing Chrome with its address bar focused (the keyboard up)."""
    dev = AdbDevice("sim-0", port=front.port, timeout_s=5, **kwargs)
    dev.reset(0)
    assert dev.perform(Action(ActionType.OPEN_APP, text="Chrome")).is_valid
    field = next(e for e in dev.ui_elements() if e.cls.endswith("EditText"))
    assert dev.perform(Action.tap(-1, -1).with_element(field.index)).is_valid
    dev.ui_elements()  # fetched now, so that the history below holds only what typing executes
    return dev


def typed_text(dev: AdbDevice) -> str:
    """Text of the focused field, from the device's state."""
    screen = dev.state()["screen"]
    return screen["fields"][screen["focus"]]


@pytest.mark.parametrize("text", ATTACKS)
def test_ime_path_types_attacks_literally(front, text):
    """Through the ADB keyboard, every attack is typed character for character and runs nothing."""
    dev = focused_field(front, text_input="ime")
    target = front.target("sim-0")
    start = len(target.history)
    assert dev.perform(Action(ActionType.TYPE, text=text)).is_valid
    executed = target.history[start:]
    assert [argv[:6] for argv in executed] == [["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg"]]
    assert typed_text(dev) == text
    assert not any(path.startswith("/sdcard/") and "dump" not in path for path in target.files)


@pytest.mark.parametrize("text", [t for t in ATTACKS if t.isascii()])
def test_input_text_path_types_attacks_literally(front, text):
    """Through `input text` (no IME), every ASCII attack is typed literally and only `input text` runs."""
    dev = focused_field(front, text_input="input")
    target = front.target("sim-0")
    start = len(target.history)
    assert dev.perform(Action(ActionType.TYPE, text=text)).is_valid
    executed = target.history[start:]
    assert executed and all(argv[:2] == ["input", "text"] and len(argv) == 3 for argv in executed)
    assert typed_text(dev) == text
    assert not any(path.startswith("/sdcard/") and "dump" not in path for path in target.files)


def test_newline_over_input_text_is_the_enter_key_not_a_command(front):
    """A newline becomes KEYCODE_ENTER between literal chunks; the next line never runs as a command."""
    dev = focused_field(front, text_input="input")
    target = front.target("sim-0")
    start = len(target.history)
    dev.perform(Action(ActionType.TYPE, text="lamp\ntouch /sdcard/pwned"))
    executed = target.history[start:]
    assert executed == [["input", "text", "lamp"], ["input", "keyevent", "66"],
                        ["input", "text", "touch%s/sdcard/pwned"]]
    assert "/sdcard/pwned" not in target.files


def test_the_detector_sees_an_unquoted_injection(front):
    """Sanity check of the method: an unquoted command line really does execute the injected command."""
    AdbChannel("sim-0", "127.0.0.1", front.port).shell("input text hello; touch /sdcard/pwned", timeout_s=5)
    target = front.target("sim-0")
    assert ["touch", "/sdcard/pwned"] in target.history and "/sdcard/pwned" in target.files
