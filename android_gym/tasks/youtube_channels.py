"""YouTube channel tasks: play (or look up) the latest video from {channel}; subscribe to {channel}.

AitW General asks "What's the latest video from GameSpot?" and "Play the latest video from the BBC".

Success: the player, loaded in front, plays the channel's newest upload (not an advert), unpaused. Subscribing
(everyday goals, issue 49: "Subscribe to the channel Veritasium on YouTube") succeeds when the channel is the one
subscription the episode made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import youtube
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, find, swipe_up, tap, type_into, wait
from android_gym.ui import UIElement


class LatestVideoTemplate(TaskTemplate):
    """Play the latest video from {channel}."""

    name, suite = "youtube_latest", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every known channel of the split."""
        return [{"channel": c} for c in youtube.SUITE_CHANNELS.values() if split_of(c) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Play the latest video from {params['channel']}"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """The channel's newest upload plays."""
        playing = state_of(state, youtube.YouTubeState)["playing"]
        return bool(playing and not playing["ad"] and not playing["paused"] and playing["newest"]
                    and playing["channel"] == params["channel"])

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Search the channel's name, tap its first (newest) upload, resume it if paused."""
        step = into_app("YouTube", youtube.PACKAGE, elements, state)
        if step is not None:
            return step
        channel, page = params["channel"], state["screen"]["name"]
        if page == "search":
            return type_into(elements, state, youtube.SEARCH_RID, channel)
        if page == "results" and youtube.channel_of(state["screen"]["args"]["query"]) == channel:
            card = next((e for e in elements if e.rid == youtube.CARD_RID and "Sponsored" not in e.desc
                         and f"- {channel} -" in e.desc), None)
            return tap(card) if card is not None else swipe_up()
        playing = state_of(state, youtube.YouTubeState)["playing"]
        if page == "player" and playing and playing["newest"] and playing["channel"] == channel:
            button = find(elements, rid=youtube.PLAY_PAUSE_RID)
            return tap(button) if button is not None else wait()
        if page in ("results", "player"):
            return back()
        search = find(elements, desc="Search", clickable=True)
        return tap(search) if search is not None else back()


class SubscribeTemplate(TaskTemplate):
    """Subscribe to {channel} on YouTube: the episode's subscriptions are exactly that channel (none at the start)."""

    name, suite, max_steps = "youtube_subscribe", "general", 16
    apps = (youtube.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every known channel of the split."""
        return [{"channel": c} for c in youtube.CHANNELS.values() if split_of(c) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Subscribe to {params['channel']} on YouTube"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Subscribed to the channel, and to no other."""
        return state_of(state, youtube.YouTubeState)["subscriptions"] == [params["channel"]]

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Search the channel's name, open one of its uploads, tap Subscribe under the player."""
        channel = params["channel"]
        step = into_app("YouTube", youtube.PACKAGE, elements, state)
        if step is not None:
            return step
        page = state["screen"]["name"]
        playing = state_of(state, youtube.YouTubeState)["playing"]
        if page == "player" and playing and playing["channel"] == channel:
            button = find(elements, desc=f"Subscribe to {channel}")
            return tap(button) if button is not None else wait()
        if page == "search":
            return type_into(elements, state, youtube.SEARCH_RID, channel)
        if page == "results" and youtube.channel_of(state["screen"]["args"]["query"]) == channel:
            card = next((e for e in elements if e.rid == youtube.CARD_RID and "Sponsored" not in e.desc
                         and f"- {channel} -" in e.desc), None)
            return tap(card) if card is not None else swipe_up()
        if page in ("results", "player"):
            return back()
        search = find(elements, desc="Search", clickable=True)
        return tap(search) if search is not None else back()
