"""The judge prompt: the default few-shot file, prompt files edited by users, and the answer parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from android_gym.errors import ConfigError
from android_gym.evaluators.prompts import SECTIONS, JudgePrompt, parse_answer


def test_default_prompt_is_the_few_shot_status_style() -> None:
    prompt = JudgePrompt.load()
    assert prompt.examples.count("Q: What should I expect to see") >= 3
    assert "Status: success" in prompt.examples and "Status: failure" in prompt.examples


@pytest.mark.parametrize("mode, suffix", [("logits", "yes or no."), ("generate", "Status: failure\")")])
def test_render_puts_goal_action_and_one_image_slot(mode: str, suffix: str) -> None:
    parts = JudgePrompt.load().render("Turn off Wi-Fi", "PRESS_BACK", mode)
    assert [p.is_image for p in parts] == [False, True, False]
    text = parts[0].text + parts[2].text
    assert text.count("Turn off Wi-Fi") == 2 and "PRESS_BACK" in text
    assert parts[2].text.endswith(suffix)


def test_render_does_not_substitute_inside_goal_text() -> None:
    parts = JudgePrompt.load().render("Type {last_action} literally", "TAP", "logits")
    assert "Type {last_action} literally" in parts[0].text + parts[2].text


def test_prompt_file_edits_are_used(tmp_path: Path) -> None:
    text = JudgePrompt.load().__dict__
    file = tmp_path / "mine.txt"
    body = {**{k: text[k] for k in SECTIONS}, "system": "CUSTOM INSTRUCTIONS"}
    file.write_text("\n".join(f"### {name}\n{body[name]}\n" for name in SECTIONS))
    prompt = JudgePrompt.load(file)
    assert prompt.render("g", "a", "logits")[0].text.startswith("CUSTOM INSTRUCTIONS")


def test_missing_prompt_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is not a file; copy"):
        JudgePrompt.load(tmp_path / "nope.txt")


@pytest.mark.parametrize("text, message", [
    ("### system\nx\n### question\n{goal} {screenshot}", "missing section"),
    ("### sytem\nx", "did you mean 'system'"),
])
def test_malformed_prompt_file_is_rejected(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        JudgePrompt.from_text(text)


@pytest.mark.parametrize("question, message", [
    ("{goall} {screenshot}", r"did you mean \{goal\}"),
    ("{screenshot} only", r"must contain \{goal\}"),
    ("{goal} without an image", r"exactly one \{screenshot\}"),
    ("{goal} {screenshot} {screenshot}", r"exactly one \{screenshot\}"),
])
def test_question_placeholders_are_checked(question: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        JudgePrompt("s", "e", question, "g", "y")


@pytest.mark.parametrize("text, expected", [
    ("I expect the alarm list. It shows the alarm. Status: success", True),
    ("Status: failure", False),
    ("status - Successful", True),
    ("Status: incomplete", False),
    ("Status: success ... on reflection, Status: failure", False),
    ("Yes.", True),
    ("no, the switch is still on", False),
    ("The answer is yes", True),
    ("I cannot tell from this image.", None),
    ("", None),
    ("maybe yes, maybe no", None),
    ("nobody knows; yesterday", None),
])
def test_parse_answer(text: str, expected: bool | None) -> None:
    assert parse_answer(text) is expected
