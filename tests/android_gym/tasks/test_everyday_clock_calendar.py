"""The everyday lines of the clock and calendar sections (issue 49): each parses onto the template and values it
names, the expert solves it, doing nothing does not, and values the phone does not know are refused with a reason
that names them. The three templates only these lines use keep the template contract, and the Calendar's day
view pages through days."""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

import pytest
from everyday_lines import parsed, parsed_task, play, section

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import calendar as C
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import find
from android_gym.tasks.expert import tap as expert_tap
from android_gym.tasks.goals import GoalMatch, Uncovered, parse_goal
from android_gym.tasks.world.calendar_everyday_tasks import CreateLaterEventTemplate, DayScheduleTemplate
from android_gym.tasks.world.clock_expert import CLOCK, card_by_id, reach_card, to_tab, when
from android_gym.tasks.world.clock_tasks import DeleteLabelledTemplate
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
EXPECTED: dict[str, tuple[str, str, dict[str, Any]]] = {
    # alarms, timers and the world clock
    "Set an alarm for 6:45 am tomorrow": ("alarm", "clock_alarm_label_days",
                                          {"hour": 6, "minute": 45, "label": "", "days": [], "added": True}),
    "Wake me up at seven thirty": ("alarm", "clock_alarm_label_days",
                                   {"hour": 7, "minute": 30, "label": "", "days": [], "added": True}),
    "Set an alarm for 10:40 PM called Night shift": ("alarm", "clock_alarm_label_days", {
        "hour": 22, "minute": 40, "label": "Night shift", "days": [], "added": True}),
    "Add an alarm at 5:30 every weekday": ("alarm", "clock_alarm_label_days",
                                           {"hour": 5, "minute": 30, "label": "", "days": WEEKDAYS, "added": True}),
    "Turn off my 7 am alarm": ("alarm", "turn_off_alarm", {"hour": 7, "minute": 0}),
    "Delete the alarm labelled Yoga": ("alarm", "clock_delete_labelled", {"label": "Yoga", "phrasing": 0}),
    "Change my 6:15 alarm to 6:30": ("alarm", "clock_change_alarm_time",
                                     {"hour": 6, "minute": 30, "old": [6, 15], "label": "", "days": []}),
    "Set a timer for 10 minutes": ("timer", "clock_labelled_timer", {"minutes": 10, "label": ""}),
    "Start a five minute timer for the eggs": ("timer", "clock_labelled_timer", {"minutes": 5, "label": "Eggs"}),
    "Set a timer for an hour and a half": ("timer", "clock_labelled_timer", {"minutes": 90, "label": ""}),
    "Add Tokyo to the world clock": ("world_clock", "clock_add_cities", {"first": "Tokyo"}),
    "What time is it in Sydney right now?": ("time", "web_time", {"city": "sydney"}),
    "Show me the time in Paris": ("world_clock", "clock_city_time_answer", {"city": "Paris", "clock": "9:41"}),
    # calendar
    "Create a calendar event for lunch with Sam next Friday at noon": (
        "calendar", "calendar_create_event", {"title": "Lunch with sam", "date": "2026-06-19", "start": "12:00"}),
    "Add a meeting with the design team tomorrow at 3pm": ("calendar", "calendar_create_event", {
        "title": "Meeting with the design team", "date": "2026-06-11", "start": "15:00"}),
    "Schedule a dentist appointment on March 3rd at 9:30": (
        "calendar", "calendar_create_later_event",
        {"title": "Dentist appointment", "date": "2027-03-03", "start": "09:30"}),
    "Move my 2 pm meeting to 4 pm": ("calendar", "calendar_change_start", {
        "title": "Meeting", "date": "2026-06-10", "start": "14:00", "length": 60, "new_start": "16:00",
        "absent": ["Parent-teacher meeting"]}),
    "Delete the event called Team sync": ("calendar", "calendar_delete_event", {"title": "Team sync", "length": 60}),
    "What's on my calendar tomorrow?": ("calendar", "calendar_day_schedule", {"date": "2026-06-11"}),
    "Put Grandma's birthday on the calendar for July 14": (
        "calendar", "calendar_create_event", {"title": "Grandmas birthday", "date": "2026-07-14", "start": None}),
}
LINES = [*section("alarms, timers and the world clock"), *section("calendar")]


