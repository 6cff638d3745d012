"""Answers the simulated search engine knows: weather, time, restaurants, population, capitals, news, prices and more.

The rest: flights, hotels, rents, office holders, exchange rates, menus, directions and facts about things.

`answer(query)` reads a free-text query the way a search engine would (key words plus a known city, country,
currency, chain, store or thing, longest match first) and returns the answer card it shows, or None. News and price
questions about anything else get a card about the rest of the query (`news_subject`, `price_subject`), as a real
engine shows top stories or shopping prices for any subject. Every number is seeded with `stable_seed` from the
subject, so an answer is the same in every process and every episode.
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
from android_gym.sim.web.facts import (
    CHAIN_ALIASES,
    CURRENCIES,
    CURRENCY_ALIASES,
    MEASURES,
    OFFICES,
    RESTAURANT_CHAINS,
    STORE_ALIASES,
    STORES,
)
from android_gym.sim.web.places import HOME_CITY, WORLD_CAPITALS, WORLD_CITIES, WORLD_CUISINES, title

KINDS = ("flights", "hotels", "rent", "weather", "time", "restaurants", "population", "capital", "office", "exchange",
         "menu", "directions", "fact", "news", "price")
"""Every kind of answer card, in the order a query is tested for them ("population" is about a city, or about a
country when the query names no city)."""

_WEATHER_WORDS = {"weather", "forecast", "temperature", "rain", "sunny"}
_RESTAURANT_WORDS = {"restaurant", "restaurants", "food", "eat", "dinner", "lunch", "place"}
_NEWS_WORDS = {"news", "headlines"}
_FLIGHT_WORDS = {"flight", "flights", "fly", "airfare", "airfares"}
_HOTEL_WORDS = {"hotel", "hotels", "motel", "motels", "accommodation", "lodging"}
_RENT_WORDS = {"rent", "rents", "apartment", "apartments", "rental"}
_EXCHANGE_WORDS = {"exchange", "rate", "convert", "conversion", "dollar", "dollars", "usd"}
_DIRECTION_WORDS = {"nearest", "closest", "directions", "route"}
_MEASURE_WORDS = {"speed": {"speed", "fast", "velocity"}, "size": {"big", "size", "large", "huge"},
                  "age": {"old", "age"}, "distance": {"far", "distance"}}
_PRICE_WORDS = {"price", "prices", "cost", "costs"}
_QUESTION_WORDS = {"whats", "what", "is", "are", "the", "a", "an", "of", "about", "on", "in", "for", "me", "show",
                   "search", "find", "tell", "google", "look", "up", "regarding", "latest", "recent", "top", "todays",
                   "today", "now", "right", "current", "please", "some", "any", "new"}
_NEWS_NOISE = _QUESTION_WORDS | _NEWS_WORDS | {"stories", "updates", "this", "week", "weekend", "morning", "evening",
                                               "afternoon", "month", "tonight", "year", "happening"}
_PRICE_NOISE = (_QUESTION_WORDS - {"new"}) | _PRICE_WORDS | {"how", "much", "does", "do", "it", "to", "buy", "sell",
                                                           "for", "typically"}
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


ANSWER_CACHE_SIZE = 1024
"""Answer cards kept. The hits are a page re-rendered over a few steps (a few live queries per phone, dozens of phones);
more entries only hold one-off queries an exploring agent typed: 8,192 took hours to fill and read as growth of the
ADB front's memory in the soak benchmark (issue 20)."""


@lru_cache(maxsize=ANSWER_CACHE_SIZE)
def answer(query: str) -> Answer | None:
    """The answer card for a free-text query, or None when the engine has no direct answer.

    >>> answer("What's the weather in Paris?").subject
    'paris'
    >>> answer("how much does a macbook air cost").kind
    'price'
    >>> answer("flights from sydney to helsinki").detail
    'helsinki'
    """
    q = normalize(query)
    words = set(q.split())
    city = find_name(WORLD_CITIES, q)
    if city:
        card = _about_city(q, words, city)
        if card is not None:
            return card
    cuisine = find_name(WORLD_CUISINES, q) or ""
    if words & _RESTAURANT_WORDS and (cuisine or words & {"restaurant", "restaurants"}) and not city:
        return restaurants(cuisine, HOME_CITY)  # the phone's own city, as a phone's search does
    country = find_name(WORLD_CAPITALS, q)
    if country and "capital" in words:
        return Answer("capital", country, f"Capital of {title(country)}", (f"{WORLD_CAPITALS[country]}",
                      f"{WORLD_CAPITALS[country]} is the capital of {title(country)}."))
    if country and "population" in words:
        return country_population(country)
    office = find_name(OFFICES, q)
    if office and country in OFFICES[office]:
        return office_holder(office, country)
    currency = _named(CURRENCIES, CURRENCY_ALIASES, q)
    if currency and words & _EXCHANGE_WORDS:
        return exchange_rate(currency)
    chain = _named(RESTAURANT_CHAINS, CHAIN_ALIASES, q)
    if chain and "menu" in words:
        return menu(chain)
    store = _named(STORES, STORE_ALIASES, q)
    if store and (words & _DIRECTION_WORDS or " get to " in f" {q} "):
        return directions(store)
    card = _fact(q, words)
    if card is not None:
        return card
    if words & _NEWS_WORDS:
        return news(news_subject(query))
    product = find_name(CATEGORY_OF, q)
    if product:
        return price(product)
    if words & _PRICE_WORDS or " how much " in f" {q} ":
        subject = price_subject(query)
        return price(subject) if subject else None
    return None


