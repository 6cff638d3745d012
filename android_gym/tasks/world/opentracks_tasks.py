"""World-suite tasks over OpenTracks (issue 48): answer how far and how long a track went, rename a track, change its
activity type, delete it, and text someone how far a track went (Messages).

Every task puts its track on the phone under a fixed name (`initial`), next to a twin with a similar name and other
figures (the near miss), among the episode's seeded tracks. Checks read OpenTracks' state and its change log
("added", "removed", "edited"), so touching the twin, or anything else, fails; answers are the figure as the app
writes it ("7.52 km", "1:05:00"), read while nothing was changed. Splits hold out track names (`split_of`). The task
tracks and expert steps are in `opentracks_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import opentracks as O
from android_gym.sim.apps import opentracks_data as D
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import home, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, find, leave, nth, press
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.opentracks_expert import (
    OT,
    edit_track,
    find_track,
    to_track,
    tracks_state,
    twin_grid,
    twin_tracks,
    untouched,
)

NEW_NAMES = ("Personal best", "Race rehearsal", "Recovery outing", "With the club", "First try", "Long weekend",
             "Rainy one", "Keep for stats")
CATEGORIES = ("trail running", "road biking", "walking", "mountain biking", "hiking", "inline skating", "rowing",
              "running")
"""Activity types a track is changed to (never its own: `other_category`)."""


def other_category(params: Params) -> str:
    """The activity type the recategorise task asks for: one of `CATEGORIES` other than the track's."""
    choices = tuple(c for c in CATEGORIES if c != params["category"])
    return nth(choices, params["phrasing"] * 3 + len(params["name"]))


class _TrackTemplate(WorldTemplate):
    """A task about the track {name}, with its twin listed; split on the name."""

    split_key, apps = "name", (OT,)

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice."""
        return twin_grid(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The track and its twin."""
        return {OT: twin_tracks(params)}


