"""The search engine (google.com): a home page with a query box, and result pages with answer cards and links.

Pages and their args: "search_home" {} and "search_results" {"query": the query as typed, spaces collapsed}.
A result page shows the answer card of `content.answer(query)` when there is one, then about eight links; when the
sponsored perturbation is on, one or two "Sponsored" links (drawn per episode) come first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_plus

import numpy as np

from android_gym.sim.app import Screen, stable_seed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import LINEAR, MARGIN, TEXT_VIEW, WIDTH, Column
from android_gym.sim.view import View
from android_gym.sim.web.catalog import CATEGORY_OF, display_name, normalize
from android_gym.sim.web.content import Answer, answer, find_name, slug
from android_gym.sim.web.places import WORLD_CITIES, title
from android_gym.sim.web.shop_specs import SHOPS
from android_gym.sim.web.site import PACKAGE, WEB_TOP, Site, Web, display_url, search_field

HOST = "google.com"
QUERY_BOX = "search-query"
"""Resource-id of the query box on both search pages."""
RESULTS_PER_PAGE = 8
_TRAVEL_ADS = (("booking.com", "Hotels in {city} - Book Now"), ("expedia.com", "Cheap Flights to {city} | Expedia"))

ARTICLE_SITES: dict[str, str] = {
    "wikipedia.org": "Wikipedia", "weather.com": "The Weather Channel", "accuweather.com": "AccuWeather",
    "bbc.com": "BBC", "reuters.com": "Reuters", "cnn.com": "CNN", "nytimes.com": "The New York Times",
    "theguardian.com": "The Guardian", "yelp.com": "Yelp", "tripadvisor.com": "Tripadvisor",
    "opentable.com": "OpenTable", "timeanddate.com": "timeanddate.com", "reddit.com": "Reddit", "quora.com": "Quora",
    "youtube.com": "YouTube", "rtings.com": "RTINGS.com", "cnet.com": "CNET", "britannica.com": "Britannica",
    "booking.com": "Booking.com", "expedia.com": "Expedia", "medium.com": "Medium",
}
"""Non-shop sites results link to (each shows a seeded article)."""


@dataclass(frozen=True)
class Result:
    """One link of a result page: its title, URL, site name, snippet, and whether it is an advert."""

    title: str
    url: str
    site: str
    snippet: str
    sponsored: bool = False


def _article(host: str, path: str, heading: str, snippet: str) -> Result:
    return Result(heading, f"https://www.{host}/{path}", ARTICLE_SITES[host], snippet)


def organic_results(query: str) -> list[Result]:
    """The non-sponsored links for `query`, best first (the same in every process and episode)."""
    q = normalize(query)
    out: list[Result] = []
    for spec in SHOPS.values():  # a query naming a shop leads with the shop's home page
        if find_name([spec.host, spec.name.lower(), spec.host.split(".")[0]], q):
            out.append(Result(f"{spec.name}.com: Online Shopping", f"https://www.{spec.host}/", spec.name,
                              f"Shop online at {spec.name}. Free shipping on millions of items."))
    product = find_name(CATEGORY_OF, q)
    card = answer(q)
    if product:
        name = display_name(product)
        rng = np.random.default_rng(stable_seed("serp", product))
        for host in rng.permutation(sorted(SHOPS))[:5]:
            spec = SHOPS[str(host)]
            out.append(Result(f"{name} : {spec.name}", spec.search_url(product), spec.name,
                              f"Results 1-48 of 500 for {name}. Free shipping, easy returns."))
        out += [_article("rtings.com", f"reviews/{slug(product)}", f"The best {name} deals of the year",
                         f"We tested the {name} so you don't have to."),
                _article("reddit.com", f"r/BuyItForLife/{slug(product)}", f"Is the {name} worth it? : r/BuyItForLife",
                         "Owners share their experience after a year of use.")]
    elif card is not None:
        out += _topical(card)
    words = slug(query) or "Search"
    pad = [_article("wikipedia.org", f"wiki/{words}", f"{query.strip().capitalize()} - Wikipedia",
                    "From Wikipedia, the free encyclopedia."),
           _article("youtube.com", f"results/{words}", f"{query.strip().capitalize()} - YouTube", "Videos"),
           _article("reddit.com", f"r/search/{words}", f"{query.strip()} : r/AskReddit", "Discussion thread."),
           _article("quora.com", words, f"What should I know about {query.strip()}? - Quora", "Answers."),
           _article("medium.com", f"tag/{words}", f"{query.strip().capitalize()} – Medium", "Stories."),
           _article("britannica.com", f"topic/{words}", f"{query.strip().capitalize()} | Britannica", "Facts.")]
    out += pad[: max(0, RESULTS_PER_PAGE - len(out))]
    return out[:RESULTS_PER_PAGE]


def _topical(card: Answer) -> list[Result]:
    s, name = slug(title(card.subject)), title(card.subject)
    if card.kind == "weather":
        return [_article("weather.com", f"weather/today/{s}", f"{name} Weather Forecast", "Hourly and 10-day."),
                _article("accuweather.com", f"en/{s}/weather-forecast", f"{name} Weather - AccuWeather",
                         "Current conditions and radar."),
                _article("bbc.com", f"weather/{s}", f"{name} - BBC Weather", "14-day forecast.")]
    if card.kind == "time":
        return [_article("timeanddate.com", f"worldclock/{s}", f"Current Local Time in {name}", "Time zone info.")]
    if card.kind == "restaurants":
        kind = f"{card.detail.capitalize()} " if card.detail else ""
        return [_article("yelp.com", f"search/{slug(kind)}{s}", f"THE BEST 10 {kind}Restaurants in {name}", "Yelp"),
                _article("tripadvisor.com", f"Restaurants-{s}", f"{kind}Restaurants in {name} - Tripadvisor", ""),
                _article("opentable.com", f"{s}-restaurants", f"{kind}Restaurants in {name} | OpenTable", "")]
    if card.kind == "news":
        return [_article("reuters.com", f"topic/{s}", f"{name} | Latest news from Reuters", "Breaking news."),
                _article("bbc.com", f"news/topics/{s}", f"{name} - BBC News", "Latest updates."),
                _article("cnn.com", f"specials/{s}", f"{name} news - CNN", "Live updates."),
                _article("theguardian.com", s.lower(), f"{name} | The Guardian", "")]
    return [_article("britannica.com", f"place/{s}", f"{name} | Facts & History | Britannica", "")]


class SearchEngine(Site):
    """The search engine: home page, result pages (answer card, sponsored and organic links)."""

    def __init__(self, web: Web) -> None:
        super().__init__(web, HOST, "Google")

    def route(self, path: str, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """"/search?q=" is a result page; everything else is the home page."""
        query = " ".join(params.get("q", "").split())
        if path == "/search" and query:
            return "search_results", {"query": query}
        return "search_home", {}

    def url(self, page: str, args: dict[str, Any]) -> str:
        """The canonical URL of a page."""
        if page == "search_results":
            return f"https://www.{HOST}/search?q={quote_plus(args['query'])}"
        return f"https://www.{HOST}/"

    def results(self, query: str) -> list[Result]:
        """The links of a result page, sponsored ones (this episode's, when the perturbation is on) first."""
        organic = organic_results(query)
        if not self.web.phone.perturbations.sponsored:
            return organic
        q = normalize(query)
        count = 1 + stable_seed("serp-ads", self.web.salt, q) % 2
        rng = np.random.default_rng(stable_seed("serp-ads", q))
        product = find_name(CATEGORY_OF, q)
        city = find_name(WORLD_CITIES, q)
        ads = []
        for i, host in enumerate(rng.permutation(sorted(SHOPS))[:count]):
            spec = SHOPS[str(host)]
            if product:
                ads.append(Result(f"{display_name(product)} - Huge Savings | {spec.name}",
                                  spec.search_url(product), spec.name, "Shop today's deals.", sponsored=True))
            elif city:
                travel, heading = _TRAVEL_ADS[i]
                ads.append(Result(heading.format(city=title(city)), f"https://www.{travel}/city/{slug(city)}",
                                  ARTICLE_SITES[travel], "Free cancellation on most bookings.", sponsored=True))
            else:
                ads.append(Result(f"Shop millions of items | {spec.name}", f"https://www.{spec.host}/", spec.name,
                                  "Low prices every day.", sponsored=True))
        return ads + organic

    def build(self, screen: Screen) -> list[View]:
        """Home page (logo, query box, buttons) or a result page."""
        col = Column(WEB_TOP + 24, PACKAGE)
        if screen.name == "search_home":
            col.gap(200)
            col.text("Google", height=260, style="logo", desc="Google")
            search_field(col, screen, QUERY_BOX, "Search or type URL", height=160)
            col.gap(40)
            col.button("Google Search", ("search_button",), height=140)
            return col.views
        query = screen.args["query"]
        col.text("Google", height=110, style="logo", desc="Google")
        search_field(col, screen, QUERY_BOX, "Search", query)
        col.text("All   News   Images   Shopping   Videos", height=100, style="tabs")
        card = answer(query)
        if card is not None:
            self._card(col, card)
        for result in self.results(query):
            self._link(col, result)
        return col.views

    def _card(self, col: Column, card: Answer) -> None:
        top = col.y
        kids = [View(TEXT_VIEW, (MARGIN + 32, top + 20, WIDTH - MARGIN - 32, top + 110), text=card.title,
                     package=PACKAGE, style="title")]
        y = top + 110
        for i, line in enumerate(card.lines):
            h = 130 if i == 0 else 90
            kids.append(View(TEXT_VIEW, (MARGIN + 32, y, WIDTH - MARGIN - 32, y + h), text=line, package=PACKAGE,
                             style="answer" if i == 0 else ""))
            y += h
        col.add(View(LINEAR, (MARGIN, top, WIDTH - MARGIN, y + 30), rid="answer-card", package=PACKAGE,
                     style="card", children=kids))
        col.gap(30)

    def _link(self, col: Column, r: Result) -> None:
        x0, x1, top = MARGIN, WIDTH - MARGIN, col.y
        y = top
        kids = []
        if r.sponsored:
            kids.append(View(TEXT_VIEW, (x0, y, x1, y + 56), text="Sponsored", package=PACKAGE, style="meta"))
            y += 56
        kids += [View(TEXT_VIEW, (x0, y, x1, y + 60), text=f"{r.site} · {display_url(r.url)}", package=PACKAGE,
                      style="url"),
                 View(TEXT_VIEW, (x0, y + 60, x1, y + 170), text=r.title, package=PACKAGE, style="link"),
                 View(TEXT_VIEW, (x0, y + 170, x1, y + 260), text=r.snippet, package=PACKAGE)]
        col.add(View(LINEAR, (x0, top, x1, y + 270), package=PACKAGE, clickable=True, focusable=True,
                     on_tap=("go", r.url), style="sponsored" if r.sponsored else "link", children=kids))
        col.gap(24)

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The "Google Search" button searches for the query box's text."""
        match event:
            case ("search_button",):
                return self.submit(screen, QUERY_BOX)
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the query box opens the result page (an empty box does nothing)."""
        query = " ".join(screen.fields.get(rid, "").split())
        return bool(query) and self.web.go(self.url("search_results", {"query": query}), screen)

    def describe(self, screen: Screen) -> dict[str, Any]:
        """The normalised query and the answer card of a result page."""
        if screen.name != "search_results":
            return {}
        card = answer(screen.args["query"])
        return {"query": normalize(screen.args["query"]), "answer": card.to_state() if card else None}
