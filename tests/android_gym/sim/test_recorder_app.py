"""Tests of the Audio Recorder app of the simulated phone: recording with time, the list, a record's screen, the
rename and delete dialogs, settings, back, XML, pixels, seeding, the episode RNG and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import recorder as R
from android_gym.sim.apps.recorder import RecorderApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(RecorderApp)
KNOWN = [{"name": "Lecture 7", "duration_s": 83, "date": "2026-06-01"},
         {"name": "Band take", "duration_s": 9, "format": "wav", "sample_rate": 48000, "date": "2026-05-20"},
         {"name": "Record-4", "duration_s": 125, "format": "3gp", "date": "2026-04-02"}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with the recorder installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone(settings: dict | None = None) -> SimPhone:
    """The recorder open on its main screen, holding only the known records."""
    absent = [r["name"] for r in R.seeded_records(0)]
    phone = make_phone(initial={R.PACKAGE: {"absent": absent, "records": KNOWN, "settings": settings or {}}})
    phone.launch("Audio Recorder")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def wait(phone: SimPhone, steps: int) -> None:
    """Let `steps` agent steps pass."""
    for _ in range(steps):
        phone.tick()


def rec(phone: SimPhone) -> dict:
    """The recorder's state."""
    return phone.state()["apps"][R.PACKAGE]


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def test_recording_runs_with_the_steps_pauses_and_saves_a_default_name():
    """Record, the timer counts steps (not while paused), Stop saves "Record-5" with the settings' format."""
    phone = known_phone({"format": "wav", "sample_rate": 16000})
    assert find(phone.elements(), rid=R.TIMER_RID).text == "00:00" and "wav \u00b7 16 kHz" in labels(phone)
    press(phone, desc="Record")
    wait(phone, 3)
    assert rec(phone)["recording"] == {"elapsed_s": 3, "paused": False}
    assert find(phone.elements(), rid=R.TIMER_RID).text == "00:03" and "Recording\u2026" in labels(phone)
    press(phone, desc="Pause recording")
    wait(phone, 4)
    assert rec(phone)["recording"] == {"elapsed_s": 3, "paused": True} and "Recording paused" in labels(phone)
    press(phone, desc="Resume recording")
    wait(phone, 2)
    press(phone, desc="Stop recording")
    state = rec(phone)
    assert state["recording"] is None and state["added"] == ["Record-5"]
    assert state["records"][0] == {"name": "Record-5", "duration_s": 5, "format": "wav", "sample_rate": 16000,
                                   "date": str(R.DATE)}
    assert find(phone.elements(), desc="Record") is not None and "Record-5" in labels(phone)


def test_a_recording_goes_on_in_the_background():
    """HOME does not stop the recording (the app's service keeps it); Stop later saves the whole length."""
    phone = known_phone()
    press(phone, desc="Record")
    phone.key("home")
    wait(phone, 6)
    assert rec(phone)["recording"]["elapsed_s"] == 6 and rec(phone)["screen"] is None
    phone.launch("Recorder")
    press(phone, desc="Stop recording")
    assert rec(phone)["records"][0]["duration_s"] == 6


def test_the_list_shows_records_newest_first_and_scrolls():
    """Rows show name, mm:ss and date; a long list scrolls to its last row."""
    phone = known_phone()
    press(phone, desc="Records")
    names = [e.text for e in phone.elements() if e.rid == R.NAME_RID]
    assert names == ["Lecture 7", "Band take", "Record-4"]
    assert [e.text for e in phone.elements() if e.rid == R.DURATION_RID] == ["01:23", "00:09", "02:05"]
    assert "May 20, 2026 \u00b7 wav \u00b7 48 kHz" in labels(phone)
    many = [{"name": f"Clip {k}", "duration_s": k, "date": f"2026-03-{k + 1:02d}"} for k in range(14)]
    long = make_phone(initial={R.PACKAGE: {"records": many}})
    long.launch("Recorder")
    press(long, desc="Records")
    assert find(long.elements(), text="Clip 0") is None
    long.swipe(540, 1800, 540, 400)
    long.swipe(540, 1800, 540, 400)
    assert long.top.scroll > 0 and find(long.elements(), text="Clip 0") is not None


def test_a_record_plays_until_its_end_and_back_stops_it():
    """Play advances a second a step and ends with the clip; Pause stops; BACK from the screen stops playback."""
    phone = known_phone()
    press(phone, desc="Records")
    press(phone, text="Band take")
    assert rec(phone)["open"] == "Band take" and rec(phone)["last_opened"] == "Band take"
    assert find(phone.elements(), rid=R.LENGTH_RID).text == "00:09"
    press(phone, desc="Play")
    wait(phone, 2)
    assert rec(phone)["playing"] == {"name": "Band take", "position_s": 2} and "00:02 / 00:09" in labels(phone)
    press(phone, desc="Pause")
    assert rec(phone)["playing"] is None
    press(phone, desc="Play")
    wait(phone, 9)
    assert rec(phone)["playing"] is None and find(phone.elements(), desc="Play") is not None
    press(phone, desc="Play")
    phone.key("back")
    assert rec(phone)["playing"] is None and rec(phone)["screen"] == "records"


