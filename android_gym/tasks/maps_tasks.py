"""Maps tasks: search for places on Maps (AitW General's "Search for top rated sushi restaurants on Maps").

Success: Maps in front on the loaded result list of a search whose words include every word of the terms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import maps
from android_gym.sim.web.places import WORLD_CUISINES
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import app_state, back, find, tap, type_into
from android_gym.ui import UIElement

KINDS = (*(f"{c} restaurants" for c in WORLD_CUISINES), "coffee shops", "gas stations", "grocery stores",
         "pharmacies", "parks", "hotels", "museums", "gyms", "bakeries", "bookstores")
"""What the template's own instances search for."""


class MapsSearchTemplate(TaskTemplate):
    """Search for {terms} on Maps."""

    name, suite = "maps_search", "general"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every kind of place of the split."""
        return [{"terms": k} for k in KINDS if split_of(k) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Search for {params['terms']} on Maps"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Maps shows the loaded results of a search holding every word of the terms."""
        m = app_state(state, maps.PACKAGE)
        query = m.get("query") or ""
        return (state.get("foreground") == maps.PACKAGE and m.get("page") == "results" and not m.get("loading")
                and set(params["terms"].split()) <= set(query.split()))

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Open Maps, tap the search bar, type the terms, ENTER."""
        step = into_app("Maps", maps.PACKAGE, elements, state)
        if step is not None:
            return step
        page = state["screen"]["name"]
        if page == "search":
            return type_into(elements, state, maps.SEARCH_RID, params["terms"])
        if page == "home":
            bar = find(elements, rid=f"{maps.PACKAGE}:id/search_omnibox")
            return tap(bar) if bar is not None else back()
        return back()
