"""Task tracks and expert steps the OpenTracks templates share (`opentracks_tasks`, the AndroidWorld questions).

The task tracks: names, each with a twin of a similar name and other figures (`TWINS`), an instance per pair
(`twin_grid`), the track and its twin put on the phone (`twin_tracks`). The checks read OpenTracks' state
(`tracks_state`) with `find_track` and `untouched`. Each expert step reads the UI elements and the sim's state and
returns the next action towards a sub-goal: the track list (`to_list`), a row brought on screen and tapped
(`reach_row`), a track's details (`to_track`), its edit form (`to_edit`) filled in and saved (`edit_track`), and the
list scrolled until a row is on screen (`show_row`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import opentracks as O
from android_gym.sim.apps import opentracks_data as D
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, wait
from android_gym.tasks.world.base import Elements, Params, State, leave, press

OT = D.PACKAGE
LABEL = O.OpenTracksApp.label
TWINS = (("Harbour Loop", "Harbour Sprint", "running"), ("Beacon Hill Ride", "Beacon Hill Climb", "cycling"),
         ("Pine Ridge Trail", "Pine Ridge Walk", "hiking"), ("Quarry Lake Swim", "Quarry Lake Laps", "swimming"),
         ("Old Mill Tempo", "Old Mill Intervals", "running"), ("Coastal Century", "Coastal Spin", "cycling"),
         ("Fox Hollow Hike", "Fox Hollow Ramble", "hiking"), ("Canal Towpath", "Canal Shortcut", "walking"),
         ("Stadium Stairs", "Stadium Laps", "running"), ("Vineyard Gravel", "Vineyard Cruise", "cycling"),
         ("Glacier Point", "Glacier View", "hiking"), ("Sunrise Paddle", "Sunset Paddle", "kayaking"),
         ("North Shore Ski", "North Shore Skate", "skiing"), ("Bridge Repeats", "Bridge Recovery", "running"),
         ("Orchard Loop", "Orchard Detour", "walking"), ("Red Rock Climb", "Red Rock Scramble", "climbing"),
         ("Island Circuit", "Island Dash", "cycling"), ("Meadow Jog", "Meadow Stroll", "running"))
"""Task track names, each with a twin (the near miss) and the pair's activity type; none is a seeded name."""


def twin_grid(variants: int = 1) -> list[dict[str, Any]]:
    """Every twin pair `variants` times: names, activity type, distances (m, tens), total times (s), a phrasing."""
    out = []
    for i, (name, twin, category) in enumerate(TWINS):
        for k in range(variants):
            n = i + 7 * k
            out.append({"name": name, "twin": twin, "category": category,
                        "distance": 1200 + (3710 * n + 530) % 21000 // 10 * 10,
                        "twin_distance": 900 + (2930 * n + 170) % 17000 // 10 * 10,
                        "minutes": 12 + (37 * n + 5) % 160, "twin_minutes": 15 + (53 * n + 11) % 140,
                        "phrasing": i + k})
    return out


def twin_tracks(params: Params) -> dict[str, Any]:
    """Initial tracks: the task's track and its twin (never as far nor as long: the answers tell them apart)."""
    p = params
    twin_distance = p["twin_distance"] + (10 if p["twin_distance"] == p["distance"] else 0)
    twin_minutes = p["twin_minutes"] + (1 if p["twin_minutes"] == p["minutes"] else 0)
    return {"absent": [p["name"], p["twin"]], "tracks": [
        {"name": p["name"], "category": p["category"], "date": days_ago(2 + 11 * p["phrasing"] % 38),
         "start": f"{6 + p['phrasing'] % 12:02d}:15", "duration_s": p["minutes"] * 60, "distance_m": p["distance"],
         "elevation_gain_m": 10 * (p["phrasing"] % 20), "elevation_loss_m": 10 * (p["phrasing"] % 20)},
        {"name": p["twin"], "category": p["category"], "date": days_ago(3 + 7 * p["phrasing"] % 36),
         "start": f"{7 + p['phrasing'] % 11:02d}:45", "duration_s": twin_minutes * 60, "distance_m": twin_distance}]}