def _about_city(q: str, words: set[str], city: str) -> Answer | None:
    if words & _FLIGHT_WORDS:
        route = flight_route(q)
        if route is not None:
            return flights(*route)
    if words & _HOTEL_WORDS:
        return hotels(city)
    if words & _RENT_WORDS:
        return rent(bedrooms(q), city)
    if words & _WEATHER_WORDS:
        return weather(city)
    if "time" in words:
        return local_time(city)
    cuisine = find_name(WORLD_CUISINES, q)
    if words & _RESTAURANT_WORDS or cuisine:
        return restaurants(cuisine or "", city)
    if "population" in words:
        return population(city)
    return None


def _named(names: Iterable[str], aliases: dict[str, str], q: str) -> str | None:
    """The longest name or alias in `q`, as its name."""
    hit = find_name([*names, *aliases], q)
    return aliases.get(hit, hit) if hit else None


def _fact(q: str, words: set[str]) -> Answer | None:
    for measure, cue in _MEASURE_WORDS.items():
        if words & cue:
            thing = find_name(MEASURES[measure], q)
            if thing:
                return fact(measure, thing)
    return None


def news_subject(query: str) -> str:
    """What a news query is about: its words less question and news words ("" for top stories).

    >>> news_subject("What's the latest news about the US economy?"), news_subject("news this morning")
    ('us economy', '')
    """
    return " ".join(w for w in normalize(query.replace("'", "")).split() if w not in _NEWS_NOISE)


def price_subject(query: str) -> str:
    """What a price query asks about: its words less question and price words.

    >>> price_subject("How much does the new iPad cost?")
    'new ipad'
    """
    return " ".join(w for w in normalize(query.replace("'", "")).split() if w not in _PRICE_NOISE)


def flight_route(q: str) -> tuple[str, str] | None:
    """(origin, destination) of a flight query naming two known places, or None.

    >>> flight_route("flights to tokyo from london"), flight_route("cheap flights from london to paris")
    (('london', 'tokyo'), ('london', 'paris'))
    """
    padded = f" {q} "
    found = sorted((padded.index(f" {c} "), c) for c in WORLD_CITIES if f" {c} " in padded)
    # drop places inside a longer one ("york" in "new york")
    places = [c for i, c in found if not any(j <= i and i + len(c) <= j + len(d) and d != c for j, d in found)]
    if len(places) != 2:
        return None
    first, second = places
    if f" to {first} " in padded and f" from {second} " in padded:
        return second, first
    return first, second


def bedrooms(q: str) -> str:
    """The apartment size a rent query asks about ("2 bedroom", "studio"), "" when it says none."""
    m = re.search(r"\b(\d+)[ -]?(?:bedroom|bedrooms|bed|br|bd)\b", q)
    if m:
        return f"{int(m[1])} bedroom"
    return "studio" if "studio" in q.split() else ""


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
    offset = WORLD_CITIES[city][1]
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
                  (f"{people:,}", f"{title(city)}, {WORLD_CITIES[city][0]} (city proper)"))


def country_population(country: str) -> Answer:
    """A seeded population figure for a country whose capital the web knows (its own numbers, as for cities)."""
    people = int(_rng("population", "country", country).integers(300_000, 1_400_000_000))
    return Answer("population", country, f"Population of {title(country)}",
                  (f"{people:,}", f"{title(country)} (country, estimate)"))


def news(topic: str) -> Answer:
    """Three seeded headlines about a news subject ("" for the day's top stories)."""
    rng = _rng("news", topic)
    rows = []
    lead = topic[:1].upper() + topic[1:] if topic else "Top story"
    for _ in range(3):
        event = _EVENTS[int(rng.integers(len(_EVENTS)))]
        source = _SOURCES[int(rng.integers(len(_SOURCES)))]
        rows.append(f"{lead}: {event} — {source}, {int(rng.integers(1, 23))} hours ago")
    return Answer("news", topic, f"Top stories: {topic}" if topic else "Top stories", tuple(rows))


_AIRLINES = ("SkyLine", "Oceanic", "Northwind Air", "Aurora Airways", "Pacifica", "Meridian", "Polar Air", "Solstice")
_HOTEL_A = ("Grand", "Park", "Harbor", "Royal", "City", "Garden", "Riverside", "Central", "Plaza", "Summit")
_HOTEL_B = ("Hotel", "Inn", "Suites", "Resort", "Lodge", "House")
_FIRST = ("Alex", "Maria", "Jonas", "Amara", "Kenji", "Lucia", "Omar", "Ingrid", "Rafael", "Mei", "Daniel", "Sofia")
_LAST = ("Moreau", "Lindqvist", "Okafor", "Tanaka", "Varga", "Costa", "Novak", "Haddad", "Brennan", "Kowalski")
_DISHES = ("Classic Burger", "Chicken Sandwich", "Garden Salad", "Breakfast Platter", "Pepperoni Pizza", "Tacos",
           "Pasta Bowl", "Soup of the Day", "Fries", "Milkshake", "Iced Coffee", "Veggie Wrap", "Pancakes",
           "Fish Tacos", "Burrito Bowl", "Cheesecake")


