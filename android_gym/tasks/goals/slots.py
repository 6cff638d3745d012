"""Slot readers: the words a phrasing's `{slot}` matched become a parameter the sim knows, or an `UnknownValue`.

A reader is named by its slot ("{city}" is read by `READERS["city"]`). Readers of closed sets (cities, countries,
apps, sites) accept the names the simulated phone and web know plus common aliases ("NYC", "the UK", "SMS"), and
say what they did not know; free-text readers (a product query, a video topic) take any words.

>>> READERS["city"].read("NYC")
'new york'
>>> READERS["time"].read("5pm")
(17, 0)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from android_gym.sim.apps import files, playstore, youtube
from android_gym.sim.web import SHOP_HOSTS, catalog
from android_gym.sim.web.content import answer, news_subject, price_subject
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
from android_gym.sim.web.places import WORLD_CAPITALS, WORLD_CITIES, WORLD_CUISINES
from android_gym.tasks.app_settings import SETTINGS_APPS
from android_gym.tasks.apps import SETTINGS
from android_gym.tasks.goals.text import words


class UnknownValue(ValueError):
    """A slot's words name nothing the simulated phone knows; the message says what and of which kind."""


_ARTICLES = ("the ", "a ", "an ", "my ")


def _bare(text: str) -> str:
    """`text` as words, without a leading article ("the Google Maps app" -> "google maps app")."""
    text = " ".join(words(text))
    for article in _ARTICLES:
        if text.startswith(article):
            return text[len(article):]
    return text


@dataclass(frozen=True)
class Names:
    """A closed set: canonical values by their names and aliases (compared as `_bare` words)."""

    kind: str
    table: Mapping[str, Any]
    aliases: Mapping[str, str] = field(default_factory=dict)
    strip: tuple[str, ...] = ()
    """Trailing words left out before the lookup ("app" in "the Spotify app")."""

    def read(self, text: str) -> Any:
        """The canonical value named by `text`."""
        key = _bare(text)
        for suffix in self.strip:
            if key.endswith(" " + suffix):
                key = key[: -len(suffix) - 1]
        folded = self._folded
        if key in folded:
            return folded[key]
        target = " ".join(words(self.aliases.get(key, "")))
        if target in folded:
            return folded[target]
        raise UnknownValue(f"the simulated phone knows no {self.kind} {text!r}")

    @functools.cached_property
    def _folded(self) -> dict[str, Any]:
        return {" ".join(words(k)): v for k, v in self.table.items()}

    def vocabulary(self) -> set[str]:
        """Every word of every name and alias (for `text.repair`)."""
        return {w for name in [*self.table, *self.aliases, *self.strip] for w in words(name)}


@dataclass(frozen=True)
class FreeText:
    """Any non-empty words, normalised as the sim's sites compare queries; `refuse` names words it must not hold."""

    kind: str
    refuse: tuple[str, ...] = ()

    def read(self, text: str) -> str:
        """The normalised text."""
        value = catalog.normalize(" ".join(words(text)))
        if not value:
            raise UnknownValue(f"an empty {self.kind}")
        for phrase in self.refuse:
            if f" {phrase} " in f" {value} ":
                raise UnknownValue(f"{self.kind} {text!r} holds {phrase!r}, which belongs to another goal family")
        return value

    def vocabulary(self) -> set[str]:
        """Free text brings no words of its own."""
        return set()


@dataclass(frozen=True)
class Parsed:
    """A reader of a value with its own syntax (a time of day)."""

    kind: str
    parse: Callable[[str], Any]
    syntax_words: tuple[str, ...] = ()

    def read(self, text: str) -> Any:
        """The parsed value."""
        return self.parse(text)

    def vocabulary(self) -> set[str]:
        """The words of the syntax ("am", "pm", ...)."""
        return set(self.syntax_words)


_TIME = re.compile(r"^(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)?$")


