"""Tests of the VLC app of the simulated phone: the library seeded from the phone's videos, the player (time, the
frame's text on screen, pause, jumps, the end), playlists (create, add, rename, delete), tabs, back, pixels and the
initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.app_state import state_problems
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import vlc as V
from android_gym.sim.apps.files_data import seeded_files
from android_gym.sim.apps.vlc import VlcApp
from android_gym.sim.apps.vlc_state import VlcState
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(VlcApp)
CLIP = {"path": "VLCVideos/clip_7.mp4", "frames": [{"text": "Edna", "seconds": 8}, {"text": "pineapple", "seconds": 8},
                                                    {"text": "", "seconds": 4}]}
SCENE = {"path": "Download/scene_3.mp4", "frames": [{"text": "Harbor", "seconds": 75}]}
KNOWN = {V.PACKAGE: {"clear": True, "videos": [CLIP, SCENE],
                     "playlists": [{"name": "Trips", "videos": [SCENE["path"], CLIP["path"]]}]}}


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with VLC installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """VLC open on its Video tab, holding only the two known videos and one playlist."""
    phone = make_phone(initial=KNOWN)
    phone.launch("VLC")
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


def vlc(phone: SimPhone) -> dict:
    """VLC's state."""
    return phone.state()["apps"][V.PACKAGE]


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def test_the_library_is_the_phones_seeded_videos_with_lengths_and_playlists():
    """A fresh phone's VLC lists Files' seeded Movies videos by name with their lengths, and 1-2 playlists."""
    phone = make_phone(3)
    state = vlc(phone)
    movies = sorted(p for p in seeded_files(3) if p.endswith(".mp4"))
    assert sorted(v["path"] for v in state["videos"]) == movies and len(movies) == 6
    assert [v["name"] for v in state["videos"]] == sorted(v["name"] for v in state["videos"])
    assert all(v["duration_s"] == sum(f["seconds"] for f in v["frames"]) for v in state["videos"])
    assert 1 <= len(state["playlists"]) <= 2 and all(set(pl["videos"]) <= set(movies) for pl in state["playlists"])
    assert vlc(make_phone(3)) == state and vlc(make_phone(4)) != state
    phone.launch("vlc player")
    first = state["videos"][0]
    assert first["name"] in labels(phone) and f"{V.clock(first['duration_s'])} \u00b7 Movies" in labels(phone)
    assert not state_problems(phone.state(), {V.PACKAGE: VlcState})


def test_playing_runs_with_the_steps_and_the_screen_shows_the_frames_text():
    """The player shows the frame at the position; time runs one second a step; pause stops it."""
    phone = known_phone()
    assert [e.text for e in phone.elements() if e.rid == V.TITLE_RID] == ["clip_7.mp4", "scene_3.mp4"]
    assert "0:20 \u00b7 VLCVideos" in labels(phone) and "1:15 \u00b7 Download" in labels(phone)
    press(phone, text="clip_7.mp4")
    assert find(phone.elements(), rid=V.FRAME_RID).text == "Edna" and "0:20" in labels(phone)
    wait(phone, 8)
    assert find(phone.elements(), rid=V.FRAME_RID).text == "pineapple"
    assert vlc(phone)["playing"] == {"path": CLIP["path"], "position_s": 8, "paused": False, "text": "pineapple"}
    press(phone, desc="Pause")
    wait(phone, 5)
    assert vlc(phone)["playing"]["position_s"] == 8 and "Play" in labels(phone)
    press(phone, desc="Play")
    wait(phone, 8)
    assert vlc(phone)["playing"]["text"] == "" and "0:16" in labels(phone)  # a frame without text
    assert not {"Edna", "pineapple"} & set(labels(phone))
    assert vlc(phone)["watched"] == [CLIP["path"]]


def test_jumps_move_ten_seconds_and_the_end_closes_the_player():
    phone = known_phone()
    press(phone, text="clip_7.mp4")
    press(phone, desc="Forward 10 seconds")
    assert vlc(phone)["playing"]["text"] == "pineapple" and "0:10" in labels(phone)
    press(phone, desc="Rewind 10 seconds")
    press(phone, desc="Rewind 10 seconds")
    assert vlc(phone)["playing"]["position_s"] == 0
    press(phone, desc="Forward 10 seconds")
    wait(phone, 10)  # 0:20 is the end
    assert vlc(phone)["playing"] is None and phone.top.name == "videos"


def test_back_from_the_player_or_home_stops_the_video():
    phone = known_phone()
    press(phone, text="scene_3.mp4")
    phone.key("home")
    wait(phone, 5)
    assert vlc(phone)["playing"] is None
    phone.launch("VLC")
    assert vlc(phone)["playing"] is None and phone.top.name == "videos"
    press(phone, text="scene_3.mp4")
    wait(phone, 2)
    phone.key("back")
    assert vlc(phone)["playing"] is None and phone.top.name == "videos"
    phone.key("back")
    assert phone.foreground != V.PACKAGE