def test_rename_dialog_clears_refuses_bad_names_and_renames():
    """Rename: Clear text, a taken or empty name shows an error, a new name (ENTER) renames; Cancel keeps."""
    phone = known_phone()
    press(phone, desc="Records")
    press(phone, text="Lecture 7")
    press(phone, desc="Rename")
    assert rec(phone)["naming"] == "Lecture 7" and "Rename" in labels(phone)
    press(phone, desc="Clear text")
    assert phone.keyboard_up and rec(phone)["naming"] == ""
    press(phone, text="OK")
    assert "Name can't be empty" in labels(phone)
    phone.type_text("Band take")
    press(phone, text="OK")
    assert "A record with this name already exists" in labels(phone) and rec(phone)["renamed"] == []
    press(phone, desc="Clear text")
    phone.type_text("Lecture seven")
    phone.key("enter")
    state = rec(phone)
    assert state["renamed"] == [{"from": "Lecture 7", "to": "Lecture seven"}] and state["screen"] == "record"
    assert state["open"] == "Lecture seven" and state["last_opened"] == "Lecture seven"
    press(phone, desc="Rename")
    press(phone, text="Cancel")
    assert rec(phone)["renamed"] == [{"from": "Lecture 7", "to": "Lecture seven"}]


def test_delete_asks_first_and_returns_to_the_list():
    """Delete: "Delete this record?"; Cancel keeps it, Delete removes it and shows the list."""
    phone = known_phone()
    press(phone, desc="Records")
    press(phone, text="Record-4")
    press(phone, desc="Delete")
    assert "Delete this record?" in labels(phone) and "\u201cRecord-4\u201d will be deleted." in labels(phone)
    press(phone, text="Cancel")
    assert rec(phone)["screen"] == "record" and rec(phone)["removed"] == []
    press(phone, desc="Delete")
    press(phone, text="Delete", clickable=True)
    state = rec(phone)
    assert state["removed"] == ["Record-4"] and state["screen"] == "records"
    assert [r["name"] for r in state["records"]] == ["Lecture 7", "Band take"]


def test_settings_change_format_rate_and_ask_for_a_name_after_stop():
    """Format and sample rate are picked from dialogs; with the naming switch on, Stop opens the name dialog."""
    phone = known_phone()
    press(phone, desc="Settings")
    press(phone, text="Recording format")
    assert [e.text for e in phone.elements() if e.cls == "android.widget.RadioButton"] == list(R.FORMATS)
    press(phone, text="3gp")
    press(phone, text="Sample rate")
    press(phone, text="8 kHz")
    press(phone, text="Rename recording after stop")
    assert rec(phone)["settings"] == {"format": "3gp", "sample_rate": 8000, "ask_name": True,
                                      "keep_screen_on": False}
    assert "3gp" in labels(phone) and "8 kHz" in labels(phone)
    phone.key("back")
    press(phone, desc="Record")
    wait(phone, 2)
    press(phone, desc="Stop recording")
    assert phone.top.name == "rename" and "Record name" in labels(phone) and rec(phone)["naming"] == "Record-5"
    press(phone, desc="Clear text")
    phone.type_text("Idea")
    press(phone, text="OK")
    state = rec(phone)
    assert state["added"] == ["Idea"] and state["records"][0]["format"] == "3gp" and state["screen"] == "main"


def test_back_walks_dialog_record_list_main_then_leaves():
    """BACK closes a dialog, then the record, the list, and leaves the app from its main screen."""
    phone = known_phone()
    press(phone, desc="Records")
    press(phone, text="Lecture 7")
    press(phone, desc="Delete")
    screens = []
    for _ in range(4):
        phone.key("back")
        screens.append(rec(phone)["screen"])
    assert screens == ["record", "records", "main", None] and rec(phone)["removed"] == []
    press_up = known_phone()
    press(press_up, desc="Records")
    press(press_up, desc="Navigate up")
    assert rec(press_up)["screen"] == "main" and find(press_up.elements(), desc="Navigate up") is None


@pytest.mark.parametrize("steps", [[], ["Records"], ["Records", "Lecture 7"], ["Settings", "Recording format"],
                                   ["Records", "Lecture 7", "Rename"]])
