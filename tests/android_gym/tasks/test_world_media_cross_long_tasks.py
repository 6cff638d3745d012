"""Tests of the long World templates on YouTube, the Play Store and YT Music beyond the contract: the expert wins,
and near misses lose: one item wrong or left out, one item too many, a figure off the twin, the wrong order, the
twin playlist, the namesake's song."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import playstore, youtube
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import media_cross_long_tasks as T
from android_gym.tasks.world.media_apps_expert import store_twin
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing

BY_NAME = {t.name: t for t in T.TEMPLATES}
NearMiss = Callable[[Task], Any]


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def as_(template: TaskTemplate) -> NearMiss:
    """A near miss: `template`'s expert (a subclass of the tested template that does something else)."""
    def make(task: Task) -> Any:
        return Task(template, task.params, task.split).expert_action
    make.__name__ = type(template).__name__
    return make


# -- near misses: subclasses whose expert does something slightly off ------------------------------------------------
class InstallsAll(T.InstallTwoWishlistOneTemplate):
    """Installs the third app too."""

    def expert(self, params: Any, elements: Any, state: Any) -> Any:
        """Install the third first."""
        s = T.store_state(state)
        third = params["third"]
        if third not in s["installed"] + s["installing"]:
            return T.listing(third, elements, state) or T.press(elements, desc=f"Install {third}")
        return super().expert(params, elements, state)


class UpdatesTwin(T.UpdateTwoUninstallOneTemplate):
    """Updates the first app's twin too."""

    def expert(self, params: Any, elements: Any, state: Any) -> Any:
        """Update the twin first."""
        twin = params["twin"]
        if twin in T.store_state(state)["updates"]:
            return T.listing(twin, elements, state) or T.press(elements, desc=f"Update {twin}")
        return super().expert(params, elements, state)


class TwinRating(T.RatingsToNoteTemplate):
    """Writes the second app's twin's rating beside the second app's name."""

    def text(self, params: Any) -> str:
        """The lines, the second off its twin."""
        rating = playstore.app_info(store_twin(params["second"]))["rating"]
        return super().text(params).replace(f"{params['second']}: {playstore.app_info(params['second'])['rating']}",
                                            f"{params['second']}: {rating}")


class TwoRatings(T.RatingsToNoteTemplate):
    """Leaves the third app out."""

    def text(self, params: Any) -> str:
        """The first two lines."""
        return "\n".join(super().text(params).splitlines()[:2])


class SavesThree(T.SaveFourLikeOneTemplate):
    """Saves three of the four videos (the second among them)."""

    def titles(self, params: Any) -> list[str]:
        """The titles but one other than the second."""
        titles = super().titles(params)
        titles.remove(next(t for t in titles if t != params["second"]))
        return titles


class LikesFirst(T.SaveFourLikeOneTemplate):
    """Likes the first video as well as the second."""

    def expert(self, params: Any, elements: Any, state: Any) -> Any:
        """Like the first once on its page."""
        y = T.yt_state(state)
        if params["first"] not in y["liked"]:
            return T.to_video(params["topic"], params["first"], elements, state) or T.press(elements, desc="Like")
        return super().expert(params, elements, state)


class TwinLength(T.LengthsToNoteTemplate):
    """Writes the second video's length off another video of its topic."""

    def text(self, params: Any) -> str:
        """The lines, the second length another video's."""
        second = self.videos(params)[1]
        other = next(v for v in youtube.videos(params["other"]) if v["duration"] != second["duration"])
        return super().text(params).replace(second["duration"], other["duration"])


class OneLength(T.LengthsToNoteTemplate):
    """Notes the first video only."""

    def text(self, params: Any) -> str:
        """The first line."""
        return super().text(params).splitlines()[0]


class Reversed(T.FourSongPlaylistTemplate):
    """Adds the four songs last to first."""

    def songs(self, params: Any) -> list[str]:
        """The songs, reversed."""
        return super().songs(params)[::-1]


