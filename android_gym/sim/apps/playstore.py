"""The Play Store app: search a seeded catalogue of apps, open an app page, install (over a few agent steps),
uninstall (after a confirmation), and update the installed apps from Manage apps & device.

An install, or an update, completes `INSTALL_STEPS` agent steps after its tap: progress is read from `phone.steps`, so
no timer runs between steps. Installed apps do not appear in the launcher (the sim has no code to run them). An
installed app may have an update available (an initial condition, `PlayStoreInitial`); Manage apps & device (the
account button of the home screen) lists those with their Update buttons and an Update all. Tasks read
`PlayStoreState`.
"""  # noqa: D205

from __future__ import annotations

from typing import Any, Literal, Self

import numpy as np
from pydantic import field_validator, model_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.errors import closest
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import alert_dialog, inert
from android_gym.sim.app_state import closed
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "com.android.vending"
SEARCH_RID = f"{PACKAGE}:id/search_bar_text_input"
ROW_H = 260
INSTALL_STEPS = 2
MAX_RESULTS = 8

_BRANDS = ("Blue", "Bright", "Quick", "Smart", "Happy", "Daily", "Simple", "Pocket", "Super", "Zen", "Nova", "Pixel",
           "Sunny", "Lucky", "Cosmic", "Tiny", "Mega", "Green", "Swift", "Magic", "Bold", "Clever", "Fresh", "Urban")
_KINDS = (("Notes", "Productivity"), ("Weather", "Weather"), ("Budget", "Finance"), ("Recipes", "Food & Drink"),
          ("Fitness", "Health & Fitness"), ("Puzzle", "Puzzle"), ("Scanner", "Tools"), ("Translator", "Tools"),
          ("Planner", "Productivity"), ("Radio", "Music & Audio"), ("Podcasts", "Music & Audio"),
          ("Meditation", "Health & Fitness"), ("Chess", "Board"), ("Solitaire", "Card"), ("Flashlight", "Tools"),
          ("Photo Editor", "Photography"), ("Run Tracker", "Health & Fitness"), ("Sleep Sounds", "Health & Fitness"),
          ("Habit Tracker", "Productivity"), ("Wallpapers", "Personalization"), ("Sudoku", "Puzzle"),
          ("Password Vault", "Tools"), ("Bus Times", "Maps & Navigation"), ("Flashcards", "Education"))
_KIND_OF = dict(_KINDS)


def _catalogue(size: int = 160) -> tuple[str, ...]:
    """A fixed, process-independent pick of brand x kind names."""
    names = [f"{b} {k}" for b in _BRANDS for k, _ in _KINDS]
    order = np.random.default_rng(stable_seed("playstore-catalogue")).permutation(len(names))[:size]
    return tuple(sorted(names[i] for i in order))


CATALOGUE_APPS = _catalogue()
"""The store's own invented apps (160), sorted: the general suite's install tasks ask for them, and the top charts
and sponsored slots show them."""

BRAND_APPS: dict[str, str] = {
    "eBay": "Shopping", "Amazon Shopping": "Shopping", "Yelp": "Food & Drink", "Starbucks": "Food & Drink",
    "Yahoo": "News & Magazines", "CNN": "News & Magazines", "Google News": "News & Magazines",
    "ESPN": "Sports", "Wikipedia": "Books & Reference", "The Weather Channel": "Weather", "Uber": "Maps & Navigation",
    "Lyft": "Maps & Navigation", "Twitter": "Social", "Facebook": "Social", "Instagram": "Social",
    "Reddit": "Social", "Pinterest": "Lifestyle", "LinkedIn": "Business", "WhatsApp": "Communication",
    "Snapchat": "Communication", "TikTok": "Entertainment", "Netflix": "Entertainment",
    "Prime Video": "Entertainment", "Spotify": "Music & Audio", "Pandora": "Music & Audio",
    "Amazon Music": "Music & Audio", "YouTube Music": "Music & Audio", "Amazon Alexa": "Lifestyle",
    "Google": "Tools", "Google Calendar": "Productivity", "Zoom": "Business", "Duolingo": "Education",
    "Google Play Books": "Books & Reference", "Google Play Movies": "Entertainment",
    "Google Play Music": "Music & Audio",
}
"""Well-known apps the store also lists (name -> category), so that goals such as "Install the Spotify app" have an
app to install; search finds them, charts and adverts do not show them."""

