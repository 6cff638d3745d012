"""World-suite tasks that carry information between Loop Habit Tracker and other apps (issue 48): text someone a
habit's current streak (Messages), write a month's count into a new Markor note, set a Clock alarm at a habit's
reminder time, make a Tasks to-do a daily habit, and give a habit the start time of a Calendar event as its reminder.

Each task hides what it carries in one app (the streak, the count, the reminder on the habit's page; the to-do's
title in a named list; the event's start on its page) beside a near miss (the habit's twin with another history and
reminder; a to-do in another list; an event of a similar title at another time), so carrying the wrong figure fails.
Checks read both apps' states: the written figure or the created item, and nothing else changed in either.
"""  # noqa: D205, D209

from __future__ import annotations

import calendar
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import calendar as CAL
from android_gym.sim.apps import clock as C
from android_gym.sim.apps import habits_data as D
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import home
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, state_of, wait
from android_gym.tasks.world.calendar_expert import to_event
from android_gym.tasks.world.clock_expert import add_alarm, added, only_edited
from android_gym.tasks.world.habits_expert import (
    HAB,
    create_habit,
    days_ago,
    edit_habit,
    find_habit,
    habits_state,
    only_changes,
    to_habit,
    twin_grid,
    twin_habits,
    untouched,
)
from android_gym.tasks.world.messaging_expert import conversation, names, person, same_number, send_text, words
from android_gym.tasks.world.notes_expert import markor_create, markor_write, only_touched, tasks_view

NOTE_STEMS = ("habit_log", "progress", "monthly_review", "streaks", "habit_notes", "check_ins")
TODO_LISTS = (("Habits to start", "Errands"), ("New routines", "Shopping"), ("Resolutions", "Chores"),
              ("Try this month", "Weekend"))
"""(list holding the to-do, list holding the near miss) pairs of the to-do task."""
TODOS = ("Floss every night", "Stretch in the morning", "Read ten pages", "Drink more water", "Walk after dinner",
         "Practice Spanish", "Write three lines", "No phone in bed", "Meal prep", "Call grandma", "Tidy the kitchen",
         "Go to bed early", "Practice gratitude", "Cook at home", "Take the stairs", "Learn a song")
"""To-do titles turned into habits (the near miss is the next one, in the other list)."""
EVENTS = (("Yoga class", "Yoga workshop"), ("Piano lesson", "Piano recital"), ("Team standup", "Team lunch"),
          ("Gym session", "Gym tour"), ("Spanish tutor", "Spanish exam"), ("Book club", "Book fair"),
          ("Swim practice", "Swim meet"), ("Therapy", "Therapy intake"))
EVENT_TIMES = ("06:30", "07:15", "18:00", "19:45", "08:40", "20:10", "12:35", "17:20")


def numbers_besides(text: str, name: str) -> list[str]:
    """The numbers `text` states other than those in habit `name` ("Bed before 11: 6" gives ["6"]).

    >>> numbers_besides("Bed before 11: 6 times", "Bed before 11"), numbers_besides("Plank 12", "Plank")
    (['6'], ['12'])
    """
    own = [w for w in words(name) if w.isdigit()]
    out = [w for w in words(text) if w.isdigit()]
    for w in own:
        if w in out:
            out.remove(w)
    return out


