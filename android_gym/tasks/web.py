"""Web task templates: search questions (the general suite) and shopping on a named site (the webshop suite).

General suite (AitW General style, 10 steps): a question such as "What's the weather in Paris?" is solved when
Chrome shows, fully loaded, the search engine's result page whose answer card is of the asked kind and about the
asked subject (e.g. a "weather" card for Paris): the answer is then on screen.

Webshop suite (AitW Web Shopping style, 20 steps), chained goals whose final subgoal defines success:
  * "Go to {site}": any page of the site is open;
  * '..., search for "{query}"': the site's result page for exactly that query (normalised) is open;
  * '..., and select the first entry': the product page of the query's first entry is open;
  * '..., select the first entry, and add it to cart': that product is in the site's cart.
The *first entry* is the first ORGANIC result: sponsored entries (adverts, shown when the `sponsored`
perturbation is on) never count, and opening or buying one does not succeed.

Splits: the key parameter (city, country, topic, product query; the site for "Go to {site}") decides the split
with `split_of`, so no test value appears in train.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from android_gym.actions import Action
from android_gym.sim.web import SHOP_HOSTS, catalog
from android_gym.sim.web.places import CAPITALS, CITIES, CUISINES, NEWS_TOPICS, title, topic_key
from android_gym.tasks.base import SPLITS, TaskTemplate, split_of
from android_gym.tasks.web_expert import CHROME, browser, search_web, shop
from android_gym.ui import UIElement


def check_split(split: str) -> None:
    """Raise `ValueError` unless `split` is one of `SPLITS`."""
    if split not in SPLITS:
        raise ValueError(f"`split` must be one of {SPLITS}, got {split!r}")


class SearchQuestion(TaskTemplate):
    """A question answered by a web search. Subclasses set the answer kind, the key, the goal and the query.

    Class attributes:
        kind: the answer card that solves it (see `android_gym.sim.web.content.KINDS`).
        key: the parameter the split is decided on (and the card's subject).
        keys: every value of the key.
        detail_key: the parameter the card's `detail` must equal (the cuisine of a restaurant search), if any.
        goal_text: the instruction, formatted with display forms of the params.
        query_text: what the expert types, formatted with the raw params.
    """

    suite = "general"
    max_steps = 10
    kind: ClassVar[str]
    key: ClassVar[str]
    keys: ClassVar[tuple[str, ...]]
    goal_text: ClassVar[str]
    query_text: ClassVar[str]
    detail_key: ClassVar[str | None] = None

    def values(self, split: str) -> list[dict[str, Any]]:
        """One instance per key value of `split`, sorted."""
        check_split(split)
        return [{self.key: v} for v in sorted(self.keys) if split_of(v) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The question, with place names title-cased and "a" made "an" before a vowel."""
        shown = {k: title(v) if k in ("city", "country") else v for k, v in params.items()}
        return re.sub(r"\ba (?=[aeiou])", "an ", self.goal_text.format(**shown))

    def subject(self, params: Mapping[str, Any]) -> str:
        """The answer card's expected subject."""
        return str(params[self.key])

    def detail(self, params: Mapping[str, Any]) -> str:
        """The answer card's expected second key: the `detail_key` parameter, "" for kinds without one."""
        return str(params.get(self.detail_key, "")) if self.detail_key else ""

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """Chrome shows the loaded result page with an answer card of this kind about this subject."""
        b = browser(state)
        card = b["answer"]
        return (state.get("foreground") == CHROME and b["page"] == "search_results"
                and not b["loading"] and card is not None and card["kind"] == self.kind
                and card["subject"] == self.subject(params) and card["detail"] == self.detail(params))

    def query(self, params: Mapping[str, Any]) -> str:
        """What the expert types: `query_text` with the raw params."""
        return self.query_text.format(**params)

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Launcher search bar (or Chrome's URL bar), type the query, ENTER."""
        return search_web(self.query(params), elements, state)


class WeatherQuestion(SearchQuestion):
    """What's the weather in {city}?"""

    name, kind, key, keys = "web_weather", "weather", "city", tuple(CITIES)
    goal_text, query_text = "What's the weather in {city}?", "weather in {city}"


class TimeQuestion(SearchQuestion):
    """What time is it in {city}?"""

    name, kind, key, keys = "web_time", "time", "city", tuple(CITIES)
    goal_text, query_text = "What time is it in {city}?", "time in {city}"


class PopulationQuestion(SearchQuestion):
    """What is the population of {city}?"""

    name, kind, key, keys = "web_population", "population", "city", tuple(CITIES)
    goal_text, query_text = "What is the population of {city}?", "population of {city}"


class CapitalQuestion(SearchQuestion):
    """What is the capital of {country}?"""

    name, kind, key, keys = "web_capital", "capital", "country", tuple(CAPITALS)
    goal_text, query_text = "What is the capital of {country}?", "capital of {country}"


class NewsQuestion(SearchQuestion):
    """What's the latest news about {topic}? The card's subject is the topic without its article."""

    name, kind, key, keys = "web_news", "news", "topic", NEWS_TOPICS
    goal_text, query_text = "What's the latest news about {topic}?", "latest news about {topic}"

    def subject(self, params: Mapping[str, Any]) -> str:
        """The topic without "the"."""
        return topic_key(params["topic"])


class PriceQuestion(SearchQuestion):
    """What's the price of {product}?"""

    name, kind, key, keys = "web_price", "price", "product", catalog.ALL_PRODUCT_QUERIES
    goal_text, query_text = "What's the price of {product}?", "price of {product}"


class CostQuestion(SearchQuestion):
    """How much does a {product} cost?"""

    name, kind, key, keys = "web_cost", "price", "product", catalog.ALL_PRODUCT_QUERIES
    goal_text, query_text = "How much does a {product} cost?", "how much does a {product} cost"


class RestaurantSearch(SearchQuestion):
    """Find a {cuisine} restaurant near {city}: one instance per (cuisine, city); the split is on the city."""

    name, kind, key, keys = "web_restaurant", "restaurants", "city", tuple(CITIES)
    goal_text, query_text = "Find a {cuisine} restaurant near {city}", "{cuisine} restaurant near {city}"
    detail_key = "cuisine"

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every cuisine for every city of `split`."""
        return [{"cuisine": c, **v} for v in super().values(split) for c in CUISINES]


class ShopTask(TaskTemplate):
    """Shopping on a named site, up to `stage`: "visit", "search", "select" (first organic entry) or "cart"."""

    suite = "webshop"
    max_steps = 20
    stage: ClassVar[str]
    goal_text: ClassVar[str]

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every (site, query) whose query falls in `split`: the split is on the product query."""
        check_split(split)
        return [{"site": s, "query": q} for q in catalog.ALL_PRODUCT_QUERIES if split_of(q) == split
                for s in SHOP_HOSTS]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The chained instruction."""
        return self.goal_text.format(**params)

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """The final subgoal's state (see the module docstring)."""
        b = browser(state)
        site, q = params["site"], catalog.normalize(params.get("query", ""))
        if self.stage == "cart":
            return any(i["host"] == site and i["query"] == q and i["rank"] == 1 and not i["sponsored"]
                       for i in b["cart"])
        if state.get("foreground") != CHROME or b["loading"] or b["host"] != site:
            return False
        if self.stage == "visit":
            return True
        if self.stage == "search":
            return b["page"] == "results" and b["query"] == q
        p = b["product"]
        return (b["page"] == "product" and p is not None and p["query"] == q and p["rank"] == 1
                and not p["sponsored"])

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Open Chrome, go to the site, search it, open the first organic result, add it to the cart."""
        return shop(params["site"], params.get("query"), self.stage, elements, state)


class VisitSite(ShopTask):
    """Go to {site}, in one of four phrasings; the split is on the site."""

    name, stage = "shop_visit", "visit"
    PHRASINGS: ClassVar[tuple[str, ...]] = ("Go to {site}", "Open {site}", "Visit {site}", "Navigate to {site}")

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every phrasing for every site of `split`."""
        check_split(split)
        return [{"site": s, "phrasing": i} for s in SHOP_HOSTS if split_of(s) == split
                for i in range(len(self.PHRASINGS))]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The phrasing with the site."""
        return self.PHRASINGS[params["phrasing"]].format(site=params["site"])


class SearchSite(ShopTask):
    """Go to {site}, search for "{query}"."""

    name, stage, goal_text = "shop_search", "search", 'Go to {site}, search for "{query}"'


class SelectFirst(ShopTask):
    """Go to {site}, search for "{query}", and select the first entry."""

    name, stage, goal_text = "shop_select", "select", 'Go to {site}, search for "{query}", and select the first entry'


class AddFirstToCart(ShopTask):
    """Go to {site}, search for "{query}", select the first entry, and add it to cart."""

    name, stage = "shop_cart", "cart"
    goal_text = 'Go to {site}, search for "{query}", select the first entry, and add it to cart'


WEB_GENERAL_TEMPLATES: tuple[TaskTemplate, ...] = (
    WeatherQuestion(), TimeQuestion(), PopulationQuestion(), CapitalQuestion(), NewsQuestion(), PriceQuestion(),
    CostQuestion(), RestaurantSearch(),
)
"""Web-search templates of the general suite."""

WEBSHOP_TEMPLATES: tuple[TaskTemplate, ...] = (VisitSite(), SearchSite(), SelectFirst(), AddFirstToCart())
"""Templates of the webshop suite."""
