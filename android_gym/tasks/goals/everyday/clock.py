"""Everyday phrasings of the clock tasks (issue 49), mapped onto the World suite's templates.

* A new alarm ("Set an alarm for 6:45 am tomorrow", "Wake me up at seven thirty"), with a label ("... called Night
  shift") or repeat days ("... every weekday"): `AlarmLabelDaysTemplate`, judged on the one alarm added (`"added"`).
  A plain "Set an alarm for 7am" is the AitW-style `alarm` family's (`SetAlarmTemplate`), as is "Turn off my 7 am
  alarm" (`TurnOffAlarmTemplate`): on a tie the earlier rule wins.
* An alarm named by its time moved to another ("Change my 6:15 alarm to 6:30"): `ChangeAlarmTimeTemplate` (`"old"`).
* An alarm named by its label deleted ("Delete the alarm labelled Yoga"): `DeleteLabelledTemplate`.
* A timer ("Set a timer for an hour and a half"), labelled with what it is for ("Start a five minute timer for the
  eggs": the label "Eggs", which the check compares): `LabelledTimerTemplate`.
* A city added to the world clock ("Add Tokyo to the world clock"): `AddCitiesTemplate` (`"first"` alone); the time
  in a city shown ("Show me the time in Paris"): `CityTimeAnswerTemplate`, answered from the world clock at the
  phone's clock. "What time is it in Sydney right now?" is the AitW-style `time` family's (a web answer card).

>>> read_alarm_time("seven thirty"), read_alarm_time("10:40 pm")
(AlarmTime(hour=7, minute=30, half_given=False), AlarmTime(hour=22, minute=40, half_given=True))
>>> read_days("weekday"), read_days("mondays and fridays")
(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], ['Monday', 'Friday'])
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from android_gym.sim.apps import clock as C
from android_gym.sim.phone import DEFAULT_SYSTEM
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import Names, Parsed, UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.goals.when import DURATION_WORDS, NUMBER_WORDS, parse_clock, parse_duration
from android_gym.tasks.world.clock_tasks import (
    AddCitiesTemplate,
    AlarmLabelDaysTemplate,
    ChangeAlarmTimeTemplate,
    CityTimeAnswerTemplate,
    DeleteLabelledTemplate,
    LabelledTimerTemplate,
)

PHONE_CLOCK = str(DEFAULT_SYSTEM["clock"])
"""The phone's clock ("9:41"): a one-off alarm before it rings tomorrow, after it today."""
MAX_TIMER_S = 99 * 3600 + 59 * 60 + 59
"""The longest timer the keypad takes (99:59:59), in seconds."""
_HALF_WORDS = re.compile(r"\b(am|pm|a\.m|p\.m|morning|afternoon|evening|night|tonight|noon|midnight|midday)\b")


class AlarmTime(NamedTuple):
    """A time of day an alarm line names (24-hour), and whether the line said which half of the day."""

    hour: int
    minute: int
    half_given: bool


def read_alarm_time(text: str) -> AlarmTime:
    """A time for an alarm, in digits or words ("6:45 am", "seven thirty"); a bare hour is a morning one.

    Raises:
        UnknownValue: not a time, or minutes the Clock's dial cannot set (it sets them in steps of five).
    """
    hour, minute = parse_clock(text, bare="morning")
    if minute % 5:
        raise UnknownValue(f"{text!r}: the Clock's dial sets minutes in steps of five")
    said = _HALF_WORDS.search(text.lower()) is not None or hour == 0 or hour > 12
    return AlarmTime(hour, minute, said)


