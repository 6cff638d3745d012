"""`LogBuffer`: the phone's logd, and `logcat` over it: the system's log lines, written as Android writes them.

What the sim logs is what log-reading clients wait for: the activity manager's `START u0 {...}` and `Displayed
pkg/.Act: +Nms` lines (tag `ActivityTaskManager`, as on Android 14) when an activity comes to the front, and whatever a
shell's `log -t TAG message` writes (AndroidEnv's tasks take their rewards and episode ends from such lines, matched
by regular expressions). `logcat` reads the ring: `-d` dumps and exits, `-c` clears, `-t N` prints the newest N and
exits, `-m N` stops after N lines, and without those it follows new lines until the client hangs up (the ADB front
streams it; see `services.py`). Output formats and filter specs are logcat's (`-v threadtime|brief|tag|process|raw|
time` with the `epoch`, `usec`, `UTC`, `year` modifiers; `TAG:P` and `*:S` specs; `-s`).

The ring is bounded as logd's is, by bytes (`BUFFER_BYTES`, logd's default 256 KiB), and a line longer than logd's
payload limit is cut (`MAX_PAYLOAD_BYTES`): a phone serving a day of requests, or a shell writing megabyte lines,
holds at most ~2,300 typical lines (0.7 MB of Python objects). It was 4,096 lines of any length: at ~15 lines a
minute, the 24 phones of the soak benchmark's ADB front took about 4.5 hours to fill theirs, which its 80-minute
memory fit read as growth (issue 20).
"""

from __future__ import annotations

import itertools
import shlex
import threading
import time
import weakref
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from android_gym.errors import AndroidGymError
from android_gym.heap import track_cache

PRIORITIES = "VDIWEFS"
"""logcat's priorities, lowest first (S, silent, is only a filter level)."""
BUFFER_BYTES = 256 * 1024
"""Bytes of entries the ring keeps, logd's default buffer size (the oldest entries go first)."""
MAX_PAYLOAD_BYTES = 4068
"""liblog's LOGGER_ENTRY_MAX_PAYLOAD: priority, tag and message with their terminators; a longer message is cut."""
ENTRY_HEADER_BYTES = 28
"""What logd counts for an entry beyond its payload (its header: lengths, pid, tid, time, uid)."""
SYSTEM_SERVER_PID = 540
"""The pid the sim's system services log under."""
FOLLOW_POLL_S = 0.2
"""How often a following reader looks at the phone for changes and at whether its client left."""
FORMATS = ("threadtime", "brief", "tag", "process", "raw", "time")
MODIFIERS = ("epoch", "usec", "UTC", "year", "color", "printable", "descriptive", "uid", "zone")
"""`-v` words logcat takes; the last four are accepted and change nothing here."""
BUFFERS = ("main", "system", "radio", "events", "crash", "kernel", "security", "stats", "default", "all")


