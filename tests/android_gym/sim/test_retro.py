"""Tests of the Retro Music app of the simulated phone: the library's tabs, playing a list, the queue (play next,
add, move, remove), playlists (create, add, reorder, rename, delete), saving one as a file Files lists, BACK,
seeding and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import files as F
from android_gym.sim.apps import retro as R
from android_gym.sim.apps import retro_data, with_apps
from android_gym.sim.apps.retro import RetroApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

APPS = with_apps(RetroApp)
SONGS = [{"title": "Blue Umbrella", "artist": "Nora Vale", "album": "North Window", "duration_ms": 185_000},
         {"title": "Coastline", "artist": "Milo Grant", "album": "Second Wind", "duration_ms": 240_500},
         {"title": "Amber Streetlights", "artist": "Nora Vale", "album": "North Window", "duration_ms": 200_000},
         {"title": "Low Tide", "artist": "Milo Grant", "album": "Harbor Lights", "duration_ms": 3_725_000}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Retro Music installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def known_phone(**extra: object) -> SimPhone:
    """Retro Music open on its Songs tab over the four known songs and no playlists (unless `extra` sets them)."""
    phone = make_phone(initial={R.PACKAGE: {"library_only": True, "songs": SONGS, "playlists": [], **extra}})
    phone.launch("Retro Music")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def retro(phone: SimPhone) -> dict:
    """Retro Music's state."""
    return phone.state()["apps"][R.PACKAGE]


def rows(phone: SimPhone) -> list[str]:
    """The song titles listed on screen."""
    return [e.text for e in phone.elements() if e.rid == R.TITLE_RID and e.text]


def test_the_songs_tab_lists_titles_with_artist_and_length():
    """Songs A-Z with "artist • m:ss"; the toolbar says Songs; a long song shows hours."""
    phone = known_phone()
    assert rows(phone) == ["Amber Streetlights", "Blue Umbrella", "Coastline", "Low Tide"]
    labels = [e.label for e in phone.elements()]
    assert "Nora Vale \u2022 3:05" in labels and "Milo Grant \u2022 1:02:05" in labels and "Songs" in labels


def test_albums_and_artists_open_their_songs():
    """The Albums tab lists albums; one opens its songs with their count and total length; likewise an artist."""
    phone = known_phone()
    press(phone, text="Albums", clickable=True)
    assert retro(phone)["tab"] == "albums" and rows(phone) == ["Harbor Lights", "North Window", "Second Wind"]
    press(phone, text="North Window")
    assert rows(phone) == ["Amber Streetlights", "Blue Umbrella"]
    assert find(phone.elements(), rid=R.INFO_RID).text == "2 Songs \u2022 6:25"
    phone.key("back")
    press(phone, text="Artists", clickable=True)
    press(phone, text="Milo Grant")
    assert phone.top.name == "artist" and rows(phone) == ["Coastline", "Low Tide"]


def test_tapping_a_song_plays_its_list_and_the_player_shows_it():
    """A row plays the list from it; the mini player opens the player; Next, Pause; the queue lists it all."""
    phone = known_phone()
    press(phone, text="Blue Umbrella")
    s = retro(phone)
    assert s["queue"] == rows(phone) and s["position"] == 1 and s["playing"]
    press(phone, rid=R.MINI_RID)
    assert phone.top.name == "player" and find(phone.elements(), rid=R.TITLE_RID).text == "Blue Umbrella"
    press(phone, desc="Next")
    press(phone, desc="Pause")
    assert retro(phone)["position"] == 2 and not retro(phone)["playing"]
    press(phone, desc="Playing queue")
    assert retro(phone)["screen"] == "queue" and rows(phone) == s["queue"]


def test_play_next_and_add_to_queue_build_the_queue_in_order():
    """On an empty queue the first song starts it (paused); Add appends; Play next goes after the current song."""
    phone = known_phone()
    for title, item in (("Coastline", "Add to playing queue"), ("Low Tide", "Add to playing queue"),
                        ("Amber Streetlights", "Play next")):
        press(phone, desc=f"More options for {title}")
        press(phone, text=item)
    s = retro(phone)
    assert s["queue"] == ["Coastline", "Amber Streetlights", "Low Tide"] and s["position"] == 0
    assert not s["playing"] and s["screen"] == "library"


