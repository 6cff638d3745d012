"""Answers the simulated search engine knows: weather, local time, restaurants, population, capitals, news, prices.

`answer(query)` reads a free-text query the way a search engine would (key words plus a known city, country, topic
or product, longest match first) and returns the answer card it shows, or None. Every number is seeded with
`stable_seed` from the subject, so an answer is the same in every process and every episode.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from android_gym.heap import track_cache
from android_gym.sim.app import stable_seed
from android_gym.sim.web.catalog import CATEGORY_OF, display_name, normalize, typical_price
from android_gym.sim.web.places import CAPITALS, CITIES, CUISINES, NEWS_TOPICS, title, topic_key

KINDS = ("weather", "time", "restaurants", "population", "capital", "news", "price")
"""Every kind of answer card, in the order a query is tested for them."""

_WEATHER_WORDS = {"weather", "forecast", "temperature", "rain", "sunny"}
_RESTAURANT_WORDS = {"restaurant", "restaurants", "food", "eat", "dinner", "lunch", "place"}
_NEWS_WORDS = {"news", "headlines", "latest", "updates"}
_CONDITIONS = ("sunny", "partly cloudy", "cloudy", "light rain", "showers", "thunderstorms", "clear", "foggy",
               "windy", "snow showers")
_SOURCES = ("Reuters", "BBC News", "AP News", "Bloomberg", "The Guardian", "CNN", "The Verge", "Financial Times")
_EVENTS = ("what experts expect next", "a record week", "new report raises questions", "five things to know",
           "the debate heats up", "officials announce new plan", "markets react", "a surprising turnaround",
           "analysts weigh in", "the story so far", "why it matters", "new study published")
_NAME_A = ("Golden", "Little", "Blue", "Old Town", "Green", "Royal", "Happy", "Corner", "Lucky", "Silver", "Red")
_NAME_B = ("Kitchen", "Table", "House", "Garden", "Bistro", "Spoon", "Lantern", "Grill", "Cafe", "Terrace")
_STREETS = ("Main St", "Market St", "River Rd", "Park Ave", "High St", "Station Rd", "King St", "Harbour Way")
REFERENCE_UTC_MINUTES = 16 * 60 + 41
"""The simulated web's clock: 16:41 UTC (the phone's status bar shows 9:41, a US Pacific morning)."""


@dataclass(frozen=True)
class Answer:
    """An answer card of the search engine.

    Attributes:
        kind: one of `KINDS`.
        subject: what it is about, normalised: a city, a country, a news topic without article, a product query.
        title: the card's heading.
        lines: the card's body, one line per row; `lines[0]` is the answer itself.
        detail: a second key where the kind has one (the cuisine of "restaurants"), else "".
    """

    kind: str
    subject: str
    title: str
    lines: tuple[str, ...]
    detail: str = ""

    def to_state(self) -> dict[str, Any]:
        """Plain data for the browser's `state()`."""
        return {"kind": self.kind, "subject": self.subject, "detail": self.detail, "text": self.lines[0]}


def find_name(names: Iterable[str], query: str) -> str | None:
    """The longest of `names` that occurs in normalised `query` as whole words, or None.

    >>> find_name(["york", "new york"], "weather in new york today")
    'new york'
    """
    padded = f" {query} "
    hits = [n for n in names if f" {n} " in padded]
    return max(hits, key=len) if hits else None


@lru_cache(maxsize=8192)
def answer(query: str) -> Answer | None:
    """The answer card for a free-text query, or None when the engine has no direct answer.

    >>> answer("What's the weather in Paris?").subject
    'paris'
    >>> answer("how much does a macbook air cost").kind
    'price'
    """
    q = normalize(query)
    words = set(q.split())
    city = find_name(CITIES, q)
    if city and words & _WEATHER_WORDS:
        return weather(city)
    if city and "time" in words:
        return local_time(city)
    if city and (words & _RESTAURANT_WORDS or find_name(CUISINES, q)):
        return restaurants(find_name(CUISINES, q) or "", city)
    if city and "population" in words:
        return population(city)
    country = find_name(CAPITALS, q)
    if country and "capital" in words:
        return Answer("capital", country, f"Capital of {title(country)}", (f"{CAPITALS[country]}",
                      f"{CAPITALS[country]} is the capital of {title(country)}."))
    topic = find_name({topic_key(t) for t in NEWS_TOPICS}, q)
    if topic and words & _NEWS_WORDS:
        return news(topic)
    product = find_name(CATEGORY_OF, q)
    if product:
        return price(product)
    return None


