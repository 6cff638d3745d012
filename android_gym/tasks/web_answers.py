"""Search questions beyond the general suite's: hotels, flights, rents, menus, exchange rates and more.

Also office holders, directions, facts about things and countries' populations. Each is solved, as the suite's
questions are, when Chrome shows the search engine's loaded result page with an answer card of its kind about its
subject (and detail). `VisitWebsite` opens a site by name ("Open wikipedia.org", "Go to the New York Times website").

These templates are what the goal parser (`android_gym.tasks.goals`) maps such lines of AitW-style task lists onto;
they are not part of the `general` suite, whose task set stays as published. Their `values` list every instance
the simulated web can answer, split on the key parameter like the suite's templates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.web.catalog import normalize
from android_gym.sim.web.facts import CURRENCIES, MEASURES, OFFICES, RESTAURANT_CHAINS, STORES
from android_gym.sim.web.places import WORLD_CAPITALS, WORLD_CITIES, title
from android_gym.sim.web.search import ARTICLE_SITES
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.web import SearchQuestion, check_split
from android_gym.tasks.web_expert import CHROME, browser, search_web, shop
from android_gym.ui import UIElement

ROUTE_CITIES = ("new york", "london", "paris", "tokyo", "sydney", "seoul", "zurich", "helsinki", "buenos aires",
                "mexico city", "boston", "chicago", "barcelona", "san francisco", "seattle", "san diego")
"""The places flight questions pair up (every ordered pair)."""
APARTMENT_SIZES = ("studio", "1 bedroom", "2 bedroom", "3 bedroom")


class HotelSearch(SearchQuestion):
    """Search for hotels in {city}."""

    name, kind, key, keys = "web_hotels", "hotels", "city", tuple(WORLD_CITIES)
    goal_text, query_text = "Search for hotels in {city}", "hotels in {city}"


class FlightSearch(SearchQuestion):
    """Search for flights from {origin} to {destination}.

    The card's subject is the origin, its detail the destination; the split is on the route.
    """

    name, kind, key, keys = "web_flights", "flights", "origin", ROUTE_CITIES
    goal_text = "Search for flights from {origin} to {destination}"
    query_text = "flights from {origin} to {destination}"
    detail_key = "destination"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every ordered pair of `ROUTE_CITIES` whose route falls in `split`."""
        check_split(split)
        return [{"origin": a, "destination": b} for a in ROUTE_CITIES for b in ROUTE_CITIES
                if a != b and split_of(f"{a}->{b}") == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction, places title-cased."""
        return self.goal_text.format(origin=title(params["origin"]), destination=title(params["destination"]))


class RentQuestion(SearchQuestion):
    """How much does a {size} apartment rent for in {city}? (detail: the size, "" for any)."""

    name, kind, key, keys = "web_rent", "rent", "city", tuple(WORLD_CITIES)
    goal_text, query_text = "How much does a {size} apartment rent for in {city}?", "{size} apartment rent in {city}"
    detail_key = "size"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every apartment size in every place of `split`."""
        return [{"size": size, **v} for v in super().values(split) for size in APARTMENT_SIZES]


class MenuQuestion(SearchQuestion):
    """What's on the menu at {chain}?"""

    name, kind, key, keys = "web_menu", "menu", "chain", RESTAURANT_CHAINS
    goal_text, query_text = "What's on the menu at {chain}?", "{chain} menu"


class ExchangeRateQuestion(SearchQuestion):
    """What's the US dollar exchange rate against the {currency}?"""

    name, kind, key, keys = "web_exchange", "exchange", "currency", tuple(CURRENCIES)
    goal_text = "What's the US dollar exchange rate against the {currency}?"
    query_text = "us dollar to {currency} exchange rate"


class DirectionsQuestion(SearchQuestion):
    """How do I get to the nearest {place}?"""

    name, kind, key, keys = "web_directions", "directions", "place", STORES
    goal_text, query_text = "How do I get to the nearest {place}?", "directions to the nearest {place}"


class OfficeHolderQuestion(SearchQuestion):
    """Who is the {office} of {country}? (subject: the country, detail: the office)."""

    name, kind, key, keys = "web_office", "office", "country", tuple(sorted({c for cs in OFFICES.values() for c in cs}))
    goal_text, query_text = "Who is the {office} of {country}?", "{office} of {country}"
    detail_key = "office"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every (office, country) the web names a holder of, split on the country."""
        return [{"office": office, **v} for v in super().values(split) for office, countries in OFFICES.items()
                if v["country"] in countries]


class FactQuestion(SearchQuestion):
    """How fast / big / old / far is {thing}? (subject: the thing, detail: the measure); split on the thing."""

    name, kind, key, keys = "web_fact", "fact", "thing", tuple(sorted({t for ts in MEASURES.values() for t in ts}))
    QUESTIONS = {"speed": ("What is the speed of {thing}?", "speed of {thing}"),
                 "size": ("How big is {thing}?", "how big is {thing}"),
                 "age": ("How old is {thing}?", "how old is {thing}"),
                 "distance": ("How far away is {thing}?", "how far away is {thing}")}
    detail_key = "measure"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every (measure, thing) the web knows, split on the thing."""
        return [{"measure": m, **v} for v in super().values(split) for m, things in MEASURES.items()
                if v["thing"] in things]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The question of the measure."""
        return self.QUESTIONS[params["measure"]][0].format(thing=f"the {params['thing']}")

    def query(self, params: Mapping[str, Any]) -> str:
        """The measure's question about the thing."""
        return self.QUESTIONS[params["measure"]][1].format(thing=params["thing"])


class CountryPopulationQuestion(SearchQuestion):
    """What is the population of {country}? (a country the web knows the capital of; subject: the country)."""

    name, kind, key = "web_country_population", "population", "country"
    keys = tuple(c for c in WORLD_CAPITALS if c not in WORLD_CITIES)  # "singapore" is read as the city
    goal_text, query_text = "What is the population of {country}?", "population of {country}"


class VisitWebsite(TaskTemplate):
    """Go to {site}: Chrome in front on a loaded page of that site (an article site: `search.ARTICLE_SITES`)."""

    name, suite, max_steps = "web_visit_site", "general", 12

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every article site of the split."""
        check_split(split)
        return [{"site": h} for h in ARTICLE_SITES if split_of(h) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Go to {params['site']}"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Chrome shows a loaded page of the site."""
        b = browser(state)
        return state.get("foreground") == CHROME and not b["loading"] and b["host"] == params["site"]

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Open Chrome, type the site's address in the URL bar, ENTER."""
        return shop(params["site"], None, "visit", elements, state)


class WebSearch(TaskTemplate):
    """Search the web for {terms}.

    Solved when Chrome shows the search engine's loaded result page for a query that holds every word of the terms
    (any order, other words allowed).

    For goals that ask for a search rather than an answer ("Search for a new mascara", "Where can I buy a nice beach
    towel?"); the parser uses it only when no other family reads a line. Its `values` are the web's product queries.
    """

    name, suite, max_steps = "web_search", "general", 10

    def values(self, split: str) -> list[dict[str, Any]]:
        """One search per product query of the simulated shops, split on the query."""
        from android_gym.sim.web.catalog import ALL_PRODUCT_QUERIES

        check_split(split)
        return [{"terms": q} for q in ALL_PRODUCT_QUERIES if split_of(q) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The instruction."""
        return f"Search the web for {params['terms']}"

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """The loaded result page's query holds every word of the terms."""
        b = browser(state)
        query = b["query"]
        return (state.get("foreground") == CHROME and b["page"] == "search_results" and not b["loading"]
                and isinstance(query, str) and set(normalize(params["terms"]).split()) <= set(normalize(query).split()))

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Search the terms."""
        return search_web(params["terms"], elements, state)


ANSWER_TEMPLATES: tuple[TaskTemplate, ...] = (
    HotelSearch(), FlightSearch(), RentQuestion(), MenuQuestion(), ExchangeRateQuestion(), DirectionsQuestion(),
    OfficeHolderQuestion(), FactQuestion(), WebSearch(), CountryPopulationQuestion(), VisitWebsite(),
)
"""Every template of this module (none is in a built-in suite)."""
