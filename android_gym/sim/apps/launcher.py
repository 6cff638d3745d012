"""The launcher: home screen with a search bar and favourites, and an app drawer opened by swiping up."""

from __future__ import annotations

from android_gym.sim.app import App, Screen
from android_gym.sim.events import AppEvent, LaunchApp
from android_gym.sim.layout import CONTENT_BOTTOM, CONTENT_TOP, FRAME, MARGIN, TEXT_VIEW, WIDTH, scroll_list, text_field
from android_gym.sim.view import View

PACKAGE = "com.google.android.apps.nexuslauncher"
FAVOURITES = ("Chrome", "YouTube", "Play Store", "Settings", "Clock", "Gmail", "Maps", "Photos")
HOTSEAT = ("Phone", "Messages", "Chrome", "Camera")
DRAWER_SEARCH = f"{PACKAGE}:id/search_box_input"
ICON_W, ICON_H = 270, 300


class Launcher(App):
    """Pixel-style launcher. Screens: "home" (search bar, favourites grid, hotseat) and "drawer" (all apps)."""

    package = PACKAGE
    label = "Pixel Launcher"
    icon = "launcher"

    def build(self, screen: Screen) -> list[View]:
        """Home grid or the drawer."""
        return self._drawer(screen) if screen.name == "drawer" else self._home()

    def _icon(self, label: str, x0: int, y0: int) -> View | None:
        try:
            app = self.phone.find_app(label)
        except KeyError:
            return None
        return View(TEXT_VIEW, (x0, y0, x0 + ICON_W, y0 + ICON_H), text=label, desc=label, package=PACKAGE,
                    clickable=True, focusable=True, long_clickable=True, on_tap=LaunchApp(app.package),
                    style="app_icon", icon=app.icon)

    def _home(self) -> list[View]:
        views: list[View] = [View(FRAME, (MARGIN, 1700, WIDTH - MARGIN, 1860), desc="Search",
                                  rid=f"{PACKAGE}:id/search_container_hotseat", package=PACKAGE, clickable=True,
                                  focusable=True, on_tap=("web_search",), style="searchbar", icon="google",
                                  children=[View(TEXT_VIEW, (MARGIN + 160, 1720, WIDTH - 200, 1840),
                                                 text="Search", package=PACKAGE, style="hint")])]
        for i, label in enumerate(FAVOURITES):
            icon = self._icon(label, 0 + (i % 4) * ICON_W, 600 + (i // 4) * (ICON_H + 60))
            if icon is not None:
                views.append(icon)
        for i, label in enumerate(HOTSEAT):
            icon = self._icon(label, i * ICON_W, 1880)
            if icon is not None:
                views.append(icon)
        return views

    def _drawer(self, screen: Screen) -> list[View]:
        query = screen.fields.get(DRAWER_SEARCH, "")
        labels = sorted((a.label for a in self.phone.installed() if a.package != PACKAGE), key=str.lower)
        labels = [a for a in labels if query.lower() in a.lower()]
        search = text_field((MARGIN, CONTENT_TOP + 40, WIDTH - MARGIN, CONTENT_TOP + 180), DRAWER_SEARCH, query,
                            "Search apps", screen.focus == DRAWER_SEARCH, PACKAGE, icon="search")
        top = CONTENT_TOP + 220
        rows = [icon for i, label in enumerate(labels)
                if (icon := self._icon(label, (i % 4) * ICON_W, top + (i // 4) * (ICON_H + 40))) is not None]
        return [search, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/apps_list_view")]

    def on_swipe(self, screen: Screen, dy: float) -> bool:
        """Swiping up on the home screen opens the drawer; swiping down at the top of the drawer closes it."""
        if screen.name == "home" and dy < 0:
            self.phone.push(Screen(PACKAGE, "drawer"))
            return True
        if screen.name == "drawer" and dy > 0 and screen.scroll == 0:
            self.phone.pop()
            return True
        return False

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The search bar opens a web search in the browser (an intent, as on a real phone)."""
        if event == ("web_search",):
            browser = next((a for a in self.phone.installed() if a.is_browser), None)
            return browser is not None and browser.search_intent()
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the drawer's search opens the first matching app."""
        query = screen.fields.get(rid, "").strip().lower()
        matches = sorted((a for a in self.phone.installed() if a.package != PACKAGE and query in a.label.lower()),
                         key=lambda a: a.label.lower())
        return bool(query and matches) and self.phone.launch(matches[0].package)
