"""World-suite tasks over Loop Habit Tracker (issue 48): answer a habit's current or best streak, score, total,
count in a month, a measurable habit's number yesterday and which habit scores best; create a habit with a frequency
and a reminder, check a day, enter a measurable day's number, rename, change a reminder, archive, unarchive and
delete a habit. The tasks across apps are in `habits_cross_tasks`.

Every task puts its habit on the phone under a fixed name (`initial`), next to a twin with a similar name and another
history (the near miss), among the episode's seeded habits. Checks read the app's state and its change logs
("added", "removed", "edited", "archived", "unarchived", "entries"), so touching the twin, or anything else, fails.
Answers are computed from the habit's history as the state holds it (None once anything was changed) and accept the
number with or without its unit. Splits hold out habit names (`split_of`). Task habits and expert steps are in
`habits_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

import calendar
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import habits as H
from android_gym.sim.apps import habits_data as D
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, find, nth, press, wait
from android_gym.tasks.world.habits_expert import (
    HAB,
    TWINS,
    create_habit,
    day_prefix,
    days_ago,
    edit_habit,
    enter_value,
    find_habit,
    habit_menu,
    habits_state,
    history,
    number_matches,
    only_changes,
    tap_day,
    to_habit,
    to_list,
    twin_grid,
    twin_habits,
    untouched,
)

DAYS = ("today", "yesterday")
"""The days a check or a number is asked for, as the goal says them."""
NEW_NAMES = ("Floss nightly", "Read before bed", "Stretch after lunch", "Journal", "Walk the dog",
             "Practice scales", "No coffee after 2", "Tidy the desk", "Wake at six", "Drink green tea",
             "Review flashcards", "Ten-minute tidy", "Push-up set", "Evening walk", "Inbox zero", "Plan tomorrow")
"""Names of habits a task creates (none is a task or seeded habit)."""
FREQUENCIES = ((1, 1, "every day"), (1, 2, "every 2 days"), (3, 7, "3 times a week"), (5, 7, "5 times per week"),
               (10, 30, "10 times a month"), (1, 3, "every 3 days"), (2, 7, "twice a week"))
"""Frequencies a created habit gets: times, days, and how the goal says it."""
RENAMES = ("{name} daily", "{name} (new)", "{name} every day", "{name} 2.0")


def iso_day(day: str) -> str:
    """The ISO day `day` ("today" or "yesterday") names."""
    return days_ago(DAYS.index(day))


def one_day_log(state: State, name: str, day: str) -> bool:
    """Whether the episode's day changes all concern habit `name` on `day` (at least one) and nothing else changed."""
    s = habits_state(state)
    log = s["entries"]
    return (bool(log) and all(c["habit"] == name and c["day"] == day for c in log)
            and only_changes(state, entries=log))


# -- answers -----------------------------------------------------------------------------------------------------------
class _HabitAnswer(WorldTemplate):
    """What is {figure} of the habit {name}? Answered with the number its page shows (its unit optional)."""

    split_key, apps, outcome, max_steps = "name", (HAB,), "answer", 9
    units: tuple[str, ...] = ()
    rid = ""

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice."""
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin."""
        return {HAB: twin_habits(params)}

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """The number asked for."""
        raise NotImplementedError

    def answer(self, params: Params, state: State) -> str | None:
        """The figure as the habit's history holds it, while nothing was changed."""
        h = find_habit(state, params["name"])
        return str(self.figure(params, h)) if h is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The number, bare or with its unit ("5", "5 days")."""
        return number_matches(given, truth, self.units)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the habit's page and answer with the number it shows."""
        step = to_habit(params["name"], elements, state)
        if step is not None:
            return step
        return answer_with(find(elements, rid=self.rid))