GAMES: dict[str, tuple[str, str]] = {
    "Candy Crush Saga": ("Casual", "King"), "Subway Surfers": ("Arcade", "SYBO Games"),
    "Clash of Clans": ("Strategy", "Supercell"), "Roblox": ("Adventure", "Roblox Corporation"),
    "Minecraft": ("Arcade", "Mojang"), "Angry Birds 2": ("Casual", "Rovio Entertainment"),
}
"""Well-known games the store lists (name -> (category, developer)), found by search like `BRAND_APPS`."""

STORE_APPS = tuple(sorted({*CATALOGUE_APPS, *BRAND_APPS, *GAMES}))
"""Every app the store offers, sorted."""


def app_info(name: str) -> dict[str, Any]:
    """The store listing of `name`: developer, category, rating, downloads, size and blurb (seeded by the name)."""
    rng = np.random.default_rng(stable_seed("playstore", name))
    if name in BRAND_APPS:
        developer, category, kind = f"{name.split()[0]} Inc.", BRAND_APPS[name], BRAND_APPS[name].split(" &")[0]
    elif name in GAMES:
        category, developer = GAMES[name]
        kind = f"{category} games"
    else:
        brand, kind = name.split(" ", 1)
        developer = f"{brand}{['Soft', ' Labs', ' Apps', ' Studio'][int(rng.integers(4))]}"
        category = _KIND_OF[kind]
    return {"name": name, "developer": developer, "category": category, "rating": f"{rng.uniform(3.4, 4.9):.1f}",
            "downloads": ["100K+", "500K+", "1M+", "5M+", "10M+"][int(rng.integers(5))],
            "size": f"{int(rng.integers(5, 120))} MB", "about": f"{name} is the simplest way to enjoy "
            f"{kind.lower()} on your phone. Free, fast and private."}


def search(query: str, perturbed_seed: int | None = None) -> list[tuple[str, bool]]:
    """The result list for `query` as (name, is_sponsored), best match first.

    Apps score by how many query words their name contains; a sponsored app (when `perturbed_seed` is given) may be
    placed on top, seeded by the episode and the query.
    """
    words = set(query.lower().split())
    scored = [(-len(words & set(n.lower().split())), n) for n in STORE_APPS]
    hits = [(n, False) for s, n in sorted(scored) if s < 0][:MAX_RESULTS]
    if perturbed_seed is not None and hits:
        rng = np.random.default_rng(stable_seed("playstore-ads", perturbed_seed, query.lower()))
        if rng.random() < 0.6:
            shown = {n for n, _ in hits}
            others = [n for n in CATALOGUE_APPS if n not in shown]
            hits.insert(0, (others[int(rng.integers(len(others)))], True))
    return hits


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
@closed
class PlayStoreState(TypedDict):
    """What the Play Store reports (`PlayStoreApp.state`); every list holds app names, sorted.

    Attributes:
        installed: the apps installed (their install finished).
        installing: the apps whose install runs.
        updates: the installed apps with an update available.
        updating: the apps whose update runs.
        updated: the apps updated this episode.
        page: the front store screen's name, None when the store has no screen on the stack.
        query: the latest search in the back stack, or None.
        viewed: the apps whose page was opened this episode, in the order first opened.
        wishlist: the apps on the wishlist, in the order added (empty at the start).
    """

    installed: list[str]
    installing: list[str]
    updates: list[str]
    updating: list[str]
    updated: list[str]
    page: Literal["home", "search", "results", "details", "uninstall", "manage"] | None
    query: str | None
    viewed: list[str]
    wishlist: list[str]


