"""Fuzz tests of what a device says over ADB and what a client sends the sim's ADB front.

* `android_gym.devices.adb_shell`: the parsers of `wm size`, `dumpsys window`, `getprop`, `dumpsys alarm`,
  `settings get`, the one-round-trip state query, and raw and PNG screenshots;
* `android_gym.devices.adb_channel.AdbChannel`: the ADB wire protocol (OKAY/FAIL, hex lengths, shell v2 packets);
* `android_gym.devices.adb_connect.Connector` (the probe) and `android_gym.devices.adb.AdbDevice` (UI dump, the
  sim's state JSON, screenshots) on canned device replies;
* `android_gym.sim.adb.shell_parse.parse`: command lines a client sends to the sim's front.

Each input parses (and the result keeps its documented shape) or raises the documented error: `DeviceProtocolError`
(or, for the channel, another `DeviceError`), `ShellSyntaxError` for the sim's shell; nothing else.
"""

from __future__ import annotations

import io
import json
import socket
import struct
import warnings
import zlib
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st
from PIL import Image

from android_gym.devices import adb_shell as sh
from android_gym.devices.adb import AdbDevice
from android_gym.devices.adb_channel import AdbChannel, ShellResult
from android_gym.devices.adb_connect import AdbConfig, Connector, DeviceInfo
from android_gym.errors import DeviceError, DeviceProtocolError
from android_gym.sim.adb.shell_parse import Part, ShellSyntaxError, SimpleCommand, parse
from android_gym.ui import UIElement

REAL_SHELL = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "real" / "shell"
SHELL_FILES = sorted(REAL_SHELL.glob("*.txt")) if REAL_SHELL.is_dir() else []

digits = st.one_of(st.integers(0, 10**6).map(str), st.sampled_from(["", "0", "-1", "9" * 30, "9" * 5000, "١٠٨٠",
                                                                    "²", "1_0", " 7", "0x10", "1e3"]))
noise = st.text(max_size=30)


