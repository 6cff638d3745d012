"""Tests of the Loop Habit Tracker app of the simulated phone: the list with its day buttons and scores, checking
days (a tap toggles, a measurable day takes a number), a habit's page and figures, the habit form (frequency, colour,
reminder), editing, archiving, deleting, sorting, back over dialogs, seeding, the episode RNG and initial conditions.
"""  # noqa: D205

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import habits as H
from android_gym.sim.apps import habits_data as D
from android_gym.sim.apps.habits import HabitsApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

APPS = with_apps(HabitsApp)
KNOWN = [{"name": "Meditate", "question": "Did you meditate?", "reminder": "07:30",
          "entries": {"2026-06-09": 1, "2026-06-08": 1, "2026-06-07": 1, "2026-06-05": 1, "2026-05-20": 1}},
         {"name": "Read", "kind": "measurable", "unit": "pages", "target": 20, "color": "Blue",
          "entries": {"2026-06-09": 23, "2026-06-08": 12, "2026-06-07": 30}},
         {"name": "Floss", "archived": True, "color": "Red", "entries": {"2026-06-01": 1}}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Loop Habit Tracker installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """The app open on its list, holding only the known habits."""
    phone = make_phone(initial={D.PACKAGE: {"clear": True, "habits": KNOWN}})
    phone.launch("loop")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def habits(phone: SimPhone) -> dict:
    """The app's state."""
    return phone.state()["apps"][D.PACKAGE]


def habit(phone: SimPhone, name: str) -> dict:
    """The habit called `name`."""
    return next(h for h in habits(phone)["habits"] if h["name"] == name)


def texts(phone: SimPhone, rid: str) -> list[str]:
    """The texts of the elements with resource-id `rid`, top to bottom."""
    return [e.text for e in phone.elements() if e.rid == rid]


def test_the_list_shows_active_habits_with_day_buttons_and_scores():
    """Archived habits hidden; five day buttons per row, today first; a measurable day shows its number."""
    phone = known_phone()
    assert texts(phone, H.NAME_RID) == ["Meditate", "Read"]
    assert texts(phone, H.DAY_RID)[:2] == ["WE", "TU"] and texts(phone, H.DATE_RID)[:2] == ["10", "9"]
    assert texts(phone, H.CHECK_RID)[:5] == ["\u00d7", "\u2713", "\u2713", "\u2713", "\u00d7"]
    assert texts(phone, H.CHECK_RID)[5:] == ["0", "23", "12", "30", "0"]
    assert find(phone.elements(), desc="Read, Tue Jun 9: 23 pages") is not None
    assert find(phone.elements(), desc=f"Score {D.score(KNOWN[0] | {'kind': 'yes_no', 'target': 0, 'times': 1, 'days': 1})}%") is not None  # noqa: E501


def test_a_tap_toggles_a_day_and_a_measurable_day_takes_a_number():
    """A yes/no day flips on each tap; a measurable one opens the number dialog, whose OK saves the value."""
    phone = known_phone()
    press(phone, desc="Meditate, Wed Jun 10: not done")
    assert habit(phone, "Meditate")["entries"]["2026-06-10"] == 1
    press(phone, desc="Meditate, Wed Jun 10: done")
    assert "2026-06-10" not in habit(phone, "Meditate")["entries"]
    press(phone, desc="Read, Tue Jun 9: 23 pages")
    assert phone.top.fields[H.VALUE_FIELD] == "23" and phone.top.focus == H.VALUE_FIELD
    phone.type_text("5")
    press(phone, text="OK")
    assert habit(phone, "Read")["entries"]["2026-06-09"] == 235
    assert habits(phone)["entries"] == [{"habit": "Meditate", "day": "2026-06-10", "value": 1},
                                        {"habit": "Meditate", "day": "2026-06-10", "value": 0},
                                        {"habit": "Read", "day": "2026-06-09", "value": 235}]


def test_a_habit_page_shows_its_figures_and_history():
    """Score, current and best streak, total and the month counts; the last opened habit is reported."""
    phone = known_phone()
    press(phone, text="Meditate")
    state = habits(phone)
    assert state["open"] == "Meditate" and state["last_opened"] == "Meditate"
    assert texts(phone, H.STAT_RIDS["currentStreak"]) == ["3 days"]
    assert texts(phone, H.STAT_RIDS["bestStreak"]) == ["3 days"]
    assert texts(phone, H.STAT_RIDS["total"]) == ["5"]
    assert texts(phone, H.MONTH_RID)[:2] == ["June 2026", "May 2026"]
    assert texts(phone, H.MONTH_COUNT_RID)[:2] == ["4", "1"]
    assert "Every day \u00b7 Reminder 7:30 AM" in texts(phone, f"{D.PACKAGE}:id/frequencyLabel")


def test_figures_count_measurable_days_that_reach_the_target():
    """A measurable day below its target does not count towards streaks or the total."""
    h = {**KNOWN[1], "times": 1, "days": 1}
    assert (D.current_streak(h), D.best_streak(h), D.total(h), D.month_count(h, 2026, 6)) == (1, 1, 2, 2)


def test_creating_a_habit_with_frequency_colour_and_reminder():
    """Add habit, Yes or No, the form's rows and dialogs, Save: one new habit with those fields."""
    phone = known_phone()
    press(phone, desc=H.ADD_DESC)
    press(phone, text="Yes or No")
    press(phone, rid=H.NAME_FIELD)
    phone.type_text("Stretch")
    press(phone, rid=H.FREQ_ROW)
    press(phone, text="N times per week")
    press(phone, rid=H.FREQ_FIELD)
    phone.type_text("3")
    press(phone, text="OK")
    press(phone, rid=H.COLOR_ROW)
    press(phone, text="Purple")
    press(phone, rid=H.REMINDER_ROW)
    phone.type_text("6:45 PM")
    press(phone, text="OK")
    assert find(phone.elements(), text="6:45 PM") is not None
    press(phone, text="Save")
    new = habit(phone, "Stretch")
    assert (new["times"], new["days"], new["color"], new["reminder"], new["kind"]) == (3, 7, "Purple", "18:45",
                                                                                       "yes_no")
    assert habits(phone)["added"] == ["Stretch"] and phone.top.name == "list"


def test_a_blank_name_and_a_bad_target_are_refused():
    """Save on a blank name, or a measurable habit's target that is no number, shows why and saves nothing."""
    phone = known_phone()
    press(phone, desc=H.ADD_DESC)
    press(phone, text="Measurable")
    press(phone, text="Save")
    assert texts(phone, H.ERROR_RID) == ["Target must be a number"]
    press(phone, rid=H.TARGET_FIELD)
    phone.type_text("10")
    press(phone, text="Save")
    assert texts(phone, H.ERROR_RID) == ["Name can't be empty"] and habits(phone)["added"] == []


def test_editing_records_only_what_changed():
    """Rename through Edit habit: one edit naming the old name and the new one; a Save without change is none."""
    phone = known_phone()
    press(phone, text="Meditate")
    press(phone, desc=H.EDIT_DESC)
    press(phone, text="Save")
    assert habits(phone)["edited"] == [] and phone.top.name == "habit"
    press(phone, desc=H.EDIT_DESC)
    press(phone, rid=H.NAME_FIELD)
    phone.type_text(" daily")
    press(phone, text="Save")
    assert habits(phone)["edited"] == [{"habit": "Meditate", "changes": {"name": "Meditate daily"}}]
    assert habits(phone)["last_opened"] == "Meditate daily"


def test_archive_unarchive_and_delete_from_the_menu():
    """Archive hides the habit; Show archived lists it; Unarchive brings it back; Delete asks, then removes it."""
    phone = known_phone()
    press(phone, text="Read")
    press(phone, desc=H.MORE_DESC)
    press(phone, text="Archive")
    assert phone.top.name == "list" and texts(phone, H.NAME_RID) == ["Meditate"]
    press(phone, desc=H.MORE_DESC)
    press(phone, text="Show archived")
    assert texts(phone, H.NAME_RID) == ["Meditate", "Read (archived)", "Floss (archived)"]
    press(phone, text="Floss (archived)")
    press(phone, desc=H.MORE_DESC)
    press(phone, text="Unarchive")
    press(phone, text="Meditate")
    press(phone, desc=H.MORE_DESC)
    press(phone, text="Delete")
    press(phone, text="Yes")
    state = habits(phone)
    assert (state["archived"], state["unarchived"], state["removed"]) == (["Read"], ["Floss"], ["Meditate"])


def test_sort_orders_the_list_and_back_closes_a_dialog_first():
    """Sort by name reorders the rows; BACK over a menu closes it and stays in the app."""
    phone = make_phone(initial={D.PACKAGE: {"clear": True, "habits": [KNOWN[1], KNOWN[0]]}})
    phone.launch("habit tracker")
    assert texts(phone, H.NAME_RID) == ["Read", "Meditate"]
    press(phone, desc=H.SORT_DESC)
    press(phone, text="By name")
    assert texts(phone, H.NAME_RID) == ["Meditate", "Read"] and habits(phone)["sort"] == "By name"
    press(phone, desc=H.SORT_DESC)
    phone.key("back")
    assert phone.foreground == D.PACKAGE and "dialog" not in phone.top.args


def test_initial_habits_are_seeded():
    """The same seed gives the same habits; others differ; 4-6 of them, nothing done today or later."""
    def seeded(seed: int) -> list[dict]:
        return make_phone(seed).state()["apps"][D.PACKAGE]["habits"]

    assert seeded(5) == seeded(5)
    assert len({repr(seeded(s)) for s in range(6)}) == 6
    assert all(4 <= len(seeded(s)) <= 6 for s in range(6))
    assert all(day < str(D.DATE) for s in range(4) for h in seeded(s) for day in h["entries"])


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with the app draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("habits")
    press(mine, rid=H.CHECK_RID)
    mine.state()
    mine.tick()
    plain.tick()
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state


@pytest.mark.parametrize(("initial", "field"), [
    ({"habits": [{"name": " "}]}, "name"),
    ({"habits": [{"name": "x", "reminder": "7:30"}]}, "reminder"),
    ({"habits": [{"name": "x", "color": "Mauve"}]}, "color"),
    ({"habits": [{"name": "x", "entries": {"June 8": 1}}]}, "entries"),
    ({"habits": [{"name": "x", "kind": "count"}]}, "kind"),
    ({"cleared": True}, "cleared"),
])
def test_apply_refuses_a_bad_initial_condition_naming_the_field(initial: dict, field: str):
    """A blank, misformatted or unknown field fails with its name in the message."""
    with pytest.raises(ConfigError, match=field):
        make_phone(initial={D.PACKAGE: initial})


def test_apply_sets_habits_and_is_not_a_change():
    """Initial habits are the set-up: listed after the seeded ones (absent ones gone), nothing added or changed."""
    seeded = D.seeded_habits(4)
    phone = make_phone(4, {D.PACKAGE: {"absent": [seeded[0]["name"]], "habits": KNOWN[:1]}})
    state = habits(phone)
    names = [h["name"] for h in state["habits"]]
    assert seeded[0]["name"] not in names and names[-1] == "Meditate" and len(names) == len(seeded)
    assert (state["added"], state["removed"], state["edited"], state["entries"]) == ([], [], [], [])