def test_the_queue_rows_move_and_are_removed():
    """Move down, Move up and Remove from playing queue; the current song stays current."""
    phone = known_phone(queue=["Coastline", "Low Tide", "Blue Umbrella"])
    press(phone, rid=R.MINI_RID)
    press(phone, desc="Playing queue")
    press(phone, desc="More options for Coastline")
    press(phone, text="Move down")
    assert retro(phone)["queue"] == ["Low Tide", "Coastline", "Blue Umbrella"] and retro(phone)["position"] == 1
    press(phone, desc="More options for Blue Umbrella")
    press(phone, text="Move up")
    press(phone, desc="More options for Low Tide")
    press(phone, text="Remove from playing queue")
    assert retro(phone)["queue"] == ["Blue Umbrella", "Coastline"] and retro(phone)["position"] == 1
    press(phone, desc="Clear playing queue")
    assert retro(phone)["queue"] == [] and retro(phone)["position"] is None


def test_a_playlist_is_created_filled_and_reordered():
    """New playlist (empty name refused), songs added from their menus, the total shown, Move up, Remove."""
    phone = known_phone()
    press(phone, text="Playlists", clickable=True)
    press(phone, desc="New playlist")
    press(phone, text="Create")
    assert "Playlist name can't be empty" in [e.label for e in phone.elements()]
    phone.type_text("Road trip")
    press(phone, text="Create")
    assert retro(phone)["playlists"] == [{"name": "Road trip", "songs": []}]
    press(phone, text="Songs", clickable=True)
    for title in ("Low Tide", "Coastline", "Blue Umbrella"):
        press(phone, desc=f"More options for {title}")
        press(phone, text="Add to playlist")
        press(phone, text="Road trip")
    assert retro(phone)["playlists"][0]["songs"] == ["Low Tide", "Coastline", "Blue Umbrella"]
    press(phone, text="Playlists", clickable=True)
    press(phone, text="Road trip")
    assert retro(phone)["open_playlist"] == "Road trip" and retro(phone)["last_opened"] == "Road trip"
    assert find(phone.elements(), rid=R.INFO_RID).text == "3 Songs \u2022 1:09:10"
    press(phone, desc="More options for Coastline")
    press(phone, text="Move up")
    press(phone, desc="More options for Blue Umbrella")
    press(phone, text="Remove from playlist")
    assert retro(phone)["playlists"][0]["songs"] == ["Coastline", "Low Tide"]


def test_a_new_playlist_from_a_song_menu_holds_the_song():
    """Add to playlist, New playlist: the playlist is made with the song; a taken name is refused."""
    phone = known_phone(playlists=[{"name": "Gym", "songs": ["Coastline"]}])
    press(phone, desc="More options for Low Tide")
    press(phone, text="Add to playlist")
    press(phone, text="New playlist")
    phone.type_text("Gym")
    phone.key("enter")
    assert "Playlist already exists" in [e.label for e in phone.elements()]
    press(phone, rid=R.NAME_RID)
    phone.type_text(" 2")
    press(phone, text="Create")
    assert retro(phone)["playlists"][1] == {"name": "Gym 2", "songs": ["Low Tide"]}


def test_a_playlist_is_renamed_and_deleted():
    """Rename playlist, then Delete playlist: the list comes back without it."""
    phone = known_phone(playlists=[{"name": "Gym", "songs": ["Coastline"]}, {"name": "Chill", "songs": []}])
    press(phone, text="Playlists", clickable=True)
    press(phone, text="Gym")
    press(phone, desc="Rename playlist")
    phone.type_text(" mix")
    press(phone, text="Rename")
    assert [p["name"] for p in retro(phone)["playlists"]] == ["Chill", "Gym mix"]
    assert retro(phone)["last_opened"] == "Gym mix"
    press(phone, desc="Delete playlist")
    press(phone, text="Delete")
    assert [p["name"] for p in retro(phone)["playlists"]] == ["Chill"] and retro(phone)["screen"] == "library"