class PlayStoreInitial(ConfigModel):
    """The initial conditions a Play Store task may set.

    Attributes:
        installed: apps of `STORE_APPS` installed before the episode starts.
        updates: apps of `installed` that have an update available.
    """

    installed: tuple[str, ...] = ()
    updates: tuple[str, ...] = ()

    @field_validator("installed")
    @classmethod
    def _offered(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [n for n in names if n not in STORE_APPS]
        if unknown:
            close = closest(unknown[0], STORE_APPS)
            hint = f" (did you mean {close!r}?)" if close else ""
            raise FieldError("installed", f"apps the Play Store offers{hint}", unknown)
        return names

    @model_validator(mode="after")
    def _updates_installed(self) -> Self:
        missing = [n for n in self.updates if n not in self.installed]
        if missing:
            raise FieldError("updates", f"apps of `installed` ({', '.join(self.installed) or 'none'})", missing)
        return self


class PlayStoreApp(App):
    """Google Play Store. Screens: "home" (top charts), "search", "results" (args {"query"}), "details" ({"name"}:
    the listing, with Add to wishlist in its app bar), the "uninstall" confirmation over an app page ({"name"}), and
    "manage" (Manage apps & device: updates).

    Results and app pages load through `phone.push(..., slow=True)`.
    """  # noqa: D205

    package = PACKAGE
    label = "Play Store"
    icon = "playstore"
    aliases = ("google play", "play store", "store", "google play store")
    state_schema = PlayStoreState
    initial_model = PlayStoreInitial

    def reset(self) -> None:
        """Nothing installed, no update pending."""
        self.installs: dict[str, int] = {}  # name -> phone.steps when its install began
        self.updates: dict[str, int | None] = {}  # name -> phone.steps when its update began (None: not yet)
        self.viewed: list[str] = []  # a task that reads a listing knows it was opened
        self.wishlist: list[str] = []

    def set_up(self, initial: PlayStoreInitial) -> None:
        """The apps installed (finished before step 0), those of them with an update available."""
        for name in initial.installed:
            self.installs[name] = -INSTALL_STEPS  # finished before step 0
        for name in initial.updates:
            self.updates[name] = None

    def status(self, name: str) -> str:
        """"installed", "installing" or "none"."""
        if name not in self.installs:
            return "none"
        return "installed" if self.phone.steps >= self.installs[name] + INSTALL_STEPS else "installing"

    def update_status(self, name: str) -> str:
        """"available", "updating", "updated" (this episode) or "none"."""
        if name not in self.updates:
            return "none"
        start = self.updates[name]
        if start is None:
            return "available"
        return "updated" if self.phone.steps >= start + INSTALL_STEPS else "updating"

    def on_tick(self) -> bool:
        """Whether an install or an update finished at this step (called by the phone after each step, to redraw)."""
        starts = [*self.installs.values(), *(s for s in self.updates.values() if s is not None)]
        return any(start + INSTALL_STEPS == self.phone.steps for start in starts)

    def state(self) -> PlayStoreState:
        """Installs, updates and where the store is (see `PlayStoreState`)."""
        mine = self.phone.screens(PACKAGE)
        queries = [s.args["query"] for s in mine if s.name == "results"]
        updates = {k: sorted(n for n in self.updates if self.update_status(n) == k)
                   for k in ("available", "updating", "updated")}
        return {"installed": sorted(n for n in self.installs if self.status(n) == "installed"),
                "installing": sorted(n for n in self.installs if self.status(n) == "installing"),
                "updates": updates["available"], "updating": updates["updating"], "updated": updates["updated"],
                "page": mine[-1].name if mine else None, "query": queries[-1] if queries else None,
                "viewed": list(self.viewed), "wishlist": list(self.wishlist)}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The screen's views."""
        top = CONTENT_TOP + TOOLBAR_H
        if screen.name == "search":
            typed = screen.fields.get(SEARCH_RID, "")
            q = typed.strip().lower()
            rows = [View(LINEAR, (0, top + i * 150, WIDTH, top + (i + 1) * 150), text=n, package=PACKAGE,
                         clickable=True, focusable=True, on_tap=("query", n), style="suggestion", icon="search")
                    for i, n in enumerate([n for n in STORE_APPS if q and n.lower().startswith(q)][:5])]
            return [_back(), text_field((150, CONTENT_TOP + 12, WIDTH - MARGIN, top - 12), SEARCH_RID, typed,
                                        "Search apps & games", screen.focus == SEARCH_RID, PACKAGE),
                    scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/suggestions")]
        if screen.name == "details":
            return self._details(screen.args["name"])
        if screen.name == "uninstall":
            name = screen.args["name"]
            return [*inert(self._details(name)), alert_dialog(
                PACKAGE, name, "Do you want to uninstall this app?",
                [("Cancel", ("close",)), ("Uninstall", ("uninstall", name))], ("close",))]
        if screen.name == "manage":
            return self._manage()
        if screen.name == "results":
            query = screen.args["query"]
            seed = self.phone.seed if self.phone.perturbations.sponsored else None
            rows = [self._row(n, ad, top + i * ROW_H) for i, (n, ad) in enumerate(search(query, seed))]
            if not rows:
                rows = [View(TEXT_VIEW, (MARGIN, top + 100, WIDTH - MARGIN, top + 220), package=PACKAGE,
                             text=f"No results for \u201c{query}\u201d", style="hint")]
            return [_back(), _search_bar(query, 150), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                                  rid=f"{PACKAGE}:id/results")]
        rng = np.random.default_rng(stable_seed("playstore-home", self.phone.seed))
        charts = [CATALOGUE_APPS[i] for i in rng.permutation(len(CATALOGUE_APPS))[:10]]
        head = View(TEXT_VIEW, (MARGIN, top + 10, WIDTH - MARGIN, top + 110), text="Top charts", package=PACKAGE,
                    style="section")
        rows = [self._row(n, False, top + 120 + i * ROW_H) for i, n in enumerate(charts)]
        account = View(IMAGE_BUTTON, (WIDTH - 170, CONTENT_TOP + 12, WIDTH - 20, CONTENT_TOP + TOOLBAR_H - 12),
                       desc="Manage apps & device", rid=f"{PACKAGE}:id/account", package=PACKAGE, clickable=True,
                       focusable=True, on_tap=("manage",), icon="account")
        return [_search_bar("", MARGIN, WIDTH - 190), account, head,
                scroll_list(top + 120, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/top_charts")]

    def _button(self, name: str, bounds: tuple[int, int, int, int]) -> View:
        label = {"none": "Install", "installing": "Cancel", "installed": "Open"}[self.status(name)]
        if label == "Open" and self.update_status(name) in ("available", "updating"):
            label = "Update" if self.update_status(name) == "available" else "Updating"
        event = {"Install": ("install", name), "Cancel": ("cancel", name), "Open": ("noop",),
                 "Update": ("update", name), "Updating": ("noop",)}[label]
        return View(BUTTON, bounds, text=label, desc=f"{label} {name}", rid=f"{PACKAGE}:id/install_button",
                    package=PACKAGE, clickable=True, focusable=True, on_tap=event,
                    style="button" if label != "Cancel" else "outlined_button")

    def _row(self, name: str, ad: bool, y: int) -> View:
        info = app_info(name)
        status = self.status(name)
        update = self.update_status(name)
        line = ("Installing..." if status == "installing" else "Updating..." if update == "updating"
                else "Update available" if update == "available" else "Installed" if status == "installed"
                else f"{info['category']} - {info['rating']} stars - {info['size']}")
        kids = [View(IMAGE_VIEW, (MARGIN, y + 40, MARGIN + 180, y + 220), package=PACKAGE, icon="app"),
                View(TEXT_VIEW, (MARGIN + 220, y + 30, WIDTH - 330, y + 120), text=name,
                     rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"),
                View(TEXT_VIEW, (MARGIN + 220, y + 120, WIDTH - 330, y + 200), text=line, package=PACKAGE,
                     style="meta")]
        if ad:
            kids.append(View(TEXT_VIEW, (MARGIN + 220, y + 195, MARGIN + 440, y + 250), text="Sponsored",
                             package=PACKAGE, style="sponsored"))
        kids.append(self._button(name, (WIDTH - 310, y + 70, WIDTH - MARGIN, y + 190)))
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=f"{'Sponsored - ' if ad else ''}{name}", package=PACKAGE,
                    clickable=True, focusable=True, on_tap=("open", name), style="sponsored" if ad else "row",
                    children=kids)

    def _details(self, name: str) -> list[View]:
        info = app_info(name)
        top = CONTENT_TOP + TOOLBAR_H
        status = self.status(name)
        views = [_back(),
                 View(IMAGE_VIEW, (MARGIN, top + 20, MARGIN + 240, top + 260), package=PACKAGE, icon="app"),
                 View(TEXT_VIEW, (MARGIN + 280, top + 30, WIDTH - MARGIN, top + 150), text=name,
                      rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"),
                 View(TEXT_VIEW, (MARGIN + 280, top + 150, WIDTH - MARGIN, top + 240), text=info["developer"],
                      package=PACKAGE, style="link"),
                 View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 400), package=PACKAGE,
                      text=f"{info['rating']} stars   {info['downloads']} downloads   Rated for 3+")]
        if status == "installed":
            views.append(View(BUTTON, (MARGIN, top + 440, WIDTH // 2 - 20, top + 580), text="Uninstall",
                              desc=f"Uninstall {name}", package=PACKAGE, clickable=True, focusable=True,
                              on_tap=("ask_uninstall", name), style="outlined_button"))
            views.append(self._button(name, (WIDTH // 2 + 20, top + 440, WIDTH - MARGIN, top + 580)))
        else:
            if status == "installing":
                views.append(View("android.widget.ProgressBar", (MARGIN, top + 600, WIDTH - MARGIN, top + 640),
                                  desc="Installing...", package=PACKAGE, style="progress"))
            views.append(self._button(name, (MARGIN, top + 440, WIDTH - MARGIN, top + 580)))
        wished = name in self.wishlist
        views.append(View(IMAGE_BUTTON, (WIDTH - 170, CONTENT_TOP + 12, WIDTH - 20, top - 12),
                          desc="Remove from wishlist" if wished else "Add to wishlist", package=PACKAGE,
                          clickable=True, focusable=True, selected=wished, on_tap=("wish", name), icon="star"))
        views += [View(TEXT_VIEW, (MARGIN, top + 700, WIDTH - MARGIN, top + 800), text="About this app",
                       package=PACKAGE, style="section"),
                  View(TEXT_VIEW, (MARGIN, top + 800, WIDTH - MARGIN, top + 1100), text=info["about"],
                       package=PACKAGE)]
        return views

    def _manage(self) -> list[View]:
        """Manage apps & device: the apps with an update (Update all above them), then the other installed apps."""
        top = CONTENT_TOP + TOOLBAR_H
        installed = sorted((n for n in self.installs if self.status(n) == "installed"), key=str.lower)
        pending = [n for n in installed if self.update_status(n) in ("available", "updating")]
        can_update = any(self.update_status(n) == "available" for n in pending)
        rows = [View(TEXT_VIEW, (MARGIN, top + 30, WIDTH - 420, top + 130), package=PACKAGE, style="section",
                     text=f"Updates available ({len(pending)})" if pending else "All apps up to date")]
        if pending:
            rows.append(View(BUTTON, (WIDTH - 400, top + 20, WIDTH - MARGIN, top + 140), text="Update all",
                             desc="Update all", rid=f"{PACKAGE}:id/update_all", package=PACKAGE,
                             clickable=can_update, focusable=can_update, enabled=can_update, on_tap=("update_all",),
                             style="button"))
        y = top + 160
        for name in pending:
            rows.append(self._row(name, False, y))
            y += ROW_H
        rest = [n for n in installed if n not in pending]
        rows.append(View(TEXT_VIEW, (MARGIN, y + 30, WIDTH - MARGIN, y + 130), package=PACKAGE, style="section",
                         text=f"Installed apps ({len(rest)})" if rest else "No other apps installed from Play"))
        y += 160
        for name in rest:
            rows.append(self._row(name, False, y))
            y += ROW_H
        title = View(TEXT_VIEW, (170, CONTENT_TOP + 12, WIDTH - MARGIN, top - 12), text="Manage apps & device",
                     rid=f"{PACKAGE}:id/toolbar_title", package=PACKAGE, style="title")
        return [_back(), title, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/manage")]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Search, open app pages and Manage apps & device, install / cancel / uninstall (confirmed) / update."""
        match event:
            case ("search", *prefill):  # the search bar sends the current query, if any
                text = prefill[0] if prefill else ""
                return self.phone.push(Screen(PACKAGE, "search", fields={SEARCH_RID: text}, focus=SEARCH_RID))
            case ("query", text):
                return self._query(text)
            case ("open", name):
                self.viewed += [name] if name not in self.viewed else []
                return self.phone.push(Screen(PACKAGE, "details", {"name": name}), slow=True)
            case ("install", name):
                self.installs[name] = self.phone.steps
                return True
            case ("cancel", name) if self.status(name) == "installing":
                del self.installs[name]
                return True
            case ("ask_uninstall", name):
                return self.phone.push(Screen(PACKAGE, "uninstall", {"name": name}))
            case ("uninstall", name) if self.status(name) == "installed":
                del self.installs[name]
                self.updates.pop(name, None)
                return self.phone.pop()  # the confirmation closes on the app's page, now offering Install
            case ("close",):
                return self.phone.pop()
            case ("wish", name):  # Add to / Remove from wishlist
                if name in self.wishlist:
                    self.wishlist.remove(name)
                else:
                    self.wishlist.append(name)
                return True
            case ("manage",):
                return self.phone.push(Screen(PACKAGE, "manage"))
            case ("update", name) if self.update_status(name) == "available":
                self.updates[name] = self.phone.steps
                return True
            case ("update_all",):
                pending = [n for n in self.updates if self.update_status(n) == "available"]
                self.updates.update({n: self.phone.steps for n in pending})
                return bool(pending)
        return False  # ("noop",) and stale cancel / uninstall / update taps

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box runs the search."""
        return self._query(screen.fields.get(rid, ""))

    def _query(self, text: str) -> bool:
        query = " ".join(text.split())
        return bool(query) and self.phone.push(Screen(PACKAGE, "results", {"query": query}), slow=True)


def _back() -> View:
    return View(IMAGE_BUTTON, (0, CONTENT_TOP + 12, 150, CONTENT_TOP + TOOLBAR_H - 12), desc="Navigate up",
                package=PACKAGE, clickable=True, focusable=True, on_tap=NavKey("back"), icon="back")


def _search_bar(query: str, left: int, right: int = WIDTH - MARGIN) -> View:
    """The store's search bar: tapping it opens the search page (prefilled with the current query)."""
    b = (left, CONTENT_TOP + 12, right, CONTENT_TOP + TOOLBAR_H - 12)
    return View(LINEAR, b, desc="Search apps & games", rid=f"{PACKAGE}:id/search_bar", package=PACKAGE,
                clickable=True, focusable=True, on_tap=("search", query), style="searchbar", icon="search",
                children=[View(TEXT_VIEW, (left + 190, b[1], b[2], b[3]), text=query or "Search apps & games",
                               package=PACKAGE, style="" if query else "hint")])
