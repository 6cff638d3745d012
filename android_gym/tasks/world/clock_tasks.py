"""World-suite tasks over Google Clock (issue 17): alarms with labels and repeat days, changing and turning off
alarms, a labelled timer, world-clock cities, two questions (an alarm's time, a city's time), an impossible request,
and two tasks with another app (a Markor note says when to wake up; text someone the time of the earliest alarm).

Every alarm task seeds distractor alarms around its own (`apply({"seeded": n})`, drawn from the episode seed), so the
target card sits at a different row each episode. Task labels never occur among the seeded ones, and every alarm of
a task has its own time, so a card is found by its time text. Checks read the Clock's alarm cards and its edit log
(`alarm_edits`), so touching another alarm fails. Experts read the UI elements, get past pop-ups (`into_app`), find a
card's controls by walking the card's elements (from its label row to the next card's), and scroll the list while
the control they need is off screen or under the Add alarm button (their steps live in `clock_expert`).

The everyday instructions (issue 49) parse onto these templates with the values a line names, through optional
parameters each template documents; `DeleteLabelledTemplate` serves them too, outside the World suite.
"""  # noqa: D205, D209


from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import clock as C
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import fill, find, tap, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Params, WorldTemplate, nth, press
from android_gym.tasks.world.clock_expert import (
    CLOCK,
    Elements,
    State,
    add_alarm,
    added,
    card_by_id,
    cards,
    earliest_on,
    edit_card,
    label_dialog,
    labelled,
    on_screen,
    only_edited,
    pick_time,
    reach_card,
    to_tab,
    when,
)
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.notes_expert import markor_item

LABELS = ("Yoga", "Flight", "Dentist", "Piano practice", "Train to Boston", "Pick up kids", "Team call", "Laundry",
          "Bake bread", "Swim class", "Soccer practice", "Farmers market", "Book club", "Water the plants",
          "Call mom", "Night shift")
"""Labels the tasks name; none is a seeded alarm's label (`clock.SEEDED_LABELS`)."""
DAY_SETS = (("Monday", "Wednesday", "Friday"), ("Tuesday", "Thursday"), ("Saturday", "Sunday"),
            ("Monday", "Thursday"), ("Wednesday", "Saturday"), ("Tuesday", "Friday", "Sunday"))
PAIRS = (("Paris", "Sydney"), ("Mumbai", "Chicago"), ("Cairo", "Seoul"), ("Berlin", "Honolulu"),
         ("Dubai", "Toronto"), ("Madrid", "Singapore"), ("Nairobi", "Vancouver"), ("Bangkok", "Lisbon"),
         ("Kathmandu", "Mexico City"), ("Istanbul", "Auckland"), ("Rome", "Dhaka"), ("Athens", "Manila"))
NOTES = ("Wake up at {time} for the airport shuttle", "Alarm: {time}, the movers arrive early",
         "Need to be up by {time} tomorrow for the exam")
SEEDED = 3