class TrackDistanceTemplate(_TrackTemplate):
    """How far did the track {name} go? Answered with the distance its details show ("7.52 km")."""

    name, max_steps, outcome = "opentracks_track_distance", 9, "answer"
    phrasings = ('How far did I go on my "{name}" track in OpenTracks?', "What distance does the track {name} show?",
                 "Check OpenTracks for the distance of {name}")

    def answer(self, params: Params, state: State) -> str | None:
        """The track's distance as the app writes it, while nothing was changed."""
        t = find_track(state, params["name"])
        return D.distance_label(t["distance_m"]) if t is not None and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the track and answer with its distance."""
        return to_track(params["name"], elements, state) or answer_with(find(elements, rid=O.DETAIL_DISTANCE_RID))


class TrackDurationTemplate(_TrackTemplate):
    """How long was the track {name}? Answered with the total time its details show ("1:05:00")."""

    name, max_steps, outcome = "opentracks_track_duration", 9, "answer"
    phrasings = ('How long was my "{name}" activity in OpenTracks?', "What is the total time of the track {name}?",
                 "Look up in OpenTracks how long {name} took")

    def answer(self, params: Params, state: State) -> str | None:
        """The track's total time as the app writes it, while nothing was changed."""
        t = find_track(state, params["name"])
        return D.time_label(t["duration_s"]) if t is not None and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the track and answer with its total time."""
        return to_track(params["name"], elements, state) or answer_with(find(elements, rid=O.DETAIL_TIME_RID))


class RenameTrackTemplate(_TrackTemplate):
    """Rename the track {name} to {new}; its twin keeps its name."""

    name, max_steps = "opentracks_rename", 14
    phrasings = ('Rename the track "{name}" to "{new}" in OpenTracks', "In OpenTracks, call the track {name} {new}",
                 'Change the name of my {name} track to "{new}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, new names rotating."""
        return [{**p, "new": nth(NEW_NAMES, p["phrasing"] + len(p["name"]))} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The track and its twin; no track called {new}."""
        pair = twin_tracks(params)
        return {OT: {**pair, "absent": [*pair["absent"], params["new"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the track's name, its activity type and description as they were; nothing else."""
        t = tracks_state(state)
        return (t["edited"] == [{"track": params["name"], "name": params["new"], "category": params["category"],
                                 "description": ""}]
                and not t["added"] and not t["removed"] and find_track(state, params["new"]) is not None)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The track, Edit, Clear text, the new name, Save."""
        if find_track(state, params["new"]) is not None:
            return wait()
        return edit_track(params["name"], {O.NAME_FIELD: params["new"]}, elements, state)


class RecategoriseTemplate(_TrackTemplate):
    """Change the activity type of the track {name} to {new_category}; its twin keeps its own."""

    name, max_steps = "opentracks_recategorise", 14
    phrasings = ('Set the activity type of the track "{name}" to {new_category} in OpenTracks',
                 "My {name} track was really {new_category}: fix its activity type",
                 "In OpenTracks, change {name}'s category to {new_category}")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with an activity type other than its own."""
        return [{**p, "new_category": other_category(p)} for p in super().grid()]

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the track's activity type (its name and description kept); nothing else changed."""
        t = tracks_state(state)
        return (t["edited"] == [{"track": params["name"], "name": params["name"],
                                 "category": params["new_category"], "description": ""}]
                and not t["added"] and not t["removed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The track, Edit, Clear the activity type, type the new one, Save."""
        if tracks_state(state)["edited"]:
            return wait()
        return edit_track(params["name"], {O.CATEGORY_FIELD: params["new_category"]}, elements, state)


class DeleteTrackTemplate(_TrackTemplate):
    """Delete the track {name}; its twin stays."""

    name, max_steps = "opentracks_delete", 12
    phrasings = ('Delete the track "{name}" from OpenTracks', "Remove my {name} track in OpenTracks",
                 "Get rid of the OpenTracks recording {name}")

    def check(self, params: Params, state: State) -> bool:
        """Exactly that track removed; nothing added or edited."""
        t = tracks_state(state)
        return t["removed"] == [params["name"]] and not t["added"] and not t["edited"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The track, Delete, OK."""
        if state["foreground"] == OT and state["screen"]["name"] == "delete":
            opened = tracks_state(state)["open"]
            return press(elements, text="OK") if opened == params["name"] else leave(elements)
        return to_track(params["name"], elements, state) or press(elements, desc="Delete")


class DistanceToTextTemplate(_TrackTemplate):
    """Text {person} how far the track {name} went: one SMS to them holding its distance ("7.52 km")."""

    name, max_steps = "opentracks_distance_to_text", 17
    apps = (OT, M.PACKAGE)
    phrasings = ('Text {person} how far I went on the "{name}" track',
                 "Send {person} a message with the distance of my OpenTracks track {name}",
                 "{person} asked how long {name} was: look its distance up in OpenTracks and text them")

    def grid(self) -> list[dict[str, Any]]:
        """Every name twice, with a person per instance."""
        return [{**p, "person": names(f"opentracks:{p['name']}:{p['phrasing']}", 1)[0]} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The track and its twin; a conversation with the person."""
        p = person(params["person"])
        return {OT: twin_tracks(params),
                M.PACKAGE: {"threads": [conversation(p, ("How far did you go?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the distance as OpenTracks shows it; OpenTracks unchanged."""
        return (texts_ok(state, [(params["person"], D.distance_label(params["distance"]))], contains=True)
                and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the track to read its distance, then text it."""
        if tracks_state(state)["last_opened"] != params["name"]:
            return to_track(params["name"], elements, state) or home()
        t = find_track(state, params["name"])
        if t is None:
            return wait()
        return send_text(person(params["person"]), D.distance_label(t["distance_m"]), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    TrackDistanceTemplate(), TrackDurationTemplate(), RenameTrackTemplate(), RecategoriseTemplate(),
    DeleteTrackTemplate(), DistanceToTextTemplate(),
)
"""The OpenTracks templates of the world suite."""
