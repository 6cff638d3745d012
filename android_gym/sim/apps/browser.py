"""The Chrome-like browser: a URL bar on every page, navigation over the simulated web, page history and tabs.

Every page is one `Screen` on the phone's back stack, so BACK returns to the previous page (and, from the first
page, to where the user came from). Navigations go through `SimPhone.push(..., slow=True)`, so the slow-load
perturbation shows a spinner before a page appears.

Tabs: the toolbar's "More options" menu opens a new tab or a new incognito tab on the search engine's home page.
A tab's pages carry its number ("tab": 0 for the tab Chrome opened with, then 1, 2, ... in the order they were
opened) and whether it is incognito; BACK from a new tab's first page closes it, back to the page it was opened
from, as Chrome does. A phone's Chrome has no separate windows: "new window" goals mean a new tab.
"""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict

from android_gym.sim.app import ACTION_VIEW, App, Intent, IntentFilter, Screen
from android_gym.sim.app_state import closed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
    IMAGE_BUTTON,
    TEXT_VIEW,
    WEB_VIEW,
    WIDTH,
    text_field,
)
from android_gym.sim.view import View
from android_gym.sim.web import SEARCH_HOST, Site, make_sites
from android_gym.sim.web.local import HOST as LOCAL_HOST
from android_gym.sim.web.local import BrowserInitial, LocalPageState, LocalSite, local_parts
from android_gym.sim.web.search import QUERY_BOX
from android_gym.sim.web.shops import ShopSite
from android_gym.sim.web.site import PACKAGE, WEB_TOP, display_url, split_url

URL_BAR = f"{PACKAGE}:id/url_bar"
"""Resource-id of the URL bar (an EditText on every page)."""
HOME_URL = f"https://www.{SEARCH_HOST}/"
"""The page a new tab (and the toolbar's Home button) opens."""
MENU = "menu"
"""The screen of the toolbar's "More options" menu (over the page it was opened on)."""
MENU_ITEMS = (("New tab", ("new_tab", False)), ("New incognito tab", ("new_tab", True)), ("History", ("close_menu",)),
              ("Downloads", ("close_menu",)), ("Bookmarks", ("close_menu",)), ("Settings", ("close_menu",)))
"""The menu's rows and their events (the last four close the menu: the sim has no such pages)."""
MENU_ROW_H = 140


# -- the typed seam: the state tasks read (Chrome takes no initial conditions) ----------------------------------------
@closed
class AnswerCard(TypedDict):
    """The search engine's answer card (`android_gym.sim.web.content.Answer`): its kind, subject, second key ("" for
    none) and first line, the answer itself."""  # noqa: D205, D209

    kind: Literal["flights", "hotels", "rent", "weather", "time", "restaurants", "population", "capital", "office",
                  "exchange", "menu", "directions", "fact", "news", "price"]
    subject: str
    detail: str
    text: str


@closed
class ProductState(TypedDict):
    """A shop's product (`android_gym.sim.web.catalog.Product`): price in US dollars, rank 1-based among the organic
    results (None for an advert), slot its index among the organic results or among the adverts."""  # noqa: D205, D209

    pid: str
    host: str
    query: str
    title: str
    price: float
    rating: float
    reviews: int
    rank: int | None
    sponsored: bool
    slot: int


@closed
class CartItem(ProductState):
    """A product in a shop's cart, with how many of it."""

    qty: int


@closed
class PostState(TypedDict):
    """The forum's post: its id, title and rank on the front page (1: today's top post)."""

    id: str
    title: str
    rank: int