def parse_time(text: str) -> tuple[int, int]:
    """A time of day as (hour 0-23, minute): "5pm", "5 pm", "7:30 am", "17:05", "noon", "midnight".

    The sim's alarm dial sets minutes in steps of five, so other minutes are refused.

    >>> parse_time("12pm"), parse_time("12 a.m."), parse_time("7:35 PM"), parse_time("noon")
    ((12, 0), (0, 0), (19, 35), (12, 0))
    """
    t = " ".join(text.lower().split())
    if t in ("noon", "midday"):
        return 12, 0
    if t == "midnight":
        return 0, 0
    m = _TIME.match(t)
    if m is None:
        raise UnknownValue(f"{text!r} is not a time of day")
    hour, minute = int(m["h"]), int(m["m"] or 0)
    suffix = (m["ap"] or "").replace(".", "")
    if suffix:
        if not 1 <= hour <= 12:
            raise UnknownValue(f"{text!r}: a 12-hour time needs an hour from 1 to 12")
        hour = hour % 12 + (12 if suffix == "pm" else 0)
    elif m["m"] is None:
        raise UnknownValue(f"{text!r}: say am or pm, or give minutes (17:00)")
    if hour > 23 or minute > 59:
        raise UnknownValue(f"{text!r} is not a time of day")
    if minute % 5:
        raise UnknownValue(f"{text!r}: the sim's alarm dial sets minutes in steps of five")
    return hour, minute


OPEN_APPS: dict[str, str] = {
    "settings": "Settings", "clock": "Clock", "youtube": "YouTube", "play store": "Play Store", "chrome": "Chrome",
    "gmail": "Gmail", "maps": "Maps", "photos": "Photos", "camera": "Camera", "phone": "Phone",
    "messages": "Messages", "calendar": "Calendar", "contacts": "Contacts", "files": "Files",
    "calculator": "Calculator", "yt music": "YT Music",
}
"""Launcher labels of the apps the open-app family can open (`tasks.apps.LAUNCHABLE`), by their bare names."""
APP_ALIASES = {
    "setting": "settings", "settings app": "settings", "google play store": "play store", "google play": "play store",
    "play store app": "play store", "google chrome": "chrome", "chrome browser": "chrome", "browser": "chrome",
    "email": "gmail", "mail": "gmail", "google maps": "maps", "gallery": "photos", "google photos": "photos",
    "dialer": "phone", "sms": "messages", "text messages": "messages", "messaging": "messages",
    "google calendar": "calendar", "file manager": "files", "files by google": "files", "alarm clock": "clock",
    "camera app": "camera", "music": "yt music", "music app": "yt music", "music player": "yt music",
    "youtube music": "yt music",
}

SETTING_ALIASES = {
    "wifi": "wi-fi", "wi fi": "wi-fi", "wireless": "wi-fi", "flight mode": "airplane mode", "airplane": "airplane mode",
    "aeroplane mode": "airplane mode", "dark mode": "dark theme", "night mode": "dark theme",
    "battery saver mode": "battery saver", "power saving mode": "battery saver", "power saver": "battery saver",
    "dnd": "do not disturb", "do not disturb mode": "do not disturb", "auto rotate": "auto-rotate",
    "autorotate": "auto-rotate", "screen rotation": "auto-rotate", "gps": "location", "location services": "location",
    "bluetooth": "bluetooth",
}

def read_news_topic(text: str) -> str:
    """What the search engine's news card about `text` is about ("" for top stories), as `content.news_subject`."""
    subject = news_subject(text)
    card = answer(f"latest news about {subject}")
    if card is None or card.kind != "news":
        raise UnknownValue(f"the search engine reads news about {text!r} as a {card.kind if card else 'no'} question")
    return card.subject


def read_product(text: str) -> str:
    """The subject of the engine's price card about `text` (a known product inside it, or the words themselves)."""
    card = answer(f"price of {price_subject(text)}")
    if card is None or card.kind != "price":
        raise UnknownValue(f"the search engine has no price for {text!r}")
    return card.subject


def parse_size(text: str) -> str:
    """An apartment size as the rent card names it: "2 bedroom", "studio".

    >>> parse_size("two-bedroom"), parse_size("3 bed"), parse_size("studio")
    ('2 bedroom', '3 bedroom', 'studio')
    """
    t = " ".join(words(text)).replace("-", " ")
    for number, word in enumerate(("zero", "one", "two", "three", "four", "five"), start=0):
        t = re.sub(rf"\b{word}\b", str(number), t)
    if t == "studio":
        return t
    m = re.fullmatch(r"(\d+) ?(?:bedroom|bedrooms|bed|beds|br|bd)", t)
    if m is None:
        raise UnknownValue(f"{text!r} is not an apartment size (say '2 bedroom' or 'studio')")
    return f"{int(m[1])} bedroom"