class LogcatUsageError(AndroidGymError, ValueError):
    """A `logcat` command line logcat itself would refuse (the message is what it prints)."""


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One log line: wall-clock seconds, process and thread, priority letter (`PRIORITIES`), tag, message."""

    time: float
    pid: int
    tid: int
    priority: str
    tag: str
    message: str


@dataclass
class LogcatRequest:
    """A parsed `logcat` command line (`parse_logcat`)."""

    format: str = "threadtime"
    modifiers: frozenset[str] = frozenset()
    specs: dict[str, str] = field(default_factory=dict)
    default_level: str = "V"
    clear: bool = False
    dump: bool = False
    tail: int | None = None
    max_lines: int | None = None

    @property
    def follows(self) -> bool:
        """Whether this logcat keeps reading new lines (no -d, -c or -t)."""
        return not (self.dump or self.clear)

    def passes(self, entry: LogEntry) -> bool:
        """The filter: the tag's own spec, else `*`'s (V by default, S after -s)."""
        level = self.specs.get(entry.tag, self.default_level)
        return PRIORITIES.index(entry.priority) >= PRIORITIES.index(level)

    def line(self, entry: LogEntry) -> str:
        """`entry` in this request's format, newline-terminated (`logprint.c`'s layouts)."""
        p, tag, msg = entry.priority, entry.tag, entry.message
        match self.format:
            case "raw":
                return f"{msg}\n"
            case "tag":
                return f"{p}/{tag:<8}: {msg}\n"
            case "brief":
                return f"{p}/{tag:<8}({entry.pid:5d}): {msg}\n"
            case "process":
                return f"{p}({entry.pid:5d}) {msg}  ({tag})\n"
            case "time":
                return f"{self._stamp(entry.time)} {p}/{tag:<8}({entry.pid:5d}): {msg}\n"
        return f"{self._stamp(entry.time)} {entry.pid:5d} {entry.tid:5d} {p} {tag:<8}: {msg}\n"

    def _stamp(self, t: float) -> str:
        fraction = f"{int(t % 1 * 1e6):06d}" if "usec" in self.modifiers else f"{int(t % 1 * 1e3):03d}"
        if "epoch" in self.modifiers:
            return f"{int(t):19d}.{fraction}"
        pattern = "%Y-%m-%d %H:%M:%S" if "year" in self.modifiers else "%m-%d %H:%M:%S"
        return f"{time.strftime(pattern, time.gmtime(t))}.{fraction}"  # the sim's phone keeps UTC


def parse_logcat(args: list[str]) -> LogcatRequest:
    """`logcat`'s options and filter specs (the words after `logcat`).

    Raises:
        LogcatUsageError: an option logcat does not have or a value it would refuse, naming it.
    """
    request = LogcatRequest()
    formats: list[str] = []
    words = iter(args)

    def value(option: str) -> str:
        got = next(words, None)
        if got is None:
            raise LogcatUsageError(f"logcat: option requires an argument -- '{option.lstrip('-')}'")
        return got

    def count(option: str) -> int:
        raw = value(option)
        if not raw.isdigit() or int(raw) < 1:
            raise LogcatUsageError(f"logcat: {option} {raw!r} is not a positive count")
        return int(raw)

    for word in words:
        if word in ("-v", "--format"):
            formats.extend(value(word).replace(",", " ").split())
        elif word.startswith("-v") and len(word) > 2:
            formats.append(word[2:])
        elif word in ("-b", "--buffer"):
            if unknown := [b for b in value(word).split(",") if b not in BUFFERS]:
                raise LogcatUsageError(f"logcat: unknown buffer {unknown[0]!r}; known: {', '.join(BUFFERS)}")
        elif word in ("-c", "--clear"):
            request.clear = True
        elif word == "-d":
            request.dump = True
        elif word == "-t":
            request.tail, request.dump = count(word), True
        elif word == "-T":
            request.tail = count(word)
        elif word in ("-m", "--max-count"):
            request.max_lines = count(word)
        elif word == "-s":
            request.default_level = "S"
        elif word.startswith("-"):
            raise LogcatUsageError(f"logcat: invalid option -- '{word.lstrip('-')}'")
        else:
            tag, _, level = word.rpartition(":") if ":" in word else (word, "", "V")
            level = level.upper() or "V"
            if level not in PRIORITIES or not tag:
                raise LogcatUsageError(f"logcat: invalid filter expression {word!r} (TAG:P with P one of "
                                       f"{', '.join(PRIORITIES)})")
            if tag == "*":
                request.default_level = level
            else:
                request.specs[tag] = level
    for word in formats:
        if word in FORMATS:
            request.format = word
        elif word in MODIFIERS:
            request.modifiers |= {word}
        else:
            raise LogcatUsageError(f"logcat: invalid parameter \"-v {word}\"")
    return request


def follow_argv(command: str) -> list[str] | None:
    """The logcat arguments when `command` is a logcat that follows (to be streamed), else None.

    Takes a bare `logcat ...`, and real adb's form `export ANDROID_LOG_TAGS="''" ; exec logcat ...`; anything else
    (pipes, other programs, -d/-c/-t) runs as a plain shell command.
    """
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>()")
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return None
    if words[:1] == ["export"] and ";" in words:
        words = words[words.index(";") + 1:]
    if words[:1] == ["exec"]:
        words = words[1:]
    if words[:1] != ["logcat"] or any(w and set(w) <= set(";&|<>()") for w in words):
        return None
    try:
        return words[1:] if parse_logcat(words[1:]).follows else None
    except LogcatUsageError:
        return None  # the plain command prints logcat's error


def launch_millis(package: str) -> int:
    """How long the sim says `package`'s activities take to draw (fixed per package, 150-649 ms)."""
    return 150 + zlib.crc32(package.encode()) % 500


_LIVE: weakref.WeakSet[LogBuffer] = weakref.WeakSet()  # for the heap log's count of cached entries
track_cache("logcat ring", lambda: sum(len(b._entries) for b in list(_LIVE)))


def entry_bytes(tag: str, message: str) -> int:
    """What an entry takes of the ring's `BUFFER_BYTES`: header, priority, tag and message (UTF-8) with their NULs."""
    return ENTRY_HEADER_BYTES + len(tag.encode("utf-8", "replace")) + len(message.encode("utf-8", "replace")) + 3


def cut_to_payload(tag: str, message: str) -> str:
    """`message` cut, on a character boundary, so that the entry's payload fits `MAX_PAYLOAD_BYTES` (as liblog)."""
    room = MAX_PAYLOAD_BYTES - 3 - len(tag.encode("utf-8", "replace"))
    raw = message.encode("utf-8", "replace")
    return message if len(raw) <= room else raw[:max(0, room)].decode("utf-8", "ignore")


