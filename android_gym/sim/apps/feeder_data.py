"""Feeder's world: the feeds the sim knows (`CATALOGUE`, by address), the articles drawn per episode
(`seeded_articles`), the typed state tasks read (`FeederState`) and the initial conditions they set (`FeederInitial`).

A feed is known by its address: adding an address the catalogue lacks fails as the app says ("No feeds found"). The
phone starts subscribed to the first `SUBSCRIBED` feeds with their default tags; the others can be added. Each
subscribed feed's articles are drawn from `stable_seed("feeder", feed, phone.seed)`: 3-5 titles from the feed's own
pool, authors, moments in the week before the sim's today, read and saved flags.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re
from typing import Any

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.errors import ConfigError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, iso_day, refuse_blank
from android_gym.sim.apps.calendar import TODAY

PACKAGE = "com.nononsenseapps.feeder"
DATE = datetime.date(*TODAY[:3])


class Feed(TypedDict):
    """A known feed: its title, site and the tag it starts with ("" untagged), and its articles' title pool."""

    title: str
    site: str
    tag: str
    pool: tuple[str, ...]


CATALOGUE: dict[str, Feed] = {
    "https://orbitweekly.com/feed.xml": {
        "title": "Orbit Weekly", "site": "https://orbitweekly.com", "tag": "Science",
        "pool": ("New images show dust storms on Mars", "A quiet month for solar flares", "Why the Moon drifts away",
                 "Comet season starts early this year", "Telescope mirrors, explained", "The rocket that landed twice",
                 "Counting exoplanets by their shadows")},
    "https://labnotesdaily.org/rss": {
        "title": "Lab Notes Daily", "site": "https://labnotesdaily.org", "tag": "Science",
        "pool": ("Bees learn faster in groups", "A new way to read old DNA", "Coral that survives the heat",
                 "What sleep does to memory", "The chemistry of burnt toast", "Frogs that glow under blue light",
                 "Soil microbes and the rain")},
    "https://circuitbreaker.tech/rss.xml": {
        "title": "Circuit Breaker", "site": "https://circuitbreaker.tech", "tag": "Tech",
        "pool": ("Phones get longer updates", "The tiny chip in your charger", "Why laptops run hot in summer",
                 "A keyboard you can fold", "Batteries that last a decade", "Repairing a cracked screen at home",
                 "The quiet return of e-ink")},
    "https://osdigest.dev/atom.xml": {
        "title": "Open Source Digest", "site": "https://osdigest.dev", "tag": "Tech",
        "pool": ("A faster package manager lands", "Maintainers on burnout", "The compiler that fits in 4 KB",
                 "Ten years of a text editor", "How small projects find funding", "Fuzzing finds an old bug",
                 "A new release of the build tool")},
    "https://harborcityherald.com/news/rss": {
        "title": "Harbor City Herald", "site": "https://harborcityherald.com", "tag": "News",
        "pool": ("Ferry timetable changes next week", "Council approves the new library", "Harbor festival returns",
                 "Road works on Main Street", "Local bakery wins a national prize", "School garden doubles in size",
                 "Night market moves to the pier")},
    "https://worlddesk.news/feed": {
        "title": "World Desk", "site": "https://worlddesk.news", "tag": "News",
        "pool": ("Rail link opens across the border", "Talks resume on fishing rights", "A record wheat harvest",
                 "Heatwave eases in the south", "Island nation plans a solar grid", "Museum returns old artefacts",
                 "Airlines add night flights")},
    "https://slowcookerdiaries.blog/feed": {
        "title": "Slow Cooker Diaries", "site": "https://slowcookerdiaries.blog", "tag": "",
        "pool": ("Lentil stew for busy weeks", "The best pot for beginners", "Overnight oats, three ways",
                 "A chili that feeds eight", "Bread without kneading", "Pulled jackfruit sandwiches",
                 "Soup stock from scraps")},
    "https://trailandsummit.com/rss": {
        "title": "Trail & Summit", "site": "https://trailandsummit.com", "tag": "",
        "pool": ("Packing light for three days", "Five huts worth the climb", "Blisters and how to avoid them")},
    "https://pixelpushers.design/feed.xml": {
        "title": "Pixel Pushers", "site": "https://pixelpushers.design", "tag": "",
        "pool": ("Colour contrast that works", "Icons at small sizes", "Dark mode done right")},
    "https://thebudgetcook.net/rss": {
        "title": "The Budget Cook", "site": "https://thebudgetcook.net", "tag": "",
        "pool": ("A week of dinners for 30 dollars", "Beans, five ways", "Freezer meals that keep")},
    "https://nightskynotes.org/feed": {
        "title": "Night Sky Notes", "site": "https://nightskynotes.org", "tag": "",
        "pool": ("Finding Saturn this month", "Meteor shower tips", "Binoculars for beginners")},
    "https://indiegamewire.com/rss.xml": {
        "title": "Indie Game Wire", "site": "https://indiegamewire.com", "tag": "",
        "pool": ("A puzzle game made by two friends", "Pixel art on a budget", "The game jam winners")},
}
"""Every feed the sim can fetch, by address."""
SUBSCRIBED = tuple(CATALOGUE)[:7]
"""The feeds the phone starts subscribed to (the rest are known but not subscribed)."""
AUTHORS = ("Maya Lindqvist", "Tomás Ferreira", "Priya Raman", "Jonah Whitaker", "Lena Okafor", "Daniel Cho",
           "Sofia Marchetti", "Owen Gallagher", "Hana Kobayashi", "Rafael Ortiz", "Ines Duarte", "Felix Baumann")