class ThreeSongs(T.FourSongPlaylistTemplate):
    """Adds the first three songs only."""

    def songs(self, params: Any) -> list[str]:
        """The first three."""
        return super().songs(params)[:3]


class AddsOnly(T.SwapSongsTemplate):
    """Adds the two songs but removes nothing."""

    def expert(self, params: Any, elements: Any, state: Any) -> Any:
        """Save the songs missing from the playlist."""
        added = {e["song"] for e in T.music_state(state)["edits"]}
        todo = [t for t in (params["new"], params["extra"]) if t not in added]
        return T.save_song(todo[0], params["playlist"], elements, state) if todo else T.wait()


class RemovesFromTwin(T.SwapSongsTemplate):
    """Removes the song from the twin playlist (which holds it too), adds to the right one."""

    def expert(self, params: Any, elements: Any, state: Any) -> Any:
        """Remove from the twin, then add."""
        if not T.music_state(state)["edits"]:
            step = T.to_playlist(params["twin"], elements, state)
            return step or T.press(elements, desc=f"Remove {params['song']} from {params['twin']}")
        return super().expert(params, elements, state)


NEAR_MISSES: dict[str, list[NearMiss]] = {
    "playstore_install_two_wishlist_one": [
        as_(InstallsAll()), playing(BY_NAME["playstore_install_two_wishlist_one"],
                                    second=lambda p: store_twin(p["second"]))],
    "playstore_update_two_uninstall_one": [
        as_(UpdatesTwin()), playing(BY_NAME["playstore_update_two_uninstall_one"], third=lambda p: p["twin"])],
    "playstore_ratings_to_note": [as_(TwinRating()), as_(TwoRatings())],
    "youtube_save_four_like_one": [as_(SavesThree()), as_(LikesFirst())],
    "youtube_lengths_to_note": [as_(TwinLength()), as_(OneLength())],
    "ytmusic_four_song_playlist": [as_(Reversed()), as_(ThreeSongs())],
    "ytmusic_swap_songs": [as_(AddsOnly()), as_(RemovesFromTwin())],
    "ytmusic_texted_songs_to_playlist": [
        playing(BY_NAME["ytmusic_texted_songs_to_playlist"], third=lambda p: p["other_song"]),
        playing(BY_NAME["ytmusic_texted_songs_to_playlist"], name=lambda p: f"{p['name']} 2")],
}


@pytest.mark.parametrize("template", T.TEMPLATES, ids=lambda t: t.name)
def test_the_expert_wins_a_long_hard_task(template: TaskTemplate) -> None:
    """On a test task the expert wins in 16 steps or more; the template is of the hard tier."""
    task = template.tasks("test")[0]
    episode = run_episode(task, seed=3, device=device())
    assert episode.success and episode.steps >= 16 and template.tier == "hard", (task, episode.steps)


@pytest.mark.parametrize("template", T.TEMPLATES, ids=lambda t: t.name)
def test_near_misses_lose(template: TaskTemplate) -> None:
    """One item wrong, missing or too many, a figure off the twin, the wrong order or playlist: each loses."""
    checks.check_near_misses(template, device(), NEAR_MISSES[template.name])


def test_a_note_line_may_write_a_figure_the_ways_a_person_does() -> None:
    """"4.6 stars", "4.6/5", "4.6 out of 5" count; another figure on the line, or none, does not."""
    assert T.line_says("Blue Notes - 4.6 stars", "Blue Notes", "4.6")
    assert T.line_says("blue notes: 4.6 out of 5", "Blue Notes", "4.6")
    assert T.line_says("Knitting in 10 Minutes: 38:58", "Knitting in 10 Minutes", "38:58")
    assert not T.line_says("Knitting in 10 Minutes", "Knitting in 10 Minutes", "38:58")
    assert not T.line_says("Blue Notes 4.6, Red Notes 4.1", "Blue Notes", "4.6")