def test_every_line_of_the_sections_is_expected() -> None:
    """The table above is the fixture's two sections, line for line."""
    assert sorted(EXPECTED) == sorted(LINES)


@pytest.mark.parametrize("line", LINES)
def test_line_parses_to_its_template_with_its_values(line: str) -> None:
    """Family, template and the values the line names (time, date, label, title, city)."""
    family, template, params = EXPECTED[line]
    match = parsed(line)
    assert (match.family, match.template.name) == (family, template), match
    assert {k: match.params.get(k) for k in params} == params, match.params


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("line", LINES)
def test_expert_solves_the_parsed_line(line: str, seed: int) -> None:
    """The template's expert solves the task the line parses into, under the default perturbations."""
    episode = play(line, seed)
    assert episode.success, f"{line!r} seed {seed}: failed in {episode.steps} steps"



@pytest.mark.parametrize("line", LINES)
def test_doing_nothing_does_not_solve_the_line(line: str) -> None:
    """Waiting out the budget (and, for a question, answering nothing sensible) never wins."""
    task = parsed_task(line)
    waited = run_episode(task, seed=0, policy=lambda elements, state: Action.key(ActionType.WAIT))
    assert not waited.success
    guess = run_episode(task, seed=0, policy=lambda elements, state: Action(ActionType.STATUS_TASK_COMPLETE,
                                                                            text="done"))
    assert not guess.success


@pytest.mark.parametrize(("line", "named"), [
    ("Add Narnia to the world clock", "narnia"),
    ("Show me the time in Atlantis", "atlantis"),
    ("Set an alarm for 10:40 PM tomorrow", "rings today"),
    ("Set an alarm for 6:43 am called Yoga", "steps of five"),
    ("Set a timer for 200 hours", "200 hours"),
    ("Add an alarm at 5:30 every fortnight", "fortnight"),
    ("What's on my calendar on July 30?", "july 30"),
    ("Create a calendar event for lunch with Sam yesterday at noon", "has passed"),
    ("Move my 2 pm meeting to 4:07 pm", "4:07 pm"),
])
def test_values_the_phone_does_not_know_are_refused_by_name(line: str, named: str) -> None:
    """An unknown city, an impossible alarm or timer, a day too far or past: Uncovered, the reason naming it."""
    match = parse_goal(line)
    assert isinstance(match, Uncovered), match
    assert named in match.reason.lower(), match.reason


def test_a_bare_add_is_an_event_only_when_it_names_a_kind_of_event() -> None:
    """"Add milk to my shopping list tomorrow at 5pm" names a day and a time but no event: never a calendar task."""
    match = parse_goal("Add milk to my shopping list tomorrow at 5pm")
    assert not (isinstance(match, GoalMatch) and match.template.name.startswith("calendar")), match


def test_a_label_that_is_a_time_is_no_label() -> None:
    """"Delete my 7 am alarm" never becomes a task on an alarm labelled "7 am"."""
    match = parse_goal("Delete my 7 am alarm")
    assert not (isinstance(match, GoalMatch) and match.template.name == "clock_delete_labelled")


def test_a_new_time_without_am_pm_keeps_the_alarms_half_of_the_day() -> None:
    """"Change my 6:15 pm alarm to 6:30" moves it to 6:30 PM; a morning alarm stays in the morning."""
    assert parsed("Change my 6:15 pm alarm to 6:30").params["hour"] == 18
    assert parsed("Change my 6:15 alarm to 6:30 pm").params["hour"] == 18


def test_a_parsed_title_matches_whatever_its_case_and_apostrophes() -> None:
    """The birthday typed as "Grandma's Birthday" satisfies the line that lost its apostrophe."""
    task = parsed_task("Put Grandma's birthday on the calendar for July 14")
    phone = SimDevice("none")
    phone.reset(0, task.initial)
    state = phone.state()
    event = {"id": 99, "title": "Grandma's Birthday", "date": "2026-07-14", "start": None, "end": None,
             "all_day": True, "location": "", "description": ""}
    won = {**state, "apps": {**state["apps"], C.PACKAGE: {**state["apps"][C.PACKAGE], "events": [event],
                                                          "added": [99]}}}
    assert task.check(won)
    moved = {**won, "apps": {**won["apps"], C.PACKAGE: {**won["apps"][C.PACKAGE],
                                                        "events": [{**event, "date": "2026-07-15"}]}}}
    assert not task.check(moved)


