"""Task habits and expert steps the Loop Habit Tracker templates share (`habits_tasks`, `habits_cross_tasks`).

The task habits: names, each with a twin (the near miss: a similar name, another history), an instance per pair
and variant (`twin_grid`), their histories drawn from the instance (`history`), and the pair put on the phone
(`twin_habits`). The checks read the app's state (`habits_state`, `find_habit`, `untouched`), and answers accept a
number written with or without its unit (`number_matches`). Each expert step reads the UI elements and the sim's
state and returns the next action towards a sub-goal: the list with nothing over it (`to_list`), a habit's page
(`to_habit`), a day's button (`tap_day`), a measurable day's number (`enter_value`), the form filled in and saved
(`fill_form`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import habits as H
from android_gym.sim.apps import habits_data as D
from android_gym.tasks.base import normalise_answer
from android_gym.tasks.world.base import (
    Elements,
    Params,
    State,
    back,
    fill,
    find,
    into_app,
    nth,
    press,
    state_of,
    swipe_up,
    tap,
    wait,
)

HAB = D.PACKAGE
LABEL = H.HabitsApp.label
TWINS = (("Morning yoga", "Evening yoga"), ("Cold shower", "Cold brew"), ("Learn Spanish", "Learn Italian"),
         ("Make the bed", "Make lunch"), ("No social media", "No soda"), ("Take vitamins", "Take a walk"),
         ("Practice piano", "Practice drums"), ("Plank", "Push-ups"), ("Write code", "Write letters"),
         ("Call family", "Call a friend"), ("Gratitude list", "Gratitude jar"), ("Sketch", "Sketchnote"),
         ("Bike to work", "Bike at night"), ("Bed before 11", "Bed before 12"), ("Water plants", "Water garden"),
         ("Duolingo", "Duo chess"))
"""Yes/no task habit names, each with its twin; none is a seeded name."""
MEASURED = (("Read books", "Read news", "pages", 20), ("Swim laps", "Swim drills", "laps", 30),
            ("Run distance", "Run hills", "km", 5), ("Practice violin", "Practice voice", "minutes", 30),
            ("Drink tea", "Drink juice", "cups", 3), ("Squats", "Squat jumps", "reps", 50),
            ("Study math", "Study maps", "minutes", 45), ("Walk steps", "Walk dog", "thousand steps", 8),
            ("Journal pages", "Journal lines", "pages", 2), ("Pull-ups", "Pull-downs", "reps", 10),
            ("Cycle", "Cycle class", "km", 15), ("Meditation time", "Meditation app", "minutes", 10))
"""Measurable task habit names, each with its twin, with the unit and daily target they share."""
REMINDERS = ("07:30", "06:45", "21:15", "08:00", "19:30", "12:10", "22:05", "06:20", "18:40", "09:55")
"""Reminder times of task habits (multiples of five minutes, as the Clock's picker sets)."""


def days_ago(age: int) -> str:
    """The ISO day `age` days before the sim's today."""
    return str(D.DATE - datetime.timedelta(days=age))


def history(key: str, measured: tuple[str, int] | None = None, rate: float = 0.7) -> dict[str, int]:
    """A task habit's history over the 100 days before today drawn from `key`: done days at about `rate`, in runs;
    yesterday always holds a value (measured: (unit, target) gives each day a number around the target)."""  # noqa: D205, D209
    rng = np.random.default_rng(stable_seed("habit-history", key))
    out: dict[str, int] = {}
    on = True
    for age in range(100, 0, -1):
        if rng.random() < (0.25 if on else 0.25 * rate / (1 - rate)):
            on = not on
        if on or age == 1:
            out[days_ago(age)] = int(rng.integers(measured[1] // 2 + 1, measured[1] * 2 + 1)) if measured else 1
    return out


def twin_grid(variants: int = 2, measured: bool = False) -> list[dict[str, Any]]:
    """Every twin pair `variants` times: names, a phrasing, a reminder and (measured) the unit and target."""
    out = []
    for i, pair in enumerate(MEASURED if measured else TWINS):
        for k in range(variants):
            n = i * variants + k
            p = {"name": pair[0], "twin": pair[1], "variant": k, "phrasing": n,
                 "reminder": nth(REMINDERS, 3 * i + k)}
            if measured:
                p |= {"unit": pair[2], "target": pair[3]}
            out.append(p)
    return out


def twin_habits(params: Params, **extra: Any) -> dict[str, Any]:
    """Initial habits: the task's habit and its twin (other histories, the twin's reminder another time), seeded
    habits of those names removed; `extra` fields go on the task's habit."""  # noqa: D205, D209
    p = params
    key = f"{p['name']}:{p['variant']}"
    measured = (p["unit"], p["target"]) if "unit" in p else None
    kind = {"kind": "measurable", "unit": p["unit"], "target": p["target"]} if measured else {}
    twin_time = nth(REMINDERS, REMINDERS.index(p["reminder"]) + 1)
    mine = {"name": p["name"], "reminder": p["reminder"], "entries": history(key, measured), **kind, **extra}
    twin = {"name": p["twin"], "reminder": twin_time, **kind}
    for j in range(50):  # the first twin history whose every figure differs (answering the twin must lose)
        twin["entries"] = history(f"{key}:twin:{j}", measured, 0.5)
        if all(a != b for a, b in zip(figures(mine), figures(twin), strict=True)):
            break
    return {"absent": [p["name"], p["twin"]], "habits": [mine, twin]}


def figures(spec: Mapping[str, Any]) -> tuple[int, ...]:
    """The figures answer tasks ask of a task habit: current and best streak, total, score, yesterday's value and
    (measurable) and the counts of the page's first three months."""  # noqa: D205, D209
    h = D.habit(**spec)
    value = (h["entries"].get(days_ago(1), 0),) if h["kind"] == "measurable" else ()
    return (D.current_streak(h), D.best_streak(h), D.total(h), D.score(h), *value,
            *(D.month_count(h, D.DATE.year, m) for m in (4, 5, 6)))


def habits_state(state: State) -> D.HabitsState:
    """Loop Habit Tracker's part of the device state."""
    return state_of(state, D.HabitsState)


def find_habit(state: State, name: str) -> D.HabitState | None:
    """The (first) habit called `name`, or None."""
    return next((h for h in habits_state(state)["habits"] if h["name"] == name), None)


def untouched(state: State) -> bool:
    """Nothing added, removed, edited, archived, unarchived or checked in the app this episode."""
    s = habits_state(state)
    return not (s["added"] or s["removed"] or s["edited"] or s["archived"] or s["unarchived"] or s["entries"])


def only_changes(state: State, **logs: Any) -> bool:
    """Whether the app's change logs are exactly `logs` (log name to its list) and every other log is empty."""
    s = habits_state(state)
    names = ("added", "removed", "edited", "archived", "unarchived", "entries")
    return all(s[n] == logs.get(n, []) for n in names)  # type: ignore[literal-required]


def number_matches(given: str, truth: str, units: Iterable[str] = ()) -> bool:
    """Whether `given` states the number `truth`, bare or followed by one of `units` (their words, any case).

    >>> number_matches("5 days", "5", ["days", "day"]), number_matches("5", "5"), number_matches("It's 5%", "5")
    (True, True, False)
    >>> number_matches("15 days", "5", ["days"]), number_matches("5 weeks", "5", ["days"])
    (False, False)
    """
    words = normalise_answer(given).split()
    allowed = {w for u in units for w in normalise_answer(u).split()}
    return (bool(words) and words[0] == truth and all(w in allowed for w in words[1:])
            and not any(w.isdigit() for w in words[1:]))


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_list(elements: Elements, state: State) -> Action | None:
    """The next step to the habit list with no dialog over it (None once there)."""
    step = into_app(LABEL, HAB, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    return None if screen["name"] == "list" and not screen["args"].get("dialog") else back()


def row_of(name: str, elements: Elements) -> Any:
    """The list row's name element of habit `name` (archived ones too), or None when it is not on screen."""
    return find(elements, rid=H.NAME_RID, text=name) or find(elements, rid=H.NAME_RID, text=f"{name} (archived)")


def to_habit(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to the page of habit `name` with nothing over it (None once there)."""
    step = into_app(LABEL, HAB, elements, state)
    screen = state["screen"]
    if step is None and screen["name"] == "habit" and not screen["args"].get("dialog"):
        return None if habits_state(state)["open"] == name else back()
    step = step or to_list(elements, state)
    if step is not None:
        return step
    row = row_of(name, elements)
    return tap(row) if row is not None else swipe_up()


def day_prefix(name: str, day: str) -> str:
    """The start of the description of habit `name`'s button for `day` ("Plank, Tue Jun 9:")."""
    d = datetime.date.fromisoformat(day)
    return f"{name}, {d:%a %b} {d.day}:"


def tap_day(name: str, day: str, elements: Elements, state: State) -> Action:
    """On the list: tap habit `name`'s button for `day` (the list first)."""
    step = to_list(elements, state)
    if step is not None:
        return step
    button = next((e for e in elements if e.rid == H.CHECK_RID and e.desc.startswith(day_prefix(name, day))), None)
    return tap(button) if button is not None else swipe_up()


def enter_value(name: str, day: str, value: int, elements: Elements, state: State) -> Action:
    """Give measurable habit `name` the number `value` on `day`: its button, the number dialog, OK."""
    screen = state["screen"]
    if state["foreground"] == HAB and screen["args"].get("dialog") == "value" and not state.get("dialog"):
        title = day_prefix(name, day)[:-1]
        if find(elements, text=title) is None:
            return back()
        return fill(elements, state, H.VALUE_FIELD, str(value)) or press(elements, text="OK")
    return tap_day(name, day, elements, state)


def form_dialog(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """In one of the form's dialogs: pick what `want` asks (frequency, colour, reminder), then OK; a dialog of a field
    `want` leaves alone (opened by a stray tap) is closed."""  # noqa: D205, D209
    args = state["screen"]["args"]
    match args["dialog"]:
        case "frequencyPicker" if "times" in want:
            choice = H.freq_choice(want["times"], want["days"])
            if args["freq_choice"] != choice:
                return press(elements, text=H.FREQ_CHOICES[choice])
            n = "" if choice == 0 else str(want["days"] if choice == 1 else want["times"])
            return fill(elements, state, H.FREQ_FIELD, n, missing=wait()) or press(elements, text="OK")
        case "reminderTimePicker" if "reminder" in want:
            if not want["reminder"]:
                return press(elements, text="Clear")
            return (fill(elements, state, H.TIME_FIELD, D.reminder_label(want["reminder"]), missing=wait())
                    or press(elements, text="OK"))
        case "colorPicker" if "color" in want:
            return press(elements, text=want["color"])
        case "kind":
            return press(elements, text="Measurable" if want.get("kind") == "measurable" else "Yes or No")
    return back()


def fill_form(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """On the habit form: make it hold `want` (name, and any of question, unit, target, times and days, colour,
    reminder, notes), then Save."""  # noqa: D205, D209
    screen = state["screen"]
    args = screen["args"]
    if args.get("dialog"):
        return form_dialog(want, elements, state)
    for key, rid in (("name", H.NAME_FIELD), ("question", H.QUESTION_FIELD), ("unit", H.UNIT_FIELD),
                     ("target", H.TARGET_FIELD), ("notes", H.NOTES_FIELD)):
        if key in want:
            step = fill(elements, state, rid, str(want[key]))
            if step is not None:
                return step
    if "times" in want and (args["times"], args["days"]) != (want["times"], want["days"]):
        return press(elements, rid=H.FREQ_ROW)
    if "color" in want and args["color"] != want["color"]:
        return press(elements, rid=H.COLOR_ROW)
    if "reminder" in want and args["reminder"] != want["reminder"]:
        return press(elements, rid=H.REMINDER_ROW)
    return press(elements, text="Save")


def create_habit(want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """Create the habit `want` describes (`kind`, default yes/no): Add habit, its kind, the form, Save."""
    step = into_app(LABEL, HAB, elements, state)
    screen = state["screen"]
    if step is None and screen["name"] == "form" and screen["args"]["id"] is None:
        return fill_form(want, elements, state)
    if step is None and screen["name"] == "list" and screen["args"].get("dialog") == "kind":
        return form_dialog(want, elements, state)
    return step or to_list(elements, state) or press(elements, desc=H.ADD_DESC)


def edit_habit(name: str, want: Mapping[str, Any], elements: Elements, state: State) -> Action:
    """Edit habit `name` to hold `want`: its page, Edit habit, the form, Save."""
    step = into_app(LABEL, HAB, elements, state)
    screen = state["screen"]
    if step is None and screen["name"] == "form" and screen["args"]["id"] is not None:
        if habits_state(state)["open"] != name:
            return back()
        return fill_form(want, elements, state)
    return step or to_habit(name, elements, state) or press(elements, desc=H.EDIT_DESC)


def habit_menu(name: str, item: str, elements: Elements, state: State) -> Action:
    """Pick `item` ("Archive", "Unarchive", "Delete") of habit `name`'s More options menu."""
    screen = state["screen"]
    if (state["foreground"] == HAB and screen["name"] == "habit" and screen["args"].get("dialog") == "menu"
            and habits_state(state)["open"] == name):
        return press(elements, text=item)
    return to_habit(name, elements, state) or press(elements, desc=H.MORE_DESC)