class LogBuffer:
    """One phone's log ring: written by its system services and `log`, read by `logcat`; thread-safe.

    `observe(stack)` is how the activity manager's lines appear: given the phone's back stack (activity names,
    bottom first) after anything that may have changed it, it logs `START` and `Displayed` for an activity that came
    to the front and was not on the stack before (returning to one logs nothing, as on a phone).

    Writing past `budget_bytes` (counted by `entry_bytes`) drops the oldest entries, as logd prunes its ring.

    Args:
        clock: wall-clock seconds (entries' time).
        budget_bytes: the most bytes of entries kept (`BUFFER_BYTES` by default; at least one entry is always kept).
    """

    def __init__(self, clock: Callable[[], float] = time.time, budget_bytes: int = BUFFER_BYTES) -> None:
        self.clock = clock
        self.budget_bytes = budget_bytes
        self.nbytes = 0
        self._entries: deque[tuple[int, LogEntry, int]] = deque()  # (sequence number, entry, its bytes)
        self._seq = itertools.count(1)
        self._last = 0
        self._changed = threading.Condition()
        self._stack: tuple[str, ...] = ()
        self._pids = itertools.count(5000)
        _LIVE.add(self)

    def write(self, priority: str, tag: str, message: str, pid: int = SYSTEM_SERVER_PID,
              tid: int | None = None) -> None:
        """Append one line per line of `message` (as `Log.println` splits it)."""
        with self._changed:
            for text in message.split("\n"):
                text = cut_to_payload(tag, text)
                self._last = next(self._seq)
                size = entry_bytes(tag, text)
                self._entries.append((self._last, LogEntry(self.clock(), pid, pid if tid is None else tid,
                                                           priority, tag, text), size))
                self.nbytes += size
                while self.nbytes > self.budget_bytes and len(self._entries) > 1:
                    self.nbytes -= self._entries.popleft()[2]
            self._changed.notify_all()

    def new_pid(self) -> int:
        """A fresh process id for a short-lived program (each `log` call is a process of its own)."""
        return next(self._pids)

    def clear(self) -> None:
        """`logcat -c`: drop every entry."""
        with self._changed:
            self._entries.clear()
            self.nbytes = 0

    def observe(self, stack: tuple[str, ...]) -> None:
        """Log the activity manager's lines if a new activity is at the front of `stack` (names, bottom first)."""
        with self._changed:
            before, self._stack = self._stack, stack
        if not stack or stack == before or stack[-1] in before:
            return
        activity = stack[-1]
        self.write("I", "ActivityTaskManager", f"START u0 {{flg=0x10000000 cmp={activity}}} from uid 2000")
        self.write("I", "ActivityTaskManager", f"Displayed {activity}: +{launch_millis(activity.split('/')[0])}ms")

    def since(self, seq: int) -> tuple[list[LogEntry], int]:
        """The entries written after sequence number `seq` (0: all kept), and the newest sequence number."""
        with self._changed:
            return [e for s, e, _ in self._entries if s > seq], self._last

    def wait(self, seq: int, timeout_s: float) -> bool:
        """Wait until an entry newer than `seq` exists (or `timeout_s` passes); whether one does."""
        with self._changed:
            return self._changed.wait_for(lambda: self._last > seq, timeout_s)

    def dump(self, request: LogcatRequest) -> str:
        """What a logcat that exits prints: the kept lines passing the filter (the newest `tail` with -t)."""
        if request.clear:
            self.clear()
            return ""
        lines = [request.line(e) for e in self.since(0)[0] if request.passes(e)]
        if request.tail is not None:
            lines = lines[-request.tail:]
        return "".join(lines[:request.max_lines])

    def follow(self, request: LogcatRequest, send: Callable[[bytes], None], stopped: Callable[[], bool],
               poll: Callable[[], None]) -> None:
        """A following logcat: the kept lines (the newest `tail` with -T), then new ones as they come.

        Returns when `stopped()` (the client left, or the phone stopped), after `max_lines` lines, or when `send`
        raises `OSError`. `poll()` runs every `FOLLOW_POLL_S` while nothing is written (it lets the phone's changes
        made by other channels, gRPC touches say, reach `observe`).
        """
        entries, seq = self.since(0)
        kept = [e for e in entries if request.passes(e)]
        backlog = kept[-request.tail:] if request.tail is not None else kept
        left = request.max_lines
        while True:
            lines = backlog[:left] if left is not None else backlog
            if lines:
                send("".join(request.line(e) for e in lines).encode("utf-8", "replace"))
                if left is not None:
                    left -= len(lines)
                    if left <= 0:
                        return
            while not self.wait(seq, FOLLOW_POLL_S):
                if stopped():
                    return
                poll()
            if stopped():
                return
            entries, seq = self.since(seq)
            backlog = [e for e in entries if request.passes(e)]


def write_log(logd: LogBuffer, argv: list[str]) -> tuple[str, int]:
    """`log [-p v|d|i|w|e|f] [-t TAG] message...`: one line into the log (Android's /system/bin/log).

    Returns:
        (what it prints on error, exit status).
    """
    priority, tag, words = "I", "log", argv[1:]
    while words[:1] and words[0].startswith("-") and len(words) > 1:
        option, value = words[0], words[1]
        if option == "-p" and value.upper() in PRIORITIES[:-1]:
            priority = value.upper()
        elif option == "-t":
            tag = value
        else:
            return (f"log: invalid option {option} {value}\nusage: log [-p priority] [-t tag] message\n", 1)
        words = words[2:]
    if not words:
        return "usage: log [-p priority] [-t tag] message\n", 1
    logd.write(priority, tag, " ".join(words), pid=logd.new_pid())
    return "", 0
