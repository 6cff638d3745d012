"""The contract between the browser and the web sites it shows, URL handling, and the views pages share.

A `Site` turns a URL path into a page (a name plus plain-data arguments), builds a page's views, and reacts to the
events of those views. Sites never touch the phone's back stack: they ask the browser (`Web.go`) to navigate, so
history and slow loads are handled in one place.
"""

from __future__ import annotations

from typing import Any, Protocol
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from android_gym.sim.app import PhoneServices, Screen, stable_seed
from android_gym.sim.layout import BUTTON, CONTENT_TOP, FRAME, MARGIN, TEXT_VIEW, TOOLBAR_H, WIDTH, Column, text_field
from android_gym.sim.view import View

PACKAGE = "com.android.chrome"
"""Web content is reported under the browser's package, as Chrome's accessibility tree does."""
WEB_TOP = CONTENT_TOP + TOOLBAR_H
"""Top of the web page area (below Chrome's toolbar), in device pixels."""
_HOST_PREFIXES = ("www.", "m.", "en.", "mobile.")


class Web(Protocol):
    """What a site may ask of the browser that shows it."""

    phone: PhoneServices
    salt: int  # drawn from the phone's RNG at reset: per-episode choices (advert slots) derive from it

    def go(self, url: str, screen: Screen) -> bool:
        """Navigate from `screen` to `url` (a new history entry, maybe a slow load)."""
        ...


class Site:
    """A web site: routes, pages and events. Subclasses override `route`, `build`, and optionally the rest.

    Args:
        web: the browser showing the site.
        host: the site's normalised host, e.g. "amazon.com".
        name: its display name, e.g. "Amazon".
    """

    def __init__(self, web: Web, host: str, name: str) -> None:
        self.web = web
        self.host = host
        self.name = name

    def route(self, path: str, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """The page (name, plain-data args) for a URL path and query parameters; unknown paths give the home page."""
        raise NotImplementedError

    def url(self, page: str, args: dict[str, Any]) -> str:
        """The canonical URL of a page."""
        return f"https://www.{self.host}/"

    def build(self, screen: Screen) -> list[View]:
        """The page's views, laid out from `WEB_TOP` down, unscrolled (the browser puts them in a scrolling WebView)."""
        raise NotImplementedError

    def handle(self, event: tuple, screen: Screen) -> bool:
        """React to an event of one of the page's views (links are handled by the browser); return whether it did."""
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the page's field `rid`; return whether anything changed."""
        return False

    def drag(self, screen: Screen, start: tuple[float, float], end: tuple[float, float]) -> bool:
        """A finger drag from `start` to `end` (page pixels: device pixels plus the scroll) that the page takes (a
        canvas); return whether it did (else the WebView scrolls)."""  # noqa: D205, D209
        return False

    def describe(self, screen: Screen) -> dict[str, Any]:
        """Page-level facts for the browser's `state()` ("query", "answer", "product", "layout"; absent = None)."""
        return {}

    def state(self) -> dict[str, Any]:
        """Site-level facts that outlive a page (a shop's cart)."""
        return {}


class ArticleSite(Site):
    """Any other site the search engine links to (encyclopedias, news, reviews): one seeded article per path."""

    def route(self, path: str, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """Every path is an article; its last segment names it."""
        last = path.rstrip("/").rsplit("/", 1)[-1]
        return "article", {"path": path, "title": last.replace("_", " ").replace("-", " ").strip() or self.name}

    def url(self, page: str, args: dict[str, Any]) -> str:
        """The article's URL."""
        return f"https://www.{self.host}{args['path']}"

    def build(self, screen: Screen) -> list[View]:
        """Site name, the article's title and seeded paragraphs."""
        col = Column(WEB_TOP + 24, PACKAGE)
        col.text(self.name, height=110, style="logo")
        col.text(screen.args["title"], height=150, style="title")
        rng = np.random.default_rng(stable_seed("article", self.host, screen.args["path"]))
        for _ in range(6):
            words = [_FILLER[int(i)] for i in rng.integers(len(_FILLER), size=int(rng.integers(18, 30)))]
            col.text(" ".join(words).capitalize() + ".", height=260)
        return col.views


_FILLER = ("the", "city", "report", "many", "visitors", "new", "data", "shows", "people", "often", "local", "season",
           "price", "review", "experts", "say", "market", "best", "years", "history", "popular", "guide", "today")


def normalize_host(host: str) -> str:
    """A host without "www."-like prefixes, lower-case.

    >>> normalize_host("WWW.Amazon.com")
    'amazon.com'
    """
    host = host.strip().lower().rstrip(".")
    for prefix in _HOST_PREFIXES:
        if host.startswith(prefix):
            host = host[len(prefix):]
    return host


def split_url(text: str) -> tuple[str, str, dict[str, str]] | None:
    """(host, path, params) when `text` reads as a web address, else None (the browser searches for it instead).

    >>> split_url("amazon.com")
    ('amazon.com', '/', {})
    >>> split_url("https://www.google.com/search?q=a+b")
    ('google.com', '/search', {'q': 'a b'})
    >>> split_url("weather in paris") is None
    True
    """
    t = text.strip()
    if not t or any(c.isspace() for c in t):
        return None
    if "://" in t:
        scheme, _, t = t.partition("://")
        if scheme.lower() not in ("http", "https"):
            return None
    parts = urlsplit("//" + t)
    host = normalize_host(parts.hostname or "")
    if "." not in host.strip(".") or not all(p.isalnum() or "-" in p for p in host.split(".")):
        return None
    return host, parts.path or "/", dict(parse_qsl(parts.query))


def display_url(url: str) -> str:
    """What Chrome's URL bar shows for a URL: no scheme, no "www.", no trailing slash.

    >>> display_url("https://www.amazon.com/")
    'amazon.com'
    """
    rest = url.split("://", 1)[-1]
    return (rest[4:] if rest.startswith("www.") else rest).rstrip("/")


def header(col: Column, name: str, cart: int | None = None, cart_url: str = "", cart_rid: str = "") -> View:
    """A site's top bar: its logo and, for shops, a cart button with the item count."""
    y = col.y
    kids = [View(TEXT_VIEW, (MARGIN, y, 640, y + 150), text=name, desc=f"{name} home", package=PACKAGE,
                 style="logo")]
    if cart is not None:
        kids.append(View(BUTTON, (WIDTH - 340, y + 20, WIDTH - MARGIN, y + 130), text=f"Cart ({cart})",
                         desc=f"Cart, {cart} items", rid=cart_rid, package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("go", cart_url), style="button", icon="cart"))
    return col.add(View(FRAME, (0, y, WIDTH, y + 150), package=PACKAGE, style="toolbar", children=kids))


def search_field(col: Column, screen: Screen, rid: str, placeholder: str, current: str = "",
                 height: int = 140) -> View:
    """A site's search box: shows what was typed, else the current query, else the placeholder.

    Focusing it selects the old text (typing replaces it), as on real sites, so the field's value starts empty.
    """
    typed = screen.fields.get(rid, "")
    focused = screen.focus == rid
    shown = typed if (typed or focused) else current
    return col.add(text_field((MARGIN, col.y, WIDTH - MARGIN, col.y + height), rid, shown, placeholder, focused,
                              PACKAGE, icon="search"))