class CurrentStreakTemplate(_HabitAnswer):
    """What is my current streak for {name}? Its done days running up to today (or yesterday)."""

    name, units, rid = "habits_current_streak", ("days", "day", "in a row"), H.STAT_RIDS["currentStreak"]
    phrasings = ("What is my current streak for {name}?", "How many days in a row have I kept up {name}?",
                 "Check Loop Habit Tracker: how long is my {name} streak right now?")

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """The current streak in days."""
        return D.current_streak(habit)


class BestStreakTemplate(_HabitAnswer):
    """What is the best streak of {name}? Its longest run of done days."""

    name, units, rid = "habits_best_streak", ("days", "day", "in a row"), H.STAT_RIDS["bestStreak"]
    phrasings = ("What is my best streak ever for {name}?", "What's the longest streak I've had with {name}?",
                 "In Loop Habit Tracker, how many days is the best streak of {name}?")

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """The best streak in days."""
        return D.best_streak(habit)


class TotalTemplate(_HabitAnswer):
    """How many times have I done {name} in total? Its done days."""

    name, units, rid = "habits_total", ("times", "time", "days", "check ins", "checkins"), H.STAT_RIDS["total"]
    phrasings = ("How many times have I done {name} in total?", "What is the total count of check-ins for {name}?",
                 "Look up in Loop how many days I've completed {name} altogether")

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """The total of done days."""
        return D.total(habit)


class ScoreTemplate(_HabitAnswer):
    """What is the score of {name}? Its score in percent ("72%", "72 percent" or "72")."""

    name, units, rid = "habits_score", ("percent", "%"), H.STAT_RIDS["score"]
    phrasings = ("What is the score of my {name} habit?", "What percentage does Loop give {name} as its score?",
                 "How strong is my {name} habit? Tell me its score")

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """The score in percent."""
        return D.score(habit)


