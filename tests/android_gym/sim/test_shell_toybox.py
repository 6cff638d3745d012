"""The ADB front's shell where scripts rely on toybox and mksh: `ls` and its exit status, `$((...))` arithmetic."""

from __future__ import annotations

import pytest

from android_gym.sim.adb.coreutils import COREUTILS
from android_gym.sim.adb.shell import Shell


@pytest.fixture
def sh() -> Shell:
    """A shell over a few files: /sdcard/Download/a.txt, /sdcard/b.png, /data/local/tmp/ui.xml."""
    files = {"/sdcard/Download/a.txt": b"hello", "/sdcard/b.png": b"xx", "/data/local/tmp/ui.xml": b"<x/>"}
    return Shell(COREUTILS, env={"HOME": "/", "n": "4", "word": "abc"}, files=files)


@pytest.mark.parametrize(("line", "out", "err", "code"), [
    ("ls /nope", "", "ls: /nope: No such file or directory\n", 1),
    ("ls /nope; echo $?", "1\n", "ls: /nope: No such file or directory\n", 0),
    ("ls /sdcard", "Download\nb.png\n", "", 0),
    ("ls /sdcard/", "Download\nb.png\n", "", 0),
    ("ls /sdcard/b.png", "/sdcard/b.png\n", "", 0),
    ("ls -d /sdcard", "/sdcard\n", "", 0),
    ("ls -a /data/local/tmp", ".\n..\nui.xml\n", "", 0),
    ("ls /data/local/tmp", "ui.xml\n", "", 0),  # a directory of the phone's own, listed whatever it holds
    ("ls /sdcard /nope", "/sdcard:\nDownload\nb.png\n", "ls: /nope: No such file or directory\n", 1),
    ("ls -z", "", "ls: Unknown option 'z' (see \"ls --help\")\n", 1),
    ("ls /sdcard/Download && echo yes || echo no", "a.txt\nyes\n", "", 0),
    ("ls /nowhere && echo yes || echo no", "no\n", "ls: /nowhere: No such file or directory\n", 0),
])
def test_ls_lists_like_toybox_and_fails_on_a_missing_path(sh: Shell, line: str, out: str, err: str,
                                                          code: int) -> None:
    """Entries sorted, a file as its path, directories implied by the files under them, status 1 when missing."""
    result = sh.run(line)
    assert (result.out.decode(), result.err.decode(), result.code) == (out, err, code)


def test_ls_long_shows_kind_and_size(sh: Shell) -> None:
    """`ls -l`: a mode column (d for directories), and each file's size in bytes."""
    lines = sh.run("ls -l /sdcard").out.decode().splitlines()
    assert lines[0].startswith("drwx") and lines[0].endswith(" Download")
    assert lines[1].startswith("-rw-") and lines[1].split()[4] == "2" and lines[1].endswith(" b.png")


@pytest.mark.parametrize(("line", "out"), [
    ("echo $((1+2))", "3\n"),
    ("echo $((n * 2 + 1)) $(( (n - 1) % 3 ))", "9 0\n"),
    ("echo \"$(( $n << 2 ))\"", "16\n"),
    ("echo $((7 / -2)) $((-7 % 3))", "-3 -1\n"),  # C's truncation, as mksh
    ("echo $((2147483647 + 1))", "-2147483648\n"),  # 32-bit, as mksh
    ("echo $((unset + 1)) $((n > 3 && n < 5))", "1 1\n"),
    ("x=$((n+1)); echo $x", "5\n"),
])
def test_arithmetic_expansion_as_mksh(sh: Shell, line: str, out: str) -> None:
    """`$((...))` evaluates integers, variables (unset is 0), precedence and C's division."""
    result = sh.run(line)
    assert (result.out.decode(), result.code) == (out, 0), result.err


@pytest.mark.parametrize(("line", "message"), [
    ("echo $((1/0)); echo after $?", "division by zero"),
    ("echo $((word + 1)); echo after $?", "bad number"),
    ("echo $((1 +)); echo after $?", "unexpected end"),
    ("echo $((" + "-" * 500 + "1)); echo after $?", "nested too deeply"),
])
def test_a_bad_arithmetic_expansion_skips_its_command_with_status_1(sh: Shell, line: str, message: str) -> None:
    """Mksh prints the error and does not run the command; the status is 1 and the line goes on."""
    result = sh.run(line)
    assert result.out.decode() == "after 1\n" and message in result.err.decode()
    assert all(argv[0] != "echo" or argv[1:2] != [""] for argv in sh.history[:-1])


def test_an_unterminated_arithmetic_expansion_is_a_syntax_error(sh: Shell) -> None:
    """`$((1+2` never closes: sh's syntax error, status 2, nothing runs."""
    result = sh.run("echo $((1+2")
    assert result.code == 2 and "unterminated" in result.err.decode() and not sh.history