@closed
class BrowserState(TypedDict):
    """What Chrome reports (`Browser.state`).

    Attributes:
        url, host, page: the front page's canonical URL, normalised host ("amazon.com") and kind; None when Chrome
            is not in front.
        loading: whether that page still shows a spinner (its content is not on screen yet).
        query: the normalised search terms of a result page, or of the search a product was found by, else None.
        answer: the answer card of the search engine's result page in front, else None.
        product: the product of the product page in front, else None.
        post: the post of the forum's post page in front, else None.
        local: the local HTML page in front (a file of storage: `android_gym.sim.web.local`), else None.
        cart: every item in every shop's cart.
        history: the URLs of Chrome's pages on the back stack, oldest first.
        layouts: each shop's layout this episode, by host ({"amazon.com": "banner/cards/ids1"}).
        tab: the front page's tab (0: the tab Chrome opened with), None when Chrome is not in front.
        incognito: whether that tab is incognito.
        menu_open: whether the "More options" menu shows.
        tabs_opened: the tabs opened from the menu this episode.
    """

    url: str | None
    host: str | None
    page: Literal["search_home", "search_results", "home", "results", "product", "cart", "article", "post", "maze",
                  "multiply", "colors", "missing"] | None
    loading: bool
    query: str | None
    answer: AnswerCard | None
    product: ProductState | None
    post: PostState | None
    local: LocalPageState | None
    cart: list[CartItem]
    history: list[str]
    layouts: dict[str, str]
    tab: int | None
    incognito: bool
    menu_open: bool
    tabs_opened: int


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
    intent_filters = (IntentFilter(ACTION_VIEW, ("http://", "https://", "file://")),)
    is_browser = True  # the phone shows cookie banners over browser pages
    state_schema = BrowserState
    initial_model = BrowserInitial

    salt: int
    sites: dict[str, Site]
    tabs_opened: int

    def reset(self) -> None:
        """A fresh browser: new per-episode salt, new site layouts (both drawn from the phone's RNG), empty carts."""
        self.salt = int(self.phone.rng.integers(2**31))
        self.sites = make_sites(self)
        self.tabs_opened = 0

    def set_up(self, initial: BrowserInitial) -> None:
        """Tell Chrome what the local HTML files hold."""
        local = self.sites[LOCAL_HOST]
        if isinstance(local, LocalSite):
            local.pages = {spec.path: spec.to_data() for spec in initial.local_pages}

    def home(self) -> Screen:
        """A new tab: the search engine's home page."""
        return self.page(HOME_URL)

    # -- navigation ----------------------------------------------------------------------------------------------------
    def on_intent(self, intent: Intent) -> bool:
        """A web address to view: the browser opens on that page."""
        self.phone.open(self.package, self.page(intent.data))
        return True

    def page(self, text: str, tab: int = 0, incognito: bool = False) -> Screen:
        """The page for a web address, or the search engine's results for any other text, in tab `tab`."""
        parts = local_parts(text) or split_url(text)
        site = self.sites.get(parts[0]) if parts else None
        if parts is None or site is None:
            site = self.sites[SEARCH_HOST]
            name, args = site.route("/search", {"q": text})
        else:
            name, args = site.route(parts[1], parts[2])
        return Screen(PACKAGE, name, {"url": site.url(name, args), "host": site.host, **args, "tab": tab,
                                      "incognito": incognito})

    def go(self, url: str, screen: Screen) -> bool:
        """Open `url` (or search for it) as a new history entry after `screen`, in its tab; the load may be slow."""
        screen.focus = None  # coming BACK to this page shows it without the keyboard, as Chrome does
        screen.fields.pop(URL_BAR, None)
        tab, incognito = screen.args.get("tab", 0), screen.args.get("incognito", False)
        return self.phone.push(self.page(url, tab, incognito), slow=True)

    def new_tab(self, incognito: bool) -> bool:
        """Close the menu and open a new (incognito) tab on the search engine's home page."""
        self.phone.pop()
        self.tabs_opened += 1
        return self.phone.push(self.page(HOME_URL, self.tabs_opened, incognito))

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
        """Chrome's toolbar and the page in a scrolling WebView (under the menu, when it is open)."""
        if screen.name == MENU:
            return [*self.build(self._under_menu()), self._menu()]
        page = View(WEB_VIEW, (0, WEB_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, scrollable=True,
                    children=self.site(screen).build(screen))
        return [self._toolbar(screen), page]

    def _under_menu(self) -> Screen:
        return self.phone.screens(PACKAGE)[-2]

    def _menu(self) -> View:
        """The "More options" pop-up at the top right, over a scrim that closes it."""
        x0, x1, y0 = WIDTH - 600, WIDTH - 24, CONTENT_TOP + 24
        rows = [View(TEXT_VIEW, (x0, y0 + 30 + i * MENU_ROW_H, x1, y0 + 30 + (i + 1) * MENU_ROW_H), text=label,
                     rid=f"{PACKAGE}:id/menu_item", package=PACKAGE, clickable=True, focusable=True, on_tap=event,
                     style="row")
                for i, (label, event) in enumerate(MENU_ITEMS)]
        box = View(FRAME, (x0, y0, x1, y0 + 60 + len(rows) * MENU_ROW_H), rid=f"{PACKAGE}:id/app_menu_list",
                   package=PACKAGE, style="dialog", children=rows)
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=PACKAGE, clickable=True, on_tap=("close_menu",),
                    style="scrim", children=[box])

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
        incognito = bool(screen.args.get("incognito"))
        return View(FRAME, (0, top, WIDTH, bottom), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE,
                    desc="Incognito tab" if incognito else "", style="scrim" if incognito else "toolbar",
                    children=kids)

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Links navigate; other events belong to the page's site."""
        match event:
            case ("go", url):
                return self.go(url, screen)
            case ("menu",):
                return self.phone.push(Screen(PACKAGE, MENU, dict(screen.args)))
            case ("close_menu",):
                return self.phone.pop()
            case ("new_tab", incognito):
                return self.new_tab(bool(incognito))
            case _:  # the page's own events
                return self.site(screen).handle(event, screen)

    def on_drag(self, screen: Screen, start: tuple[float, float], end: tuple[float, float]) -> bool:
        """A drag the page takes (a canvas), in page pixels; else the WebView scrolls."""
        if screen.name == MENU or screen.loading:
            return False
        return self.site(screen).drag(screen, (start[0], start[1] + screen.scroll), (end[0], end[1] + screen.scroll))

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the URL bar navigates (or searches); in a page's field, the site decides."""
        if screen.name == MENU:
            return False
        if rid == URL_BAR:
            text = screen.fields.get(URL_BAR, "").strip()
            return bool(text) and self.go(text, screen)
        return self.site(screen).submit(screen, rid)

    # -- state ---------------------------------------------------------------------------------------------------------
    def state(self) -> BrowserState:
        """The front page, the carts, the history and the tabs, as plain data (see `BrowserState`)."""
        shops = [s for s in self.sites.values() if isinstance(s, ShopSite)]
        out: BrowserState = {"url": None, "host": None, "page": None, "loading": False, "query": None,
                             "answer": None, "product": None, "post": None, "local": None,
                             "cart": [item for s in shops for item in s.state()["cart"]],
                             "history": [s.args["url"] for s in self.phone.screens(PACKAGE) if s.name != MENU],
                             "layouts": {s.host: s.layout.name for s in shops}, "tab": None, "incognito": False,
                             "menu_open": False, "tabs_opened": self.tabs_opened}
        if self.phone.screens(PACKAGE) and self.phone.foreground == PACKAGE:
            screen = self.phone.top
            if screen.name == MENU:
                out["menu_open"] = True
                screen = self._under_menu()
            out.update(url=screen.args["url"], host=screen.args["host"], page=screen.name,
                       loading=screen.loading > 0, tab=screen.args.get("tab", 0),
                       incognito=bool(screen.args.get("incognito")))
            facts = self.site(screen).describe(screen)
            out.update({k: facts[k] for k in ("query", "answer", "product", "post", "local") if k in facts})
        return out