track_cache("web answers", lambda: answer.cache_info().currsize)


def _rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(stable_seed(*parts))


def weather(city: str) -> Answer:
    """Current weather and a three-day forecast for a known city."""
    rng = _rng("weather", city)
    temp = int(rng.integers(-5, 36))
    cond = _CONDITIONS[int(rng.integers(len(_CONDITIONS)))]
    days = [f"{d}: {temp + int(rng.integers(-4, 5))}°C, {_CONDITIONS[int(rng.integers(len(_CONDITIONS)))]}"
            for d in ("Tomorrow", "Thursday", "Friday")]
    return Answer("weather", city, f"Weather in {title(city)}",
                  (f"{title(city)}: {temp}°C, {cond}",
                   f"Humidity {int(rng.integers(20, 95))}% · Wind {int(rng.integers(2, 40))} km/h", *days))


def local_time(city: str) -> Answer:
    """The local time in a known city, from the web's reference clock and the city's UTC offset."""
    offset = CITIES[city][1]
    minutes = int(REFERENCE_UTC_MINUTES + offset * 60) % (24 * 60)
    h, m = divmod(minutes, 60)
    sign = "+" if offset >= 0 else "-"
    hours = f"{abs(offset):g}".replace(".5", ":30")
    return Answer("time", city, f"Local time in {title(city)}",
                  (f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}", f"{title(city)} (GMT{sign}{hours})"))


def restaurants(cuisine: str, city: str) -> Answer:
    """Three seeded restaurants of `cuisine` ("" for any) near a known city."""
    rng = _rng("restaurants", cuisine, city)
    kind = f"{cuisine.capitalize()} restaurants" if cuisine else "Restaurants"
    rows = []
    for _ in range(3):
        name = f"{_NAME_A[int(rng.integers(len(_NAME_A)))]} {_NAME_B[int(rng.integers(len(_NAME_B)))]}"
        street = _STREETS[int(rng.integers(len(_STREETS)))]
        rows.append(f"{name} · {round(3.5 + 1.5 * rng.random(), 1)}★ · {int(rng.integers(1, 300))} {street}")
    return Answer("restaurants", city, f"{kind} near {title(city)}", tuple(rows), detail=cuisine)


def population(city: str) -> Answer:
    """A seeded population figure for a known city (the simulated web's own numbers)."""
    people = int(_rng("population", city).integers(300_000, 15_000_000))
    return Answer("population", city, f"Population of {title(city)}",
                  (f"{people:,}", f"{title(city)}, {CITIES[city][0]} (city proper)"))


def news(topic: str) -> Answer:
    """Three seeded headlines about a news topic (`topic` without its article)."""
    rng = _rng("news", topic)
    rows = []
    for _ in range(3):
        event = _EVENTS[int(rng.integers(len(_EVENTS)))]
        source = _SOURCES[int(rng.integers(len(_SOURCES)))]
        rows.append(f"{topic[:1].upper() + topic[1:]}: {event} — {source}, {int(rng.integers(1, 23))} hours ago")
    return Answer("news", topic, f"Top stories: {topic}", tuple(rows))


def price(product: str) -> Answer:
    """The typical price range of a known product query, in US dollars."""
    base = typical_price(product)
    return Answer("price", product, f"{display_name(product)} prices",
                  (f"{display_name(product)}: typically ${base * 0.85:,.0f} – ${base * 1.2:,.0f}",
                   "Sold by Amazon, Walmart, Best Buy and more"))


def slug(text: str) -> str:
    """A URL path segment for `text`.

    >>> slug("New York weather")
    'New_York_weather'
    """
    return re.sub(r"[^\w\-]+", "_", text.strip()).strip("_")