def read_days(text: str) -> list[str]:
    """Repeat days, Monday first: "day" (every day), "weekday(s)", "weekend(s)", or weekdays ("mondays and fridays").

    Raises:
        UnknownValue: a word that is not a day.
    """
    sets = {"day": C.DAYS, "days": C.DAYS, "weekday": C.DAYS[:5], "weekdays": C.DAYS[:5], "weekend": C.DAYS[5:],
            "weekends": C.DAYS[5:]}
    chosen: set[str] = set()
    for word in words(text.replace(",", " ")):
        if word in ("and", "the", "every", "on"):
            continue
        if word in sets:
            chosen |= set(sets[word])
            continue
        day = next((d for d in C.DAYS if word in (d.lower(), d.lower() + "s", d.lower()[:3])), None)
        if day is None:
            raise UnknownValue(f"{text!r} names no days an alarm repeats on ('every weekday', 'on Mondays')")
        chosen.add(day)
    if not chosen:
        raise UnknownValue(f"{text!r} names no days an alarm repeats on")
    return [d for d in C.DAYS if d in chosen]


def read_label(text: str) -> str:
    """An alarm's or timer's label as the line gives it, first letter capitalised ("night shift" -> "Night shift").

    Raises:
        UnknownValue: no words, or a time of day (a line naming an alarm by its time is not naming a label).
    """
    label = " ".join(words(text))
    if not label:
        raise UnknownValue("an empty label")
    try:
        parse_clock(label)
    except UnknownValue:
        return label[0].upper() + label[1:]
    raise UnknownValue(f"{text!r} is a time, not a label")


def read_timer_length(text: str) -> int:
    """A timer's length in seconds ("10 minutes", "an hour and a half"), up to the keypad's 99:59:59.

    Raises:
        UnknownValue: not a length of time, or longer than the keypad takes.
    """
    seconds = parse_duration(text)
    if not 0 < seconds <= MAX_TIMER_S:
        raise UnknownValue(f"{text!r}: the Clock's timer keypad takes 1 second to 99:59:59")
    return seconds


_CITY_ALIASES = {"nyc": "New York", "new york city": "New York", "la": "Los Angeles", "bombay": "Mumbai",
                 "são paulo": "Sao Paulo", "hongkong": "Hong Kong", "mexico": "Mexico City", "cdmx": "Mexico City"}
READERS = {
    "alarm_time": Parsed("alarm time", read_alarm_time, ("am", "pm", "noon", "midnight", *NUMBER_WORDS)),
    "new_alarm_time": Parsed("alarm time", read_alarm_time, ("am", "pm", "noon", "midnight", *NUMBER_WORDS)),
    "alarm_days": Parsed("repeat days", read_days, ("weekday", "weekdays", "weekend", *(d.lower() for d in C.DAYS))),
    "alarm_label": Parsed("alarm label", read_label),
    "timer_length": Parsed("timer length", read_timer_length, tuple(DURATION_WORDS)),
    "timer_label": Parsed("timer label", read_label),
    "clock_city": Names("world-clock city", {c: c for c in C.CITIES}, _CITY_ALIASES),
}
"""The readers of this module's slots."""


def _new_alarm(when: str | None) -> Callable[[Slots], dict[str, Any]]:
    """The build of a new alarm; `when` ("tomorrow", "today") is the day the line says it rings, checked against
    the phone's clock (a one-off alarm rings at the next such time: the Clock sets no date)."""  # noqa: D205, D209
    def build(slots: Slots) -> dict[str, Any]:
        time: AlarmTime = slots["alarm_time"]
        now = tuple(int(p) for p in PHONE_CLOCK.split(":"))
        rings = "today" if (time.hour, time.minute) > now else "tomorrow"
        if when is not None and when != rings:
            raise UnknownValue(f"a one-off alarm at {C.format_time(time.hour, time.minute)} rings {rings}, not "
                               f"{when} (the phone's clock reads {PHONE_CLOCK}; the Clock sets no date)")
        return {"hour": time.hour, "minute": time.minute, "label": slots.get("alarm_label", ""),
                "days": list(slots.get("alarm_days", [])), "added": True}
    return build


