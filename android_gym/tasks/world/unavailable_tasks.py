"""Goals for a service no app on the simulated phone offers (issue 49: "Order me a pizza", "Book a flight to London
for next week"): the right outcome is to declare them impossible.

The phone has no food-delivery or travel-booking app, and its web (`sim.web`) lists flights and restaurants but
takes no orders or bookings. As in `infeasible_tasks`, the declaration counts only while the state confirms the
service is absent (no app of the service is installed, none was installed from the Play Store during the episode)
and while the agent is looking where the service would be: Chrome showing the search engine's loaded result page for
a search of what the goal asks (its words, e.g. "pizza"; "flights" and "london"), or the Play Store's results for an
app of the service (a search holding what the goal asks or a word of the service, e.g. "delivery"), so that declaring
blind is a guess and earns nothing. Experts search the web for it, see results but no way to order, and declare.

These templates are what the goal parser maps such lines onto; they are not part of a built-in suite.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import playstore
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import obstacle
from android_gym.tasks.web_expert import CHROME, browser, search_web
from android_gym.tasks.world.base import Params, State
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.ui import UIElement


@dataclass(frozen=True)
class Service:
    """A service the phone lacks: the apps that would offer it and how a goal for it is searched.

    Attributes:
        name: what the service is ("food delivery").
        apps: the apps that would offer it, by their store names (none is on the phone or in its Play Store).
        search: the web search its expert makes, formatted with the goal's `what` ("{what} delivery").
        words: the words that search must hold beyond `what`'s, any one of each group ("flights" for a flight).
        store_words: words of a Play Store search for an app of the service ("delivery", "flights").
    """

    name: str
    apps: tuple[str, ...]
    search: str
    words: tuple[tuple[str, ...], ...]
    store_words: tuple[str, ...]


SERVICES: dict[str, Service] = {
    "food delivery": Service("food delivery", ("DoorDash", "Uber Eats", "Grubhub", "Domino's", "Pizza Hut"),
                             "{what} delivery", (), ("delivery", "food", "takeout", "order")),
    "flight booking": Service("flight booking", ("Expedia", "Booking.com", "Kayak", "Skyscanner", "Google Flights"),
                              "flights to {what}", (("flight", "flights"),),
                              ("flight", "flights", "travel", "airline")),
}
"""The services the phone lacks, by name."""
FOODS = ("pizza", "sushi", "burgers", "tacos", "thai food", "chinese food", "indian food", "a burrito", "fried chicken",
         "noodles", "a salad", "ramen")
"""What the food-delivery template's own instances order."""
DESTINATIONS = ("london", "paris", "tokyo", "new york", "rome", "sydney", "berlin", "madrid")
"""Where the flight-booking template's own instances fly."""


def words_of(text: str) -> set[str]:
    """The lower-case letter and digit runs of `text`.

    >>> sorted(words_of("Pizza delivery near me!"))
    ['delivery', 'me', 'near', 'pizza']
    """
    return set(re.findall(r"[a-z0-9]+", text.lower()))


class UnavailableServiceTemplate(TaskTemplate):
    """{what} through {service}, which no app on the phone offers: declare it impossible after searching for it.

    Params: {"service": a key of `SERVICES`, "what": what is ordered or where to ("pizza", "london")}.
    """

    name, suite, max_steps = "unavailable_service", "world", 12
    outcome, apps = "infeasible", (CHROME,)
    GOALS = {"food delivery": "Order me {what}", "flight booking": "Book a flight to {what}"}

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every food to order and every destination to fly to, split on it."""
        grid = [{"service": "food delivery", "what": f} for f in FOODS]
        grid += [{"service": "flight booking", "what": d} for d in DESTINATIONS]
        return [p for p in grid if split_of(f"unavailable:{p['what']}") == split]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return self.GOALS[params["service"]].format(what=params["what"].title())

    def check(self, params: Params, state: State) -> bool:
        """No app of the service was installed from the Play Store (the phone comes with none)."""
        service = SERVICES[params["service"]]
        return not set(state_of(state, playstore.PlayStoreState)["installed"]) & set(service.apps)

    def looked(self, params: Params, state: State) -> bool:
        """Chrome in front on the loaded result page of a search holding the goal's words (and the service's), or
        the Play Store in front on its results for a search holding them or a word of the service."""  # noqa: D205, D209
        service = SERVICES[params["service"]]
        if state["foreground"] == playstore.PACKAGE and not state["screen"]["loading"]:
            store = state_of(state, playstore.PlayStoreState)
            searched = words_of(store["query"] or "")
            return store["page"] == "results" and bool(
                words_of(params["what"]) <= searched or searched & set(service.store_words))
        b = browser(state)
        if state["foreground"] != CHROME or b["page"] != "search_results" or b["loading"]:
            return False
        searched = words_of(b["query"] or "")
        return words_of(params["what"]) <= searched and all(searched & set(g) for g in service.words)

    def expert(self, params: Params, elements: Sequence[UIElement], state: State) -> Action:
        """Search the web for it; on the result page (which lists but cannot order or book), declare."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        if self.looked(params, state):
            return impossible()
        return search_web(SERVICES[params["service"]].search.format(what=params["what"]), elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (UnavailableServiceTemplate(),)
"""The module's templates (none is in a built-in suite)."""