_CITY = Names("place", {c: c for c in WORLD_CITIES}, {
    "nyc": "new york", "ny": "new york", "new york city": "new york", "la": "los angeles", "sf": "san francisco",
    "rio": "rio de janeiro", "bombay": "mumbai", "new delhi": "delhi", "washington": "washington dc",
    "washington d.c": "washington dc", "dc": "washington dc", "saint petersburg": "st. petersburg",
    "st petersburg": "st. petersburg", "saigon": "ho chi minh city",
})

READERS: dict[str, Names | FreeText | Parsed] = {
    "city": _CITY, "origin": _CITY, "destination": _CITY,
    "country": Names("country", {c: c for c in WORLD_CAPITALS}, {
        "uk": "united kingdom", "england": "united kingdom", "great britain": "united kingdom",
        "britain": "united kingdom", "us": "united states", "usa": "united states", "america": "united states",
        "united states of america": "united states", "korea": "south korea", "czech republic": "czechia",
        "uae": "united arab emirates",
    }),
    "time": Parsed("time of day", parse_time, ("am", "pm", "noon", "midnight")),
    "app": Names("app to open", OPEN_APPS, APP_ALIASES, strip=("app",)),
    "store_app": Names("Play Store app", {a: a for a in playstore.STORE_APPS}, {
        "amazon": "Amazon Shopping", "calendar": "Google Calendar", "news": "Google News",
        "weather": "The Weather Channel", "weather channel": "The Weather Channel", "x": "Twitter",
        "prime video": "Prime Video", "amazon prime video": "Prime Video", "alexa": "Amazon Alexa",
        "play books": "Google Play Books", "play movies": "Google Play Movies", "google play music": "YouTube Music",
    }, strip=("app",)),
    "site": Names("shopping site", {h: h for h in SHOP_HOSTS},
                  {**{h.removesuffix(".com"): h for h in SHOP_HOSTS}, **{f"www.{h}": h for h in SHOP_HOSTS}}),
    "settings_app": Names("app", {a: a for a in SETTINGS_APPS}, {
        **{k: OPEN_APPS[v] for k, v in APP_ALIASES.items()}, **{k.lower(): v for k, v in OPEN_APPS.items()},
        "amazon prime video": "Prime Video", "amazon prime music": "Amazon Music", "alexa": "Amazon Alexa",
        "amazon": "Amazon Shopping", "x": "Twitter",
    }, strip=("app",)),
    "channel": Names("YouTube channel", youtube.CHANNELS, youtube.CHANNEL_ALIASES),
    "place_kind": FreeText("kind of place"),
    "file_category": Names("file category", {c: c for c in files.CATEGORIES},
                           {"download": "Downloads", "photos folder": "Images", "pictures": "Images",
                            "music files": "Audio", "docs": "Documents"}),
    "query": FreeText("search query"),
    "product": Parsed("product", read_product),
    "news_topic": Parsed("news topic", read_news_topic),
    "cuisine": Names("cuisine", {c: c for c in WORLD_CUISINES}),
    "setting": Names("setting", {name: key for key, (name, _, _) in SETTINGS.items()}, SETTING_ALIASES),
    "video_topic": FreeText("video topic", refuse=("latest video from",)),
    # a search for something an app holds (Maps places, Reddit posts, ...) is that app's goal, not a web search
    "terms": FreeText("search", refuse=("maps", "google maps", "youtube", "reddit", "play store", "calendar",
                                        "settings", "notifications", "email", "gmail", "inbox", "chrome")),
    "size": Parsed("apartment size", parse_size, ("bedroom", "bedrooms", "bed", "studio", "two", "three", "one")),
    "chain": Names("restaurant chain", {c: c for c in RESTAURANT_CHAINS}, CHAIN_ALIASES),
    "currency": Names("currency", {c: c for c in CURRENCIES}, CURRENCY_ALIASES),
    "store": Names("place to go", {s: s for s in STORES}, STORE_ALIASES),
    "office": Names("office", {o: o for o in OFFICES}, {"pm": "prime minister", "premier": "prime minister"}),
    **{f"{measure}_thing": Names(f"thing whose {measure} the web knows", {t: t for t in things})
       for measure, things in MEASURES.items()},
}
"""The reader of every slot name the phrasings use."""


def vocabulary(extra: Iterable[str] = ()) -> set[str]:
    """Every word a reader knows, plus `extra` (the phrasings' own words)."""
    out = set(extra)
    for reader in READERS.values():
        out |= reader.vocabulary()
    return out