def flights(origin: str, destination: str) -> Answer:
    """Three seeded flights between two known places (subject: origin, detail: destination)."""
    rng = _rng("flights", origin, destination)
    rows = []
    for _ in range(3):
        dep = int(rng.integers(5 * 60, 23 * 60))
        hours = int(rng.integers(1, 18))
        rows.append(f"{_AIRLINES[int(rng.integers(len(_AIRLINES)))]} · {dep // 60:02d}:{dep % 60:02d} · {hours}h "
                    f"{int(rng.integers(0, 12)) * 5}m · {'nonstop' if rng.random() < 0.4 else '1 stop'} · "
                    f"${int(rng.integers(89, 1600))}")
    return Answer("flights", origin, f"Flights from {title(origin)} to {title(destination)}", tuple(rows),
                  detail=destination)


def hotels(city: str) -> Answer:
    """Three seeded hotels in a known place, with a nightly price and a rating."""
    rng = _rng("hotels", city)
    rows = [f"{_HOTEL_A[int(rng.integers(len(_HOTEL_A)))]} {title(city)} {_HOTEL_B[int(rng.integers(len(_HOTEL_B)))]}"
            f" · ${int(rng.integers(60, 600))}/night · {round(3.0 + 2.0 * rng.random(), 1)}★" for _ in range(3)]
    return Answer("hotels", city, f"Hotels in {title(city)}", tuple(rows))


def rent(size: str, city: str) -> Answer:
    """The seeded average monthly rent of an apartment of `size` ("2 bedroom", "studio", "" for any) in a place."""
    rooms = int(size.split()[0]) if size[:1].isdigit() else 0
    base = int(_rng("rent", city).integers(900, 3200))
    monthly = int(base * (1 + 0.45 * rooms))
    what = f"{size} apartment" if size else "apartment"
    return Answer("rent", city, f"Average rent in {title(city)}",
                  (f"${monthly:,}/month for a {what}", f"Based on listings in {title(city)} this month"), detail=size)


def office_holder(office: str, country: str) -> Answer:
    """The simulated web's holder of `office` in `country` (subject: country, detail: office)."""
    rng = _rng("office", office, country)
    name = f"{_FIRST[int(rng.integers(len(_FIRST)))]} {_LAST[int(rng.integers(len(_LAST)))]}"
    return Answer("office", country, f"{office.title()} of {title(country)}",
                  (name, f"In office since {int(rng.integers(2015, 2026))}"), detail=office)


def exchange_rate(currency: str) -> Answer:
    """The seeded rate of one US dollar in `currency` (a name of `facts.CURRENCIES`)."""
    code = CURRENCIES[currency]
    rate = float(np.exp(_rng("fx", code).uniform(np.log(0.5), np.log(1500.0))))
    return Answer("exchange", currency, f"US Dollar to {currency.title()}",
                  (f"1 USD = {rate:,.4g} {code}", "Mid-market rate, updated a minute ago"))


def menu(chain: str) -> Answer:
    """Four seeded dishes and prices of a restaurant chain's menu."""
    rng = _rng("menu", chain)
    dishes = rng.permutation(len(_DISHES))[:4]
    rows = [f"{_DISHES[int(i)]} · ${rng.uniform(2.5, 16.0):.2f}" for i in dishes]
    return Answer("menu", chain, f"{display_name(chain)} menu", tuple(rows))


def directions(place: str) -> Answer:
    """Directions to the nearest `place` from the phone (distance, drive time, address)."""
    rng = _rng("directions", place)
    street = _STREETS[int(rng.integers(len(_STREETS)))]
    miles = round(0.3 + 6 * rng.random(), 1)
    return Answer("directions", place, f"Nearest {display_name(place)}",
                  (f"{miles} mi · {max(2, int(miles * 3))} min by car", f"{int(rng.integers(1, 900))} {street}"))


_UNITS = {"speed": ("km/h", 5, 120_000), "size": ("m across", 1, 10**9), "age": ("years", 1_000, 10**10),
          "distance": ("km away", 10**4, 10**12)}


def fact(measure: str, thing: str) -> Answer:
    """A seeded figure of `measure` ("speed", "size", "age", "distance") for a known thing (detail: the measure)."""
    unit, lo, hi = _UNITS[measure]
    value = float(np.exp(_rng("fact", measure, thing).uniform(np.log(lo), np.log(hi))))
    return Answer("fact", thing, f"{measure.title()} of {thing}", (f"{value:,.3g} {unit}",), detail=measure)


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
