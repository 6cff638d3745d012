"""Maps tasks: search for places on Maps (AitW General's "Search for top rated sushi restaurants on Maps"); show
directions to a street address (everyday goals, issue 49: "Show me directions to 1600 Amphitheatre Parkway").

Success: Maps in front on the loaded result list of a search whose words include every word of the terms; for
directions, Maps in front on the loaded directions page to that address.
"""  # noqa: D205

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import maps
from android_gym.sim.web.places import WORLD_CUISINES, title
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import back, find, tap, type_into, wait
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
        m = state_of(state, maps.MapsState)
        query = m["query"] or ""
        return (state.get("foreground") == maps.PACKAGE and m["page"] == "results" and not m["loading"]
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


ADDRESSES = ("1600 Amphitheatre Parkway", "1 Infinite Loop Drive", "350 Fifth Avenue", "221 Baker Street",
             "500 Market Street", "2100 Mission Street")
"""Street addresses the directions template's own instances ask for (Maps finds any address)."""


class DirectionsToAddressTemplate(TaskTemplate):
    """Show me directions to {address}: Maps' directions page to that street address, loaded, in front."""

    name, suite, max_steps = "maps_directions_address", "general", 18
    apps = (maps.PACKAGE,)

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every address of the split."""
        return [{"address": a} for a in ADDRESSES if split_of(f"maps:{a}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Show me directions to {params['address']}"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Maps shows the loaded directions to the address (any travel mode)."""
        m = state_of(state, maps.MapsState)
        return (state.get("foreground") == maps.PACKAGE and m["page"] == "directions" and not m["loading"]
                and (m["address"] or "").casefold() == params["address"].casefold())

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Search the address, open the address it finds, Directions."""
        step = into_app("Maps", maps.PACKAGE, elements, state)
        if step is not None:
            return step
        address = params["address"]
        m = state_of(state, maps.MapsState)
        screen = state["screen"]
        if m["page"] in ("place", "directions") and (m["address"] or "").casefold() == address.casefold():
            button = find(elements, text="Directions")
            return tap(button) if m["page"] == "place" and button is not None else wait()
        if screen["name"] == "results" and screen["args"]["query"] == " ".join(address.lower().split()):
            row = find(elements, rid=maps.PLACE_RID, desc=f"{title(address)} - address")
            return tap(row) if row is not None else back()
        if screen["name"] == "search":
            return type_into(elements, state, maps.SEARCH_RID, address)
        if screen["name"] == "home":
            bar = find(elements, rid=f"{maps.PACKAGE}:id/search_omnibox")
            return tap(bar) if bar is not None else back()
        return back()
