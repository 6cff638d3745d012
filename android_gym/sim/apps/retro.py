"""The Retro Music app (code.name.monkey.retromusic): a local music player over the phone's songs, with the playing
queue, playlists, and playlists saved as files.

The library and its playlists are drawn per episode (`retro_data`); the typed seam is in `retro_state`. Songs are
named by their title (unique in a library). Tapping a song plays the list it is in (the queue becomes that list);
a song's More options add it to the queue (Play next, Add to playing queue) or to a playlist; a playlist's or the
queue's rows also move up or down and are removed there.

Saving a playlist writes "<folder>/<name>.m3u" into the phone's storage through the Files app's `save` (the one
way another app writes a file there), so Files lists it; Retro also logs the export in its own state.

Screens: "library" (args {"tab": a `Tab`}; a bottom navigation over Songs, Albums, Artists, Playlists), "album"
(args {"album"}), "artist" (args {"artist"}), "playlist" (args {"id"}), "player" (now playing), "queue" (the playing
queue), and pop-ups over the page below: "menu" (a song's More options: args {"song", "index"}), "new_playlist"
(args {"song": the title to add, or None; "error"}; the name in fields[NAME_RID]), "add_to_playlist" (args
{"song"}), "rename_playlist" (args {"id", "error"}), "delete_playlist" (args {"id"}), "save_playlist" (args {"id",
"folder"}).
"""  # noqa: D205, D209

from __future__ import annotations

from android_gym.errors import ConfigError
from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, popup_menu
from android_gym.sim.apps import files as F
from android_gym.sim.apps.retro_data import clock, count_label, seeded_library, seeded_playlists
from android_gym.sim.apps.retro_state import RetroInitial, RetroState
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "code.name.monkey.retromusic"
TABS = {"songs": "Songs", "albums": "Albums", "artists": "Artists", "playlists": "Playlists"}
FOLDERS = ("Music", "Download", "Documents")
"""Where a playlist may be saved (the first is preselected)."""
TITLE_RID = f"{PACKAGE}:id/item_title"
TEXT_RID = f"{PACKAGE}:id/text"
MENU_RID = f"{PACKAGE}:id/menu"
LIST_RID = f"{PACKAGE}:id/recycler_view"
NAME_RID = f"{PACKAGE}:id/playlist_name"
INFO_RID = f"{PACKAGE}:id/playlist_info"
MINI_RID = f"{PACKAGE}:id/mini_player_title"
SONG_ROW_H = 180
NAV_H = 180
MINI_H = 150
TOP = CONTENT_TOP + TOOLBAR_H
SONG_ITEMS = ("Play next", "Add to playing queue", "Add to playlist")
PLAYLIST_ITEMS = (*SONG_ITEMS, "Remove from playlist", "Move up", "Move down")
QUEUE_ITEMS = ("Play", "Move up", "Move down", "Remove from playing queue")
OVERLAYS = ("menu", "new_playlist", "add_to_playlist", "rename_playlist", "delete_playlist", "save_playlist")