class StreakToTextTemplate(WorldTemplate):
    """Text {person} my current streak for {name}: one SMS to them stating that number and no other."""

    name, max_steps, split_key = "habits_streak_to_text", 16, "name"
    apps = (HAB, M.PACKAGE)
    phrasings = ("Text {person} my current streak for {name}",
                 "Send {person} a message saying how many days in a row I've done {name}",
                 "{person} asked about my {name} streak: look it up in Loop Habit Tracker and text them")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with a person per instance."""
        return [{**p, "person": names(f"habits:{p['name']}:{p['phrasing']}", 1)[0]} for p in twin_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin; a conversation with the person."""
        p = person(params["person"])
        return {HAB: twin_habits(params),
                M.PACKAGE: {"threads": [conversation(p, ("How's the streak going?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """One text, to the person, whose only number is the current streak; the habits unchanged."""
        h = find_habit(state, params["name"])
        sent = state_of(state, M.MessagesState)["sent"]
        if h is None or not untouched(state) or len(sent) != 1:
            return False
        return (same_number(sent[0]["number"], person(params["person"])["number"])
                and numbers_besides(sent[0]["text"], params["name"]) == [str(D.current_streak(h))])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the habit's page to read the streak, then text it."""
        if habits_state(state)["last_opened"] != params["name"]:
            return to_habit(params["name"], elements, state) or home()
        h = find_habit(state, params["name"])
        streak = D.current_streak(h) if h is not None else 0
        return send_text(person(params["person"]), f"{streak} days", elements, state)


class CountToNoteTemplate(WorldTemplate):
    """Write how many times I did {name} in {month} into a new Markor note {note}: its only number is the count."""

    name, max_steps, split_key = "habits_count_to_note", 19, "name"
    apps = (HAB, markor.PACKAGE)
    phrasings = ('Create a Markor note "{note}" with how many times I did {name} in {month}',
                 "Look up my {month} count for {name} in Loop Habit Tracker and write it in a new note {note}",
                 "Make a note called {note} recording the number of days I completed {name} in {month}")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with a month of the page's history and a note name."""
        return [{**p, "month": calendar.month_name[nth((5, 4), p["phrasing"])],
                 "note": f"{nth(NOTE_STEMS, p['phrasing'] + len(p['name']))}.md"} for p in twin_grid(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin; no such note."""
        return {HAB: twin_habits(params), markor.PACKAGE: {"absent": [params["note"]]}}

    def count(self, params: Params, state: State) -> int | None:
        """The habit's count of done days in the month (None when it is gone)."""
        h = find_habit(state, params["name"])
        month = list(calendar.month_name).index(params["month"])
        return None if h is None else D.month_count(h, D.DATE.year, month)

    def check(self, params: Params, state: State) -> bool:
        """The note exists and its only number is the count; no other note edited; the habits unchanged."""
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"])
        count = self.count(params, state)
        return (text is not None and count is not None and numbers_besides(text, params["name"]) == [str(count)]
                and only_touched(m["edits"], {params["note"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the habit's page (the history by month), then create the note and type the count."""
        if habits_state(state)["last_opened"] != params["name"]:
            return to_habit(params["name"], elements, state) or home()
        count = self.count(params, state)
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], f"{params['name']} in {params['month']}: {count}", elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class AlarmAtReminderTemplate(WorldTemplate):
    """Set a Clock alarm at the reminder time of {name}: one new alarm, on, at that time; nothing else changed."""

    name, max_steps, split_key = "habits_alarm_at_reminder", 16, "name"
    apps = (HAB, C.PACKAGE)
    phrasings = ("Set an alarm in Clock for the reminder time of my {name} habit",
                 "Look up when Loop reminds me about {name} and set an alarm at that time",
                 "Create an alarm at the same time as my {name} habit reminder")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice."""
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin (reminders at other times); seeded alarms clear of the habit's time."""
        h, m = map(int, params["reminder"].split(":"))
        return {HAB: twin_habits(params), C.PACKAGE: {"seeded": 3, "free": [[h, m]]}}

    def check(self, params: Params, state: State) -> bool:
        """One alarm added, on, at the habit's reminder; no other alarm touched; the habits unchanged."""
        new = added(state)
        h = find_habit(state, params["name"])
        return (h is not None and bool(h["reminder"]) and len(new) == 1 and new[0]["enabled"]
                and f"{new[0]['hour']:02d}:{new[0]['minute']:02d}" == h["reminder"]
                and only_edited(state, {new[0]["id"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the habit's page to read the reminder, then add the alarm."""
        if habits_state(state)["last_opened"] != params["name"]:
            return to_habit(params["name"], elements, state) or home()
        if added(state):
            return wait()
        h = find_habit(state, params["name"])
        hour, minute = map(int, (h["reminder"] if h is not None else params["reminder"]).split(":"))
        return add_alarm(hour, minute, elements, state)


class HabitFromTodoTemplate(WorldTemplate):
    """Make the to-do of my Tasks list {list} a daily habit: one new yes/no habit named as the to-do, every day."""

    name, max_steps, split_key = "habits_from_todo", 22, "todo"
    apps = (todo.PACKAGE, HAB)
    phrasings = ('Turn the to-do in my Tasks list "{list}" into a daily habit in Loop Habit Tracker',
                 "Take the item on my {list} list in Tasks and track it as an everyday habit in Loop",
                 "My {list} list has one to-do: create a habit with the same name, every day")

    def grid(self) -> list[dict[str, Any]]:
        """Every to-do twice, with list names rotating (the near miss in the other list)."""
        out = []
        for i, title in enumerate(TODOS):
            for k in range(2):
                lists = nth(TODO_LISTS, i + k)
                out.append({"todo": title, "other": nth(TODOS, i + 1), "list": lists[0], "other_list": lists[1],
                            "phrasing": 2 * i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two lists, one to-do each; no habit of either name."""
        return {todo.PACKAGE: {"absent": [params["todo"], params["other"]],
                               "lists": {params["list"]: [{"title": params["todo"]}],
                                         params["other_list"]: [{"title": params["other"]}]}},
                HAB: {"absent": [params["todo"], params["other"]]}}

    def check(self, params: Params, state: State) -> bool:
        """One new habit named as the to-do (case aside), yes/no, every day; nothing else changed in either app."""
        s = habits_state(state)
        if len(s["added"]) != 1 or s["added"][0].strip().casefold() != params["todo"].casefold():
            return False
        h = find_habit(state, s["added"][0])
        return (h is not None and (h["kind"], h["times"], h["days"]) == ("yes_no", 1, 1)
                and only_changes(state, added=s["added"]) and not state_of(state, todo.TasksState)["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Show the list in Tasks to read the to-do, then create the habit."""
        if habits_state(state)["added"]:
            return wait()
        if state_of(state, todo.TasksState)["view"] != params["list"]:
            return tasks_view(params["list"], elements, state) or home()
        listed = state_of(state, todo.TasksState)["lists"][params["list"]]
        return create_habit({"name": listed[0]["title"], "times": 1, "days": 1}, elements, state)


class ReminderFromEventTemplate(WorldTemplate):
    """Give {name} a reminder at the start of the Calendar event {event}: one edit of its reminder, nothing else."""

    name, max_steps, split_key = "habits_reminder_from_event", 31, "name"
    apps = (CAL.PACKAGE, HAB)
    phrasings = ('Set the reminder of my {name} habit to the start time of "{event}" in my calendar',
                 "When does {event} start? Make that the reminder time of {name} in Loop Habit Tracker",
                 "Remind me about {name} at the time my {event} event begins")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with an event (and its near miss) at times of their own."""
        out = []
        for p in twin_grid(2):
            event, other = nth(EVENTS, p["phrasing"])
            start = nth(EVENT_TIMES, p["phrasing"] + p["variant"])
            out.append({**p, "event": event, "other": other, "start": start,
                        "other_start": nth(EVENT_TIMES, p["phrasing"] + p["variant"] + 3)})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The habit and its twin; the event and its near miss in the coming days."""
        def event(title: str, start: str, age: int) -> dict[str, Any]:
            h, m = map(int, start.split(":"))
            return {"title": title, "date": days_ago(-age), "start": start, "end": f"{h + 1:02d}:{m:02d}"}

        return {HAB: twin_habits(params),
                CAL.PACKAGE: {"absent": [params["event"], params["other"]],
                              "events": [event(params["event"], params["start"], 1 + params["phrasing"] % 3),
                                         event(params["other"], params["other_start"], 2)]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the habit's reminder, at the event's start; the calendar unchanged."""
        c = state_of(state, CAL.CalendarState)
        event = next((e for e in c["events"] if e["title"] == params["event"]), None)
        return (event is not None and not (c["added"] or c["edited"] or c["deleted"])
                and only_changes(state, edited=[{"habit": params["name"], "changes": {"reminder": event["start"]}}]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the event's page to read its start, then edit the habit's reminder."""
        c = state_of(state, CAL.CalendarState)
        event = next((e for e in c["events"] if e["title"] == params["event"]), None)
        if event is None or habits_state(state)["edited"]:
            return wait()
        if event["id"] not in c["opened"]:
            return to_event(event, elements, state) or home()
        return edit_habit(params["name"], {"reminder": event["start"]}, elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    StreakToTextTemplate(), CountToNoteTemplate(), AlarmAtReminderTemplate(), HabitFromTodoTemplate(),
    ReminderFromEventTemplate(),
)
"""The Loop Habit Tracker templates across apps of the world suite."""