def device_text(*grammar: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, plus lines built from `grammar` pieces with noise between them."""
    lines = st.lists(st.one_of(*grammar, noise), max_size=8).map("\n".join)
    return st.one_of(st.text(), st.binary().map(lambda b: b.decode("utf-8", "replace")), lines)


# -- adb_shell text parsers --------------------------------------------------------------------------------------------
wm_lines = st.builds("{}{} size:{}{}x{}{}".format, st.sampled_from(["", "  "]), st.sampled_from(["Physical",
                     "Override", "physical"]), st.sampled_from([" ", "", "\t", "  "]), digits, digits, noise)


@given(device_text(wm_lines))
@example("Physical size: " + "9" * 5000 + "x1")
@example("Physical size: 0x0")
def test_wm_size_is_a_positive_size_or_a_protocol_error(text):
    """`wm size` gives two positive ints (they divide later) or `DeviceProtocolError`."""
    try:
        width, height = sh.parse_wm_size(text)
    except DeviceProtocolError:
        return
    assert type(width) is int and type(height) is int and width > 0 and height > 0


focus_lines = st.builds("{}{}={}{{{} {} {}/{}{}".format, st.sampled_from(["", "  "]),
                        st.sampled_from(["mCurrentFocus", "mFocusedApp"]),
                        st.sampled_from(["Window", "ActivityRecord", "null", "AppWindowToken"]), noise,
                        st.sampled_from(["u0", "u10", ""]), st.from_regex(r"[\w.]{0,20}", fullmatch=True),
                        st.from_regex(r"[\w.$]{0,20}", fullmatch=True), st.sampled_from(["}", " t12}", "", "}}"]))


@given(device_text(focus_lines))
def test_focus_is_a_package_and_activity_or_none(text):
    """`dumpsys window` focus never raises: (package, activity) strings or None."""
    focus = sh.parse_focus(text)
    assert focus is None or (len(focus) == 2 and all(isinstance(v, str) and v for v in focus))


prop_lines = st.builds("{}[{}]: [{}]{}".format, st.sampled_from(["", "          "]), noise, noise,
                       st.sampled_from(["", " ", "\r"]))


@given(device_text(prop_lines))
def test_getprop_is_a_dict_of_strings(text):
    """`getprop` never raises and gives str -> str."""
    props = sh.parse_getprop(text)
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in props.items())


alarm_lines = st.one_of(
    st.builds("    {} #{}: Alarm{{{} type {} when {} {}}}".format,
              st.sampled_from(["RTC_WAKEUP", "RTC", "ELAPSED_WAKEUP", "ELAPSED"]), digits, noise, digits, digits,
              st.from_regex(r"[\w.]{0,20}", fullmatch=True)),
    st.builds("      tag={}".format, noise))


@given(device_text(alarm_lines))
@example("RTC #0: Alarm{a type 0 when " + "9" * 5000 + " com.x}")
def test_alarms_are_a_list_of_records(text):
    """`dumpsys alarm` never raises: records with an int `when_ms` and str fields."""
    for alarm in sh.parse_alarms(text):
        assert set(alarm) == {"type", "package", "when_ms", "tag"}
        assert type(alarm["when_ms"]) is int and alarm["when_ms"] >= 0
        assert isinstance(alarm["package"], str) and isinstance(alarm["tag"], str)


@given(st.text())
def test_settings_value_is_a_string_or_none(text):
    """`settings get` never raises."""
    value = sh.parse_settings_value(text)
    assert value is None or (isinstance(value, str) and value == value.strip())


setting_values = st.one_of(st.sampled_from(["0", "1", "2", "3", "null", "", "255", "1.15", "nan", "inf", "-inf",
                                            "1e400", "9" * 400, "9" * 5000, "-1", "²", "1_0", "0x10", "true"]),
                           digits, st.floats().map(str), noise)
SYSTEM_TYPES = {"brightness": (int,), "font_size": (str,)}


@given(device_text(focus_lines), st.lists(setting_values, min_size=len(sh.SETTINGS), max_size=len(sh.SETTINGS)),
       st.booleans(), device_text(alarm_lines), st.integers(-2, 2))
@example("", ["9" * 400] * len(sh.SETTINGS), False, "", 0)
def test_state_is_the_documented_dict_or_a_protocol_error(focus, values, with_alarms, alarms, extra_sections):
    """The state query's output (settings garbage included) gives the documented dict or `DeviceProtocolError`."""
    sections = [focus] + [v + "\n" for v in values] + ([alarms] if with_alarms else [])
    sections = sections[:len(sections) + extra_sections] if extra_sections < 0 else sections + [""] * extra_sections
    try:
        state = sh.parse_state("\n@@android_gym@@\n".join(sections), with_alarms)
    except DeviceProtocolError:  # the wrong number of sections (or a marker inside the noise)
        return
    assert set(state) == {"foreground", "activity", "system"} | ({"alarms"} if with_alarms else set())
    assert set(state["system"]) == {s.key for s in sh.SETTINGS}
    for key, value in state["system"].items():
        assert value is None or isinstance(value, SYSTEM_TYPES.get(key, (bool,))), (key, value)


@pytest.mark.skipif(not SHELL_FILES, reason=f"real shell outputs not found at {REAL_SHELL}")
@given(st.sampled_from(SHELL_FILES or [Path()]), st.integers(0, 10**6), st.integers(0, 80), noise)
def test_mutated_real_outputs_parse_or_are_protocol_errors(path, at, span, insert):
    """Every text parser on real captured outputs with a slice replaced by noise."""
    text = path.read_text(encoding="utf-8")
    i = at % (len(text) + 1)
    text = text[:i] + insert + text[i + span:]
    try:
        sh.parse_wm_size(text)
    except DeviceProtocolError:
        pass
    sh.parse_focus(text)
    sh.parse_getprop(text)
    sh.parse_alarms(text)
    sh.parse_settings_value(text)


# -- screenshots -------------------------------------------------------------------------------------------------------
def check_image(image: np.ndarray) -> None:
    """A decoded screenshot: uint8 RGB (H, W, 3) with H, W > 0."""
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3 and min(image.shape[:2]) > 0


raw_headers = st.builds(lambda w, h, fmt, cs: struct.pack("<III", w, h, fmt) + (struct.pack("<I", cs) if cs >= 0
                                                                               else b""),
                        st.integers(0, 40), st.integers(0, 40), st.sampled_from([0, 1, 2, 3, 4, 5, 2**32 - 1]),
                        st.integers(-1, 3))


@given(st.one_of(st.binary(), st.builds(lambda head, body: head + body, raw_headers, st.binary(max_size=20_000))))
@example(struct.pack("<III", 16384, 16384, 1))
@example(struct.pack("<III", 2**32 - 1, 2**32 - 1, 1))
def test_raw_screencap_is_an_rgb_image_or_a_protocol_error(data):
    """Raw `screencap` bytes (random headers, any body length) decode to RGB or raise `DeviceProtocolError`."""
    try:
        check_image(sh.decode_raw_screencap(data))
    except DeviceProtocolError:
        pass


def encoded(size: tuple[int, int], fmt: str, mode: str) -> bytes:
    """A small image of `size` written by PIL in `fmt`."""
    out = io.BytesIO()
    Image.new(mode, size, 128).save(out, fmt)
    return out.getvalue()


images = st.builds(encoded, st.tuples(st.integers(1, 24), st.integers(1, 24)),
                   st.sampled_from(["PNG", "GIF", "BMP", "TIFF", "JPEG", "PPM", "ICO", "WEBP"]),
                   st.sampled_from(["RGB", "L"]))
byte_edits = st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=6)