@cache
def _device(level: str) -> SimDevice:
    return SimDevice(level)


@pytest.mark.parametrize("template", [DeleteLabelledTemplate(), DayScheduleTemplate(), CreateLaterEventTemplate()],
                         ids=lambda t: t.name)
def test_the_templates_only_everyday_lines_use_keep_the_contract(template: TaskTemplate) -> None:
    """Splits and phrasings, the expert under perturbations, no win at reset, the budget and the apps."""
    checks.check_splits_and_goals(template)
    checks.check_expert_solves(template, _device("default"))
    checks.check_expert_solves(template, _device("hard"))
    checks.check_reset_guard(template, _device("none"))
    checks.check_budget_and_apps(template, _device("none"))


def test_the_day_view_pages_through_days() -> None:
    """Next day, previous day, Jump to Today: the day view lists the day it shows, and the state says which."""
    phone = SimDevice("none")
    phone.reset(0, {C.PACKAGE: {"events": [{"title": "Kite day", "date": "2026-06-12"}]}})

    def tap(**criteria: Any) -> None:
        element = find(phone.ui_elements(), **criteria)
        assert element is not None, criteria
        phone.perform(expert_tap(element))
        phone.tick()

    phone.perform(Action(ActionType.OPEN_APP, text="Calendar"))
    phone.tick()
    tap(desc="Day view")
    assert phone.state()["apps"][C.PACKAGE]["day"] == "2026-06-10"
    tap(desc="Next day")
    tap(desc="Next day")
    cal = phone.state()["apps"][C.PACKAGE]
    shown = [e["title"] for e in cal["events"] if e["id"] in cal["shown"]]
    assert cal["day"] == "2026-06-12" and "Kite day" in shown
    assert any(e.text == "Friday, June 12" for e in phone.ui_elements())
    tap(desc="Previous day")
    assert phone.state()["apps"][C.PACKAGE]["day"] == "2026-06-11"
    tap(desc="Jump to Today")
    assert phone.state()["apps"][C.PACKAGE]["day"] == "2026-06-10"


def _delete_the_near_miss(task: Task) -> Callable[[Sequence[UIElement], Mapping[str, Any]], Action]:
    """Delete the "{label} prep" alarm (id 1) instead of the labelled one."""
    def act(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        near = card_by_id(state, 1)
        step = to_tab("Alarm", elements, state)
        if step is not None or near is None:
            return step or Action.key(ActionType.WAIT)
        return reach_card(when(near), lambda g: find(g, rid=f"{CLOCK}:id/delete"), elements, state)
    return act


def _one_day_short(task: Task) -> Callable[[Sequence[UIElement], Mapping[str, Any]], Action]:
    """Page the day view to the day before the asked one (after it, for a day past), never reaching it."""
    day = datetime.date.fromisoformat(task.params["date"])
    short = str(day - datetime.timedelta(days=1 if day > C.DATE else -1))
    return lambda elements, state: DayScheduleTemplate().expert({"date": short}, elements, state)


def test_near_misses_of_the_everyday_only_templates_lose() -> None:
    """Deleting the alarm with the near-miss label, or paging the day view a day short, never wins."""
    checks.check_near_misses(DeleteLabelledTemplate(), _device("none"), [_delete_the_near_miss])
    checks.check_near_misses(DayScheduleTemplate(), _device("none"), [_one_day_short])


@pytest.mark.parametrize(("line", "params"), [
    ("Set a timer for 90 seconds", {"seconds": 90, "label": ""}),
    ("Set a timer for 2 hours for the roast", {"seconds": 7200, "label": "Roast"}),
    ("Wake me up tomorrow at 6", {"hour": 6, "minute": 0, "added": True}),
    ("Change my 6:15 pm alarm to 6:30", {"hour": 18, "minute": 30, "old": [18, 15]}),
    ("Add a dinner with Lena on Saturday at 7:30 pm", {"title": "Dinner with lena", "date": "2026-06-13",
                                                       "start": "19:30"}),
    ("What do I have on Friday?", {"date": "2026-06-12"}),
])
def test_wordings_beyond_the_fixture_parse_and_play(line: str, params: dict[str, Any]) -> None:
    """Seconds and hours past the keypad's 99 minutes, a bare hour, a PM alarm moved, another event and day."""
    match = parsed(line)
    assert {k: match.params.get(k) for k in params} == params, match.params
    assert play(line, 0).success
