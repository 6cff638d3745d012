"""The everyday readers (`goals.when`) and the rule contract the everyday families rely on (issue 49)."""

from __future__ import annotations

import datetime

import pytest

from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.goals.phrasing import PhrasingError
from android_gym.tasks.goals.rule import rule
from android_gym.tasks.goals.slots import UnknownValue
from android_gym.tasks.goals.when import parse_clock, parse_date, parse_duration, parse_money, parse_number


@pytest.mark.parametrize(("text", "bare", "want"), [
    ("6:45 am", "morning", (6, 45)), ("10:40 pm", "morning", (22, 40)), ("seven thirty", "morning", (7, 30)),
    ("eleven forty five", "morning", (11, 45)), ("half past six", "morning", (6, 30)),
    ("quarter to 8 pm", "morning", (19, 45)), ("7 oclock", "morning", (7, 0)), ("noon", "daytime", (12, 0)),
    ("midnight", "morning", (0, 0)), ("17:05", "daytime", (17, 5)), ("3", "daytime", (15, 0)),
    ("9:30", "daytime", (9, 30)), ("5:30", "morning", (5, 30)), ("5:30", "daytime", (17, 30)),
    ("12 am", "morning", (0, 0)), ("9 in the evening", "morning", (21, 0)),
])
def test_times_in_digits_and_words(text: str, bare: str, want: tuple[int, int]) -> None:
    """Times read as people say them; a bare hour is a morning or a working-day hour as asked."""
    assert parse_clock(text, bare=bare) == want


@pytest.mark.parametrize("text", ["13 pm", "25:00", "banana", "7:75", ""])
def test_times_refused(text: str) -> None:
    """Not a time of day: a clear refusal, never a guess."""
    with pytest.raises(UnknownValue):
        parse_clock(text)


@pytest.mark.parametrize(("text", "want"), [
    ("today", "2026-06-10"), ("tomorrow", "2026-06-11"), ("yesterday", "2026-06-09"),
    ("the day after tomorrow", "2026-06-12"), ("friday", "2026-06-12"), ("this friday", "2026-06-12"),
    ("next friday", "2026-06-19"), ("wednesday", "2026-06-17"), ("on monday", "2026-06-15"),
    ("march 3rd", "2027-03-03"), ("3 march", "2027-03-03"), ("july 14", "2026-07-14"), ("june 10", "2026-06-10"),
    ("the 14th", "2026-06-14"), ("the 2nd", "2026-07-02"), ("in 3 days", "2026-06-13"), ("in two weeks", "2026-06-24"),
    ("next week", "2026-06-17"),
])
def test_dates_against_the_phones_today(text: str, want: str) -> None:
    """Relative and calendar dates resolve against the sim's Wednesday 10 June 2026."""
    assert parse_date(text) == datetime.date.fromisoformat(want)


@pytest.mark.parametrize("text", ["february 30", "the 32nd", "someday", "next fortnight"])
def test_dates_refused(text: str) -> None:
    """Impossible or unknown dates are refused."""
    with pytest.raises(UnknownValue):
        parse_date(text)


@pytest.mark.parametrize(("text", "want"), [
    ("10 minutes", 600), ("five minute", 300), ("an hour and a half", 5400), ("1 hour 30 minutes", 5400),
    ("half an hour", 1800), ("90 seconds", 90), ("2 hrs", 7200), ("twenty five minutes", 1500),
])
def test_durations(text: str, want: int) -> None:
    """Lengths of time in seconds."""
    assert parse_duration(text) == want


@pytest.mark.parametrize(("text", "want"), [
    ("twenty three", 23), ("one hundred and five", 105), ("1,000", 1000), ("a dozen", 12), ("12.5", 12.5),
])
def test_numbers_in_words(text: str, want: float) -> None:
    """Numbers in digits or words."""
    assert parse_number(text) == want


@pytest.mark.parametrize(("text", "want"), [("12.50", 12.5), ("45 dollars", 45.0), ("twenty bucks", 20.0)])
def test_money(text: str, want: float) -> None:
    """Amounts in dollars."""
    assert parse_money(text) == want


def test_a_rule_whose_slot_no_reader_reads_is_refused() -> None:
    """A phrasing naming a slot without a reader fails when the rule is written, not when a user's line hits it."""
    with pytest.raises(PhrasingError, match="no reader"):
        rule("demo", TaskTemplate(), ("do {nothing_reads_this}",))
