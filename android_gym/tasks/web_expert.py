"""Expert solvers for the web tasks: search the web from the home screen, and shop on a given site.

They read only the UI elements and the device state (the browser's `BrowserState` under "apps"), plus the simulated
web's public content (`catalog.organic` tells which title is the first organic result), and they get past pop-ups,
spinners, sponsored entries and every shop layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps.browser import URL_BAR, BrowserState
from android_gym.sim.apps.launcher import PACKAGE as LAUNCHER
from android_gym.sim.layout import EDIT_TEXT
from android_gym.sim.web import catalog
from android_gym.sim.web.search import QUERY_BOX
from android_gym.sim.web.site import PACKAGE as CHROME
from android_gym.tasks.expert import back, find, home, obstacle, swipe_up, tap, type_into, wait
from android_gym.ui import UIElement

MIN_VISIBLE_PX = 40
"""A result whose visible part is shorter than this is scrolled into view before it is tapped."""
LAUNCHER_SEARCH = f"{LAUNCHER}:id/search_container_hotseat"


def browser(state: Mapping[str, Any]) -> BrowserState:
    """The browser's part of the device state (`BrowserState`); its page keys are None when Chrome is not in front.

    Raises:
        AppStateMissingError: the device reports no app state (a real phone).
    """
    return state_of(state, BrowserState)


def swipe_down() -> Action:
    """Scroll a list back up (finger moves down the middle of the screen)."""
    return Action.swipe(0.5, 0.35, 0.5, 0.7)


def open_chrome(elements: Sequence[UIElement], state: Mapping[str, Any], via_search_bar: bool = False) -> Action:
    """From wherever the phone is, one step towards Chrome (the launcher's search bar when `via_search_bar`)."""
    screen = state["screen"]
    if state["foreground"] == LAUNCHER and screen["name"] == "home":
        target = find(elements, rid=LAUNCHER_SEARCH) if via_search_bar else find(elements, text="Chrome")
        if target is not None:
            return tap(target)
    return home()


def search_web(query: str, elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
    """Search for `query`: launcher search bar (or Chrome's URL bar when already in Chrome), type, ENTER."""
    act = obstacle(elements, state)
    if act is not None:
        return act
    if state["foreground"] != CHROME:
        return open_chrome(elements, state, via_search_bar=True)
    b = browser(state)
    if b["page"] == "search_home" and find(elements, rid=QUERY_BOX) is not None:
        return type_into(elements, state, QUERY_BOX, query)
    return type_into(elements, state, URL_BAR, query)


def shop(site: str, query: str | None, stage: str, elements: Sequence[UIElement],
         state: Mapping[str, Any]) -> Action:
    """One step of: go to `site`, search it for `query`, open the first organic result, add it to the cart.

    Args:
        site: the shop's host, e.g. "amazon.com".
        query: the search terms (None for stage "visit").
        stage: how far to go: "visit", "search", "select" or "cart".
        elements: the screen's UI elements.
        state: the device state.
    """
    act = obstacle(elements, state)
    if act is not None:
        return act
    if state["foreground"] != CHROME:
        return open_chrome(elements, state)
    b = browser(state)
    if b["host"] != site:
        return type_into(elements, state, URL_BAR, site)
    if stage == "visit" or query is None:
        return wait()
    q = catalog.normalize(query)
    first = catalog.organic(site, q)[0]
    product = b["product"]
    if b["page"] == "product" and product and product["pid"] == first.pid:
        return _add_to_cart(elements, state) if stage == "cart" else wait()
    if b["page"] == "results" and b["query"] == q and stage in ("select", "cart"):
        return _pick_first(site, q, elements, state)
    if b["page"] == "results" and b["query"] == q:
        return wait()
    return _search_site(site, q, elements, state)


def _search_site(site: str, q: str, elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
    field = next((e for e in elements if e.cls == EDIT_TEXT and e.package == CHROME and e.rid != URL_BAR), None)
    if field is not None:
        return type_into(elements, state, field.rid, q)
    if state["screen"]["scroll"] > 0:  # the site's search box scrolled away with the page
        return swipe_down()
    return type_into(elements, state, URL_BAR, site)


def _pick_first(site: str, q: str, elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
    if state["keyboard"]:  # the keyboard covers the lower results; close it first
        return back()
    ranks = {p.title: p.rank for p in catalog.organic(site, q)}
    shown = [e for e in elements if e.text in ranks and e.bounds[3] - e.bounds[1] >= MIN_VISIBLE_PX]
    target = next((e for e in shown if ranks[e.text] == 1), None)
    if target is not None:
        return tap(target)
    if shown and min(ranks[e.text] for e in shown) > 1:  # scrolled past the first result
        return swipe_down()
    return swipe_up()


def _add_to_cart(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
    if state["keyboard"]:
        return back()
    button = find(elements, contains="add to cart", clickable=True)
    return tap(button) if button is not None else swipe_up()