def edit(data: bytes, edits: list[tuple[int, int]], cut: int) -> bytes:
    """`data` with bytes overwritten at the given positions, then cut to `cut` bytes (0: whole)."""
    buf = bytearray(data)
    for at, value in edits:
        if buf:
            buf[at % len(buf)] = value
    return bytes(buf[:cut] if cut else buf)


def png_with_size(width: int, height: int) -> bytes:
    """A PNG whose header declares width x height (with a valid CRC) but holds almost no data."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))
            + b"\x00\x00\x00\x00IEND\xaeB`\x82")


@given(st.one_of(st.binary(), st.builds(edit, images, byte_edits, st.integers(0, 2000)),
                 st.builds(png_with_size, st.integers(0, 2**31), st.integers(0, 2**31))))
@example(png_with_size(20_000, 20_000))
@example(encoded((3, 2), "BMP", "RGB"))
def test_png_screencap_is_an_rgb_image_or_a_protocol_error(data):
    """`screencap -p` bytes: a PNG decodes to RGB; garbage, other formats, truncation and bombs are refused."""
    try:
        check_image(sh.decode_png(data))
    except DeviceProtocolError:
        return
    assert data.startswith(b"\x89PNG\r\n\x1a\n")


def test_png_in_pils_warning_band_is_refused_without_a_warning():
    """112.6 M pixels: above PIL's bomb-warning limit, below its error limit; refused from the header, silently."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(DeviceProtocolError, match="10610x10612"):
            sh.decode_png(png_with_size(10_610, 10_612))


# -- the ADB wire protocol ---------------------------------------------------------------------------------------------
class CannedChannel(AdbChannel):
    """An `AdbChannel` whose every connection reads `reply` (then end of stream) and swallows what it sends."""

    def __init__(self, reply: bytes) -> None:
        super().__init__("emulator-5554", "127.0.0.1", 5037)
        self.reply = reply
        self.peers: list[socket.socket] = []

    def _connect(self, deadline):  # the seam: a socket pair instead of TCP to a server
        ours, peer = socket.socketpair()
        peer.sendall(self.reply)
        peer.shutdown(socket.SHUT_WR)
        self.peers.append(peer)
        return ours

    def close(self) -> None:
        """Close the device ends."""
        for peer in self.peers:
            peer.close()


def v2_packet(kind: int, data: bytes, length_delta: int) -> bytes:
    """One shell-v2 packet, its length field off by `length_delta`."""
    return bytes([kind]) + struct.pack("<I", max(0, len(data) + length_delta)) + data


statuses = st.one_of(st.sampled_from([b"OKAY", b"FAIL", b"OKA", b"", b"okay", b"\x00\x00\x00\x00"]),
                     st.binary(min_size=4, max_size=4))
hex_lengths = st.one_of(st.integers(0, 0xFFFF).map(lambda n: f"{n:04x}".encode()),
                        st.sampled_from([b"zzzz", b"12", b"-001", b" 1 2", b"\xff\xfe\x00\x01", b"0x10"]))
