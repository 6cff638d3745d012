"""The media apps on the typed seam (issue 48): Photos, Camera, YT Music, YouTube and Audio Recorder refuse initial
conditions their models do not take, naming the field (and the closest key), and report states that fit their
schemas, nested parts and optional keys included."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.app_state import state_of, state_problems
from android_gym.sim.apps import camera, gallery, music, recorder, youtube
from android_gym.sim.apps.gallery_media import file_name, stamp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

DAY = stamp(4, 10, 10)
PHOTO = {"name": file_name(DAY, "photo"), "kind": "photo", "date": DAY}


def make_phone(seed: int = 3, initial: dict | None = None) -> SimPhone:
    """A reset phone with every default app and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> None:
    """Tap the centre of the first element matching `criteria`; fail if none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    phone.tap(*element.center)


def fits(phone: SimPhone) -> dict:
    """The phone's state, after checking every app's part against its schema."""
    state = phone.state()
    assert state_problems(state) == []
    return state


@pytest.mark.parametrize("package, initial, message", [
    (camera.PACKAGE, {"facnig": "front"}, r"unknown config key `Camera\.facnig`; did you mean `Camera\.facing`\?"),
    (gallery.PACKAGE, {"album": ["Camping"]}, r"unknown config key `Photos\.album`; did you mean `Photos\.albums`\?"),
    (gallery.PACKAGE, {"items": [{**PHOTO, "favorite": True}]},
     r"unknown config key `Photos\.items\.0\.favorite`; did you mean `Photos\.items\.0\.favourite`\?"),
    (music.PACKAGE, {"plaing": 2}, r"unknown config key `YT Music\.plaing`; did you mean `YT Music\.playing`\?"),
    (recorder.PACKAGE, {"record": []},
     r"unknown config key `Audio Recorder\.record`; did you mean `Audio Recorder\.records`\?"),
    (recorder.PACKAGE, {"settings": {"askname": True}},
     r"unknown config key `Audio Recorder\.settings\.askname`; did you mean `Audio Recorder\.settings\.ask_name`\?"),
])
def test_an_unknown_initial_key_is_refused_with_the_closest_one(package: str, initial: dict, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        make_phone(0, {package: initial})


def test_youtube_takes_no_initial_conditions() -> None:
    with pytest.raises(ConfigError, match=r"YouTube takes no initial conditions, got \['subscriptions'\]"):
        make_phone(0, {youtube.PACKAGE: {"subscriptions": ["NASA"]}})


@pytest.mark.parametrize("package, initial, message", [
    (camera.PACKAGE, {"mode": "Night Sight"}, r"`Camera\.mode` must be 'Portrait', 'Photo' or 'Video'"),
    (camera.PACKAGE, {"permission": "allowed"}, r"`Camera\.permission` must be 'granted', 'ask' or 'denied'"),
    (gallery.PACKAGE, {"items": [{**PHOTO, "kind": "gif"}]}, r"`Photos\.items\.0\.kind` must be 'photo' or 'video'"),
    (gallery.PACKAGE, {"items": [{**PHOTO, "date": "June 4"}]},
     r"`Photos\.items\.0\.date` must be a date reading \"2026-06-09 14:05\", got 'June 4'"),
    (gallery.PACKAGE, {"items": [{**PHOTO, "date": "2026-06-04 9:05"}]}, r"`Photos\.items\.0\.date` must be a date"),
    (gallery.PACKAGE, {"items": [PHOTO, PHOTO]}, r"`Photos\.items` must be items of distinct names"),
    (gallery.PACKAGE, {"items": [{"name": "x.jpg", "date": DAY}]}, r"`Photos\.items\.0\.kind` is required"),
    (music.PACKAGE, {"playing": music.LIBRARY_SIZE}, r"`YT Music\.playing` must be less than or equal to 7, got 8"),
    (music.PACKAGE, {"playing": "2"}, r"`YT Music\.playing` must be a valid integer"),
    (recorder.PACKAGE, {"records": [{"name": "x"}]}, r"`Audio Recorder\.records\.0\.duration_s` is required"),
    (recorder.PACKAGE, {"records": [{"name": " ", "duration_s": 3}]},
     r"`Audio Recorder\.records\.0\.name` must be a name that is not blank"),
    (recorder.PACKAGE, {"records": [{"name": "x", "duration_s": -1}]},
     r"`Audio Recorder\.records\.0\.duration_s` must be greater than or equal to 0"),
    (recorder.PACKAGE, {"records": [{"name": "x", "duration_s": 3, "date": "20260601"}]},
     r"`Audio Recorder\.records\.0\.date` must be a day reading \"2026-06-09\""),
    (recorder.PACKAGE, {"settings": {"sample_rate": 11025}}, r"`Audio Recorder\.settings\.sample_rate` must be 8000"),
])
def test_an_initial_value_that_does_not_fit_names_its_field(package: str, initial: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make_phone(0, {package: initial})


def test_a_photo_named_like_a_seeded_one_of_another_day_fails_at_set_up() -> None:
    seeded = make_phone(3).state()["apps"][gallery.PACKAGE]["items"][0]
    other_day = stamp(1 if seeded["date"][8:10] != "01" else 2, 12, 0)
    clash = {"name": seeded["name"], "kind": "photo", "date": other_day}
    with pytest.raises(ConfigError, match=r"`Photos\.items` must have names no other item of the store has"):
        make_phone(3, {gallery.PACKAGE: {"items": [clash]}})


def test_the_cameras_state_fits_its_schema_while_recording_and_after() -> None:
    phone = make_phone(initial={camera.PACKAGE: {"mode": "Video", "facing": "front", "flash": "on",
                                                 "permission": "granted"}})
    assert state_of(fits(phone), camera.CameraState)["flash"] == "on"
    phone.launch("Camera")
    press(phone, rid=camera.SHUTTER_RID)
    phone.tick()
    assert state_of(fits(phone), camera.CameraState)["recording"]
    press(phone, rid=camera.SHUTTER_RID)
    mine = state_of(fits(phone), camera.CameraState)
    assert [(c["kind"], c["facing"], c["mode"]) for c in mine["captures"]] == [("video", "front", "Video")]
    assert mine["open"] and not mine["recording"]


def test_photos_state_fits_its_schema_with_both_kinds_of_share() -> None:
    video = stamp(4, 18, 30)
    phone = make_phone(initial={gallery.PACKAGE: {
        "items": [{**PHOTO, "favourite": True, "albums": ["Camping"]},
                  {"name": file_name(video, "video"), "kind": "video", "date": video, "trashed": True}],
        "albums": ["Beach day"]}})
    mine = state_of(fits(phone), gallery.PhotosState)
    day = [it for it in mine["items"] if it["date"].startswith("2026-06-04")]
    assert [(it["kind"], it["favourite"], it["albums"], it["trashed"]) for it in day] == [
        ("video", False, [], True), ("photo", True, ["Camping"], False)]
    assert {"name": "Camping", "items": [PHOTO["name"]]} in mine["albums"] and mine["changed"] == []
    phone.launch("Photos")
    press(phone, rid=gallery.IMAGE_RID)
    press(phone, text="Share")
    assert state_of(fits(phone), gallery.PhotosState)["sheet"] == "share"
    press(phone, text="Messages")
    press(phone, text="Share")
    press(phone, text="Send in Photos")
    sending = state_of(fits(phone), gallery.PhotosState)["sending"]
    assert sending is not None and sending["to"] is None
    person = next(e for e in phone.elements() if e.rid == gallery.PERSON_RID)
    phone.tap(*person.center)
    press(phone, text="Send", rid=f"{gallery.PACKAGE}:id/send_button")
    shared = state_of(fits(phone), gallery.PhotosState)["shared"]
    assert [set(s) for s in shared] == [{"item", "target"}, {"item", "target", "to"}]


def test_music_state_fits_its_schema_with_a_song_playing_and_paused() -> None:
    phone = make_phone(initial={music.PACKAGE: {"playing": 3}})
    mine = state_of(fits(phone), music.MusicState)
    assert mine["playing"] == mine["library"][3] == mine["played"][0] and mine["queue"] == mine["library"]
    phone.launch("YT Music")
    press(phone, rid=music.MINI_PLAY_PAUSE_RID)
    mine = state_of(fits(phone), music.MusicState)
    assert mine["paused"] and mine["playing"] is None and mine["song"] is not None and mine["page"] == "home"


def test_youtube_state_fits_its_schema_in_the_player_and_subscribed() -> None:
    phone = make_phone(initial={})
    phone.launch("YouTube")
    press(phone, desc="Search", clickable=True)
    phone.type_text("nasa")
    phone.key("enter")
    while phone.top.loading:
        phone.tick()
    press(phone, rid=youtube.CARD_RID)
    while phone.top.loading:
        phone.tick()
    press(phone, desc="Subscribe to NASA")
    mine = state_of(fits(phone), youtube.YouTubeState)
    playing = mine["playing"]
    assert playing is not None and playing["newest"] and playing["channel"] == "NASA"
    assert mine["subscriptions"] == ["NASA"] and mine["page"] == "player" and mine["query"] == "nasa"


def test_the_recorders_state_fits_its_schema_recording_naming_and_renamed() -> None:
    seeded = recorder.seeded_records(3)
    phone = make_phone(initial={recorder.PACKAGE: {
        "absent": [seeded[0]["name"]],
        "records": [{"name": "Lecture 7", "duration_s": 83, "format": "3gp", "sample_rate": 8000, "date": "2026-05-01"},
                    {"name": "Memo", "duration_s": 5}],
        "settings": {"format": "wav", "sample_rate": 48000, "ask_name": True, "keep_screen_on": True}}})
    mine = state_of(fits(phone), recorder.RecorderState)
    assert seeded[0]["name"] not in [r["name"] for r in mine["records"]]
    assert mine["records"][0] == {"name": "Memo", "duration_s": 5, "format": "m4a", "sample_rate": 44100,
                                  "date": str(recorder.DATE)}
    assert mine["settings"] == {"format": "wav", "sample_rate": 48000, "ask_name": True, "keep_screen_on": True}
    phone.launch("Audio Recorder")
    press(phone, desc="Record")
    for _ in range(3):
        phone.tick()
    assert state_of(fits(phone), recorder.RecorderState)["recording"] == {"elapsed_s": 3, "paused": False}
    press(phone, desc="Stop recording")
    mine = state_of(fits(phone), recorder.RecorderState)
    assert mine["screen"] == "rename" and mine["naming"] == mine["added"][0]
    phone.top.fields[recorder.INPUT_RID] = "Morning take"
    press(phone, text="OK")
    mine = state_of(fits(phone), recorder.RecorderState)
    assert mine["renamed"] == [{"from": mine["renamed"][0]["from"], "to": "Morning take"}]
    assert mine["added"] == ["Morning take"] and mine["records"][0]["format"] == "wav"