def test_saving_a_playlist_writes_an_m3u_that_files_lists():
    """Save playlist into Download: the file is in Files' storage and Retro logs the export; Music is the default."""
    phone = known_phone(playlists=[{"name": "Gym", "songs": ["Coastline", "Low Tide"]}])
    press(phone, text="Playlists", clickable=True)
    press(phone, text="Gym")
    press(phone, desc="Save playlist")
    assert find(phone.elements(), text="Music").checked
    press(phone, text="Download")
    press(phone, text="Save")
    assert retro(phone)["exported"] == [{"playlist": "Gym", "path": "Download/Gym.m3u"}]
    files = phone.state()["apps"][F.PACKAGE]["files"]
    assert any(f["path"] == "Download/Gym.m3u" and f["date"] == str(F.DATE) for f in files)


def test_back_closes_menus_then_pages():
    """BACK closes a song's menu, then the album, then leaves the app."""
    phone = known_phone()
    press(phone, text="Albums", clickable=True)
    press(phone, text="Second Wind")
    press(phone, desc="More options for Coastline")
    phone.key("back")
    assert retro(phone)["screen"] == "album"
    phone.key("back")
    assert retro(phone)["screen"] == "library" and retro(phone)["tab"] == "albums"
    phone.key("back")
    assert retro(phone)["screen"] is None


def test_the_library_is_seeded_per_episode():
    """A fresh phone holds 12-18 songs and 1-2 playlists of them; the same seed gives the same world."""
    def world(seed: int) -> tuple:
        s = make_phone(seed).state()["apps"][R.PACKAGE]
        return len(s["songs"]), [p["name"] for p in s["playlists"]], s["songs"][0]

    assert world(3) == world(3) and len({repr(world(s)) for s in range(6)}) == 6
    for seed in range(6):
        s = make_phone(seed).state()["apps"][R.PACKAGE]
        titles = {x["title"] for x in s["songs"]}
        assert 12 <= len(titles) <= 18 and 1 <= len(s["playlists"]) <= 2
        assert all(set(p["songs"]) <= titles for p in s["playlists"])
    assert len(retro_data.seeded_library(0)) == len(make_phone(0).state()["apps"][R.PACKAGE]["songs"])


def test_pixels_are_drawn_for_rows_the_player_and_dialogs():
    """A row's title, the mini player and the player's play button are drawn; the save dialog dims the page."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {R.PACKAGE: {"library_only": True, "songs": SONGS, "playlists": [{"name": "Gym", "songs": []}],
                                 "queue": ["Coastline"]}})
    device.phone.launch("Retro Music")

    def region(bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    assert region(find(device.ui_elements(), text="Coastline").bounds).std() > 20
    assert region(find(device.ui_elements(), rid=R.MINI_RID).bounds).std() > 20
    device.phone.tap(*find(device.ui_elements(), rid=R.MINI_RID).center)
    assert region(find(device.ui_elements(), desc="Play").bounds).std() > 20
    device.phone.key("back")
    for criteria in ({"text": "Playlists", "clickable": True}, {"text": "Gym"}, {"desc": "Save playlist"}):
        device.phone.tap(*find(device.ui_elements(), **criteria).center)
    assert region(find(device.ui_elements(), text="Download").bounds).std() > 20


@pytest.mark.parametrize(("initial", "field"), [
    ({"songs": [{"title": "X", "duration_ms": -1}]}, "duration_ms"),
    ({"songs": [{"title": " ", "duration_ms": 5}]}, "title"),
    ({"playlists": [{"name": "P", "songs": ["Not a song"]}]}, "playlists"),
    ({"queue": ["Not a song"]}, "queue"),
    ({"quue": []}, "queue"),
])
def test_a_bad_initial_condition_names_its_field(initial: dict, field: str):
    """Negative lengths, blank titles, unknown songs in a playlist or the queue, unknown keys: the field is named."""
    with pytest.raises(ConfigError, match=field):
        make_phone(initial={R.PACKAGE: initial})