def days_ago(age: int) -> str:
    """The date `age` days before the sim's today: task tracks sit among the seeded ones (1-40 days old)."""
    return str(D.DATE - datetime.timedelta(days=age))


def tracks_state(state: State) -> D.OpenTracksState:
    """OpenTracks' part of the device state."""
    return state_of(state, D.OpenTracksState)


def find_track(state: State, name: str) -> D.TrackState | None:
    """The (first listed) track called `name`, or None."""
    return next((t for t in tracks_state(state)["tracks"] if t["name"] == name), None)


def untouched(state: State) -> bool:
    """Nothing recorded, removed or edited in OpenTracks this episode, and it is not recording."""
    t = tracks_state(state)
    return not (t["added"] or t["removed"] or t["edited"] or t["recording"])


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_list(elements: Elements, state: State) -> Action | None:
    """The next step to the track list (None once there)."""
    step = into_app(LABEL, OT, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "tracks":
        return None
    return leave(elements) if name == "delete" else back()


def show_row(track: Mapping[str, Any], elements: Elements, state: State) -> Action | None:
    """On the list: None once `track`'s row shows its name and start line; else a swipe towards it (rows are newest
    first, so an older one than those shown lies further down)."""  # noqa: D205, D209
    label = D.start_label(track["date"], track["start"])
    row = next((e for e in elements if e.rid == O.START_RID and e.text == label
                and _same_name(elements, e, track["name"])), None)
    if row is not None and row.bounds[3] - row.bounds[1] >= 50:
        return None
    shown = [e.text for e in elements if e.rid == O.START_RID]
    key = (track["date"], track["start"])
    newest_shown = max((_key(t) for t in shown), default=None)
    return swipe_down() if newest_shown is not None and key > newest_shown else swipe_up()


def _same_name(elements: Elements, start: Any, name: str) -> bool:
    """Whether the row whose start line is `start` is named `name` (its name sits just above)."""
    return any(e.rid == O.NAME_RID and e.text == name and 0 < start.bounds[1] - e.bounds[1] <= 200 for e in elements)


def _key(label: str) -> tuple[str, str]:
    """A start line ("Jun 9, 2026 5:45 PM") as a sortable (date, "HH:MM")."""
    moment = datetime.datetime.strptime(label, "%b %d, %Y %I:%M %p")
    return str(moment.date()), f"{moment:%H:%M}"


def reach_row(name: str, elements: Elements, state: State) -> Action:
    """On the list: tap the row of track `name`, scrolling to it first."""
    track = find_track(state, name)
    if track is None:
        return wait()
    step = show_row(track, elements, state)
    return step if step is not None else press(elements, rid=O.NAME_RID, text=name)


def to_track(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to the details of track `name` (None once there, no dialog over them)."""
    step = into_app(LABEL, OT, elements, state)
    if step is None and state["screen"]["name"] == "track":
        return None if tracks_state(state)["open"] == name else back()
    return step or to_list(elements, state) or reach_row(name, elements, state)


def to_edit(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to the edit form of track `name` (None once there)."""
    step = into_app(LABEL, OT, elements, state)
    if step is None and state["screen"]["name"] == "edit":
        return None if tracks_state(state)["open"] == name else back()
    return step or to_track(name, elements, state) or press(elements, desc="Edit")


def set_field(rid: str, text: str, elements: Elements, state: State) -> Action | None:
    """In the edit form: None once field `rid` holds `text`; else Clear text unless it leads to `text`, then type."""
    if not text.startswith(state["screen"]["fields"].get(rid, "")):
        clear = find(elements, rid=O.clear_rid(rid))
        return tap(clear) if clear is not None else back()
    return fill(elements, state, rid, text, missing=back())


def edit_track(name: str, fields: Mapping[str, str], elements: Elements, state: State) -> Action:
    """The next step to save track `name` with `fields` (resource-id to text) in its edit form."""
    step = to_edit(name, elements, state)
    if step is not None:
        return step
    for rid, text in fields.items():
        step = set_field(rid, text, elements, state)
        if step is not None:
            return step
    return press(elements, text="Save")
