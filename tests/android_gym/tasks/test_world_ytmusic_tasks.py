"""Tests of the World suite's YT Music templates beyond the contract: each loses to its near miss (the twin playlist
answered or changed, another recording liked or added, a wrong song in a new playlist, the namesake's song), answers
accept a figure with or without its unit, and the checks refuse extra changes; the app's playlists behave."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import markor, music
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import ytmusic_tasks as T
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing

ARTIST, COUNT, LENGTH, ADD, REMOVE, LIKE, CREATE, NOTE, FROM_TEXT = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def twin(p: dict) -> str:
    """The twin playlist."""
    return p["twin"]


def live(key: str) -> Any:
    """Parameter `key`'s song as its live recording (another song of the catalogue)."""
    return lambda p: p[key] + " (Live)"


def another(key: str) -> Any:
    """Another catalogue song than parameter `key`'s, none of the task's."""
    return lambda p: next(t for t in T.CATALOGUE if t not in {p.get("first"), p.get("second"), p.get("third")})


@pytest.mark.parametrize(("template", "near_misses"), [
    (ARTIST, [playing(ARTIST, playlist=twin)]),
    (COUNT, [playing(COUNT, playlist=twin)]),
    (LENGTH, [playing(LENGTH, playlist=twin)]),
    (ADD, [playing(ADD, playlist=twin), playing(ADD, new=live("new"))]),
    (REMOVE, [playing(REMOVE, playlist=twin)]),
    (LIKE, [playing(LIKE, title=live("title"))]),
    (CREATE, [playing(CREATE, second=another("second")), playing(CREATE, name=lambda p: p["name"] + "s")]),
    (NOTE, [playing(NOTE, third=another("third"))]),
    (FROM_TEXT, [playing(FROM_TEXT, new=lambda p: p["other_song"])]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_expert_wins_an_answer_and_an_edit() -> None:
    for template in (ARTIST, REMOVE):
        assert run_episode(template.tasks("test")[0], seed=5, device=device()).success


def test_answers_accept_units_and_refuse_other_figures() -> None:
    p = COUNT.values("train")[0]
    assert COUNT.answer_matches(p, "5 songs", "5") and COUNT.answer_matches(p, "5 tracks", "5")
    assert not COUNT.answer_matches(p, "6", "5")
    assert LENGTH.answer_matches(p, "3:05 minutes", "3:05") and not LENGTH.answer_matches(p, "3:50", "3:05")
    assert ARTIST.answer_matches(p, "mira vale", "Mira Vale") and not ARTIST.answer_matches(p, "Mira", "Mira Vale")


def ytm(**fields: Any) -> dict[str, Any]:
    """A device state whose YT Music reports `fields` (nothing else done), Markor and Messages untouched."""
    base = {"page": None, "playing": None, "song": None, "paused": False, "library": [], "queue": [], "query": None,
            "played": [], "liked": [], "playlists": [], "edits": []}
    return {"apps": {music.PACKAGE: {**base, **fields}, markor.PACKAGE: {"edits": []}, M.PACKAGE: {"sent": []}}}


def songs(*titles: str) -> list[dict[str, str]]:
    """Playlist songs of these titles."""
    return [{"title": t, "artist": "A", "length": "3:00"} for t in titles]


def test_the_checks_refuse_extra_changes() -> None:
    p = CREATE.values("test")[0]
    name, a, b = p["name"], p["first"], p["second"]
    made = [{"op": "create", "playlist": name, "song": None}, {"op": "add", "playlist": name, "song": a},
            {"op": "add", "playlist": name, "song": b}]
    mine = {"name": name, "songs": songs(b, a)}
    assert CREATE.check(p, ytm(playlists=[mine], edits=made))
    assert not CREATE.check(p, ytm(playlists=[{"name": name, "songs": songs(a, b, a + " (Live)")}], edits=made))
    assert not CREATE.check(p, ytm(playlists=[mine], edits=made, liked=[a]))
    assert not CREATE.check(p, ytm(playlists=[mine], edits=[*made, {"op": "create", "playlist": "x", "song": None}]))
    q = ADD.values("test")[0]
    added = {"op": "add", "playlist": q["playlist"], "song": q["new"]}
    full = [{"name": q["playlist"], "songs": [*q["songs"], *songs(q["new"])]}]
    assert ADD.check(q, ytm(playlists=full, edits=[added]))
    assert not ADD.check(q, ytm(playlists=full, edits=[added, {**added, "op": "remove"}]))
    assert LIKE.check({"title": "Tides"}, ytm(liked=["Tides"]))
    assert not LIKE.check({"title": "Tides"}, ytm(liked=["Tides", "Paper Moon"]))
    assert ARTIST.answer(q, ytm(playlists=full, edits=[added])) is None  # an answer after a change is none


def test_a_song_saved_to_a_new_playlist_and_removed_is_logged() -> None:
    phone = device().phone
    phone.reset(0, {music.PACKAGE: {"playlists": [{"name": "Mix", "songs": songs("Tides")}]}})
    phone.launch("YT Music")

    def press(**criteria: Any) -> None:
        element = next(e for e in phone.elements() if all(getattr(e, k) == v for k, v in criteria.items()))
        phone.tap(*element.center)

    press(desc="Playlists")
    press(rid=music.PLAYLIST_RID, text="Mix")
    press(desc="Play Tides")
    press(desc="Like")
    press(desc="Save to playlist")
    press(text="New playlist")
    phone.type_text("Fresh")
    press(text="Create")
    state = phone.state()["apps"][music.PACKAGE]
    assert state["page"] == "player" and state["liked"] == ["Tides"]
    assert [p["name"] for p in state["playlists"]] == ["Mix", "Fresh"]
    phone.key("back")
    press(desc="Remove Tides from Mix")
    state = phone.state()["apps"][music.PACKAGE]
    assert state["playlists"][0]["songs"] == [] and state["edits"] == [
        {"op": "create", "playlist": "Fresh", "song": None}, {"op": "add", "playlist": "Fresh", "song": "Tides"},
        {"op": "remove", "playlist": "Mix", "song": "Tides"}]
