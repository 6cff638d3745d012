"""Forum tasks on the simulated web's Reddit-like site: see what is on it, and open today's top post.

AitW General asks "What's on Reddit this week", "Go to Reddit" and "What's the top post on reddit today?".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.web.forum import HOST, front_page
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, find, obstacle, swipe_up, tap, wait
from android_gym.tasks.web_expert import CHROME, browser, shop
from android_gym.ui import UIElement


class ForumTemplate(TaskTemplate):
    """Open the forum's front page ("front") or today's top post ("top_post").

    The forum has one front page and one top post, so the stage is the only parameter: "front" is train, "top_post"
    is test.
    """

    name, suite = "forum", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """The split's stage."""
        return [{"stage": "front" if split == "train" else "top_post"}]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return "What's on Reddit?" if params["stage"] == "front" else "What's the top post on Reddit today?"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Chrome shows the forum's loaded front page, or today's top post."""
        b = browser(state)
        if state.get("foreground") != CHROME or b["host"] != HOST or b["loading"] or b["menu_open"]:
            return False
        if params["stage"] == "front":
            return b["page"] == "home"
        post = b["post"]
        return b["page"] == "post" and post is not None and post["rank"] == 1

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Type reddit.com in the URL bar; for the top post, tap the first post of the front page (past a pop-up)."""
        b = browser(state)
        if state.get("foreground") != CHROME or b["host"] != HOST:
            return shop(HOST, None, "visit", elements, state)
        step = obstacle(elements, state)  # a sign-in pop-up over the front page swallows the tap on the post
        if step is not None:
            return step
        if params["stage"] == "front" or b["page"] == "post":
            post = b["post"]
            return wait() if params["stage"] == "front" or (post and post["rank"] == 1) else back()
        top = front_page()[0]
        card = find(elements, desc=f"Post: {top['title']}")
        return tap(card) if card is not None else swipe_up()