replies = st.one_of(
    st.binary(max_size=4096),
    st.builds(lambda a, b, length, body: a + b + length + body, statuses, statuses, hex_lengths,
              st.binary(max_size=512)),
    st.builds(lambda packets, tail: b"OKAYOKAY" + b"".join(packets) + tail,
              st.lists(st.builds(v2_packet, st.integers(0, 4), st.binary(max_size=64), st.integers(-3, 3)),
                       max_size=6), st.binary(max_size=8)),
)


@given(replies, st.sampled_from(["shell_v2", "shell_v1", "exec", "host"]))
def test_adb_replies_give_output_or_a_device_error(reply, kind):
    """Whatever the server/device sends back, a request returns output or raises a `DeviceError` subclass."""
    channel = CannedChannel(reply)
    try:
        if kind == "host":
            assert isinstance(channel.host_request("host:version", 2.0), str)
        elif kind == "exec":
            assert isinstance(channel.exec_out("screencap", 2.0), bytes)
        else:
            result = channel.shell("getprop", 2.0, v2=kind == "shell_v2")
            assert isinstance(result, ShellResult)
            assert result.exit_code is None or 0 <= result.exit_code <= 255
    except DeviceError as e:
        event(f"refused ({type(e).__name__})")
    finally:
        channel.close()


# -- the probe and the device on canned replies ----------------------------------------------------------------------
probe_parts = st.lists(st.one_of(st.sampled_from(["0", "1", "Physical size: 1080x2400", "Physical size: 0x0",
                                                  "Override size: 9x" + "9" * 5000, sh.ADB_KEYBOARD_IME, "null"]),
                                 noise), min_size=0, max_size=6)


@given(st.one_of(noise, st.just("shell_v2,cmd,stat_v2")), probe_parts)
def test_probe_gives_device_info_or_a_protocol_error(features, parts):
    """The connection probe reads features and four sections; garbage is `DeviceProtocolError`."""
    channel = mock.create_autospec(AdbChannel, instance=True)
    channel.serial = "emulator-5554"
    channel.host_request.return_value = features
    channel.shell.return_value = ShellResult("@@\n".join(parts).encode("utf-8", "surrogatepass"), b"", 0)
    try:
        info = Connector(AdbConfig(serial="emulator-5554")).info(channel)
    except DeviceProtocolError:
        return
    assert isinstance(info, DeviceInfo)
    width, height = info.size
    assert type(width) is int and type(height) is int and width > 0 and height > 0


def canned_device(payload: bytes, simulated: bool, screenshot: str = "auto") -> AdbDevice:
    """An `AdbDevice` whose channel answers the probe, then `payload` to every other command."""
    probe = f"{int(simulated)}\n@@\n1\n@@\nPhysical size: 1080x2400\n@@\nnull\n".encode()
    channel = mock.create_autospec(AdbChannel, instance=True)
    channel.serial = "emulator-5554"
    channel.host_request.return_value = "shell_v2"
    channel.shell.side_effect = lambda command, *args, **kwargs: ShellResult(
        probe if "getprop ro.android_gym.sim" in command else payload, b"", 0)
    channel.exec_out.return_value = payload
    device = AdbDevice("emulator-5554", retries=0, screenshot=screenshot)
    device.connector.channel = channel  # connected: the connector's public seam
    return device


def nested_json(depth: int, opener: str) -> bytes:
    """A JSON document nested `depth` deep."""
    closer = {"[": "]", '{"a": ': "}"}[opener]
    return (opener * depth + "1" + closer * depth).encode()


state_payloads = st.one_of(
    st.binary(max_size=2048),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=10)),
                 lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner,
                                                                                       max_size=3)),
                 max_leaves=10).map(lambda v: json.dumps(v).encode()),
    st.builds(nested_json, st.integers(1, 100_000), st.sampled_from(["[", '{"a": '])),
)


@given(state_payloads)
@example(nested_json(100_000, "["))
def test_sim_state_is_a_dict_or_a_protocol_error(payload):
    """The sim's state JSON (any bytes, any JSON, 100,000-deep nesting) is a dict or `DeviceProtocolError`."""
    try:
        state = canned_device(payload, simulated=True).state()
    except DeviceProtocolError:
        return
    assert isinstance(state, dict)


