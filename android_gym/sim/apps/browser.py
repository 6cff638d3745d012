"""The Chrome-like browser: a URL bar on every page, navigation over the simulated web, and page history.

Every page is one `Screen` on the phone's back stack, so BACK returns to the previous page (and, from the first
page, to where the user came from). Navigations go through `SimPhone.push(..., slow=True)`, so the slow-load
perturbation shows a spinner before a page appears.
"""

from __future__ import annotations

from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import CONTENT_BOTTOM, CONTENT_TOP, FRAME, IMAGE_BUTTON, WEB_VIEW, WIDTH, text_field
from android_gym.sim.view import View
from android_gym.sim.web import SEARCH_HOST, Site, make_sites
from android_gym.sim.web.search import QUERY_BOX
from android_gym.sim.web.shops import ShopSite
from android_gym.sim.web.site import PACKAGE, WEB_TOP, display_url, split_url

URL_BAR = f"{PACKAGE}:id/url_bar"
"""Resource-id of the URL bar (an EditText on every page)."""
HOME_URL = f"https://www.{SEARCH_HOST}/"
"""The page a new tab (and the toolbar's Home button) opens."""


class Browser(App):
    """Chrome: web pages with a URL bar, one `Screen` per page.

    `Screen.name` is the page kind, `Screen.args` holds "url", "host" and the page's own arguments (see
    `android_gym.sim.web.search` and `android_gym.sim.web.shops`).

    Typing in the URL bar and pressing ENTER opens a known site's page for a web address ("amazon.com",
    "https://www.ebay.com/sch/i.html?_nkw=lamp"); anything else is searched for on the search engine.
    """

    package = PACKAGE
    label = "Chrome"
    icon = "chrome"
    aliases = ("browser", "google chrome")
    is_browser = True  # the phone shows cookie banners over browser pages

    salt: int
    sites: dict[str, Site]

    def reset(self) -> None:
        """A fresh browser: new per-episode salt, new site layouts (both drawn from the phone's RNG), empty carts."""
        self.salt = int(self.phone.rng.integers(2**31))
        self.sites = make_sites(self)

    def home(self) -> Screen:
        """A new tab: the search engine's home page."""
        return self.page(HOME_URL)

    # -- navigation ----------------------------------------------------------------------------------------------------
    def page(self, text: str) -> Screen:
        """The page for a web address, or the search engine's results for any other text."""
        parts = split_url(text)
        site = self.sites.get(parts[0]) if parts else None
        if parts is None or site is None:
            site = self.sites[SEARCH_HOST]
            name, args = site.route("/search", {"q": text})
        else:
            name, args = site.route(parts[1], parts[2])
        return Screen(PACKAGE, name, {"url": site.url(name, args), "host": site.host, **args})

    def go(self, url: str, screen: Screen) -> bool:
        """Open `url` (or search for it) as a new history entry after `screen`; the load may be slow."""
        screen.focus = None  # coming BACK to this page shows it without the keyboard, as Chrome does
        screen.fields.pop(URL_BAR, None)
        return self.phone.push(self.page(url), slow=True)

    def search_intent(self) -> bool:
        """The launcher's search bar: the search engine's home page with the query box focused."""
        screen = self.page(HOME_URL)
        screen.focus = QUERY_BOX
        return self.phone.open(PACKAGE, screen)

    # -- views and events ----------------------------------------------------------------------------------------------
    def site(self, screen: Screen) -> Site:
        """The site that owns a page."""
        return self.sites[screen.args["host"]]

    def build(self, screen: Screen) -> list[View]:
        """Chrome's toolbar and the page in a scrolling WebView."""
        page = View(WEB_VIEW, (0, WEB_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, scrollable=True,
                    children=self.site(screen).build(screen))
        return [self._toolbar(screen), page]

    def _toolbar(self, screen: Screen) -> View:
        typed = screen.fields.get(URL_BAR, "")
        focused = screen.focus == URL_BAR
        shown = typed if (typed or focused) else display_url(screen.args["url"])
        top, bottom = CONTENT_TOP, WEB_TOP
        kids = [View(IMAGE_BUTTON, (0, top, 144, bottom), desc="Home", rid=f"{PACKAGE}:id/home_button",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("go", HOME_URL), icon="home"),
                text_field((144, top + 24, WIDTH - 168, bottom - 24), URL_BAR, shown, "Search or type URL", focused,
                           PACKAGE, icon="lock"),
                View(IMAGE_BUTTON, (WIDTH - 168, top, WIDTH, bottom), desc="More options",
                     rid=f"{PACKAGE}:id/menu_button", package=PACKAGE, clickable=True, focusable=True,
                     on_tap=("menu",), icon="more")]
        return View(FRAME, (0, top, WIDTH, bottom), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar",
                    children=kids)

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Links navigate; other events belong to the page's site."""
        match event:
            case ("go", url):
                return self.go(url, screen)
            case _:  # ("menu",) and the page's own events
                return self.site(screen).handle(event, screen)

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the URL bar navigates (or searches); in a page's field, the site decides."""
        if rid == URL_BAR:
            text = screen.fields.get(URL_BAR, "").strip()
            return bool(text) and self.go(text, screen)
        return self.site(screen).submit(screen, rid)

    # -- state ---------------------------------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """What task checks read, as plain data.

        Returns:
            A dict with:
              * "url", "host", "page": the front page's canonical URL, normalised host ("amazon.com") and kind
                ("search_home", "search_results", "home", "results", "product", "cart", "article"); all None
                when Chrome is not in front;
              * "loading": whether that page still shows a spinner (its content is not on screen yet);
              * "query": the normalised search terms of a result page or of the search a product was found by,
                else None;
              * "answer": on the search engine's result page, its answer card {"kind", "subject", "detail",
                "text"} (see `android_gym.sim.web.content.Answer`), else None;
              * "product": on a product page, {"pid", "host", "query", "title", "price" (US dollars), "rating",
                "reviews", "rank" (1-based organic rank, None for an advert), "sponsored", "slot"}, else None;
              * "cart": every item in every shop's cart: the product dict above plus "qty";
              * "history": the URLs of Chrome's pages on the back stack, oldest first;
              * "layouts": each shop's layout this episode, e.g. {"amazon.com": "banner/cards/ids1"}.
        """
        shops = [s for s in self.sites.values() if isinstance(s, ShopSite)]
        out: dict[str, Any] = {"url": None, "host": None, "page": None, "loading": False, "query": None,
                               "answer": None, "product": None,
                               "cart": [item for s in shops for item in s.state()["cart"]],
                               "history": [s.args["url"] for s in self.phone.screens(PACKAGE)],
                               "layouts": {s.host: s.layout.name for s in shops}}
        if self.phone.screens(PACKAGE) and self.phone.foreground == PACKAGE:
            screen = self.phone.top
            out.update(url=screen.args["url"], host=screen.args["host"], page=screen.name,
                       loading=screen.loading > 0)
            facts = self.site(screen).describe(screen)
            out.update({k: facts[k] for k in ("query", "answer", "product") if k in facts})
        return out
