"""AndroidWorld's Tasks questions (information retrieval over org.tasks): `TasksDueOnDate`,
`TasksHighPriorityTasks`, `TasksHighPriorityTasksDueOnDate`, `TasksDueNextWeek`, `TasksCompletedTasksForDate` and
`TasksIncompleteTasksOnDate`.

AndroidWorld clears the Tasks database, inserts the task's rows (`tasks.textproto`: titles drawn without replacement,
importance 0-3 where 0 is high, a due date, completion) and 20 random rows (a title of its own list, any importance, a
due date within a week of today, done half the time) that do not meet all of the task's exclusion conditions, shuffled;
the goal says the date in words (`spoken_dates`: "tomorrow", "this Friday", "June 12", ...). It compares the final
answer: split at commas, as many items as expected titles, each within difflib's 0.9 of one of them; a count as a
number. Here the rows go into the sim's Tasks app (the Inbox; the other lists emptied, as AndroidWorld clears the
table), importance as the app's priorities (high, medium, low, none), without notes, times or hide-until dates (the
sim's rows have none; no question reads them). Dates are rebased onto the sim's calendar by their distance from
AndroidWorld's today, Sunday 2023-10-15, onto Wednesday 2026-06-10; "next week" is the sim's own (Monday June 15 to
Sunday June 21). Titles are lists of our own of the same kinds (`TITLES`, `REVIEWS`); the random rows take the sim's
seeded titles (`todo.POOL`). The answer is read from the app's rows (None once a row was edited) and compared as
AndroidWorld compares it, one item per title (`titles_match`: no title counted twice). The expert opens My Tasks,
scrolls until the last wanted row is on screen and answers.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import todo
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, fuzzy_match, pick
from android_gym.tasks.expert import find, swipe_up
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.notes_expert import tasks_view

TITLES = ("Finalise the budget draft", "Review pull requests", "Book the meeting room", "File travel receipts",
          "Refresh the team wiki", "Plan the quarterly review", "Sort the shared drive", "Write the newsletter",
          "Join the industry meetup", "Rehearse the client pitch", "Phone the supplier", "Study competitor pricing",
          "Close old support cases", "Draft the sprint agenda", "Reserve the summit hotel", "Organise team drinks",
          "Run the design workshop", "Check the analytics dashboard", "Complete safety training",
          "Email the status update", "Cook for the potluck", "Host game night", "Stretching class with Sam",
          "Finish the book club novel", "Arrange the cousins' visit")
"""Titles of the rows a question is about (AndroidWorld draws from 20-25 such work and home chores)."""
REVIEWS = ("Milestone Sign-Off", "Send Budget Forecast", "Grant Application Draft", "Weekly Team Check-In",
           "Customer Feedback Call", "Code Audit", "Newsletter Launch", "Prototype Review", "Board Update Call",
           "Monthly Revenue Review")
"""Titles of `TasksHighPriorityTasksDueOnDate`'s row (AndroidWorld's list for it has 10, title-cased)."""
NOISE_TITLES = tuple(t for titles in todo.POOL.values() for t in titles)
"""Titles of the 20 random rows: the sim's seeded tasks (AndroidWorld's random rows have a list of their own)."""
NOISE, WINDOW = 20, 7
"""Random rows per task; they fall due up to `WINDOW` days before or after today."""
NEXT_MONDAY = 7 - todo.DATE.weekday()
"""Days from today to next week's Monday (AndroidWorld's week starts on Monday)."""
EMPTIED = {name: () for name in todo.LISTS}
"""Every list of the app, emptied (AndroidWorld clears the table; the Inbox then takes the rows)."""


def spoken_dates(days: int) -> list[str]:
    """The ways AndroidWorld may say the date `days` after today: month and (zero-padded) day, with or without the
    year; today, tomorrow, yesterday; the weekday (and "this ...") within a week ahead, "the ... after next" within
    two; the weekday within a week back.

    >>> spoken_dates(1), spoken_dates(9)
    (['June 11', 'June 11 2026', 'tomorrow', 'Thursday', 'this Thursday'], ['June 19', 'June 19 2026', \
'the Friday after next'])
    """  # noqa: D205
    d = todo.DATE + datetime.timedelta(days=days)
    options = [d.strftime("%B %d"), d.strftime("%B %d %Y")]
    options += {0: ["today"], 1: ["tomorrow"], -1: ["yesterday"]}.get(days, [])
    weekday = d.strftime("%A")
    if 0 < days <= 7:
        options += [weekday, f"this {weekday}"]
    elif 7 < days <= 14:
        options.append(f"the {weekday} after next")
    elif -7 <= days < 0:
        options.append(weekday)
    return options


def row(title: str, days: int | None, priority: str = "low", completed: bool = False) -> dict[str, Any]:
    """A row as `TasksInitial` takes it (AndroidWorld's default importance, 2, is low)."""
    return {"title": title, "due": None if days is None else todo.iso(days), "priority": priority,
            "completed": completed}


def noise_row(rng: random.Random) -> dict[str, Any]:
    """A random row as AndroidWorld's generator draws one: a title, any priority, due within a week, done or not."""
    return row(pick(rng, NOISE_TITLES), rng.randint(-WINDOW, WINDOW), pick(rng, todo.PRIORITIES),
               rng.random() < 0.5)


def titles_match(given: str, titles: list[str]) -> bool:
    """AndroidWorld's list answer: the items between commas, as many as `titles`, each within difflib's 0.9 of a
    title (case ignored); here each title answers one item only.

    >>> titles_match("code audit , Review pull requests", ["Review pull requests", "Code Audit"])
    True
    >>> titles_match("Code Audit, Code Audit", ["Review pull requests", "Code Audit"])
    False
    """  # noqa: D205
    left = list(titles)
    items = [a.strip() for a in given.split(",")]
    if len(items) != len(left):
        return False
    for item in items:
        hit = next((t for t in left if fuzzy_match(item, t)), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


class _TasksQuestion(AndroidWorldTemplate):
    """Shared: the rows in the Inbox, the answer read from the rows that `wanted` picks."""

    apps, outcome, max_steps = (todo.PACKAGE,), "answer", 10  # scrolling to the last wanted row: 3-6 steps

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Whether `task` (a row) is one the question asks about."""
        raise NotImplementedError

    def excluded(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Whether a random row meets all of AndroidWorld's exclusion conditions (then it is drawn again)."""
        return self.wanted(params, task)

    def with_noise(self, rng: random.Random, params: dict[str, Any], targets: list[dict[str, Any]]) -> dict[str, Any]:
        """`params` with the rows: the targets and `NOISE` random rows not excluded, shuffled."""
        rows = list(targets)
        while len(rows) < len(targets) + NOISE:
            r = noise_row(rng)
            if not self.excluded(params, r):
                rows.append(r)
        rng.shuffle(rows)
        return {**params, "rows": rows}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The rows in the Inbox, every other list empty."""
        return {todo.PACKAGE: {"lists": {**EMPTIED, "Inbox": params["rows"]}}}

    def rows(self, params: Params, state: State) -> list[dict[str, Any]] | None:
        """The wanted rows, in My Tasks' order; None once a row was added, edited or removed."""
        t = state_of(state, todo.TasksState)
        if t["edits"]:
            return None
        every = sorted((r for rows in t["lists"].values() for r in rows), key=_order)
        return [r for r in every if self.wanted(params, r)]

    def answer(self, params: Params, state: State) -> str | None:
        """The wanted rows' titles, comma-separated (None once the rows were changed, or with none wanted)."""
        rows = self.rows(params, state)
        return ", ".join(r["title"] for r in rows) if rows else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's comparison of a list of titles (`titles_match`)."""
        return titles_match(given, truth.split(", "))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """My Tasks, scrolled until the last wanted row is on screen; then the answer."""
        step = tasks_view("My Tasks", elements, state)
        if step is not None:
            return step
        rows = self.rows(params, state) or []
        last = rows[-1]["title"] if rows else None
        if last is not None and find(elements, rid=todo.TITLE_RID, text=last) is None:
            return swipe_up()
        return Action(ActionType.STATUS_TASK_COMPLETE, text=self.answer(params, state) or "")


def _order(r: Mapping[str, Any]) -> tuple:
    """My Tasks' order of a row (the app's `shown`)."""
    return r["completed"], r["due"] is None, r["due"] or "", todo.PRIORITIES.index(r["priority"]), r["title"]


class TasksDueOnDate(_TasksQuestion):
    """Which tasks are due {date}: the three rows due that day (no random row is)."""

    name, split_key = "TasksDueOnDate", "due"
    goal_template = ("What tasks do I have due {date} in Tasks app? Answer with the titles only. If there are "
                     "multiples titles, format your answer in a comma separated list.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A day 0-14 days ahead (October 15-29), three titles, three priorities of two of each."""
        days = rng.randint(0, 14)
        titles, priorities = rng.sample(TITLES, 3), rng.sample([p for p in todo.PRIORITIES for _ in (0, 1)], 3)
        targets = [row(t, days, p) for t, p in zip(titles, priorities, strict=True)]
        return self.with_noise(rng, {"date": pick(rng, spoken_dates(days)), "due": todo.iso(days)}, targets)

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Due that day."""
        return task["due"] == params["due"]


class TasksHighPriorityTasks(_TasksQuestion):
    """Which tasks have high priority: the one high-priority row (no random row has it)."""

    name, split_key, max_steps = "TasksHighPriorityTasks", "task_title", 8
    goal_template = ("What are my high priority tasks in Tasks app? Answer with the titles only. If there are "
                     "multiples titles, format your answer in a comma separated list.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A title, due 1-7 days ahead (October 16-22), high priority."""
        title, days = pick(rng, TITLES), rng.randint(1, 7)
        return self.with_noise(rng, {"task_title": title}, [row(title, days, "high")])

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """High priority."""
        return task["priority"] == "high"


class TasksHighPriorityTasksDueOnDate(_TasksQuestion):
    """Which high-priority tasks are due {date}: the one such row (no random row is both)."""

    name, split_key, max_steps = "TasksHighPriorityTasksDueOnDate", "due", 8
    goal_template = ("Which tasks with high priority are due {date} in the Tasks app? Answer with the title only. If "
                     "there are multiples titles, format your answer in a comma separated list.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A day 0-14 days ahead (October 15-29) and a title, high priority."""
        days, title = rng.randint(0, 14), pick(rng, REVIEWS)
        params = {"date": pick(rng, spoken_dates(days)), "due": todo.iso(days)}
        return self.with_noise(rng, params, [row(title, days, "high")])

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """High priority and due that day."""
        return task["priority"] == "high" and task["due"] == params["due"]


class TasksDueNextWeek(_TasksQuestion):
    """How many tasks are due next week (Monday to Sunday): the six such rows (no random row is)."""

    name, split_key = "TasksDueNextWeek", "titles"
    goal_template = ("How many tasks do I have due next week in Tasks app? Assume the week starts from Monday. "
                     "Express your answer as a single integer.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Six titles, due on six days of next week, drawn without replacement."""
        titles, days = rng.sample(TITLES, 6), rng.sample(range(NEXT_MONDAY, NEXT_MONDAY + 7), 6)
        targets = [row(t, d) for t, d in zip(titles, days, strict=True)]
        return self.with_noise(rng, {"titles": ", ".join(titles)}, targets)

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Due next week."""
        return task["due"] is not None and todo.iso(NEXT_MONDAY) <= task["due"] <= todo.iso(NEXT_MONDAY + 6)

    def answer(self, params: Params, state: State) -> str | None:
        """How many rows are due next week (None once the rows were changed)."""
        rows = self.rows(params, state)
        return None if rows is None else str(len(rows))

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's number match: the answer read as a number equals the count.

        >>> [TasksDueNextWeek().answer_matches({}, a, "6") for a in ("6", " 6.0", "six", "6 tasks")]
        [True, True, False, False]
        """
        try:
            return float(given.strip()) == float(truth)
        except ValueError:
            return False


class TasksCompletedTasksForDate(_TasksQuestion):
    """Which tasks due {date} are done: the three rows due that day, all done (no random row is due then)."""

    name, split_key = "TasksCompletedTasksForDate", "due"
    goal_template = ("Which tasks have I completed for {date} in Tasks app? Answer with the titles only. If there "
                     "are multiples titles, format your answer in a comma separated list.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A day 5 days back to 5 ahead (October 10-20) and three titles, done."""
        days, titles = rng.randint(-5, 5), rng.sample(TITLES, 3)
        targets = [row(t, days, completed=True) for t in titles]
        return self.with_noise(rng, {"date": pick(rng, spoken_dates(days)), "due": todo.iso(days)}, targets)

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Due that day and done."""
        return task["due"] == params["due"] and task["completed"]

    def excluded(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Due that day (AndroidWorld's one condition)."""
        return task["due"] == params["due"]


class TasksIncompleteTasksOnDate(_TasksQuestion):
    """Which open tasks are due by {date}: the three open rows due that day (random rows due by then are done)."""

    name, split_key, max_steps = "TasksIncompleteTasksOnDate", "due", 8
    goal_template = ("What incomplete tasks do I have still have to do by {date} in Tasks app? Answer with the "
                     "titles only. If there are multiples titles, format your answer in a comma separated list.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A day 0-14 days ahead (October 15-29), three titles, three distinct priorities, open."""
        days, titles, priorities = rng.randint(0, 14), rng.sample(TITLES, 3), rng.sample(todo.PRIORITIES, 3)
        targets = [row(t, days, p) for t, p in zip(titles, priorities, strict=True)]
        return self.with_noise(rng, {"date": pick(rng, spoken_dates(days)), "due": todo.iso(days)}, targets)

    def wanted(self, params: Params, task: Mapping[str, Any]) -> bool:
        """Open and due by that day."""
        return not task["completed"] and task["due"] is not None and task["due"] <= params["due"]


TEMPLATES = (TasksDueOnDate(), TasksHighPriorityTasks(), TasksHighPriorityTasksDueOnDate(), TasksDueNextWeek(),
             TasksCompletedTasksForDate(), TasksIncompleteTasksOnDate())