def _moved(slots: Slots) -> dict[str, Any]:
    """An alarm named by its time, moved: a new time without am/pm keeps the old one's half of the day."""
    old, new = slots["alarm_time"], slots["new_alarm_time"]
    hour = new.hour + 12 if not new.half_given and old.hour >= 12 and new.hour < 12 else new.hour
    if (hour, new.minute) == (old.hour, old.minute):
        raise UnknownValue(f"the alarm is at {C.format_time(hour, new.minute)} already")
    return {"hour": hour, "minute": new.minute, "old": [old.hour, old.minute], "label": "", "days": []}


def _timer(slots: Slots) -> dict[str, Any]:
    """A timer's params: whole minutes up to 99 as `"minutes"` (as the suite's tasks), else `"seconds"`."""
    seconds, label = slots["timer_length"], slots.get("timer_label", "")
    if seconds % 60 == 0 and seconds // 60 <= 99:
        return {"minutes": seconds // 60, "label": label}
    return {"seconds": seconds, "label": label}


_SET = "(set|add|create|make|set up|put) [an|a|new|the|my] [new] alarm (for|at)"
_NAMED = "(called|named|labelled|labeled|titled|with the label)"
_TIMER = "(set|start|run|create|add|make|put on) [a|an|the|new]"
_FOR = "[(for|called|named|labelled|labeled) [the|my] {timer_label}]"

RULES: tuple[Rule, ...] = (
    rule("alarm", AlarmLabelDaysTemplate(), (
        f"{_SET} {{alarm_time}}",
        f"{_SET} {{alarm_time}} {_NAMED} {{alarm_label}}",
        f"{_SET} {{alarm_time}} (every|on) {{alarm_days}}",
        f"{_SET} {{alarm_time}} {_NAMED} {{alarm_label}} (every|on) {{alarm_days}}",
        f"(set|add|create) [an|a|new] {{alarm_time}} alarm [{_NAMED} {{alarm_label}}]",
        "wake me [up] at {alarm_time}",
    ), _new_alarm(None), readers=READERS),
    rule("alarm", AlarmLabelDaysTemplate(), (
        f"{_SET} {{alarm_time}} tomorrow [morning]",
        "wake me [up] at {alarm_time} tomorrow [morning]",
        "wake me [up] tomorrow at {alarm_time}",
    ), _new_alarm("tomorrow"), readers=READERS),
    rule("alarm", AlarmLabelDaysTemplate(), (
        f"{_SET} {{alarm_time}} (today|tonight|this afternoon|this evening)",
    ), _new_alarm("today"), readers=READERS),
    rule("alarm", ChangeAlarmTimeTemplate(), (
        "(change|move|set|reschedule|push|switch) [my|the] {alarm_time} alarm to {new_alarm_time}",
        "(change|move|set|reschedule|push) [my|the] alarm (at|for) {alarm_time} to {new_alarm_time}",
    ), _moved, readers=READERS),
    rule("alarm", DeleteLabelledTemplate(), (
        f"(delete|remove|clear|get rid of) [the|my] alarm {_NAMED} {{alarm_label}}",
        "(delete|remove|clear|get rid of) [the|my] {alarm_label} alarm",
    ), lambda s: {"label": s["alarm_label"], "phrasing": 0}, readers=READERS),
    rule("timer", LabelledTimerTemplate(), (
        f"{_TIMER} timer for {{timer_length}} {_FOR}",
        f"{_TIMER} {{timer_length}} timer {_FOR}",
        "time {timer_length} for [the|my] {timer_label}",
    ), _timer, readers=READERS),
    rule("world_clock", AddCitiesTemplate(), (
        "add {clock_city} to [the|my] world clock",
        "(add|put|show) {clock_city} (on|in) [the|my] world clock",
        "add [the city] {clock_city} to [the|my] clock [app]",
    ), lambda s: {"first": s["clock_city"]}, readers=READERS),
    rule("world_clock", CityTimeAnswerTemplate(), (
        "(show me|tell me|check) the [current|local] time in {clock_city} [now|right now]",
        "(show me|check) what time it is in {clock_city} [now|right now]",
    ), lambda s: {"city": s["clock_city"], "clock": PHONE_CLOCK}, readers=READERS),
)
"""The clock families' everyday rules (see the module docstring)."""