def test_xml_parses_and_lists_what_the_screen_shows(steps: list[str]):
    """The uiautomator dump parses to the phone's own elements and lists the screen's texts."""
    phone = known_phone()
    for step in steps:
        if find(phone.elements(), desc=step) is not None:
            press(phone, desc=step)
        else:
            press(phone, text=step)
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {(): "Record", ("Records",): "01:23", ("Records", "Lecture 7"): "Play",
                ("Settings", "Recording format"): "wav", ("Records", "Lecture 7", "Rename"): "Clear text"}
    assert expected[tuple(steps)] in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """The record button and a row's name are drawn (not blank), and the delete dialog dims the screen."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {R.PACKAGE: {"records": KNOWN}})
    device.phone.launch("Recorder")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    button = find(device.ui_elements(), rid=R.RECORD_RID).bounds
    timer = find(device.ui_elements(), rid=R.TIMER_RID).bounds
    assert region(button).std() > 20 and region(timer).std() > 20
    device.phone.tap(*find(device.ui_elements(), desc="Records").center)
    name = find(device.ui_elements(), rid=R.NAME_RID).bounds
    assert region(name).std() > 20
    device.phone.tap(*find(device.ui_elements(), rid=R.NAME_RID).center)
    title = find(device.ui_elements(), rid=R.TITLE_RID).bounds
    before = region(title).mean()
    device.phone.tap(*find(device.ui_elements(), desc="Delete").center)
    assert region(title).mean() < before - 20  # the scrim behind the dialog


def test_initial_records_are_seeded():
    """The same seed gives the same records; other seeds give others, 3-8 of them, dated before today."""
    def records(seed: int) -> list[dict]:
        return make_phone(seed).state()["apps"][R.PACKAGE]["records"]

    assert records(5) == records(5)
    assert len({repr(records(s)) for s in range(8)}) == 8
    counts = {len(records(s)) for s in range(20)}
    assert min(counts) >= 3 and max(counts) <= 8 and len(counts) > 2
    assert all(r["date"] < str(R.DATE) for s in range(8) for r in records(s))


def test_the_app_leaves_the_episode_rng_alone():
    """A phone with the recorder draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("Recorder")
    press(mine, desc="Record")
    wait(mine, 2)
    press(mine, desc="Stop recording")
    press(mine, desc="Records")
    mine.tree()
    mine.state()
    wait(plain, 3)
    # the generator's whole state: a bounded integer draw uses half a word and keeps the rest buffered, so one
    # extra draw can leave the next random() equal
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


@pytest.mark.parametrize("initial", [{"recordings": []}, {"settings": {"bitrate": 128}},
                                     {"settings": {"format": "mp3"}}, {"settings": {"sample_rate": 11025}},
                                     {"records": [{"name": "x"}]}, {"records": [{"name": "x", "duration_s": 3,
                                                                                 "codec": "aac"}]},
                                     {"records": [{"name": "", "duration_s": 3}]}])
def test_apply_refuses_unknown_keys_and_bad_values(initial: dict):
    """Unknown keys and settings, unknown formats and rates, records without a length or with extra fields."""
    with pytest.raises(ConfigError):
        make_phone(initial={R.PACKAGE: initial})


def test_apply_sets_records_settings_and_is_not_a_change():
    """Initial records and settings are the set-up: they are listed, and nothing counts as added or removed."""
    seeded = R.seeded_records(4)
    phone = make_phone(4, {R.PACKAGE: {"absent": [seeded[0]["name"]], "records": KNOWN[:1],
                                       "settings": {"ask_name": True, "format": "wav"}}})
    state = rec(phone)
    assert seeded[0]["name"] not in _names(state) and "Lecture 7" in _names(state)
    assert state["settings"]["ask_name"] and state["settings"]["format"] == "wav"
    assert (state["added"], state["removed"], state["renamed"]) == ([], [], [])


def _names(state: dict) -> list[str]:
    return [r["name"] for r in state["records"]]


def test_state_is_fresh_data_the_reader_may_mutate():
    """Wrecking what `state()` returned (records, settings, logs) reaches neither the app nor the next reader."""
    phone = known_phone()
    press(phone, desc="Records")
    press(phone, text="Lecture 7")
    press(phone, desc="Play")
    app = phone.apps[R.PACKAGE]
    first = app.state()
    kept = {k: (list(v) if isinstance(v, list) else v) for k, v in app.state().items()}
    for r in first["records"]:
        r.clear()
    first["settings"].clear()
    first["playing"].clear()
    first["records"].clear()
    assert app.state()["records"] == [dict(r) for r in kept["records"]] and app.state()["settings"] == kept["settings"]
    assert app.state()["playing"] == {"name": "Lecture 7", "position_s": 0}
