"""Judge prompts: the paper's few-shot prompt, loadable from a file, and the parser of a judge's answer.

The default prompt follows DigiRL/DistRL: few-shot "Q: What should I expect to see ...? A: ... Status: success|failure".

A prompt file has five sections, each opened by a `### <name>` line: `system` (the instructions), `examples` (few-shot
Q/A pairs), `question` (must hold `{goal}` and exactly one `{screenshot}`, where the screen image(s) go; `{last_action}`
is optional), `generate` (appended when the judge writes an answer) and `yes_no` (appended when the judge's answer is
read from the next-token probability of "yes" vs "no"). `default.txt` next to this module is the default; copy it,
edit it, and pass its path as the `prompt_path` option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Literal, get_args

from android_gym.errors import ConfigError, closest
from android_gym.evaluators.base import Verdict, unknown

SECTIONS = ("system", "examples", "question", "generate", "yes_no")
PLACEHOLDERS = ("goal", "last_action", "screenshot")
Mode = Literal["logits", "generate"]
"""How a judge answers: "logits" reads P(yes) from one forward pass; "generate" writes text and parses it."""
MODES: tuple[str, ...] = get_args(Mode)

_STATUS = re.compile(r"status\W{0,4}(success(?:ful)?|fail(?:ure|ed)?|complete[d]?|incomplete)\b", re.IGNORECASE)
_WORDS = re.compile(r"[a-z]+")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_]+)\}")


@dataclass(frozen=True)
class Part:
    """One piece of a rendered prompt: text, or the place where the screen image(s) go (`text` is then "")."""

    text: str = ""
    is_image: bool = False


@dataclass(frozen=True)
class JudgePrompt:
    """The five sections of a judge prompt (see the module docstring); `render` fills in one request.

    Raises:
        ConfigError: a section is missing, `question` lacks `{goal}` or has other than one `{screenshot}`, or names
            an unknown placeholder (with the closest known one).
    """

    system: str
    examples: str
    question: str
    generate: str
    yes_no: str
    source: str = "<inline>"

    def __post_init__(self) -> None:
        names = _PLACEHOLDER.findall(self.question)
        for name in names:
            if name not in PLACEHOLDERS:
                close = closest(name, PLACEHOLDERS)
                hint = f" (did you mean {{{close}}}?)" if close else ""
                raise ConfigError(f"prompt {self.source}: `question` has unknown placeholder {{{name}}}{hint}; "
                                  f"known: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
        if "goal" not in names:
            raise ConfigError(f"prompt {self.source}: `question` must contain {{goal}}")
        if names.count("screenshot") != 1:
            raise ConfigError(f"prompt {self.source}: `question` must contain exactly one {{screenshot}} (where the "
                              f"image goes), found {names.count('screenshot')}")

    @classmethod
    def from_text(cls, text: str, source: str = "<inline>") -> JudgePrompt:
        """Parse a prompt file's text (sections opened by `### <name>` lines; text before the first is ignored)."""
        sections: dict[str, list[str]] = {}
        current: list[str] | None = None
        for line in text.splitlines():
            header = re.fullmatch(r"###\s*(\w+)\s*", line)
            if header:
                name = header.group(1).lower()
                if name not in SECTIONS:
                    hint = f"; did you mean {close!r}?" if (close := closest(name, SECTIONS)) else ""
                    raise ConfigError(f"prompt {source}: unknown section {name!r}{hint} Known: {', '.join(SECTIONS)}")
                current = sections.setdefault(name, [])
            elif current is not None:
                current.append(line)
        missing = [s for s in SECTIONS if s not in sections]
        if missing:
            raise ConfigError(f"prompt {source}: missing section(s) {missing}; a prompt file needs `### <name>` "
                              f"headers for {', '.join(SECTIONS)} (see android_gym/evaluators/prompts/default.txt)")
        return cls(**{name: "\n".join(lines).strip() for name, lines in sections.items()}, source=source)

    @classmethod
    def load(cls, path: str | Path | None = None) -> JudgePrompt:
        """The prompt in `path`, or the default few-shot prompt when None.

        Raises:
            ConfigError: the file does not exist or is malformed.
        """
        if path is None:
            text = resources.files(__name__).joinpath("default.txt").read_text(encoding="utf-8")
            return cls.from_text(text, "default.txt")
        file = Path(path).expanduser()
        if not file.is_file():
            raise ConfigError(f"`prompt_path` {str(path)!r} is not a file; copy "
                              "android_gym/evaluators/prompts/default.txt and point to the copy")
        return cls.from_text(file.read_text(encoding="utf-8"), str(file))

    def render(self, goal: str, last_action: str, mode: str) -> list[Part]:
        """The user turn for one request: text parts with one image part where `{screenshot}` was.

        >>> parts = JudgePrompt.load().render("Turn off Wi-Fi", "PRESS_HOME", "logits")
        >>> [p.is_image for p in parts], parts[-1].text.endswith("yes or no.")
        ([False, True, False], True)
        """
        if mode not in MODES:
            raise ConfigError(f"`mode` must be one of {MODES}, got {mode!r}")
        values = {"goal": goal, "last_action": last_action or "(none)"}
        question = _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), self.question)
        before, after = question.split("{screenshot}")
        suffix = self.yes_no if mode == "logits" else self.generate
        head = "\n\n".join(s for s in (self.system, self.examples, before.rstrip()) if s)
        tail = "\n".join(s for s in (after.strip(), suffix) if s)
        return [Part(head + "\n"), Part(is_image=True), Part("\n" + tail)]


def parse_answer(text: str) -> bool | None:
    """Read a judge's text answer: True (success / yes), False (failure / no), or None when it says neither.

    The last "Status: success|failure" wins; without one, a leading yes/no word, else the only one of the two that
    appears.

    >>> parse_answer("I expect a results page. The screen shows it. Status: success")
    True
    >>> parse_answer("No, the switch is still on.")
    False
    >>> parse_answer("I cannot tell from this image.") is None
    True
    """
    statuses = _STATUS.findall(text)
    if statuses:
        word = statuses[-1].lower()
        return word.startswith("success") or word.startswith("complete")
    words = _WORDS.findall(text.lower())
    if words and words[0] in ("yes", "no"):
        return words[0] == "yes"
    has_yes, has_no = "yes" in words, "no" in words
    if has_yes != has_no:
        return has_yes
    return None


def answer_verdict(text: str) -> Verdict:
    """The verdict a judge's answer text gives: `parse_answer` as success (score 1/0), or unknown when it says neither.

    Never raises for any string (the HTTP and MLLM judges read model and server text through it). `raw` is left empty:
    the caller keeps the text it wants to show.

    >>> answer_verdict("Status: failure").success, answer_verdict("hmm").error
    (False, "the answer has neither 'Status: success|failure' nor yes/no")
    """
    answer = parse_answer(text)
    if answer is None:
        return unknown("the answer has neither 'Status: success|failure' nor yes/no")
    return Verdict(answer, 1.0 if answer else 0.0)