"""Article authors drawn per episode (task authors are other names)."""


def slug(title: str) -> str:
    """An article's title as its address's last part.

    >>> slug("Why the Moon drifts away!")
    'why-the-moon-drifts-away'
    """
    return "-".join(re.findall(r"[0-9a-z]+", title.lower()))


def link_of(feed: str, title: str, date: str) -> str:
    """The address of the article `title` of feed `feed` published on `date` ("YYYY-MM-DD")."""
    return f"{CATALOGUE[feed]['site']}/{date[:4]}/{date[5:7]}/{slug(title)}"


def body_of(title: str, author: str) -> list[str]:
    """An article's paragraphs: plain text that names its title."""
    return [f"{title}. That is the story {author.split()[0]} followed this week, and it is worth a few minutes.",
            "Readers wrote in with questions, and the short answer is that it depends on where you live.",
            "We will follow up with more details as they come in."]


def day_label(day: str) -> str:
    """A day as an article row shows it.

    >>> day_label("2026-06-08")
    'Mon, Jun 8'
    """
    d = datetime.date.fromisoformat(day)
    return f"{d:%a}, {d:%b} {d.day}"


def moment_label(day: str, time: str) -> str:
    """A publication moment as the reader shows it.

    >>> moment_label("2026-06-08", "17:05")
    'Monday, June 8, 2026 5:05 PM'
    """
    d = datetime.date.fromisoformat(day)
    hour, minute = map(int, time.split(":"))
    return f"{d:%A}, {d:%B} {d.day}, {d.year} {(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def seeded_articles(feed: str, seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s articles of `feed`: 3-5 of its pool, by drawn authors, 1-7 days before today, a third read,
    one in eight saved."""  # noqa: D205, D209
    rng = np.random.default_rng(stable_seed("feeder", feed, seed))
    pool = CATALOGUE[feed]["pool"]
    count = min(len(pool), int(rng.integers(3, 6)))
    out = []
    for k in rng.choice(len(pool), size=count, replace=False):
        title, author = pool[int(k)], AUTHORS[int(rng.integers(len(AUTHORS)))]
        date = str(DATE - datetime.timedelta(days=int(rng.integers(1, 8))))
        out.append({"feed": feed, "title": title, "author": author, "date": date,
                    "time": f"{int(rng.integers(6, 22)):02d}:{int(rng.integers(0, 12)) * 5:02d}",
                    "read": bool(rng.random() < 0.33), "saved": bool(rng.random() < 0.125)})
    return out


# -- the typed seam ---------------------------------------------------------------------------------------------------
@closed
class FeedState(TypedDict):
    """A subscribed feed: its address, title, tag ("" untagged) and unread article count."""

    url: str
    title: str
    tag: str
    unread: int


@closed
class ArticleState(TypedDict):
    """An article: its id, feed address, title, author, day ("YYYY-MM-DD"), time ("HH:MM"), link and flags."""

    id: int
    feed: str
    title: str
    author: str
    date: str
    time: str
    link: str
    read: bool
    saved: bool


@closed
class FeedEdit(TypedDict):
    """A feed saved from its edit form this episode: its address and the title and tag it was saved with."""

    url: str
    title: str
    tag: str


@closed
class FeederState(TypedDict):
    """What Feeder reports (`FeederApp.state`).

    Attributes:
        feeds: the subscribed feeds, by title.
        articles: every article of those feeds, newest first.
        screen: the front Feeder screen's name, None when Feeder has none on the stack.
        showing: what the article list shows: "all", "saved", "tag:<tag>" or "feed:<address>".
        open: the id of the article whose reader is in front (or under a menu), or None.
        opened: the ids of the articles opened this episode, in order (repeats kept).
        added: the addresses subscribed to this episode.
        removed: the addresses unsubscribed this episode.
        edited: the feeds saved from their edit form this episode (a new feed's first save is not an edit).
        read_changed: the ids of the articles whose read flag differs from the set-up's.
        saved_changed: the ids of the articles whose saved flag differs from the set-up's.
        copied: the links copied this episode, in order.
    """

    feeds: list[FeedState]
    articles: list[ArticleState]
    screen: str | None
    showing: str
    open: int | None
    opened: list[int]
    added: list[str]
    removed: list[str]
    edited: list[FeedEdit]
    read_changed: list[int]
    saved_changed: list[int]
    copied: list[str]


class FeedSpec(ConfigModel):
    """A feed a task subscribes the phone to (its articles are drawn as the seeded feeds' are).

    Attributes:
        url: a known address (`CATALOGUE`).
        title: its title (default the feed's own).
        tag: its tag ("" untagged; default the feed's own).
    """

    url: str
    title: str | None = None
    tag: str | None = None

    @field_validator("url")
    @classmethod
    def _known(cls, url: str) -> str:
        if url not in CATALOGUE:
            raise ValueError(f"an address the sim knows ({', '.join(CATALOGUE)}), got {url!r}")
        return url


class ArticleSpec(ConfigModel):
    """An article a task puts in a subscribed feed.

    Attributes:
        feed: the feed's address (subscribed at the set-up).
        title: its title (not blank).
        author: its author.
        date: its day ("YYYY-MM-DD").
        time: its time ("HH:MM", 24-hour).
        read: whether it is read.
        saved: whether it is saved.
    """

    feed: str
    title: str
    author: str = "Staff"
    date: str = str(DATE)
    time: str = Field("09:00", pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    read: bool = False
    saved: bool = False

    @field_validator("title")
    @classmethod
    def _not_blank(cls, title: str) -> str:
        return refuse_blank("title", title)

    @field_validator("date")
    @classmethod
    def _iso_day(cls, date: str) -> str:
        return iso_day("date", date)


class FeederInitial(ConfigModel):
    """The initial conditions a Feeder task may set, applied in this order; they are the set-up, not changes.

    Attributes:
        absent: addresses of seeded subscriptions removed (with their articles).
        drop: titles of seeded articles removed.
        feeds: feeds subscribed to (or, when already subscribed, retitled and retagged).
        articles: articles added to subscribed feeds.
        seeded_saved: whether seeded articles may start saved (False: only `articles` start saved).
    """

    absent: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    feeds: tuple[FeedSpec, ...] = ()
    articles: tuple[ArticleSpec, ...] = ()
    seeded_saved: bool = True


def refuse_unsubscribed(feed: str, subscribed: dict[str, Any]) -> None:
    """Refuse an initial article of a feed the set-up leaves unsubscribed.

    Raises:
        ConfigError: naming the address.
    """
    if feed not in subscribed:
        raise ConfigError(f"Feeder: article of `feed` {feed!r}, which the set-up does not subscribe to: add it to "
                          "`feeds` or drop it from `absent`")
