"""Tests of the Settings, Clock, YouTube and Play Store apps of the simulated phone: screens, interactions, state."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, LAUNCHER, clock, playstore, settings, youtube
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

ROOT = Path(__file__).resolve().parents[3]


def make_phone(level: str = "none", seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone at perturbation `level` (no pop-ups, spinners or dropped taps by default)."""
    phone = SimPhone(PerturbationConfig.preset(level))
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria` (as `expert.find` takes them); fail if none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def finish_loading(phone: SimPhone) -> None:
    """Tick until the front screen's spinner is gone."""
    while phone.top.loading:
        phone.tick()


# -- catalogue ---------------------------------------------------------------------------------------------------------
def test_default_apps_include_new_apps_after_launcher() -> None:
    """The four apps are installed, after the launcher."""
    packages = [cls.package for cls in DEFAULT_APPS]
    assert packages[0] == LAUNCHER
    for pkg in (settings.PACKAGE, clock.PACKAGE, youtube.PACKAGE, playstore.PACKAGE):
        assert packages.index(pkg) > 0


@pytest.mark.parametrize("name, package", [("google play", playstore.PACKAGE), ("Play Store", playstore.PACKAGE),
                                           ("clock", clock.PACKAGE), ("YouTube", youtube.PACKAGE),
                                           ("settings", settings.PACKAGE)])
def test_find_app_resolves_label_when_alias_given(name: str, package: str) -> None:
    """Labels and aliases open the right app."""
    assert make_phone().find_app(name).package == package


def test_launcher_icons_open_apps_when_tapped() -> None:
    """Each app has a launcher favourite that opens it."""
    for label, package in (("Settings", settings.PACKAGE), ("Clock", clock.PACKAGE), ("YouTube", youtube.PACKAGE),
                           ("Play Store", playstore.PACKAGE)):
        phone = make_phone()
        assert press(phone, desc=label, clickable=True)
        assert phone.foreground == package


# -- Settings ----------------------------------------------------------------------------------------------------------
def test_settings_wifi_switch_toggles_system_when_path_followed() -> None:
    """Network & internet > Internet > Wi-Fi turns Wi-Fi off and back on."""
    phone = make_phone()
    phone.launch("Settings")
    press(phone, text="Network & internet")
    press(phone, text="Internet")
    assert phone.state()["apps"][settings.PACKAGE]["page"] == "internet"
    assert "HomeNet-5G" in labels(phone)
    press(phone, text="Wi-Fi")
    assert phone.system["wifi"] is False
    assert "To see available networks, turn Wi-Fi on" in labels(phone)
    assert find(phone.elements(), cls="android.widget.Switch").checked is False
    press(phone, text="Wi-Fi")
    assert phone.system["wifi"] is True


def test_settings_bluetooth_switch_reflects_system_when_preset() -> None:
    """Connected devices > Connection preferences > Bluetooth shows the preset state and toggles it."""
    phone = make_phone(initial={"system": {"bluetooth": True}})
    phone.launch("Settings")
    for row in ("Connected devices", "Connection preferences", "Bluetooth"):
        press(phone, text=row)
    switch = find(phone.elements(), cls="android.widget.Switch")
    assert switch.checked and switch.text == "ON"
    press(phone, text="Use Bluetooth")
    assert phone.system["bluetooth"] is False and phone.system["wifi"] is True


def test_settings_location_row_visible_when_scrolled() -> None:
    """Location sits below the first screenful of the main list and shows up after one swipe."""
    phone = make_phone()
    phone.launch("Settings")
    assert "Location" not in labels(phone)
    assert phone.swipe(540, 1700, 540, 860)
    press(phone, text="Location")
    press(phone, text="Use location")
    assert phone.system["location"] is False


def test_settings_search_opens_page_when_result_tapped() -> None:
    """Typing in the search page lists matching settings; a result opens its page."""
    phone = make_phone()
    phone.launch("Settings")
    press(phone, desc="Search settings")
    assert phone.keyboard_up
    phone.type_text("dark")
    assert "Display" in labels(phone)  # the breadcrumb of "Dark theme"
    press(phone, text="Dark theme")
    assert phone.state()["apps"][settings.PACKAGE]["page"] == "display"
    press(phone, text="Dark theme")
    assert phone.system["dark_theme"] is True


def test_settings_font_size_and_brightness_set_when_chosen() -> None:
    """The font size page picks a choice; the brightness slider sets the tapped tenth."""
    phone = make_phone()
    phone.launch("Settings")
    press(phone, text="Display")
    press(phone, text="Font size")
    press(phone, text="Large")
    assert phone.system["font_size"] == "Large"
    assert find(phone.elements(), text="Large").checked
    phone.key("back")
    press(phone, text="Brightness level")
    press(phone, desc="30%")
    assert phone.system["brightness"] == 30


def test_settings_placeholder_page_opens_when_row_not_modelled() -> None:
    """Rows the sim does not model still open a page titled like the row, and BACK returns."""
    phone = make_phone()
    phone.launch("Settings")
    press(phone, text="Apps")
    assert phone.state()["apps"][settings.PACKAGE]["page"] == settings.slug("Apps")
    assert find(phone.elements(), rid=f"{settings.PACKAGE}:id/title").text == "Apps"
    assert phone.key("back") and phone.state()["apps"][settings.PACKAGE]["page"] == "main"


# -- Clock -------------------------------------------------------------------------------------------------------------
def test_clock_picker_adds_alarm_when_time_chosen() -> None:
    """Add alarm, 7 on the dial, 30 minutes, PM, OK -> an enabled 19:30 alarm."""
    phone = make_phone()
    phone.launch("Clock")
    press(phone, desc="Add alarm")
    assert phone.top.name == "picker"
    press(phone, rid=clock.FACE_RID, text="7")
    assert phone.top.args["mode"] == "minute"  # choosing the hour moves on to minutes
    press(phone, rid=clock.FACE_RID, text="30")
    press(phone, text="PM")
    press(phone, text="OK")
    assert phone.state()["apps"][clock.PACKAGE]["alarms"] == [{"hour": 19, "minute": 30, "enabled": True,
                                                              "label": ""}]
    assert "7:30 PM" in labels(phone)


def test_clock_picker_keeps_alarms_when_cancelled() -> None:
    """Cancel leaves the alarm list as it was."""
    phone = make_phone()
    phone.launch("Clock")
    press(phone, desc="Add alarm")
    press(phone, rid=clock.FACE_RID, text="3")
    press(phone, text="Cancel")
    assert phone.top.name == "alarm" and phone.state()["apps"][clock.PACKAGE]["alarms"] == []


def test_clock_alarm_switch_and_delete_change_list_when_tapped() -> None:
    """Preset alarms are listed sorted; their switch toggles and their delete button removes them."""
    alarms = [{"hour": 18, "minute": 0, "enabled": False, "label": "Gym"}, {"hour": 6, "minute": 45}]
    phone = make_phone(initial={clock.PACKAGE: {"alarms": alarms}})
    phone.launch("Clock")
    state = phone.state()["apps"][clock.PACKAGE]["alarms"]
    assert [(a["hour"], a["enabled"]) for a in state] == [(6, True), (18, False)]
    press(phone, desc="6:45 AM alarm")
    assert phone.state()["apps"][clock.PACKAGE]["alarms"][0]["enabled"] is False
    press(phone, desc="Delete 6:00 PM alarm")
    assert [a["hour"] for a in phone.state()["apps"][clock.PACKAGE]["alarms"]] == [6]


def test_clock_apply_raises_when_alarm_malformed() -> None:
    """Unknown keys and out-of-range alarms are rejected at reset."""
    with pytest.raises(ConfigError):
        make_phone(initial={clock.PACKAGE: {"timers": []}})
    with pytest.raises(ConfigError):
        make_phone(initial={clock.PACKAGE: {"alarms": [{"hour": 24, "minute": 0}]}})


def test_clock_tabs_switch_when_tapped() -> None:
    """The tab bar switches tabs; the app reopens on the last tab used."""
    phone = make_phone()
    phone.launch("Clock")
    press(phone, text="Timer", clickable=True)
    press(phone, desc="5")
    press(phone, text="Start")
    clock_state = phone.state()["apps"][clock.PACKAGE]
    assert clock_state["tab"] == "Timer" and clock_state["timer"] == {"digits": "5", "running": True}
    press(phone, text="Stopwatch", clickable=True)
    press(phone, text="Start")
    assert phone.state()["apps"][clock.PACKAGE]["stopwatch"]["running"] is True
    phone.go_home()
    phone.launch("Clock")
    assert phone.top.name == "stopwatch"


# -- YouTube -----------------------------------------------------------------------------------------------------------
def search_youtube(phone: SimPhone, query: str) -> None:
    """Open YouTube, search `query` and wait for the results."""
    phone.launch("YouTube")
    press(phone, desc="Search", clickable=True)
    assert phone.keyboard_up
    phone.type_text(query)
    phone.key("enter")
    finish_loading(phone)


def test_youtube_results_contain_query_when_searched() -> None:
    """Search results are organic videos titled with the query (no ads without perturbations)."""
    phone = make_phone()
    search_youtube(phone, "Chess Openings")
    assert phone.state()["apps"][youtube.PACKAGE]["query"] == "chess openings"
    cards = [e for e in phone.elements() if e.rid == youtube.CARD_RID]
    assert cards and all("Chess Openings" in e.desc and "Sponsored" not in e.desc for e in cards)


def test_youtube_results_include_sponsored_when_perturbed() -> None:
    """With sponsored entries on, some queries get ads, which are labelled and seeded by the episode."""
    with_ads = [q for q in youtube.TOPICS if any(v["ad"] for v in youtube.videos(q, 7))]
    assert with_ads and len(with_ads) < len(youtube.TOPICS)
    phone = make_phone("default", seed=7)
    search_youtube(phone, with_ads[0])
    assert any(e.desc.startswith("Sponsored") for e in phone.elements() if e.rid == youtube.CARD_RID)


def test_youtube_video_plays_and_pauses_when_tapped() -> None:
    """Tapping a result opens the player (after any spinner); the button pauses and resumes; BACK stops it."""
    phone = make_phone()
    search_youtube(phone, "origami")
    first = next(e for e in phone.elements() if e.rid == youtube.CARD_RID)
    phone.tap(*first.center)
    finish_loading(phone)
    playing = phone.state()["apps"][youtube.PACKAGE]["playing"]
    first_video = youtube.videos("origami")[0]
    assert playing == {"title": first_video["title"], "query": "origami", "rank": 0, "ad": False, "paused": False,
                       "channel": first_video["channel"], "newest": False}
    press(phone, desc="Pause video")
    assert phone.state()["apps"][youtube.PACKAGE]["playing"]["paused"] is True
    press(phone, desc="Play video")
    phone.key("back")
    assert phone.state()["apps"][youtube.PACKAGE]["playing"] is None


def test_youtube_suggestion_searches_when_tapped() -> None:
    """Typing a prefix suggests topics; tapping one runs its search."""
    phone = make_phone()
    phone.launch("YouTube")
    press(phone, desc="Search", clickable=True)
    phone.type_text("sour")
    press(phone, text="sourdough bread")
    assert phone.state()["apps"][youtube.PACKAGE]["page"] == "results"


# -- Play Store --------------------------------------------------------------------------------------------------------
def test_playstore_catalogue_is_large_when_listed() -> None:
    """The catalogue holds 100+ distinct names and every search ranks an exact name first."""
    assert len(set(playstore.STORE_APPS)) >= 100
    for name in playstore.STORE_APPS[::17]:
        assert playstore.search(name)[0] == (name, False)


def test_playstore_install_completes_when_two_steps_pass() -> None:
    """Install shows Cancel while installing and the app is installed two agent steps after the tap."""
    name = playstore.STORE_APPS[3]
    phone = make_phone()
    phone.launch("Play Store")
    press(phone, rid=f"{playstore.PACKAGE}:id/search_bar")
    phone.type_text(name)
    phone.key("enter")
    finish_loading(phone)
    press(phone, desc=f"Install {name}")
    store = phone.state()["apps"][playstore.PACKAGE]
    assert store["installing"] == [name] and store["installed"] == []
    assert find(phone.elements(), desc=f"Cancel {name}") is not None
    phone.tick()
    assert phone.state()["apps"][playstore.PACKAGE]["installed"] == []
    phone.tick()
    store = phone.state()["apps"][playstore.PACKAGE]
    assert store["installed"] == [name] and store["installing"] == [] and store["page"] == "results"


def test_playstore_on_tick_reports_when_install_finishes() -> None:
    """`on_tick` is true exactly at the step an install completes (so the phone can redraw "Open")."""
    phone = make_phone()
    store = phone.apps[playstore.PACKAGE]
    phone.launch("Play Store")
    store.handle(("install", playstore.STORE_APPS[0]), phone.top)
    reports = []
    for _ in range(3):
        phone.tick()
        reports.append(store.on_tick())
    assert reports == [False, True, False]


def test_playstore_cancel_stops_install_when_tapped() -> None:
    """Cancel during an install leaves the app uninstalled."""
    name = playstore.STORE_APPS[10]
    phone = make_phone()
    phone.launch("Play Store")
    phone.apps[playstore.PACKAGE].handle(("open", name), phone.top)
    finish_loading(phone)
    press(phone, desc=f"Install {name}")
    press(phone, desc=f"Cancel {name}")
    phone.tick()
    phone.tick()
    assert phone.state()["apps"][playstore.PACKAGE]["installed"] == []


# -- determinism -------------------------------------------------------------------------------------------------------
def visit_all(seed: int) -> list[str]:
    """The XML of each app's busiest screen on a default-perturbed phone."""
    phone = make_phone("default", seed=seed)
    out = []
    phone.launch("Settings")
    out.append(phone.xml())
    search_youtube(phone, "black holes")
    out.append(phone.xml())
    phone.launch("Play Store")
    out.append(phone.xml())
    phone.apps[playstore.PACKAGE].handle(("query", "Budget"), phone.top)
    finish_loading(phone)
    out.append(phone.xml())
    phone.launch("Clock")
    out.append(phone.xml())
    return out


def test_xml_same_when_seed_same() -> None:
    """Same seed and inputs give the same screens; another seed changes seeded content."""
    assert visit_all(5) == visit_all(5)
    assert visit_all(5) != visit_all(6)


def test_xml_same_when_process_hash_seed_differs() -> None:
    """Seeded content does not depend on Python's per-process string hashing."""
    code = ("import hashlib, sys; sys.path.insert(0, 'tests/android_gym/sim'); from test_apps import visit_all; "
            "print(hashlib.sha256(''.join(visit_all(5)).encode()).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": hs}).stdout.strip() for hs in ("1", "2")}
    assert digests == {hashlib.sha256("".join(visit_all(5)).encode()).hexdigest()}


# -- apps the goal parser's families use -------------------------------------------------------------------------------
def test_playstore_initial_installs_and_bad_names() -> None:
    """{"installed": [...]} installs before step 0; an unknown app or key is a ConfigError naming it."""
    phone = make_phone(initial={playstore.PACKAGE: {"installed": ["Spotify"]}})
    assert phone.state()["apps"][playstore.PACKAGE]["installed"] == ["Spotify"]
    with pytest.raises(ConfigError, match="Teleporter"):
        make_phone(initial={playstore.PACKAGE: {"installed": ["Teleporter"]}})
    with pytest.raises(ConfigError, match="queue"):
        make_phone(initial={playstore.PACKAGE: {"queue": []}})


def test_settings_lists_apps_and_flips_an_apps_notifications() -> None:
    """Apps > See all apps > an app > Notifications: the switch flips only that app's notifications."""
    phone = make_phone(initial={playstore.PACKAGE: {"installed": ["Netflix"]}})
    phone.launch("Settings")
    for text in ("Apps", "See all apps"):
        press(phone, text=text)
    assert "Netflix" in phone.apps[settings.PACKAGE].app_labels()
    assert "Netflix" not in make_phone().apps[settings.PACKAGE].app_labels()  # only once installed
    press(phone, text="Camera")
    assert phone.state()["apps"][settings.PACKAGE]["app"] == "Camera"
    press(phone, text="Notifications")
    press(phone, rid=f"{settings.PACKAGE}:id/switch_widget")
    assert phone.state()["apps"][settings.PACKAGE]["notifications_off"] == ["Camera"]
    with pytest.raises(ConfigError, match="volume"):
        make_phone(initial={settings.PACKAGE: {"volume": 3}})


def test_chrome_menu_opens_tabs_and_back_closes_the_menu() -> None:
    """More options shows the menu over the page; BACK closes it; New incognito tab opens tab 1, incognito."""
    phone = make_phone()
    phone.launch("Chrome")
    chrome = "com.android.chrome"
    press(phone, desc="More options")
    assert phone.state()["apps"][chrome]["menu_open"] and "New incognito tab" in labels(phone)
    phone.key("back")
    assert not phone.state()["apps"][chrome]["menu_open"] and phone.state()["apps"][chrome]["tab"] == 0
    press(phone, desc="More options")
    press(phone, text="New incognito tab")
    state = phone.state()["apps"][chrome]
    assert (state["tab"], state["incognito"], state["tabs_opened"], state["page"]) == (1, True, 1, "search_home")
    assert find(phone.elements(), desc="Incognito tab") is not None


def test_youtube_channel_search_lists_its_uploads_newest_first() -> None:
    """A channel's name lists that channel's videos, the first one its newest; other queries have no newest."""
    uploads = youtube.videos("The Washington Post")
    assert {v["channel"] for v in uploads} == {"The Washington Post"}
    assert [v["newest"] for v in uploads][:2] == [True, False]
    assert "newest" not in youtube.videos("origami")[0]
    assert youtube.channel_of("the BBC") == "BBC" and youtube.channel_of("bbc videos") is None


@pytest.mark.parametrize(("expression", "shown"), [
    ("2+3×4", "14"), ("(2+3)×4", "20"), ("7÷2", "3.5"), ("10−2−3", "5"), ("8÷2÷2", "2"), ("1÷0", "Error"),
    ("2+", "Error"), ("(2", "Error"), ("2)", "Error"), ("×3", "Error"), ("", "Error"), ("0.1+0.2", "0.3"),
    ("__import__('os')", "Error"), ("9" * 40 + "×" + "9" * 40, "1e+80"),
])
def test_calculator_evaluates_with_precedence_and_never_runs_text(expression: str, shown: str) -> None:
    """The keypad's arithmetic follows precedence and parentheses; anything else is "Error", never code."""
    from android_gym.sim.apps.calculator import evaluate

    assert evaluate(expression) == shown


def test_calculator_keypad_builds_and_evaluates_an_expression() -> None:
    """Tapping 1 2 + 3 = shows 15; C clears."""
    from android_gym.sim.apps import calculator

    phone = make_phone()
    phone.launch("Calculator")
    for key in ("1", "2", "+", "3", "="):
        press(phone, text=key)
    state = phone.state()["apps"][calculator.PACKAGE]
    assert (state["expression"], state["result"]) == ("12+3", "15")
    press(phone, desc="clear")
    state = phone.state()["apps"][calculator.PACKAGE]
    assert (state["expression"], state["result"]) == ("", None)


def test_calendar_views_show_this_weeks_and_todays_events() -> None:
    """The week view lists the events from today to Sunday; the day view today's; the episode seed draws them."""
    from android_gym.sim.apps import calendar

    phone = make_phone(seed=3)
    phone.launch("Calendar")
    press(phone, desc="Week view")
    assert phone.state()["apps"][calendar.PACKAGE]["view"] == "week"
    week = [e for e in calendar.events(3) if calendar.in_view(e, "week")]
    assert len(week) >= 2 and all(any(e["title"] in label for label in labels(phone)) for e in week)
    assert calendar.events(3) != calendar.events(4)


def test_music_plays_a_song_and_files_opens_a_category() -> None:
    """YT Music: tapping a song plays it, Pause stops it; Files: a category lists that episode's files."""
    from android_gym.sim.apps import files, music

    phone = make_phone(seed=5)
    phone.launch("YT Music")
    song = music.library(5)[0]
    press(phone, desc=f"Play {song['title']}")
    assert phone.state()["apps"][music.PACKAGE]["playing"] == song["title"]
    press(phone, desc="Pause")
    assert phone.state()["apps"][music.PACKAGE]["playing"] is None
    phone.launch("Files")
    press(phone, desc="Downloads")
    state = phone.state()["apps"][files.PACKAGE]
    assert (state["page"], state["category"]) == ("category", "Downloads")
    assert [f["name"] for f in files.files_in("Downloads", 5)][0] in " ".join(labels(phone))
