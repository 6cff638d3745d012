"""AndroidWorld's OpenTracks questions (information retrieval over de.dennisguse.opentracks):
`SportsTrackerActivitiesOnDate`, `SportsTrackerActivitiesCountForWeek`, `SportsTrackerActivityDuration`,
`SportsTrackerLongestDistanceActivity`, `SportsTrackerTotalDurationForCategoryThisWeek` and
`SportsTrackerTotalDistanceForCategoryOverInterval`.

AndroidWorld empties the tracks table and inserts the task's activities (`tasks.textproto`: an activity type of its
12, names, descriptions, start times, durations in minutes, distances and elevations drawn without replacement) and
20 random ones (a type of its own longer list, a start in the 14 days before now, 1-299 minutes, 0-20 km, 0-500 m up
and down) that do not meet all of the task's exclusion conditions. It rounds each distance to what the app shows (two
decimals of a mile) so the screen gives it exactly, says dates in words ("yesterday", "October 05"), and compares
the final answer: types split at commas, as many as expected, each within difflib's 0.9 of one; a count or minutes
as a number; metres as a number within 10 m.

Here the tracks go into the sim's OpenTracks (its seeded tracks cleared), distances rounded to the 10 m its
kilometres with two decimals show. Dates are rebased by their distance from AndroidWorld's today, Sunday 2023-10-15,
onto Wednesday 2026-06-10 (at 09:41): a track of today starts before then. "This week" is the sim's own, Monday June 8
to Sunday June 14, of which only Monday to today is past: the week's tracks fall on those three days (AndroidWorld's
week, Monday October 9 to today, has seven). Names and descriptions are lists of our own of the same kinds; the
random tracks' types are the sim's wider list (`NOISE_TYPES`). The answer is read from the app's tracks (None once
one was added, edited or removed) and compared as AndroidWorld compares it. The expert opens the list, scrolls until
the oldest track the question is about is on screen, and answers.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.apps import opentracks_data as D
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.tasks_questions import spoken_dates, titles_match
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.opentracks_expert import OT, show_row, to_list, tracks_state

TYPES = ("running", "cycling", "swimming", "hiking", "mountain biking", "kayaking", "skiing", "snow boarding",
         "skate boarding", "climbing", "inline skating", "sailing")
"""The activity types a question names (AndroidWorld's 12)."""
NOISE_TYPES = ("running", "cycling", "biking", "walking", "hiking", "swimming", "skiing", "snowboarding",
               "kayaking", "rowing", "sailing", "skateboarding", "surfing", "climbing", "mountain biking",
               "road biking", "trail running", "trail hiking", "paddling")
"""The random tracks' activity types (a list of its own, as AndroidWorld's random activities have)."""
NAMES = ("Easy legs", "Out before breakfast", "Heavy legs today", "With the club", "Testing the new gear",
         "Short and sharp", "Around the reservoir", "Catching up with Priya", "Post-work reset", "Slow and steady",
         "Chasing the sunset", "Technique focus", "Windy one", "Long weekend outing", "Quick loop")
DESCRIPTIONS = ("Felt strong the whole way.", "Stopped for coffee halfway.", "Legs were tired from yesterday.",
                "Great weather, clear skies.", "Got caught in a shower.", "New personal best on the climb.",
                "Went with two friends.", "Took the scenic route back.", "Kept the pace easy.",
                "Tried a new route.", "Very muddy in places.", "Cold start, warm finish.")
MINUTES = (15, 20, 25, 30, 40, 45, 50, 60, 70, 75, 80, 90, 100, 110, 120, 135, 150, 180, 210, 240)
METRES = (150, 400, 600, 900, 1100, 1400, 1800, 2200, 2700, 3200, 3800, 4300, 4800, 5500, 6500, 7500, 8500,
          9500, 11000, 13000)
STARTS = ("06:00", "06:20", "06:45", "07:10", "07:40", "08:05", "08:30", "09:05", "09:30", "10:20", "11:15",
          "12:10", "13:00", "14:20", "15:10", "16:00", "16:50", "17:35", "18:15", "19:00")
CLIMBS = tuple(range(40, 1240, 60))
"""The task tracks' pools: minutes, metres, start times and elevations in metres (AndroidWorld's are ~20 each)."""
NOISE, NOW = 20, datetime.datetime.combine(D.DATE, datetime.time(9, 41))
MONDAY = D.DATE - datetime.timedelta(days=D.DATE.weekday())
WEEK = (str(MONDAY), str(MONDAY + datetime.timedelta(days=6)))
"""The sim's week, Monday to Sunday (ISO days)."""
PAST_WEEK_DAYS = tuple(-d for d in range(D.DATE.weekday(), -1, -1))
"""The days of the week up to today, as offsets from today (-2, -1, 0)."""


def iso(days: int) -> str:
    """The ISO day `days` after the sim's today."""
    return str(D.DATE + datetime.timedelta(days=days))


def rounded(metres: float) -> int:
    """A distance rounded to the 10 m the app shows (AndroidWorld rounds to its display likewise).

    >>> rounded(5234), rounded(5235.1)
    (5230, 5240)
    """
    return int(round(metres / 10) * 10)


def track(name: str, description: str, category: str, days: int, start: str, minutes: int, metres: float,
          gain: int, loss: int) -> dict[str, Any]:
    """A track as `OpenTracksInitial` takes it."""
    return {"name": name, "category": category, "description": description, "date": iso(days), "start": start,
            "duration_s": minutes * 60, "distance_m": rounded(metres), "elevation_gain_m": gain,
            "elevation_loss_m": loss}


def task_tracks(rng: random.Random, categories: list[str], days: list[int], minutes: list[int] | None = None,
                metres: list[int] | None = None) -> list[dict[str, Any]]:
    """The question's tracks: one per category and day; names, descriptions, start times, elevations and, unless
    given, minutes and metres drawn without replacement (a start today falls before now)."""  # noqa: D205, D209
    n = len(categories)
    minutes = minutes or rng.sample(MINUTES, n)
    metres = metres or rng.sample(METRES, n)
    names, notes, climbs = rng.sample(NAMES, n), rng.sample(DESCRIPTIONS, n), rng.sample(CLIMBS, 2 * n)
    starts = rng.sample(STARTS, n)
    starts = [s if d < 0 or s < "09:41" else pick(rng, [t for t in STARTS if t < "09:41"]) for s, d in
              zip(starts, days, strict=True)]
    return [track(names[k], notes[k], categories[k], days[k], starts[k], minutes[k], metres[k], climbs[2 * k],
                  climbs[2 * k + 1]) for k in range(n)]


def noise_track(rng: random.Random) -> dict[str, Any]:
    """A random track as AndroidWorld draws one: any time in the 14 days before now, 1-299 minutes, 0-20 km."""
    start = NOW - datetime.timedelta(days=14) + datetime.timedelta(minutes=rng.randrange(14 * 24 * 60))
    category = pick(rng, NOISE_TYPES)
    return track(pick(rng, NAMES), "", category, (start.date() - D.DATE).days,
                 f"{start:%H:%M}", rng.randrange(1, 300), rng.randint(0, 20000), rng.randint(0, 500),
                 rng.randint(0, 500))


def in_week(row: Mapping[str, Any]) -> bool:
    """Whether a track started in the sim's week (Monday to Sunday)."""
    return WEEK[0] <= row["date"] <= WEEK[1]


def number_matches(given: str, truth: str, tolerance: float | None = None) -> bool:
    """AndroidWorld's number match: one number (no comma-separated list), equal to `truth`, or less than
    `tolerance` away.

    >>> number_matches("2", "2"), number_matches(" 2.0", "2"), number_matches("two", "2")
    (True, True, False)
    >>> number_matches("5239", "5230", 10), number_matches("5240", "5230", 10), number_matches("5,230", "5230", 10)
    (True, False, False)
    """  # noqa: D205
    if "," in given:
        return False
    try:
        value = float(given.strip())
    except ValueError:
        return False
    return abs(value - float(truth)) < tolerance if tolerance is not None else value == float(truth)


class _TracksQuestion(AndroidWorldTemplate):
    """Shared: the tracks in OpenTracks, the answer read from the tracks that `wanted` picks."""

    apps, outcome, max_steps = (OT,), "answer", 10  # scrolling to the oldest wanted track: 3-9 steps
    tolerance: float | None = None
    """How far a number may be off (metres, AndroidWorld's 10); None: it must be exact."""

    def wanted(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Whether `row` (a track) is one the question asks about."""
        raise NotImplementedError

    def excluded(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Whether a random track meets all of AndroidWorld's exclusion conditions (then it is drawn again)."""
        raise NotImplementedError

    def with_noise(self, rng: random.Random, params: dict[str, Any], targets: list[dict[str, Any]]) -> dict[str, Any]:
        """`params` with the tracks: the targets and `NOISE` random tracks not excluded, shuffled."""
        rows = list(targets)
        while len(rows) < len(targets) + NOISE:
            r = noise_track(rng)
            if not self.excluded(params, r):
                rows.append(r)
        rng.shuffle(rows)
        return {**params, "rows": rows}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the question's tracks (the seeded ones cleared, as AndroidWorld empties the table)."""
        return {OT: {"clear": True, "tracks": params["rows"]}}

    def rows(self, params: Params, state: State) -> list[D.TrackState] | None:
        """The wanted tracks, in the list's order; None once a track was added, edited or removed."""
        t = tracks_state(state)
        if t["added"] or t["edited"] or t["removed"]:
            return None
        return [r for r in t["tracks"] if self.wanted(params, r)]

    def value(self, rows: list[D.TrackState]) -> str:
        """The answer from the wanted tracks (there is at least one)."""
        raise NotImplementedError

    def answer(self, params: Params, state: State) -> str | None:
        """The answer from the wanted tracks (None once the tracks were changed, or with none wanted)."""
        rows = self.rows(params, state)
        return self.value(rows) if rows else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's number match (within `tolerance` where it has one)."""
        return number_matches(given, truth, self.tolerance)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The track list, scrolled until the oldest wanted track is on screen; then the answer."""
        step = to_list(elements, state)
        if step is not None:
            return step
        rows = self.rows(params, state) or []
        step = show_row(rows[-1], elements, state) if rows else None
        return step or Action(ActionType.STATUS_TASK_COMPLETE, text=self.answer(params, state) or "")


class SportsTrackerActivitiesOnDate(_TracksQuestion):
    """Which activity types on {date}: the two tracks of that day (no random track is on it)."""

    name, split_key, max_steps = "SportsTrackerActivitiesOnDate", "day", 12
    goal_template = ("What activities did I do {date} in the OpenTracks app? Answer with the activity type only. If "
                     "there are multiple types, format your answer in a comma separated list.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A day 21 to 3 days back (September 24 to October 12), two types drawn without replacement."""
        days = rng.randint(-21, -3)
        targets = task_tracks(rng, rng.sample(TYPES, 2), [days, days])
        return self.with_noise(rng, {"date": pick(rng, spoken_dates(days)), "day": iso(days)}, targets)

    def wanted(self, params: Params, row: Mapping[str, Any]) -> bool:
        """On that day."""
        return row["date"] == params["day"]

    def excluded(self, params: Params, row: Mapping[str, Any]) -> bool:
        """On that day."""
        return row["date"] == params["day"]

    def value(self, rows: list[D.TrackState]) -> str:
        """The tracks' types, comma-separated."""
        return ", ".join(r["category"] for r in rows)

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's list match: as many items as types, each within difflib's 0.9 of one (each type once)."""
        return titles_match(given, truth.split(", "))


class _WeekQuestion(_TracksQuestion):
    """A question about {category} this week: the targets on days of the week so far, drawn without replacement."""

    split_key, max_steps = "names", 8  # this week's tracks are the list's first: the expert takes 3-4 steps
    targets = 2

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A type and the targets' days (Monday to today); "names" joins the targets' names (the split's key)."""
        category = pick(rng, TYPES)
        days = rng.sample(PAST_WEEK_DAYS, self.targets)
        targets = task_tracks(rng, [category] * self.targets, days)
        params = {"category": category, "names": ", ".join(t["name"] for t in targets)}
        return self.with_noise(rng, params, targets)

    def wanted(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Of that type, this week."""
        return row["category"] == params["category"] and in_week(row)

    def excluded(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Its type contains the question's, this week (AndroidWorld's CONTAINS: "trail running" for running)."""
        return params["category"] in row["category"] and in_week(row)


class SportsTrackerActivitiesCountForWeek(_WeekQuestion):
    """How many {category} tracks this week: the two targets."""

    name = "SportsTrackerActivitiesCountForWeek"
    goal_template = ("How many {category} activities did I do this week in the OpenTracks app? Assume the week "
                     "starts from Monday. Express your answer as a single integer.")

    def value(self, rows: list[D.TrackState]) -> str:
        """How many."""
        return str(len(rows))


class SportsTrackerActivityDuration(_TracksQuestion):
    """How many minutes the {category} track of {date} lasted: the one such track."""

    name, split_key, max_steps = "SportsTrackerActivityDuration", "day", 10
    goal_template = ("How long was my {category} activity {date} in the OpenTracks app? Express your answer in "
                     "minutes as a single integer.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A day 10 days back to today (October 5 to 15), a type."""
        days, category = rng.randint(-10, 0), pick(rng, TYPES)
        params = {"date": pick(rng, spoken_dates(days)), "day": iso(days), "category": category}
        return self.with_noise(rng, params, task_tracks(rng, [category], [days]))

    def wanted(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Of that type, on that day."""
        return row["category"] == params["category"] and row["date"] == params["day"]

    def excluded(self, params: Params, row: Mapping[str, Any]) -> bool:
        """On that day, its type containing the question's."""
        return row["date"] == params["day"] and params["category"] in row["category"]

    def value(self, rows: list[D.TrackState]) -> str:
        """Its minutes."""
        return str(rows[0]["duration_s"] // 60)


class SportsTrackerLongestDistanceActivity(_WeekQuestion):
    """The longest {category} distance this week in metres: the target (random ones of the type this week are
    shorter)."""  # noqa: D205, D209

    name, tolerance, targets = "SportsTrackerLongestDistanceActivity", 10, 1
    goal_template = ("What was the longest distance covered in a {category} activity in the OpenTracks app this "
                     "week? Assume the week starts from Monday. Express your answer as a single number in meters "
                     "rounded to the nearest integer.")

    def excluded(self, params: Params, row: Mapping[str, Any]) -> bool:
        """This week, its type containing the question's, at least as far as the target."""
        return super().excluded(params, row) and row["distance_m"] >= params["distance"]

    def with_noise(self, rng: random.Random, params: dict[str, Any], targets: list[dict[str, Any]]) -> dict[str, Any]:
        """The target's distance known before the random tracks are drawn against it."""
        return super().with_noise(rng, {**params, "distance": targets[0]["distance_m"]}, targets)

    def value(self, rows: list[D.TrackState]) -> str:
        """The longest distance, in metres."""
        return str(max(r["distance_m"] for r in rows))


class SportsTrackerTotalDurationForCategoryThisWeek(_WeekQuestion):
    """The total minutes of {category} this week: the two targets' (no random track of the type is this week)."""

    name = "SportsTrackerTotalDurationForCategoryThisWeek"
    goal_template = ("What was the total duration of {category} activities in the OpenTracks app this week? Assume "
                     "the week starts from Monday. Express your answer in minutes as a single integer.")

    def value(self, rows: list[D.TrackState]) -> str:
        """The minutes, summed."""
        return str(sum(r["duration_s"] for r in rows) // 60)


class SportsTrackerTotalDistanceForCategoryOverInterval(_TracksQuestion):
    """The total {category} distance from {start_date} to {end_date}: the two targets on the first day."""

    name, split_key, tolerance = "SportsTrackerTotalDistanceForCategoryOverInterval", "category", 10
    max_steps = 12
    goal_template = ("What was the total distance covered for {category} activities in the OpenTracks app from "
                     "{start_date} to {end_date}? Express your answer as a single number in meters rounded to the "
                     "nearest integer.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A first day 14 to 6 days back (October 1-9), a last 5 days back to today (October 10-15), a type."""
        first, last, category = rng.randint(-14, -6), rng.randint(-5, 0), pick(rng, TYPES)
        params = {"start_date": pick(rng, spoken_dates(first)), "end_date": pick(rng, spoken_dates(last)),
                  "first": iso(first), "last": iso(last), "category": category}
        return self.with_noise(rng, params, task_tracks(rng, [category, category], [first, first]))

    def wanted(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Of that type, between the two days."""
        return row["category"] == params["category"] and params["first"] <= row["date"] <= params["last"]

    def excluded(self, params: Params, row: Mapping[str, Any]) -> bool:
        """Between the two days, its type containing the question's."""
        return params["category"] in row["category"] and params["first"] <= row["date"] <= params["last"]

    def value(self, rows: list[D.TrackState]) -> str:
        """The metres, summed."""
        return str(sum(r["distance_m"] for r in rows))


TEMPLATES = (SportsTrackerActivitiesOnDate(), SportsTrackerActivitiesCountForWeek(), SportsTrackerActivityDuration(),
             SportsTrackerLongestDistanceActivity(), SportsTrackerTotalDurationForCategoryThisWeek(),
             SportsTrackerTotalDistanceForCategoryOverInterval())