class RetroApp(App):
    """Retro Music: the library by songs, albums, artists and playlists; the player and its queue; playlists."""

    package = PACKAGE
    label = "Retro Music"
    icon = "music"
    aliases = ("retro", "retro player", "retro music player")
    state_schema = RetroState
    initial_model = RetroInitial

    def reset(self) -> None:
        """The episode's seeded songs and playlists; nothing queued, nothing exported."""
        self.songs = {s["title"]: s for s in seeded_library(self.phone.seed)}
        self.playlists = dict(enumerate(seeded_playlists(self.phone.seed, sorted(self.songs))))
        self.next_id = len(self.playlists)  # ids are never reused: a deleted playlist's screen cannot come back
        self.queue: list[str] = []
        self.position: int | None = None
        self.playing = False
        self.exported: list[dict[str, str]] = []
        self.last_opened: str | None = None

    def set_up(self, initial: RetroInitial) -> None:
        """Replace or thin out the library, add songs, set the playlists and the queue.

        Raises:
            ConfigError: a playlist or the queue names a song the library does not hold.
        """
        if initial.library_only:
            self.songs = {}
        for title in initial.absent:
            self.songs.pop(title, None)
        for spec in initial.songs:
            self.songs[spec.title] = spec.to_data()
        if initial.playlists is not None:
            self.playlists = {k: {"name": p.name, "songs": list(p.songs)} for k, p in enumerate(initial.playlists)}
            self.next_id = len(self.playlists)
        for p in self.playlists.values():  # the seeded playlists lose the songs a task removed
            missing = [t for t in p["songs"] if t not in self.songs]
            if missing and initial.playlists is not None:
                raise ConfigError(f"{self.label}: `playlists` {p['name']!r} lists {missing[0]!r}, which is not a song "
                                  "of the library: add it to `songs`")
            p["songs"] = [t for t in p["songs"] if t in self.songs]
        missing = [t for t in initial.queue if t not in self.songs]
        if missing:
            raise ConfigError(f"{self.label}: `queue` lists {missing[0]!r}, which is not a song of the library: add "
                              "it to `songs`")
        self.queue = list(initial.queue)
        self.position = 0 if self.queue else None

    def home(self) -> Screen:
        """The library on its Songs tab."""
        return Screen(PACKAGE, "library", {"tab": "songs"})

    # -- the model ----------------------------------------------------------------------------------------------------
    def titles(self, screen: Screen) -> list[str]:
        """The songs a list screen shows, in order (the Songs tab, an album, an artist, a playlist, the queue)."""
        by_title = sorted(self.songs, key=str.casefold)
        match screen.name:
            case "library":
                return by_title if screen.args["tab"] == "songs" else []
            case "album":
                return [t for t in by_title if self.songs[t]["album"] == screen.args["album"]]
            case "artist":
                return [t for t in by_title if self.songs[t]["artist"] == screen.args["artist"]]
            case "playlist":
                return list(self.playlists[screen.args["id"]]["songs"])
            case "queue":
                return list(self.queue)
        return []

    def total_ms(self, titles: list[str]) -> int:
        """The summed length of `titles` in milliseconds."""
        return sum(self.songs[t]["duration_ms"] for t in titles)

    def _ordered_playlists(self) -> list[int]:
        return sorted(self.playlists, key=lambda k: (self.playlists[k]["name"].casefold(), k))

    def state(self) -> RetroState:
        """The library, playlists, queue and where Retro is (see `RetroState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        page = next((s for s in reversed(mine) if s.name not in OVERLAYS), None)
        in_front = page is not None and (front is page or front.name in OVERLAYS)
        opened = page.args["id"] if in_front and page.name == "playlist" else None
        return {"songs": [dict(self.songs[t]) for t in sorted(self.songs, key=str.casefold)],
                "playlists": [{"name": self.playlists[k]["name"], "songs": list(self.playlists[k]["songs"])}
                              for k in self._ordered_playlists()],
                "queue": list(self.queue), "position": self.position, "playing": self.playing,
                "screen": front.name if front else None,
                "tab": page.args["tab"] if in_front and page.name == "library" else None,
                "open_playlist": self.playlists[opened]["name"] if opened in self.playlists else None,
                "last_opened": self.last_opened, "exported": [dict(e) for e in self.exported]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a pop-up over the (inert) page below it."""
        pages = {"library": self._library, "album": self._group, "artist": self._group, "playlist": self._playlist,
                 "player": self._player, "queue": self._queue}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        overlay = {"menu": self._menu, "new_playlist": self._name_dialog, "rename_playlist": self._name_dialog,
                   "add_to_playlist": self._add_dialog, "delete_playlist": self._delete_dialog,
                   "save_playlist": self._save_dialog}[screen.name]
        return [*under, overlay(screen)]

    def _action(self, i: int, desc: str, icon: str, event: tuple) -> View:
        """Toolbar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H, TOP), desc=desc,
                    package=PACKAGE, clickable=True, focusable=True, on_tap=event, icon=icon)

    def _song_rows(self, titles: list[str], top: int, current: int | None = None) -> list[View]:
        rows = []
        for k, title in enumerate(titles):
            s, y = self.songs[title], top + k * SONG_ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + SONG_ROW_H), rid=f"{PACKAGE}:id/item_root", package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("play", k), style="row", selected=k == current,
                             children=[
                                 View(IMAGE_VIEW, (MARGIN, y + 40, MARGIN + 100, y + 140), package=PACKAGE,
                                      icon="headphones"),
                                 View(TEXT_VIEW, (MARGIN + 140, y + 25, WIDTH - 190, y + 105), text=title,
                                      rid=TITLE_RID, package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (MARGIN + 140, y + 105, WIDTH - 190, y + 165),
                                      text=f"{s['artist']} \u2022 {clock(s['duration_ms'])}", rid=TEXT_RID,
                                      package=PACKAGE, style="row_summary"),
                                 View(IMAGE_BUTTON, (WIDTH - 170, y + 30, WIDTH - 30, y + 150),
                                      desc=f"More options for {title}", rid=MENU_RID, package=PACKAGE,
                                      clickable=True, focusable=True, on_tap=("menu", title, k), icon="more")]))
        return rows

    def _row(self, y: int, title: str, summary: str, event: tuple, icon: str) -> View:
        return View(LINEAR, (0, y, WIDTH, y + SONG_ROW_H), rid=f"{PACKAGE}:id/item_root", package=PACKAGE,
                    clickable=True, focusable=True, on_tap=event, style="row", children=[
                        View(IMAGE_VIEW, (MARGIN, y + 40, MARGIN + 100, y + 140), package=PACKAGE, icon=icon),
                        View(TEXT_VIEW, (MARGIN + 140, y + 25, WIDTH - MARGIN, y + 105), text=title, rid=TITLE_RID,
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 105, WIDTH - MARGIN, y + 165), text=summary, rid=TEXT_RID,
                             package=PACKAGE, style="row_summary")])

    def _mini_player(self, bottom: int) -> list[View]:
        """The mini player above `bottom` while a song is queued (tap: the player; its button plays or pauses)."""
        if self.position is None:
            return []
        y, s = bottom - MINI_H, self.songs[self.queue[self.position]]
        return [View(LINEAR, (0, y, WIDTH, bottom), rid=f"{PACKAGE}:id/mini_player", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=("player",), style="card", children=[
                         View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - 200, y + 130),
                              text=f"{s['title']} \u2022 {s['artist']}", rid=MINI_RID, package=PACKAGE),
                         View(IMAGE_BUTTON, (WIDTH - 170, y + 15, WIDTH - 40, y + 135),
                              desc="Pause" if self.playing else "Play",
                              rid=f"{PACKAGE}:id/mini_player_play_pause_button", package=PACKAGE, clickable=True,
                              focusable=True, on_tap=("toggle",), icon="pause" if self.playing else "play")])]

    def _page(self, bar: list[View], rows: list[View], top: int, bottom: int, empty: str) -> list[View]:
        """A page: its bar, a list of `rows` from `top`, the mini player above `bottom`."""
        mini = self._mini_player(bottom)
        end = mini[0].bounds[1] if mini else bottom
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 320), text=empty, package=PACKAGE,
                         style="hint")]
        return [*bar, scroll_list(top, end, PACKAGE, rows, rid=LIST_RID), *mini]

    def _library(self, screen: Screen) -> list[View]:
        tab, bottom = screen.args["tab"], CONTENT_BOTTOM - NAV_H
        bar = [toolbar(TABS[tab], PACKAGE, PACKAGE, has_back=False)]
        if tab == "songs":
            rows = self._song_rows(self.titles(screen), TOP)
        elif tab == "playlists":
            bar.append(self._action(0, "New playlist", "add", ("new_playlist",)))
            rows = [self._row(TOP + k * SONG_ROW_H, self.playlists[i]["name"],
                              count_label(len(self.playlists[i]["songs"])), ("playlist", i), "menu")
                    for k, i in enumerate(self._ordered_playlists())]
        else:
            key = tab[:-1]
            groups = sorted({s[key] for s in self.songs.values()}, key=str.casefold)
            rows = []
            for k, g in enumerate(groups):
                mine = [s for s in self.songs.values() if s[key] == g]
                summary = (f"{mine[0]['artist']} \u2022 {count_label(len(mine))}" if key == "album" else
                           f"{len({s['album'] for s in mine})} Albums \u2022 {count_label(len(mine))}")
                rows.append(self._row(TOP + k * SONG_ROW_H, g, summary, (key, g), "library" if key == "album"
                                      else "person"))
        nav = View(FRAME, (0, bottom, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/bottomNavigationView",
                   package=PACKAGE, style="tabbar", children=[
                       View(TEXT_VIEW, (k * WIDTH // 4, bottom, (k + 1) * WIDTH // 4, CONTENT_BOTTOM), text=label,
                            desc=label, package=PACKAGE, clickable=True, focusable=True, selected=t == tab,
                            on_tap=("tab", t), style="tab") for k, (t, label) in enumerate(TABS.items())])
        return [*self._page(bar, rows, TOP, bottom, f"No {TABS[tab].lower()}"), nav]

    def _group(self, screen: Screen) -> list[View]:
        name = screen.args[screen.name]
        titles = self.titles(screen)
        info = f"{count_label(len(titles))} \u2022 {clock(self.total_ms(titles))}"
        bar = [toolbar(name, PACKAGE, PACKAGE), View(TEXT_VIEW, (MARGIN, TOP, WIDTH - MARGIN, TOP + 100), text=info,
                                                     rid=INFO_RID, package=PACKAGE, style="secondary")]
        return self._page(bar, self._song_rows(titles, TOP + 100), TOP + 100, CONTENT_BOTTOM, "No songs")

    def _playlist(self, screen: Screen) -> list[View]:
        p = self.playlists[screen.args["id"]]
        info = f"{count_label(len(p['songs']))} \u2022 {clock(self.total_ms(p['songs']))}"
        bar = [toolbar(p["name"], PACKAGE, PACKAGE), self._action(2, "Save playlist", "save", ("save",)),
               self._action(1, "Rename playlist", "edit", ("rename",)),
               self._action(0, "Delete playlist", "delete", ("delete",)),
               View(TEXT_VIEW, (MARGIN, TOP, WIDTH - MARGIN, TOP + 100), text=info, rid=INFO_RID, package=PACKAGE,
                    style="secondary")]
        return self._page(bar, self._song_rows(p["songs"], TOP + 100), TOP + 100, CONTENT_BOTTOM,
                          "No songs in this playlist")

    def _player(self, screen: Screen) -> list[View]:
        views = [toolbar("Now playing", PACKAGE, PACKAGE), self._action(0, "Playing queue", "menu", ("queue",))]
        col = Column(TOP + 500, PACKAGE)
        if self.position is None:
            col.text("Nothing is playing", height=120, style="hint")
            return [*views, *col.views]
        s = self.songs[self.queue[self.position]]
        col.text(s["title"], height=130, style="section", rid=TITLE_RID)
        col.text(f"{s['artist']} \u2022 {s['album']}", height=90, style="secondary", rid=TEXT_RID)
        col.text(f"0:00 / {clock(s['duration_ms'])}", height=90, style="secondary", rid=f"{PACKAGE}:id/songTotalTime")
        col.text(f"{self.position + 1} of {len(self.queue)}", height=90, style="secondary",
                 rid=f"{PACKAGE}:id/songInfo")
        y0, y1 = CONTENT_BOTTOM - 420, CONTENT_BOTTOM - 180
        for x, desc, icon, event in ((WIDTH // 2 - 380, "Previous", "back", ("prev",)),
                                     (WIDTH // 2 - 120, "Pause" if self.playing else "Play",
                                      "pause" if self.playing else "play", ("toggle",)),
                                     (WIDTH // 2 + 140, "Next", "forward", ("next",))):
            views.append(View(IMAGE_BUTTON, (x, y0, x + 240, y1), desc=desc, package=PACKAGE, clickable=True,
                              focusable=True, on_tap=event, icon=icon, style="fab" if icon in ("play", "pause")
                              else ""))
        return [*views, *col.views]

    def _queue(self, screen: Screen) -> list[View]:
        bar = [toolbar("Playing queue", PACKAGE, PACKAGE),
               self._action(0, "Clear playing queue", "delete", ("clear_queue",))]
        return self._page(bar, self._song_rows(self.queue, TOP, self.position), TOP, CONTENT_BOTTOM,
                          "The playing queue is empty")

    def _menu(self, screen: Screen) -> View:
        below = self.phone.screens(PACKAGE)[-2].name
        items = QUEUE_ITEMS if below == "queue" else PLAYLIST_ITEMS if below == "playlist" else SONG_ITEMS
        return popup_menu(PACKAGE, [(label, ("item", label)) for label in items], ("cancel",))

    def _name_dialog(self, screen: Screen) -> View:
        y = dialog_body_top(560)
        body = [text_field((150, y, WIDTH - 150, y + 144), NAME_RID, screen.fields.get(NAME_RID, ""),
                           "Playlist name", screen.focus == NAME_RID, PACKAGE)]
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=screen.args["error"],
                             rid=f"{PACKAGE}:id/error", package=PACKAGE, style="hint"))
        new = screen.name == "new_playlist"
        return app_dialog(PACKAGE, "New playlist" if new else "Rename playlist", body,
                          [("Cancel", ("cancel",), True), ("Create" if new else "Rename", ("ok",), True)])

    def _add_dialog(self, screen: Screen) -> View:
        y = dialog_body_top(400)
        rows = [View(TEXT_VIEW, (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130), text=label, package=PACKAGE,
                     clickable=True, focusable=True, on_tap=event, style="row")
                for k, (label, event) in enumerate([("New playlist", ("new",)),
                                                    *((self.playlists[i]["name"], ("pick", i))
                                                      for i in self._ordered_playlists())])]
        return app_dialog(PACKAGE, "Add to playlist", rows, [("Cancel", ("cancel",), True)], top=400)

    def _delete_dialog(self, screen: Screen) -> View:
        name = self.playlists[screen.args["id"]]["name"]
        return app_dialog(PACKAGE, "Delete playlist", [], [("Cancel", ("cancel",), True), ("Delete", ("ok",), True)],
                          message=f"Delete playlist {name}?")

    def _save_dialog(self, screen: Screen) -> View:
        name, y = self.playlists[screen.args["id"]]["name"], dialog_body_top(400, "x")
        rows = [View("android.widget.RadioButton", (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130), text=folder,
                     package=PACKAGE, clickable=True, focusable=True, checkable=True,
                     checked=screen.args["folder"] == folder, on_tap=("folder", folder), style="radio")
                for k, folder in enumerate(FOLDERS)]
        return app_dialog(PACKAGE, "Save playlist", rows, [("Cancel", ("cancel",), True), ("Save", ("ok",), True)],
                          top=400, message=f"{name}.m3u")

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, rows, the player's buttons, toolbar actions, menus and dialogs."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "library", ("tab", tab):
                screen.args["tab"], screen.scroll = tab, 0
                return True
            case _, ("album" | "artist" as kind, name):
                return self.phone.push(Screen(PACKAGE, kind, {kind: name}))
            case _, ("playlist", i):
                self.last_opened = self.playlists[i]["name"]
                return self.phone.push(Screen(PACKAGE, "playlist", {"id": i}))
            case "queue", ("play", k):
                self.position, self.playing = k, True
                return True
            case _, ("play", k):
                self.queue, self.position, self.playing = self.titles(screen), k, True
                return True
            case _, ("menu", title, k):
                return self.phone.push(Screen(PACKAGE, "menu", {"song": title, "index": k}))
            case _, ("player",):
                return self.phone.push(Screen(PACKAGE, "player"))
            case _, ("toggle",) if self.position is not None:
                self.playing = not self.playing
                return True
            case "player", ("queue",):
                return self.phone.push(Screen(PACKAGE, "queue"))
            case "player", ("prev" | "next" as way,) if self.position is not None:
                self.position = max(0, min(len(self.queue) - 1, self.position + (1 if way == "next" else -1)))
                return True
            case "queue", ("clear_queue",):
                self.queue, self.position, self.playing = [], None, False
                return True
            case "library", ("new_playlist",):
                return self.phone.push(Screen(PACKAGE, "new_playlist", {"song": None, "error": ""}, focus=NAME_RID))
            case "playlist", ("rename",):
                return self.phone.push(Screen(PACKAGE, "rename_playlist", {"id": screen.args["id"], "error": ""},
                                              {NAME_RID: self.playlists[screen.args["id"]]["name"]}, focus=NAME_RID))
            case "playlist", ("delete",):
                return self.phone.push(Screen(PACKAGE, "delete_playlist", {"id": screen.args["id"]}))
            case "playlist", ("save",):
                return self.phone.push(Screen(PACKAGE, "save_playlist", {"id": screen.args["id"],
                                                                         "folder": FOLDERS[0]}))
            case "menu", ("item", label):
                return self._menu_item(label, screen)
            case "add_to_playlist", ("new",):
                return self.phone.replace(Screen(PACKAGE, "new_playlist", {"song": screen.args["song"], "error": ""},
                                                 focus=NAME_RID))
            case "add_to_playlist", ("pick", i):
                self.playlists[i]["songs"].append(screen.args["song"])
                return self.phone.pop()
            case "new_playlist" | "rename_playlist", ("ok",):
                return self._name_ok(screen)
            case "delete_playlist", ("ok",):
                del self.playlists[screen.args["id"]]
                self.phone.pop()
                return self.phone.pop()
            case "save_playlist", ("folder", folder):
                screen.args["folder"] = folder
                return True
            case "save_playlist", ("ok",):
                return self._save(screen)
        return False

    def _enqueue(self, title: str, at: int) -> None:
        """Put `title` at index `at` of the queue (an empty queue starts with it, paused)."""
        if self.position is None:
            self.queue, self.position, self.playing = [title], 0, False
        else:
            self.queue.insert(at, title)

    def _menu_item(self, label: str, screen: Screen) -> bool:
        """A song's More options item: the queue or playlist below the menu changes, or a dialog replaces it."""
        title, k = screen.args["song"], screen.args["index"]
        below = self.phone.screens(PACKAGE)[-2]
        if label == "Add to playlist":
            return self.phone.replace(Screen(PACKAGE, "add_to_playlist", {"song": title}))
        if label == "Play next":
            self._enqueue(title, (self.position or 0) + 1)
        elif label == "Add to playing queue":
            self._enqueue(title, len(self.queue))
        elif label == "Play":
            self.position, self.playing = k, True
        elif below.name == "queue":
            self._edit_queue(label, k)
        else:
            songs = self.playlists[below.args["id"]]["songs"]
            if label == "Remove from playlist":
                songs.pop(k)
            else:
                j = k - 1 if label == "Move up" else k + 1
                if 0 <= j < len(songs):
                    songs[k], songs[j] = songs[j], songs[k]
        return self.phone.pop()

    def _edit_queue(self, label: str, k: int) -> None:
        """Move queue row `k` up or down, or remove it; the current song stays current."""
        current = self.position
        if label == "Remove from playing queue":
            self.queue.pop(k)
            if not self.queue:
                self.position, self.playing = None, False
            elif current is not None and (k < current or current >= len(self.queue)):
                self.position = current - 1
            return
        j = k - 1 if label == "Move up" else k + 1
        if 0 <= j < len(self.queue):
            self.queue[k], self.queue[j] = self.queue[j], self.queue[k]
            self.position = j if current == k else k if current == j else current

    def _name_ok(self, screen: Screen) -> bool:
        name = screen.fields.get(NAME_RID, "").strip()
        same = [i for i, p in self.playlists.items() if p["name"] == name and i != screen.args.get("id")]
        if not name or same:
            screen.args["error"] = "Playlist name can't be empty" if not name else "Playlist already exists"
            return True
        if screen.name == "rename_playlist":
            p = self.playlists[screen.args["id"]]
            if self.last_opened == p["name"]:
                self.last_opened = name
            p["name"] = name
        else:
            song = screen.args["song"]
            self.playlists[self.next_id] = {"name": name, "songs": [song] if song else []}
            self.next_id += 1
        return self.phone.pop()

    def _save(self, screen: Screen) -> bool:
        """Write the playlist's .m3u into the chosen folder of the phone's storage (a file there is replaced)."""
        p = self.playlists[screen.args["id"]]
        path = f"{screen.args['folder']}/{p['name']}.m3u"
        files = next((a for a in self.phone.installed() if isinstance(a, F.FilesApp)), None)
        if files is not None:
            files.save(path, 1 + len(p["songs"]) // 8)  # an .m3u line per song: about a kB per 8
        self.exported.append({"playlist": p["name"], "path": path})
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in a name dialog is its OK."""
        return self._name_ok(screen) if rid == NAME_RID else False