class MonthCountTemplate(_HabitAnswer):
    """How many times did I do {name} in {month}? Its done days that month (the page's history)."""

    name, units = "habits_month_count", ("times", "time", "days")
    phrasings = ("How many times did I do {name} in {month}?", "In {month}, on how many days did I complete {name}?",
                 "Check Loop Habit Tracker: how often did I manage {name} during {month}?")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with a month of the page's history (this month or the two before)."""
        return [{**p, "month": calendar.month_name[nth((5, 4, 6), p["phrasing"])]} for p in super().grid()]

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """The done days in the month."""
        return D.month_count(habit, D.DATE.year, list(calendar.month_name).index(params["month"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the habit's page and answer with the month's count in its history."""
        step = to_habit(params["name"], elements, state)
        if step is not None:
            return step
        month = find(elements, rid=H.MONTH_RID, text=f"{params['month']} {D.DATE.year}")
        if month is None:
            return wait()
        counts = [e for e in elements if e.rid == H.MONTH_COUNT_RID and e.bounds[1] == month.bounds[1]]
        return answer_with(counts[0] if counts else None)


class ValueYesterdayTemplate(_HabitAnswer):
    """How many {unit} did I log for {name} yesterday? A measurable habit's number (its day button)."""

    name, max_steps = "habits_value_yesterday", 8
    phrasings = ("How many {unit} did I log for {name} yesterday?", "What number did I enter for {name} yesterday?",
                 "Check Loop: how many {unit} of {name} did I do yesterday?")

    def grid(self) -> list[dict[str, Any]]:
        """Every measurable twin pair twice."""
        return twin_grid(2, measured=True)

    def figure(self, params: Params, habit: D.HabitState) -> int:
        """Yesterday's number (0 when none)."""
        return habit["entries"].get(days_ago(1), 0)

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The number, bare or with the habit's unit."""
        return number_matches(given, truth, (params["unit"],))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """On the list, answer with the number on the habit's button for yesterday."""
        step = to_list(elements, state)
        if step is not None:
            return step
        prefix = day_prefix(params["name"], days_ago(1))
        button = next((e for e in elements if e.rid == H.CHECK_RID and e.desc.startswith(prefix)), None)
        return answer_with(button)


class BestScoreTemplate(WorldTemplate):
    """Which habit has the best score? Four task habits (the seeded ones cleared), one clearly ahead."""

    name, split_key, apps, outcome, max_steps = "habits_best_score", "name", (HAB,), "answer", 9
    phrasings = ("Which habit has the best score in Loop Habit Tracker?", "Which of my habits is strongest right now?",
                 "Tell me the habit with the highest score")

    def grid(self) -> list[dict[str, Any]]:
        """Every task name as the leader, with three others."""
        out = []
        for i, (name, twin) in enumerate(TWINS):
            for k in range(2):
                others = [twin, TWINS[(i + 3 + k) % len(TWINS)][0], TWINS[(i + 7 + k) % len(TWINS)][1]]
                out.append({"name": name, "others": others, "phrasing": 2 * i + k, "variant": k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the four habits: the leader done on most days, the others on fewer, in a rotating order."""
        lead = {"name": params["name"], "entries": history(f"{params['name']}:lead:{params['variant']}", rate=0.9)}
        top = D.score(D.habit(**lead))
        for j in range(50):  # the first draw of the others that leaves the leader ahead by 5 points or more
            rest = [{"name": n, "entries": history(f"{n}:rest:{params['variant']}:{j}", rate=0.45)}
                    for n in params["others"]]
            if all(D.score(D.habit(**h)) <= top - 5 for h in rest):
                break
        at = params["phrasing"] % 4
        return {HAB: {"clear": True, "habits": [*rest[:at], lead, *rest[at:]]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The active habit with the highest score, while nothing was changed (None on a tie)."""
        active = [h for h in habits_state(state)["habits"] if not h["archived"]]
        scores = sorted(((D.score(h), h["name"]) for h in active), reverse=True)
        if not untouched(state) or not scores or (len(scores) > 1 and scores[0][0] == scores[1][0]):
            return None
        return scores[0][1]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Sort the list by score and answer with its first row."""
        if habits_state(state)["sort"] != "By score":
            sorting = state["screen"]["args"].get("dialog") == "sort"
            if state["foreground"] == HAB and not state.get("dialog") and sorting:
                return press(elements, text="By score")
            return to_list(elements, state) or press(elements, desc=H.SORT_DESC)
        return to_list(elements, state) or answer_with(find(elements, rid=H.NAME_RID))


# -- changes ----------------------------------------------------------------------------------------------------------
class CreateHabitTemplate(WorldTemplate):
    """Create the yes/no habit {name} with a frequency and a reminder time."""

    name, split_key, apps, max_steps = "habits_create", "name", (HAB,), 25
    phrasings = ('Create a habit "{name}" in Loop Habit Tracker, {freq_text}, with a reminder at {time}',
                 "Add a new habit called {name} that I do {freq_text}; remind me at {time}",
                 "In Loop, start tracking {name} {freq_text} with a {time} reminder")

    def grid(self) -> list[dict[str, Any]]:
        """Every new name twice, frequencies and times rotating."""
        out = []
        for i, name in enumerate(NEW_NAMES):
            for k in range(2):
                times, days, text = nth(FREQUENCIES, 3 * i + k)
                reminder = nth(twin_grid(1), i + 5 * k)["reminder"]
                out.append({"name": name, "times": times, "days": days, "freq_text": text, "reminder": reminder,
                            "time": D.reminder_label(reminder), "phrasing": 2 * i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No habit of that name."""
        return {HAB: {"absent": [params["name"]]}}

    def check(self, params: Params, state: State) -> bool:
        """One new yes/no habit of that name (case aside) with exactly that frequency and reminder; nothing else."""
        s = habits_state(state)
        if len(s["added"]) != 1 or s["added"][0].casefold() != params["name"].casefold():
            return False
        h = find_habit(state, s["added"][0])
        return (h is not None and (h["kind"], h["times"], h["days"], h["reminder"]) ==
                ("yes_no", params["times"], params["days"], params["reminder"])
                and only_changes(state, added=s["added"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add habit, Yes or No, the name, the frequency dialog, the reminder dialog, Save."""
        if habits_state(state)["added"]:
            return wait()
        want = {k: params[k] for k in ("name", "times", "days", "reminder")}
        return create_habit(want, elements, state)


class _PairTemplate(WorldTemplate):
    """A change to the habit {name}, its twin listed beside it; split on the name."""

    split_key, apps = "name", (HAB,)

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice."""
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin."""
        return {HAB: twin_habits(params)}


class CheckDayTemplate(_PairTemplate):
    """Mark {name} done {day}: one day button toggled on; the twin, also undone that day, untouched."""

    name, max_steps = "habits_check_day", 8
    phrasings = ("Mark {name} as done {day} in Loop Habit Tracker", "I did {name} {day}: check it off",
                 "Check {name} for {day} in my habits")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, today or yesterday."""
        return [{**p, "day": nth(DAYS, p["phrasing"])} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin, neither done that day."""
        pair = twin_habits(params)
        for h in pair["habits"]:
            h["entries"] = {d: v for d, v in h["entries"].items() if d != iso_day(params["day"])}
        return {HAB: pair}

    def check(self, params: Params, state: State) -> bool:
        """The habit done that day; every day change of the episode was to it; nothing else changed."""
        h, day = find_habit(state, params["name"]), iso_day(params["day"])
        return h is not None and h["entries"].get(day) == 1 and one_day_log(state, params["name"], day)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Tap the habit's button for the day on the list."""
        if habits_state(state)["entries"]:
            return wait()
        return tap_day(params["name"], iso_day(params["day"]), elements, state)


class EnterValueTemplate(_PairTemplate):
    """Log {value} {unit} of the measurable habit {name} for {day}: the number dialog of that day's button."""

    name, max_steps = "habits_enter_value", 10
    phrasings = ("Log {value} {unit} for {name} {day} in Loop Habit Tracker", "I did {value} {unit} of {name} {day}: "
                 "enter it", "Set {name} to {value} for {day}")

    def grid(self) -> list[dict[str, Any]]:
        """Every measurable twin pair twice, today or yesterday, a number off the target."""
        return [{**p, "day": nth(DAYS, p["phrasing"]), "value": p["target"] + 1 + p["phrasing"] % 7}
                for p in twin_grid(2, measured=True)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin, neither holding the number that day."""
        pair = twin_habits(params)
        for h in pair["habits"]:
            h["entries"] = {d: v for d, v in h["entries"].items() if d != iso_day(params["day"])}
        return {HAB: pair}

    def check(self, params: Params, state: State) -> bool:
        """The habit holds the number that day; every day change was to it that day; nothing else changed."""
        h, day = find_habit(state, params["name"]), iso_day(params["day"])
        return h is not None and h["entries"].get(day) == params["value"] and one_day_log(state, params["name"], day)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The day's button, the number, OK."""
        if habits_state(state)["entries"]:
            return to_list(elements, state) or wait()
        return enter_value(params["name"], iso_day(params["day"]), params["value"], elements, state)


class ArchiveTemplate(_PairTemplate):
    """Archive the habit {name}; its twin stays active."""

    name, max_steps = "habits_archive", 11
    phrasings = ("Archive the habit {name} in Loop Habit Tracker", "I'm done with {name}: archive it",
                 "Move {name} to the archived habits")

    def check(self, params: Params, state: State) -> bool:
        """Exactly that habit archived (and it is); nothing else changed."""
        h = find_habit(state, params["name"])
        return h is not None and h["archived"] and only_changes(state, archived=[params["name"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The habit's page, More options, Archive."""
        if habits_state(state)["archived"]:
            return wait()
        return habit_menu(params["name"], "Archive", elements, state)


class UnarchiveTemplate(_PairTemplate):
    """Unarchive the habit {name}; its twin, archived too, stays archived."""

    name, max_steps = "habits_unarchive", 13
    phrasings = ("Unarchive my {name} habit", "Bring {name} back from the archived habits in Loop",
                 "Restore the archived habit {name} to my list")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin, both archived."""
        pair = twin_habits(params, archived=True)
        pair["habits"][1]["archived"] = True
        return {HAB: pair}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that habit unarchived (and active); nothing else changed."""
        h = find_habit(state, params["name"])
        return h is not None and not h["archived"] and only_changes(state, unarchived=[params["name"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Show archived (the list's More options), the habit's page, More options, Unarchive."""
        s = habits_state(state)
        if s["unarchived"]:
            return wait()
        if not s["show_archived"] and state["screen"]["name"] != "habit":
            if state["foreground"] == HAB and state["screen"]["args"].get("dialog") == "menu":
                return press(elements, text="Show archived")
            return to_list(elements, state) or press(elements, desc=H.MORE_DESC)
        return habit_menu(params["name"], "Unarchive", elements, state)


class DeleteTemplate(_PairTemplate):
    """Delete the habit {name}; its twin stays."""

    name, max_steps = "habits_delete", 12
    phrasings = ("Delete the habit {name} from Loop Habit Tracker", "Remove {name} and its history for good",
                 "Get rid of my {name} habit entirely")

    def check(self, params: Params, state: State) -> bool:
        """Exactly that habit removed; nothing else changed."""
        return only_changes(state, removed=[params["name"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The habit's page, More options, Delete, Yes."""
        s = habits_state(state)
        if s["removed"]:
            return wait()
        if state["foreground"] == HAB and state["screen"]["args"].get("dialog") == "delete":
            return press(elements, text="Yes") if s["open"] == params["name"] else press(elements, text="Cancel")
        return habit_menu(params["name"], "Delete", elements, state)


class RenameTemplate(_PairTemplate):
    """Rename the habit {name} to {new}; its twin keeps its name."""

    name, max_steps = "habits_rename", 14
    phrasings = ('Rename the habit "{name}" to "{new}" in Loop Habit Tracker', "Call my {name} habit {new} instead",
                 'Change the name of {name} to "{new}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with a new name built on the old."""
        return [{**p, "new": nth(RENAMES, p["phrasing"] + len(p["name"])).format(name=p["name"])}
                for p in super().grid()]

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the habit's name, nothing else of it; nothing else changed."""
        return only_changes(state, edited=[{"habit": params["name"], "changes": {"name": params["new"]}}])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The habit's page, Edit habit, the name, Save."""
        if habits_state(state)["edited"]:
            return wait()
        return edit_habit(params["name"], {"name": params["new"]}, elements, state)


class ReminderTemplate(_PairTemplate):
    """Move the reminder of {name} to {time}; nothing else of it changes."""

    name, max_steps = "habits_change_reminder", 25
    phrasings = ("Change the reminder of {name} to {time} in Loop Habit Tracker", "Remind me about {name} at {time} "
                 "instead", "Set my {name} reminder to {time}")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with a time other than the habit's and its twin's."""
        out = []
        for p in super().grid():
            new = nth(("06:10", "20:45", "13:30", "17:05", "05:50"), p["phrasing"])
            out.append({**p, "new": new, "time": D.reminder_label(new)})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the habit's reminder, at that time; nothing else changed."""
        return only_changes(state, edited=[{"habit": params["name"], "changes": {"reminder": params["new"]}}])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The habit's page, Edit habit, the Reminder row, the time, OK, Save."""
        if habits_state(state)["edited"]:
            return wait()
        return edit_habit(params["name"], {"reminder": params["new"]}, elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    CurrentStreakTemplate(), BestStreakTemplate(), TotalTemplate(), ScoreTemplate(), MonthCountTemplate(),
    ValueYesterdayTemplate(), BestScoreTemplate(), CreateHabitTemplate(), CheckDayTemplate(), EnterValueTemplate(),
    ArchiveTemplate(), UnarchiveTemplate(), DeleteTemplate(), RenameTemplate(), ReminderTemplate(),
)
"""The Loop Habit Tracker templates of the world suite (one app)."""