def _time(i: int, first: int = 5, hours: int = 17) -> tuple[int, int]:
    """A 5-minute time for index `i`, from `first` o'clock over `hours` hours (spread so neighbours differ)."""
    return first + (7 * i) % hours, 5 * ((5 * i + i // hours) % 12)


def day_phrase(days: Sequence[str]) -> str:
    """Repeat days as a goal says them.

    >>> day_phrase(("Monday", "Wednesday", "Friday")), day_phrase(("Saturday", "Sunday"))
    ('Monday, Wednesday and Friday', 'Saturday and Sunday')
    """
    return f"{', '.join(days[:-1])} and {days[-1]}"


# -- templates: alarms ------------------------------------------------------------------------------------------------
class _LabelTemplate(WorldTemplate):
    """A template on alarms named by a label: every label in several phrasings, with times and days rotating."""

    split_key = "label"
    variants = 3

    def grid(self) -> list[dict[str, Any]]:
        """Every label in `variants` instances."""
        out = []
        for i, label in enumerate(LABELS):
            for k in range(self.variants):
                n = i * self.variants + k
                hour, minute = _time(n)
                out.append({"label": label, "hour": hour, "minute": minute, "time": C.format_time(hour, minute),
                            "days": nth(DAY_SETS, n), "day_text": day_phrase(nth(DAY_SETS, n)), "phrasing": n})
        return out


class AlarmLabelDaysTemplate(_LabelTemplate):
    """Set an alarm at {time} labelled {label} repeating on {days}: picker, label dialog, day chips.

    An everyday line's alarm (issue 49) sets `"added": True`: its label may be empty ("Wake me up at seven thirty")
    or a seeded alarm's, and its days empty (a one-off alarm), so the check judges the one alarm added this episode.
    """

    name, max_steps = "clock_alarm_label_days", 20
    apps = (CLOCK,)
    phrasings = ('Set an alarm for {time} labelled "{label}" that repeats every {day_text}',
                 'Create a {time} alarm called {label}, repeating on {day_text}',
                 'In Clock, add an alarm at {time} named "{label}" for {day_text}')

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Seeded alarms at other times."""
        return {CLOCK: {"seeded": SEEDED, "free": [[params["hour"], params["minute"]]]}}

    def check(self, params: Params, state: State) -> bool:
        """One alarm with the label: on, at the time, repeating on exactly the days; no other alarm touched.

        With `"added"`: the one alarm added this episode is on, at the time, with the label (case and outer spaces
        aside; none when the label is empty) and exactly the days, and no other alarm was touched.
        """
        mine = added(state) if params.get("added") else labelled(state, params["label"])
        if params.get("added") and (len(mine) != 1 or mine[0]["label"].strip().casefold() !=
                                    params["label"].strip().casefold()):
            return False
        return (len(mine) == 1 and mine[0]["enabled"] and (mine[0]["hour"], mine[0]["minute"]) ==
                (params["hour"], params["minute"]) and set(mine[0]["days"]) == set(params["days"])
                and only_edited(state, {mine[0]["id"]}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add the alarm on the picker, then its label (Add label, type, OK), then tap each day's chip."""
        new = added(state)
        if not new:
            return add_alarm(params["hour"], params["minute"], elements, state)
        return edit_card(new[-1], params["label"], params["days"], elements, state) or wait()


class ChangeAlarmTimeTemplate(_LabelTemplate):
    """Move the {label} alarm to {time}: tap its time, pick the new one, OK; its label and days stay.

    An everyday line names the alarm by its time instead ("Change my 6:15 alarm to 6:30", issue 49): `"old": [hour,
    minute]` is then the alarm's time at reset, and its label and days are the line's (none).
    """

    name, max_steps = "clock_change_alarm_time", 11
    apps = (CLOCK,)
    phrasings = ('Change my "{label}" alarm to {time}', "Move the alarm labelled {label} to {time}",
                 'Reschedule the {label} alarm in Clock so it rings at {time}')

    def _old(self, params: Params) -> tuple[int, int]:
        """The alarm's time at reset (mid-day, so seeded alarms fall on both sides), never the new time."""
        if "old" in params:
            return int(params["old"][0]), int(params["old"][1])
        hour, minute = _time(params["phrasing"] + 7, first=8, hours=9)
        return (hour, (minute + 10) % 60) if (hour, minute) == (params["hour"], params["minute"]) else (hour, minute)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The labelled alarm at another time, repeating, among seeded ones."""
        hour, minute = self._old(params)
        return {CLOCK: {"alarms": [{"hour": hour, "minute": minute, "label": params["label"],
                                    "days": list(params["days"])}],
                        "seeded": SEEDED, "free": [[params["hour"], params["minute"]]]}}

    def check(self, params: Params, state: State) -> bool:
        """That alarm (id 0) at the new time, on, with its label and days; no other alarm touched or added."""
        a = card_by_id(state, 0)
        return (a is not None and (a["hour"], a["minute"]) == (params["hour"], params["minute"]) and a["enabled"]
                and a["label"] == params["label"] and set(a["days"]) == set(params["days"])
                and only_edited(state, {0}) and not added(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Tap the alarm's time, pick the new time, OK."""
        a = card_by_id(state, 0)
        if a is None or (a["hour"], a["minute"]) == (params["hour"], params["minute"]):
            return wait()
        if on_screen("picker", state) and state["screen"]["args"]["edit"] == 0:
            return pick_time(params["hour"], params["minute"], elements, state["screen"]["args"])
        return to_tab("Alarm", elements, state) or reach_card(when(a), lambda g: find(g, rid=C.TIME_RID), elements,
                                                              state)


def _labelled_set(params: Params, near: str) -> list[dict[str, Any]]:
    """Two or three enabled alarms labelled as the goal says, and one labelled `near` (all at distinct times)."""
    count = 2 + params["phrasing"] % 2
    times = [_time(params["phrasing"] * 5 + 3 * k, first=4 + k * 5, hours=4) for k in range(count + 1)]
    return [{"hour": h, "minute": m, "label": params["label"] if k < count else near, "days": []}
            for k, (h, m) in enumerate(times)]


class TurnOffLabelledTemplate(_LabelTemplate):
    """Turn off every alarm labelled {label} (two or three); an alarm labelled "{label} prep" stays on."""

    name, max_steps = "clock_turn_off_labelled", 9
    apps = (CLOCK,)
    phrasings = ('Turn off every alarm labelled "{label}"', "Switch off all my {label} alarms",
                 'Disable the alarms called {label} in Clock')

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The labelled alarms, the near miss, seeded alarms."""
        return {CLOCK: {"alarms": _labelled_set(params, f"{params['label']} prep"), "seeded": 2}}

    def check(self, params: Params, state: State) -> bool:
        """Every alarm set at reset with the label is still there and off; nothing else touched."""
        ids = set(range(len(_labelled_set(params, "")) - 1))  # the near miss is set last
        mine = [a for a in cards(state) if a["id"] in ids]
        return (len(mine) == len(ids) and not any(a["enabled"] for a in mine) and only_edited(state, ids)
                and not added(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """On the Alarm tab, flip the switch of each labelled alarm still on."""
        step = to_tab("Alarm", elements, state)
        on = [a for a in labelled(state, params["label"]) if a["enabled"]]
        if step is not None or not on:
            return step or wait()
        return reach_card(when(on[0]), lambda g: find(g, rid=f"{CLOCK}:id/onoff"), elements, state)


class DeleteLabelledTemplate(_LabelTemplate):
    """Delete the alarm labelled {label}; an alarm labelled "{label} prep" stays (issue 49: "Delete the alarm
    labelled Yoga").

    Not in the World suite (whose tasks stay as published): the everyday lines parse onto it, with params {"label",
    "phrasing"} (the phrasing index only places the alarms). A label that a seeded alarm may carry seeds none.
    """  # noqa: D205

    name, max_steps = "clock_delete_labelled", 7
    apps = (CLOCK,)
    phrasings = ('Delete the alarm labelled "{label}"', "Remove my {label} alarm",
                 "In Clock, delete the alarm called {label}")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The labelled alarm (id 0), the near miss (id 1), seeded alarms unless one could share the label."""
        first, *_, near = _labelled_set(params, f"{params['label']} prep")
        clash = params["label"].strip().casefold() in {s.casefold() for s in C.SEEDED_LABELS}
        return {CLOCK: {"alarms": [first, near], "seeded": 0 if clash else SEEDED}}

    def check(self, params: Params, state: State) -> bool:
        """The labelled alarm deleted, the near miss still there, no other alarm touched, none added."""
        return (card_by_id(state, 0) is None and card_by_id(state, 1) is not None and only_edited(state, {0})
                and not added(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """On the Alarm tab, the labelled alarm's delete button."""
        a = card_by_id(state, 0)
        step = to_tab("Alarm", elements, state)
        if step is not None or a is None:
            return step or wait()
        return reach_card(when(a), lambda g: find(g, rid=f"{CLOCK}:id/delete"), elements, state)


class TurnOffMissingTemplate(_LabelTemplate):
    """Turn off the {label} alarms when no alarm has that label (only "{label} prep" has): declare it impossible."""

    name, max_steps = "clock_turn_off_missing", 7
    outcome, apps = "infeasible", (CLOCK,)
    phrasings = TurnOffLabelledTemplate.phrasings

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the near-miss label, and seeded alarms; the Clock opens on another tab (used last), so a declaration
        made without looking (the Alarm tab in front) is rarer still."""  # noqa: D205, D209
        near = _labelled_set(params, f"{params['label']} prep")[-1]
        return {CLOCK: {"alarms": [near], "seeded": SEEDED, "tab": nth(C.TABS[1:], params["phrasing"])}}

    def check(self, params: Params, state: State) -> bool:
        """No alarm has the label and no alarm was edited."""
        return not labelled(state, params["label"]) and not state_of(state, C.ClockState)["alarm_edits"]

    def looked(self, params: Params, state: State) -> bool:
        """The Clock in front on its Alarm tab."""
        return state.get("foreground") == CLOCK and state_of(state, C.ClockState)["screen"] == "alarm"

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the Alarm tab; no alarm has the label: declare."""
        return to_tab("Alarm", elements, state) or impossible()


class AlarmTimeAnswerTemplate(_LabelTemplate):
    """What time is the {label} alarm? Answered with its card's time; "{label} prep" rings at another time."""

    name, max_steps = "clock_alarm_time_answer", 6
    outcome, apps = "answer", (CLOCK,)
    phrasings = ('What time is my "{label}" alarm set for?', "When does the alarm labelled {label} ring?",
                 "Check in Clock at what time my {label} alarm goes off")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The alarm, its near miss, seeded alarms."""
        near = _labelled_set(params, f"{params['label']} prep")[-1]
        return {CLOCK: {"alarms": [{"hour": params["hour"], "minute": params["minute"], "label": params["label"]},
                                   near], "seeded": SEEDED}}

    def answer(self, params: Params, state: State) -> str | None:
        """The alarm's time while it is the only one with the label and no alarm was edited."""
        mine = labelled(state, params["label"])
        return when(mine[0]) if len(mine) == 1 and not state_of(state, C.ClockState)["alarm_edits"] else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Find the card on the Alarm tab and answer with its time."""
        mine = labelled(state, params["label"])
        step = to_tab("Alarm", elements, state)
        if step is not None or not mine:
            return step or wait()
        return reach_card(when(mine[0]), lambda g: find(g, rid=C.TIME_RID), elements, state, act=answer_with)


# -- templates: timer and world clock ---------------------------------------------------------------------------------
def _timer_seconds(params: Params) -> int:
    """A timer task's length in seconds: `"seconds"` when given, else `"minutes"` x 60."""
    return int(params["seconds"]) if "seconds" in params else 60 * int(params["minutes"])


def _keypad_digits(params: Params) -> str:
    """The digits to type on the timer keypad (hhmmss, right-aligned, no leading zeros).

    >>> _keypad_digits({"minutes": 90}), _keypad_digits({"seconds": 5400}), _keypad_digits({"seconds": 45})
    ('9000', '13000', '45')
    """
    if "seconds" not in params:
        return f"{params['minutes']}00"  # the suite's own tasks type minutes as they are (90 minutes: 90:00)
    hours, rest = divmod(int(params["seconds"]), 3600)
    return f"{hours:02d}{rest // 60:02d}{rest % 60:02d}".lstrip("0")


class LabelledTimerTemplate(_LabelTemplate):
    """Start a {minutes}-minute timer labelled {label}: keypad digits, Start, Add label, type, OK.

    An everyday line (issue 49) may give the length as `"seconds"` instead (any length the keypad takes, up to 99
    hours: "90 seconds", "2 hours"), and an empty label ("Set a timer for 10 minutes": no label wanted).
    """

    name, max_steps = "clock_labelled_timer", 15
    apps = (CLOCK,)
    phrasings = ('Start a {minutes}-minute timer labelled "{label}"', "Set a timer for {minutes} minutes called "
                 "{label} and start it", 'In Clock, run a {label} timer of {minutes} minutes')

    def grid(self) -> list[dict[str, Any]]:
        """Every label with three durations."""
        return [{"label": p["label"], "minutes": nth((3, 8, 12, 15, 25, 40, 45, 90), p["phrasing"]),
                 "phrasing": p["phrasing"]} for p in super().grid()]

    def check(self, params: Params, state: State) -> bool:
        """Exactly one timer: that long, running, with the label (none when the label is empty)."""
        timers = state_of(state, C.ClockState)["timers"]
        return (len(timers) == 1 and timers[0]["duration_s"] == _timer_seconds(params) and timers[0]["running"]
                and timers[0]["label"].strip().casefold() == params["label"].casefold())

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Type the minutes and 00 seconds on the keypad, Start, then label it (Resume it if it got paused)."""
        if on_screen("label", state):
            return label_dialog(params["label"], elements, state)
        step = to_tab("Timer", elements, state)
        c = state_of(state, C.ClockState)
        if step is not None:
            return step
        if not c["timers"]:
            want, have = _keypad_digits(params), c["timer"]["digits"]
            if have == want:
                return press(elements, text="Start")
            if not want.startswith(have):
                return press(elements, desc="Delete")
            rest = want[len(have):]
            return press(elements, desc="00" if rest.startswith("00") else rest[0])
        timer = c["timers"][0]
        if timer["label"] != params["label"]:
            return press(elements, rid=C.TIMER_LABEL_RID)
        return wait() if timer["running"] else press(elements, desc="Resume")


def _wanted(params: Params) -> list[str]:
    """The cities a world-clock task adds: "first", and "second" when given."""
    return [params["first"], *([params["second"]] if "second" in params else [])]


class AddCitiesTemplate(WorldTemplate):
    """Add {first} and {second} to the world clock: Add city, search, tap the row, for each.

    An everyday line may add one city ("Add Tokyo to the world clock", issue 49): params {"first"} alone, without
    `"second"` or `"phrasing"` (the world clock then starts with three other cities of phrasing 0).
    """

    name, max_steps, split_key = "clock_add_cities", 18, "pair"
    apps = (CLOCK,)
    phrasings = ("Add {first} and {second} to my world clock", "Show the time in {first} and in {second} on the "
                 "Clock app's world clock", "In Clock, add the cities {first} and {second}")

    def grid(self) -> list[dict[str, Any]]:
        """Every pair of cities, both orders, in three phrasings."""
        return [{"first": a, "second": b, "pair": f"{min(a, b)}+{max(a, b)}", "phrasing": i + k}
                for i, pair in enumerate(PAIRS) for k, (a, b) in enumerate((pair, pair[::-1]))]

    def _start(self, params: Params) -> list[str]:
        others = [c for c in C.CITIES if c not in _wanted(params)]
        return [nth(others, params.get("phrasing", 0) * 7 + 3 * k) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Three other cities on the world clock."""
        return {CLOCK: {"cities": self._start(params)}}

    def check(self, params: Params, state: State) -> bool:
        """The world clock shows the starting cities and the two (or the one), no other."""
        shown = state_of(state, C.ClockState)["cities"]
        want = {*self._start(params), *_wanted(params)}
        return len(shown) == len(want) and set(shown) == want

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Clock tab, Add city, search the name, tap its row; again from the Clock tab for the second."""
        missing = [c for c in _wanted(params) if c not in state_of(state, C.ClockState)["cities"]]
        if not missing:
            return wait()
        if on_screen("cities", state):
            query = state["screen"]["fields"].get(C.SEARCH_RID, "")
            if query and not missing[0].startswith(query):
                return press(elements, desc="Navigate up")  # a new search starts from the Clock tab
            row = find(elements, rid=C.CITY_RID, text=missing[0])
            return fill(elements, state, C.SEARCH_RID, missing[0]) or (tap(row) if row is not None else wait())
        return to_tab("Clock", elements, state) or press(elements, desc="Add city")


class CityTimeAnswerTemplate(WorldTemplate):
    """What time is it in {city}? Answered from the world clock, which lists the city (the phone's clock varies)."""

    name, max_steps, split_key = "clock_city_time_answer", 7, "city"
    outcome, apps = "answer", (CLOCK,)
    phrasings = ("What time is it now in {city}?", "Check the world clock: what is the time in {city}?",
                 "According to my Clock app, what time is it in {city} right now?")

    def grid(self) -> list[dict[str, Any]]:
        """Every city but the phone's own zone, at three phone times."""
        cities = [c for c in C.CITIES if C.CITIES[c]]
        return [{"city": c, "clock": f"{_time(3 * i + k)[0]}:{_time(3 * i + k)[1] + 1:02d}", "phrasing": i + k}
                for i, c in enumerate(cities) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The phone's clock; the city between two others on the world clock."""
        others = [c for c in C.CITIES if c != params["city"]]
        i = list(C.CITIES).index(params["city"])
        return {"system": {"clock": params["clock"]},
                CLOCK: {"cities": [nth(others, i + 5), params["city"], nth(others, i + 11)]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The city's time from the phone's clock, while the world clock lists the city."""
        if params["city"] not in state_of(state, C.ClockState)["cities"]:
            return None
        hour, minute, _ = C.city_time(state["system"]["clock"], C.CITIES[params["city"]])
        return C.format_time(hour, minute)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The Clock tab; answer with the city's time."""
        return to_tab("Clock", elements, state) or answer_with(find(elements, desc=f"{params['city']} time"))


# -- templates: the Clock and another app -----------------------------------------------------------------------------
class NoteToAlarmTemplate(_LabelTemplate):
    """A Markor note says when to wake up: read it, set an alarm then (one new alarm, nothing else changed)."""

    name, max_steps = "clock_alarm_from_note", 15
    apps = (markor.PACKAGE, CLOCK)
    phrasings = ('My Markor note "{note}" says when I have to get up: set an alarm for that time',
                 "Read {note} in Markor and set an alarm at the time it gives",
                 "Set the alarm my note {note} in Markor asks for")

    def grid(self) -> list[dict[str, Any]]:
        """Every label's instances with a note name and a morning time."""
        out = []
        for p in super().grid():
            hour, minute = _time(p["phrasing"], first=4, hours=5)
            stem = p["label"].lower().replace(" ", "_")
            out.append({"label": p["label"], "hour": hour, "minute": minute, "time": C.format_time(hour, minute),
                        "note": f"{stem}_wakeup.md", "phrasing": p["phrasing"]})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note, and seeded alarms at other times."""
        text = nth(NOTES, params["phrasing"]).format(time=params["time"])
        return {markor.PACKAGE: {"files": {params["note"]: text}},
                CLOCK: {"seeded": SEEDED, "free": [[params["hour"], params["minute"]]]}}

    def check(self, params: Params, state: State) -> bool:
        """One alarm added, on, at the note's time; no other alarm touched; the note not edited."""
        new = added(state)
        return (len(new) == 1 and new[0]["enabled"] and (new[0]["hour"], new[0]["minute"]) ==
                (params["hour"], params["minute"]) and only_edited(state, {new[0]["id"]})
                and not state_of(state, markor.MarkorState)["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor, then add the alarm in Clock."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["note"]:
            return markor_item(params["note"], elements, state)
        return wait() if added(state) else add_alarm(params["hour"], params["minute"], elements, state)


class TextEarliestAlarmTemplate(_LabelTemplate):
    """Text {person} the time of the earliest alarm that is on; an earlier alarm is off (the near miss)."""

    name, max_steps = "clock_text_earliest_alarm", 14
    apps = (CLOCK, M.PACKAGE)
    phrasings = ("Text {person} the time of my earliest alarm that is switched on",
                 "Send {person} a message saying when my first active alarm rings",
                 "{person} wants to know when I get up: look up my earliest enabled alarm and text them the time")

    def grid(self) -> list[dict[str, Any]]:
        """Every label's instances with a person and an early time."""
        out = []
        for p in super().grid():
            hour, minute = _time(p["phrasing"], first=4, hours=1)
            out.append({"label": p["label"], "hour": hour, "minute": minute,
                        "person": names(f"clock:{p['label']}:{p['phrasing']}", 1)[0], "phrasing": p["phrasing"]})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The early alarm, an earlier one switched off, seeded later ones; the Clock on its Timer tab; a thread."""
        p = person(params["person"])
        alarms = [{"hour": params["hour"], "minute": params["minute"], "label": params["label"]},
                  {"hour": 3, "minute": (params["minute"] + 20) % 60, "label": params["label"], "enabled": False}]
        return {CLOCK: {"alarms": alarms, "seeded": SEEDED, "tab": "Timer"},
                M.PACKAGE: {"threads": [conversation(p, ("What time do you get up tomorrow?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """One text, to the person, holding the earliest enabled alarm's time; no alarm changed."""
        truth = earliest_on(state)
        return (truth is not None and texts_ok(state, [(params["person"], truth)], contains=True)
                and not state_of(state, C.ClockState)["alarm_edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Look at the Alarm tab, then text the earliest enabled alarm's time."""
        if state_of(state, C.ClockState)["tab"] != "Alarm":
            return to_tab("Alarm", elements, state) or wait()
        return send_text(person(params["person"]), earliest_on(state) or "", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    AlarmLabelDaysTemplate(), ChangeAlarmTimeTemplate(), TurnOffLabelledTemplate(), LabelledTimerTemplate(),
    AddCitiesTemplate(), AlarmTimeAnswerTemplate(), CityTimeAnswerTemplate(), TurnOffMissingTemplate(),
    NoteToAlarmTemplate(), TextEarliestAlarmTemplate(),
)
"""The Clock templates of the world suite."""