dump_payloads = st.one_of(
    st.binary(max_size=2048),
    st.builds(lambda prefix, body: prefix + body, st.sampled_from([b"", b"UI hierchary dumped to: /sdcard/x.xml\n",
                                                                   b"<?xml", b"<hierarchy"]),
              st.binary(max_size=512)),
    st.sampled_from([b'<?xml version="1.0"?><!DOCTYPE h [<!ENTITY e SYSTEM "file:///etc/passwd">]><hierarchy>'
                     b'<node text="&e;" bounds="[0,0][1,1]"/></hierarchy>',
                     b'<hierarchy><node text="a" bounds="[0,0][10,10]"/></hierarchy>']),
)


@given(dump_payloads)
def test_ui_dump_is_elements_or_a_protocol_error(payload):
    """`uiautomator dump` output through `AdbDevice`: elements, or `DeviceProtocolError`."""
    try:
        elements = canned_device(payload, simulated=False).ui_elements()
    except DeviceProtocolError:
        return
    assert all(isinstance(e, UIElement) for e in elements)


@given(st.one_of(st.binary(max_size=4096), st.builds(lambda head, body: head + body, raw_headers,
                                                     st.binary(max_size=4096)),
                 st.builds(edit, images, byte_edits, st.integers(0, 2000))),
       st.sampled_from(["auto", "raw", "png"]))
def test_screenshot_is_an_image_or_a_protocol_error(payload, mode):
    """Screenshot bytes in every mode (raw, PNG, raw falling back to PNG): an image or `DeviceProtocolError`."""
    try:
        check_image(canned_device(payload, simulated=False, screenshot=mode).screenshot())
    except DeviceProtocolError:
        pass


# -- the sim front's shell parser --------------------------------------------------------------------------------------
def check_program(program: list) -> None:
    """The documented shape: and-or lists of (operator, pipeline) with simple commands of words and redirects."""
    for and_or in program:
        assert and_or
        for k, (op, pipeline) in enumerate(and_or):
            assert op in ("&&", "||") if k else op == ""
            assert pipeline
            for cmd in pipeline:
                assert isinstance(cmd, SimpleCommand) and (cmd.words or cmd.redirects)
                for word in cmd.words:
                    assert all(isinstance(p, Part) and p.kind in ("lit", "var", "sub") for p in word)
                for fd, op, target in cmd.redirects:
                    assert type(fd) is int and op in ("<", ">", ">>", ">&") and target


SHELL_TOKENS = ["echo", " ", "\t", "a", "'", '"', "\\", ";", "&", "&&", "|", "||", "\n", "#", "$", "$(", ")", "(",
                "`", "${", "}", "$?", "$HOME", "<", ">", ">>", "2>&1", "1>", "²>", "9" * 5000 + ">", ">&", "x=1",
                "\\\n", "'it'\"'\"'s'", "é", "\x00"]


def nested_substitution(depth: int, quoted: bool, closed: bool) -> str:
    """`echo` of a command substitution nested `depth` deep, inside double quotes when `quoted`."""
    opener = '"$(' if quoted else "$("
    closer = ')"' if quoted else ")"
    return "echo " + opener * depth + "echo x" + (closer * depth if closed else "")


@given(st.one_of(st.text(), st.lists(st.sampled_from(SHELL_TOKENS), max_size=40).map("".join),
                 st.builds(nested_substitution, st.integers(1, 2_000), st.booleans(), st.booleans())))
@example(nested_substitution(2_000, quoted=True, closed=True))
@example("echo ²>x")
@example("echo " + "9" * 5000 + ">x")
def test_command_lines_parse_or_are_a_syntax_error(src):
    """Any command line (quotes, operators, redirects, 2,000-deep substitutions) parses or is `ShellSyntaxError`."""
    try:
        program = parse(src)
    except ShellSyntaxError as e:
        assert type(e) is ShellSyntaxError and str(e).startswith("syntax error")
        event("refused (ShellSyntaxError)")
        return
    event("parsed")
    check_program(program)


@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=60))
def test_quoted_argument_arrives_as_one_literal_word(text):
    """What `quote` makes of any text is one literal word in the sim's parser (the injection guarantee)."""
    program = parse("echo " + sh.quote(text))
    (and_or,) = program
    ((_, (cmd,)),) = and_or
    assert len(cmd.words) == 2 and not cmd.redirects
    assert all(p.kind == "lit" for p in cmd.words[1])
    assert "".join(p.text for p in cmd.words[1]) == text
