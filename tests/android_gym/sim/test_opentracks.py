"""Tests of the OpenTracks app of the simulated phone: the track list, a track's statistics, editing, deleting,
recording with time, aggregated statistics, back, seeding, the episode RNG and initial conditions.
"""  # noqa: D205

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import opentracks as O
from android_gym.sim.apps import opentracks_data as D
from android_gym.sim.apps.opentracks import OpenTracksApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

APPS = with_apps(OpenTracksApp)
KNOWN = [{"name": "Lake Loop", "category": "running", "date": "2026-06-08", "start": "07:30", "duration_s": 2700,
          "distance_m": 7520, "elevation_gain_m": 40, "elevation_loss_m": 35},
         {"name": "Hill Climb", "category": "cycling", "date": "2026-06-09", "start": "17:45", "duration_s": 5400,
          "distance_m": 30000, "description": "Windy"},
         {"name": "Pool", "category": "swimming", "date": "2026-05-20", "duration_s": 1800, "distance_m": 1200}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with OpenTracks installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """OpenTracks open on its list, holding only the known tracks."""
    phone = make_phone(initial={D.PACKAGE: {"clear": True, "tracks": KNOWN}})
    phone.launch("OpenTracks")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def tracks(phone: SimPhone) -> dict:
    """OpenTracks' state."""
    return phone.state()["apps"][D.PACKAGE]


def texts(phone: SimPhone, rid: str) -> list[str]:
    """The texts of the elements with resource-id `rid`, top to bottom."""
    return [e.text for e in phone.elements() if e.rid == rid]


def test_the_list_shows_tracks_newest_first_with_their_figures():
    """Name, activity type, start, distance in km and total time per row, newest start first."""
    phone = known_phone()
    assert texts(phone, O.NAME_RID) == ["Hill Climb", "Lake Loop", "Pool"]
    assert texts(phone, O.DISTANCE_RID) == ["30.00 km", "7.52 km", "1.20 km"]
    assert texts(phone, O.TIME_RID) == ["1:30:00", "45:00", "30:00"]
    assert texts(phone, O.START_RID)[0] == "Jun 9, 2026 5:45 PM"
    assert texts(phone, O.CATEGORY_RID) == ["cycling", "running", "swimming"]


def test_a_track_shows_its_statistics_and_back_returns_then_leaves():
    """Opening a row shows its statistics and records it as last opened; BACK walks out of the app."""
    phone = known_phone()
    press(phone, text="Lake Loop")
    assert tracks(phone)["open"] == "Lake Loop" and tracks(phone)["last_opened"] == "Lake Loop"
    labels = [e.text for e in phone.elements()]
    assert {"7.52 km", "45:00", "10.0 km/h", "40 m / 35 m", "running"} <= set(labels)
    phone.key("back")
    assert phone.top.name == "tracks" and tracks(phone)["open"] is None
    phone.key("back")
    assert phone.foreground != D.PACKAGE


def test_edit_renames_recategorises_and_cancel_changes_nothing():
    """Clear text and typing change the form; Save logs one edit; Cancel and an unchanged Save log none."""
    phone = known_phone()
    press(phone, text="Hill Climb")
    press(phone, desc="Edit")
    assert phone.top.fields[O.DESCRIPTION_FIELD] == "Windy"
    press(phone, rid=O.clear_rid(O.NAME_FIELD))
    phone.type_text("Col Climb")
    press(phone, text="Cancel")
    assert tracks(phone)["edited"] == [] and tracks(phone)["open"] == "Hill Climb"
    press(phone, desc="Edit")
    press(phone, text="Save")
    assert tracks(phone)["edited"] == []
    press(phone, desc="Edit")
    press(phone, rid=O.clear_rid(O.NAME_FIELD))
    phone.type_text("Col Climb")
    phone.key("enter")
    assert phone.top.focus == O.CATEGORY_FIELD
    press(phone, rid=O.clear_rid(O.CATEGORY_FIELD))
    phone.type_text("road biking")
    press(phone, text="Save")
    state = tracks(phone)
    assert state["edited"] == [{"track": "Hill Climb", "name": "Col Climb", "category": "road biking",
                                "description": "Windy"}]
    assert state["tracks"][0]["name"] == "Col Climb" and state["last_opened"] == "Col Climb"
    assert phone.top.name == "track" and "road biking" in [e.text for e in phone.elements()]


def test_a_blank_name_keeps_the_old_one():
    """Saving with the name cleared keeps the track's name (only the description changes)."""
    phone = known_phone()
    press(phone, text="Pool")
    press(phone, desc="Edit")
    press(phone, rid=O.clear_rid(O.NAME_FIELD))
    press(phone, rid=O.DESCRIPTION_FIELD)
    phone.type_text("Easy")
    press(phone, text="Save")
    assert tracks(phone)["edited"] == [{"track": "Pool", "name": "Pool", "category": "swimming",
                                        "description": "Easy"}]


def test_delete_asks_first_and_returns_to_the_list():
    """Delete opens "Delete track?"; Cancel keeps the track, OK removes it and shows the list."""
    phone = known_phone()
    press(phone, text="Pool")
    press(phone, desc="Delete")
    assert "Delete track?" in [e.text for e in phone.elements()] and tracks(phone)["open"] == "Pool"
    press(phone, text="Cancel")
    assert phone.top.name == "track" and len(tracks(phone)["tracks"]) == 3
    press(phone, desc="Delete")
    press(phone, text="OK")
    assert phone.top.name == "tracks" and tracks(phone)["removed"] == ["Pool"]
    assert texts(phone, O.NAME_RID) == ["Hill Climb", "Lake Loop"]


def test_recording_runs_with_the_steps_also_in_the_background_and_stop_saves_a_track():
    """The FAB starts a recording whose time and distance follow the steps; Stop saves "Track 1" and shows it."""
    phone = known_phone()
    press(phone, desc=O.FAB_DESC)
    for _ in range(3):
        phone.tick()
    assert tracks(phone)["recording"] == {"elapsed_s": 3, "distance_m": 9}
    assert texts(phone, O.REC_TIME_RID) == ["00:03"]
    phone.key("home")
    phone.tick()
    phone.launch("OpenTracks")
    press(phone, desc=O.SHOW_DESC)
    assert phone.top.name == "recording" and tracks(phone)["recording"]["elapsed_s"] == 4
    press(phone, desc=O.STOP_DESC)
    state = tracks(phone)
    assert state["recording"] is None and state["added"] == ["Track 1"] and state["open"] == "Track 1"
    assert state["tracks"][0] == {"name": "Track 1", "category": "", "description": "", "date": str(D.DATE),
                                  "start": "09:40", "duration_s": 4, "distance_m": 12, "elevation_gain_m": 0,
                                  "elevation_loss_m": 0}
    phone.key("back")
    assert phone.top.name == "tracks" and texts(phone, O.NAME_RID)[0] == "Track 1"


def test_aggregated_statistics_sum_each_activity_type():
    """One row per activity type with its track count, distance and time."""
    phone = make_phone(initial={D.PACKAGE: {"clear": True, "tracks": [*KNOWN, {**KNOWN[0], "name": "Again"}]}})
    phone.launch("OpenTracks")
    press(phone, desc=O.STATS_DESC)
    labels = [e.text for e in phone.elements()]
    assert {"running", "2 tracks \u00b7 15.04 km", "1:30:00", "1 track \u00b7 1.20 km"} <= set(labels)


def test_the_list_scrolls_to_its_last_track():
    """With many tracks the oldest is below the screen until the list is swiped up."""
    many = [{"name": f"Run {k}", "category": "running", "date": f"2026-05-{10 + k:02d}", "duration_s": 600,
             "distance_m": 2000} for k in range(14)]
    phone = make_phone(initial={D.PACKAGE: {"clear": True, "tracks": many}})
    phone.launch("OpenTracks")
    assert "Run 0" not in texts(phone, O.NAME_RID)
    for _ in range(3):
        phone.swipe(540, 1680, 540, 840)
    assert "Run 0" in texts(phone, O.NAME_RID)


def test_initial_tracks_are_seeded():
    """The same seed gives the same tracks; others differ; 5-10 of them, all before today, in tens of metres."""
    def seeded(seed: int) -> list[dict]:
        return make_phone(seed).state()["apps"][D.PACKAGE]["tracks"]

    assert seeded(5) == seeded(5)
    assert len({repr(seeded(s)) for s in range(8)}) == 8
    counts = {len(seeded(s)) for s in range(12)}
    assert min(counts) >= 5 and max(counts) <= 10 and len(counts) > 2
    assert all(t["date"] < str(D.DATE) and t["distance_m"] % 10 == 0 for s in range(6) for t in seeded(s))


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with OpenTracks draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("open tracks")
    press(mine, desc=O.FAB_DESC)
    mine.tick()
    press(mine, desc=O.STOP_DESC)
    mine.state()
    plain.tick()
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state


@pytest.mark.parametrize(("initial", "field"), [
    ({"tracks": [{"name": "x", "distance_m": 5}]}, "duration_s"),
    ({"tracks": [{"name": " ", "duration_s": 1, "distance_m": 5}]}, "name"),
    ({"tracks": [{"name": "x", "duration_s": 1, "distance_m": -5}]}, "distance_m"),
    ({"tracks": [{"name": "x", "duration_s": 1, "distance_m": 5, "date": "June 8"}]}, "date"),
    ({"tracks": [{"name": "x", "duration_s": 1, "distance_m": 5, "start": "7:30am"}]}, "start"),
    ({"tracks": [{"name": "x", "duration_s": 1, "distance_m": 5, "speed": 3}]}, "speed"),
    ({"cleared": True}, "cleared"),
])
def test_apply_refuses_a_bad_initial_condition_naming_the_field(initial: dict, field: str):
    """A missing, blank, negative, misformatted or unknown field fails with its name in the message."""
    with pytest.raises(ConfigError, match=field):
        make_phone(initial={D.PACKAGE: initial})


def test_apply_sets_tracks_and_is_not_a_change():
    """Initial tracks are the set-up: listed among the seeded ones (absent ones gone), nothing added or removed."""
    seeded = D.seeded_tracks(4)
    phone = make_phone(4, {D.PACKAGE: {"absent": [seeded[0]["name"]], "tracks": KNOWN[:1]}})
    state = tracks(phone)
    names = [t["name"] for t in state["tracks"]]
    assert seeded[0]["name"] not in names and "Lake Loop" in names and len(names) >= len(seeded)
    assert (state["added"], state["removed"], state["edited"]) == ([], [], [])