def test_add_to_a_new_playlist_then_to_an_existing_one():
    """More actions, Add to playlist: Create needs a name, refuses a taken one; a tapped playlist gets the video."""
    phone = known_phone()
    press(phone, desc="More actions scene_3.mp4")
    press(phone, text="Add to playlist")
    assert find(phone.elements(), text="Create").enabled is False and "Trips" in labels(phone)
    press(phone, rid=V.NEW_RID)
    phone.type_text("Trips")
    press(phone, text="Create")
    assert "A playlist with this name already exists" in labels(phone)
    for _ in range(5):
        phone.key("delete")
    phone.type_text("Road Trip Essentials")
    press(phone, text="Create")
    assert phone.top.name == "videos"
    press(phone, desc="More actions clip_7.mp4")
    press(phone, text="Add to playlist")
    press(phone, text="Road Trip Essentials")
    state = vlc(phone)
    assert state["playlists"][1] == {"name": "Road Trip Essentials", "videos": [SCENE["path"], CLIP["path"]]}
    assert state["edits"] == [{"op": "create", "playlist": "Road Trip Essentials"},
                              {"op": "add", "playlist": "Road Trip Essentials", "video": SCENE["path"]},
                              {"op": "add", "playlist": "Road Trip Essentials", "video": CLIP["path"]}]
    press(phone, desc="Playlists")
    assert labels(phone)[labels(phone).index("Road Trip Essentials") + 1] == "2 videos"


def test_a_playlist_lists_its_videos_in_order_plays_them_renames_and_deletes():
    phone = known_phone()
    press(phone, desc="Playlists")
    assert "1 playlist" not in labels(phone) and "2 videos" in labels(phone)
    press(phone, text="Trips")
    names = [e.text for e in phone.elements() if e.rid == V.TITLE_RID]
    assert names == ["scene_3.mp4", "clip_7.mp4"] and vlc(phone)["open_playlist"] == "Trips"
    press(phone, desc="More options")
    press(phone, text="Rename")
    press(phone, desc="Clear text")
    press(phone, text="OK")
    assert "Name can't be empty" in labels(phone)
    phone.type_text("Holidays")
    press(phone, text="OK")
    assert find(phone.elements(), rid=f"{V.PACKAGE}:id/title").text == "Holidays"
    press(phone, text="clip_7.mp4")
    assert phone.top.name == "player"
    phone.key("back")
    press(phone, desc="More options")
    press(phone, text="Delete")
    assert "\u201cHolidays\u201d will be deleted." in labels(phone)
    press(phone, text="Delete")
    state = vlc(phone)
    assert phone.top.name == "playlists" and state["playlists"] == [] and "No playlists" in labels(phone)
    assert state["edits"] == [{"op": "rename", "playlist": "Trips", "to": "Holidays"},
                              {"op": "delete", "playlist": "Holidays"}]


def test_xml_parses_and_the_frames_text_is_drawn():
    """The dump lists the frame's text; the screenshot draws it (white on the black video)."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, KNOWN)
    device.phone.launch("VLC")
    device.phone.tap(*find(device.ui_elements(), text="clip_7.mp4").center)
    assert "Edna" in [e.label for e in parse_uiautomator_xml(device.phone.xml())]
    x0, y0, x1, y1 = find(device.ui_elements(), rid=V.FRAME_RID).bounds
    pixels = np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)
    assert pixels.std() > 20 and (pixels.sum(axis=1) > 600).any()  # light ink on black
    device.phone.tap(*find(device.ui_elements(), desc="Forward 10 seconds").center)
    device.phone.tap(*find(device.ui_elements(), desc="Forward 10 seconds").center)  # 0:20: the end
    assert device.phone.top.name == "videos"


def test_the_app_leaves_the_episode_rng_alone():
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("VLC")
    press(mine, text=vlc(mine)["videos"][0]["name"])
    wait(mine, 3)
    mine.state()
    wait(plain, 3)
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state


@pytest.mark.parametrize("initial, field", [
    ({"videos": [{"path": "/sdcard/a.mp4", "frames": [{"seconds": 3}]}]}, "path"),
    ({"videos": [{"path": "a.mp4", "frames": []}]}, "frames"),
    ({"videos": [{"path": "a.mp4", "frames": [{"text": "x", "seconds": 0}]}]}, "seconds"),
    ({"playlists": [{"name": " "}]}, "name"),
    ({"playlists": [{"name": "x", "videos": ["Movies/nope.mp4"]}]}, "playlists"),
    ({"movies": []}, "movies")])
def test_apply_refuses_bad_initial_conditions_naming_the_field(initial: dict, field: str):
    with pytest.raises(ConfigError, match=f"`?{field}"):
        make_phone(initial={V.PACKAGE: initial})


def test_initial_conditions_are_the_set_up_not_edits():
    seeded = vlc(make_phone(4))
    gone = seeded["videos"][0]["path"]
    state = vlc(make_phone(4, {V.PACKAGE: {"absent": [gone, seeded["playlists"][0]["name"]], "videos": [CLIP]}}))
    assert gone not in [v["path"] for v in state["videos"]] and CLIP["path"] in [v["path"] for v in state["videos"]]
    assert seeded["playlists"][0]["name"] not in [pl["name"] for pl in state["playlists"]]
    assert all(gone not in pl["videos"] for pl in state["playlists"]) and state["edits"] == []


def test_a_long_library_scrolls_to_its_last_video():
    """26 videos: the first rows show at the top; swiping up reaches the last, and the first is gone."""
    many = [{"path": f"VLCVideos/v{k:02d}.mp4", "frames": [{"text": "x", "seconds": 10 + k}]} for k in range(26)]
    phone = make_phone(initial={V.PACKAGE: {"clear": True, "videos": many}})
    phone.launch("VLC")
    assert "v00.mp4" in labels(phone) and "v25.mp4" not in labels(phone)
    for _ in range(6):
        phone.swipe(540, 1700, 540, 800)
    assert "v25.mp4" in labels(phone) and "0:35 \u00b7 VLCVideos" in labels(phone) and "v00.mp4" not in labels(phone)
    press(phone, text="v24.mp4")
    assert vlc(phone)["playing"]["path"] == "VLCVideos/v24.mp4"
