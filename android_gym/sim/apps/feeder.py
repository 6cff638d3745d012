"""Feeder (com.nononsenseapps.feeder), the news and RSS reader: feeds grouped by tag with unread counts, article
lists, a reader view, subscribing by address, editing and deleting feeds, read and saved flags, and Copy link.

The feeds and their articles are in `feeder_data` (the catalogue of known addresses, the articles drawn per episode
from `stable_seed("feeder", feed, phone.seed)`, the typed state and the initial conditions). The sim has no share
sheet, so an article's link is carried to other apps with "Copy link" (the phone's clipboard), as the real app's
reader offers too.

Screens: "articles" (home; args {"showing": "all" | "saved" | "tag:<tag>" | "feed:<address>"}: the list, newest
first, with the drawer button, Mark all as read and More options), "drawer" (All feeds, Saved articles, each tag with
its feeds, untagged feeds, each with its unread count), "menu" (More options: Add feed, and for a feed Edit feed and
Delete feed), "add" (args {"searched", "error"}: an address field, Search, the feed found), "edit" (args {"url",
"new"}: Title and Tag fields, OK), "delete" (args {"url"}: "Delete feed?") and "reader" (args {"id"}: one article with
Save, Mark as unread and Copy link). Opening an article marks it read, as the app does.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import app_dialog, inert, popup_menu
from android_gym.sim.apps import feeder_data as D
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
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
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = D.PACKAGE
LIST_RID = f"{PACKAGE}:id/article_list"
ROW_RID = f"{PACKAGE}:id/article_row"
ROW_TITLE_RID = f"{PACKAGE}:id/story_title"
ROW_INFO_RID = f"{PACKAGE}:id/story_feed"
FEED_RID = f"{PACKAGE}:id/drawer_feed"
TAG_RID = f"{PACKAGE}:id/drawer_tag"
COUNT_RID = f"{PACKAGE}:id/unread_count"
URL_RID = f"{PACKAGE}:id/search_view"
RESULT_RID = f"{PACKAGE}:id/search_result"
ERROR_RID = f"{PACKAGE}:id/search_error"
TITLE_RID = f"{PACKAGE}:id/feed_title"
TAG_FIELD_RID = f"{PACKAGE}:id/feed_tag"
READER_TITLE_RID = f"{PACKAGE}:id/reader_title"
AUTHOR_RID = f"{PACKAGE}:id/reader_author"
DATE_RID = f"{PACKAGE}:id/reader_date"
READER_FEED_RID = f"{PACKAGE}:id/reader_feed"
LINK_RID = f"{PACKAGE}:id/reader_link"
DRAWER_DESC, MENU_DESC, MARK_ALL_DESC = "Open navigation drawer", "More options", "Mark all as read"
ROW_H, DRAWER_ROW_H = 220, 130
NOT_FOUND = "No feeds found at this address"
ALREADY = "You already follow this feed"


class FeederApp(App):
    """Feeder: feeds by tag, article lists, the reader, subscribe by address, edit, delete, read and saved flags."""

    package = PACKAGE
    label = "Feeder"
    icon = "feeder"
    aliases = ("RSS reader", "News reader", "Feeds", "feeder")
    state_schema = D.FeederState
    initial_model = D.FeederInitial

    def reset(self) -> None:
        """The seeded subscriptions and their episode's articles; nothing changed."""
        self.feeds: dict[str, dict[str, str]] = {}
        self.articles: dict[int, dict[str, Any]] = {}
        self.next_id = 0
        for url in D.SUBSCRIBED:
            self._subscribe(url, D.CATALOGUE[url]["title"], D.CATALOGUE[url]["tag"])
        self.opened: list[int] = []
        self.added: list[str] = []
        self.removed: list[str] = []
        self.edited: list[dict[str, str]] = []
        self.copied: list[str] = []
        self._rebase()

    def _rebase(self) -> None:
        """Take the current flags as the set-up's (what `read_changed` and `saved_changed` compare with)."""
        self.base = {i: (a["read"], a["saved"]) for i, a in self.articles.items()}

    def _subscribe(self, url: str, title: str, tag: str) -> None:
        self.feeds[url] = {"title": title, "tag": tag}
        for a in D.seeded_articles(url, self.phone.seed):
            self._add_article(a)

    def _add_article(self, a: dict[str, Any]) -> None:
        self.articles[self.next_id] = {**a, "link": D.link_of(a["feed"], a["title"], a["date"])}
        self.next_id += 1

    def set_up(self, initial: D.FeederInitial) -> None:
        """Drop the `absent` feeds and `drop` articles, subscribe the `feeds`, add the `articles`.

        Seeded articles start unsaved unless `seeded_saved`.

        Raises:
            ConfigError: an article of a feed left unsubscribed.
        """
        for url in initial.absent:
            self.feeds.pop(url, None)
        dropped = set(initial.drop)
        self.articles = {i: a for i, a in self.articles.items() if a["feed"] in self.feeds
                         and a["title"] not in dropped}
        for spec in initial.feeds:
            known = D.CATALOGUE[spec.url]
            title = spec.title if spec.title is not None else known["title"]
            tag = spec.tag if spec.tag is not None else known["tag"]
            if spec.url in self.feeds:
                self.feeds[spec.url] = {"title": title, "tag": tag}
            else:
                self._subscribe(spec.url, title, tag)
        if not initial.seeded_saved:
            for a in self.articles.values():
                a["saved"] = False
        for article in initial.articles:
            D.refuse_unsubscribed(article.feed, self.feeds)
            self._add_article(article.to_data())
        self._rebase()

    def home(self) -> Screen:
        """Every feed's articles."""
        return Screen(PACKAGE, "articles", {"showing": "all"})

    # -- the model ----------------------------------------------------------------------------------------------------
    def listing(self, showing: str) -> list[int]:
        """The ids of the articles `showing` selects, newest first."""
        kind, _, value = showing.partition(":")

        def shown(a: dict[str, Any]) -> bool:
            match kind:
                case "saved":
                    return a["saved"]
                case "tag":
                    return self.feeds[a["feed"]]["tag"] == value
                case "feed":
                    return a["feed"] == value
            return True

        ids = [i for i, a in self.articles.items() if shown(a)]
        return sorted(ids, key=lambda i: (self.articles[i]["date"], self.articles[i]["time"], i), reverse=True)

    def unread(self, showing: str) -> int:
        """How many of the articles `showing` selects are unread."""
        return sum(not self.articles[i]["read"] for i in self.listing(showing))

    def heading(self, showing: str) -> str:
        """The article list's title for `showing`."""
        kind, _, value = showing.partition(":")
        if kind == "feed":
            return self.feeds[value]["title"] if value in self.feeds else "Feeder"
        return {"all": "All feeds", "saved": "Saved articles"}.get(kind, value)

    def state(self) -> D.FeederState:
        """The feeds, the articles and what changed since set-up (see `FeederState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        lists = [s for s in mine if s.name == "articles"]
        reader = next((s.args["id"] for s in reversed(mine) if s.name == "reader"), None)
        return {"feeds": [{"url": u, "title": f["title"], "tag": f["tag"], "unread": self.unread(f"feed:{u}")}
                          for u, f in sorted(self.feeds.items(), key=lambda kv: (kv[1]["title"].lower(), kv[0]))],
                "articles": [{"id": i, **self.articles[i]} for i in self.listing("all")],
                "screen": front.name if front else None,
                "showing": lists[-1].args["showing"] if lists else "all",
                "open": reader if reader in self.articles else None, "opened": list(self.opened),
                "added": list(self.added), "removed": list(self.removed), "edited": [dict(e) for e in self.edited],
                "read_changed": sorted(i for i, (r, _) in self.base.items()
                                       if i in self.articles and self.articles[i]["read"] != r),
                "saved_changed": sorted(i for i, (_, s) in self.base.items()
                                        if i in self.articles and self.articles[i]["saved"] != s),
                "copied": list(self.copied)}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a menu or dialog over the (inert) page below it."""
        pages = {"articles": self._articles, "drawer": self._drawer, "add": self._add, "edit": self._edit,
                 "reader": self._reader}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        return [*under, self._menu(below) if screen.name == "menu" else self._delete(screen)]

    def _action(self, i: int, desc: str, icon: str, event: tuple) -> View:
        """Toolbar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H,
                                   CONTENT_TOP + TOOLBAR_H), desc=desc, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, icon=icon)

    def _articles(self, screen: Screen) -> list[View]:
        showing, top = screen.args["showing"], CONTENT_TOP + TOOLBAR_H
        bar = View(FRAME, (0, CONTENT_TOP, WIDTH, top), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE,
                   style="toolbar", children=[
                       View(IMAGE_BUTTON, (0, CONTENT_TOP, TOOLBAR_H, top), desc=DRAWER_DESC, package=PACKAGE,
                            clickable=True, focusable=True, on_tap=("drawer",), icon="menu"),
                       View(TEXT_VIEW, (TOOLBAR_H, CONTENT_TOP, WIDTH - 2 * TOOLBAR_H, top),
                            text=self.heading(showing), rid=f"{PACKAGE}:id/title", package=PACKAGE,
                            style="title")])
        rows = [self._row(top + k * ROW_H, i) for k, i in enumerate(self.listing(showing))]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="Nothing to read",
                         package=PACKAGE, style="hint")]
        return [bar, self._action(1, MARK_ALL_DESC, "check", ("mark_all",)),
                self._action(0, MENU_DESC, "more", ("menu",)),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID)]

    def _row(self, y: int, i: int) -> View:
        a = self.articles[i]
        feed = self.feeds[a["feed"]]["title"]
        flags = ", ".join(f for f, on in (("unread", not a["read"]), ("saved", a["saved"])) if on)
        kids = [View(TEXT_VIEW, (MARGIN, y + 25, WIDTH - 160, y + 130), text=a["title"], rid=ROW_TITLE_RID,
                     package=PACKAGE, style="row_title" if not a["read"] else "row_summary"),
                View(TEXT_VIEW, (MARGIN, y + 135, WIDTH - 160, y + 200),
                     text=f"{feed} \u00b7 {D.day_label(a['date'])}", rid=ROW_INFO_RID, package=PACKAGE,
                     style="row_summary")]
        if not a["read"]:
            kids.append(View(IMAGE_VIEW, (WIDTH - 140, y + 40, WIDTH - 100, y + 80), desc="Unread", package=PACKAGE,
                             icon="record"))
        if a["saved"]:
            kids.append(View(IMAGE_VIEW, (WIDTH - 140, y + 120, WIDTH - 60, y + 200), desc="Saved", package=PACKAGE,
                             icon="star"))
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, desc=f"{a['title']}, {feed}"
                    + (f", {flags}" if flags else ""), package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("open", i), style="row", children=kids)

    def _drawer(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        entries: list[tuple[str, str, str, int]] = [("All feeds", "all", TAG_RID, 0),
                                                    ("Saved articles", "saved", TAG_RID, 0)]
        tags = sorted({f["tag"] for f in self.feeds.values() if f["tag"]}, key=str.lower)
        by_title = sorted(self.feeds.items(), key=lambda kv: (kv[1]["title"].lower(), kv[0]))
        for tag in tags:
            entries.append((tag, f"tag:{tag}", TAG_RID, 0))
            entries += [(f["title"], f"feed:{u}", FEED_RID, 60) for u, f in by_title if f["tag"] == tag]
        entries += [(f["title"], f"feed:{u}", FEED_RID, 0) for u, f in by_title if not f["tag"]]
        rows = []
        for k, (text, showing, rid, indent) in enumerate(entries):
            y = top + k * DRAWER_ROW_H
            count = len(self.listing(showing)) if showing == "saved" else self.unread(showing)
            rows.append(View(LINEAR, (0, y, WIDTH, y + DRAWER_ROW_H), desc=f"{text}, {count}", package=PACKAGE,
                             clickable=True, focusable=True, on_tap=("show", showing), style="row", children=[
                                 View(TEXT_VIEW, (MARGIN + indent, y + 20, WIDTH - 220, y + 110), text=text, rid=rid,
                                      package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (WIDTH - 200, y + 20, WIDTH - MARGIN, y + 110), text=str(count),
                                      rid=COUNT_RID, package=PACKAGE, style="row_summary")]))
        return [toolbar("Feeds", PACKAGE, PACKAGE), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                                rid=f"{PACKAGE}:id/nav_list")]

    def _menu(self, below: Screen) -> View:
        items: list[tuple[str, tuple]] = [("Add feed", ("add",))]
        if below.args["showing"].startswith("feed:"):
            items += [("Edit feed", ("edit",)), ("Delete feed", ("delete",))]
        return popup_menu(PACKAGE, items, ("cancel",))

    def _add(self, screen: Screen) -> list[View]:
        col = Column(CONTENT_TOP + TOOLBAR_H + 40, PACKAGE)
        col.field(URL_RID, screen.fields.get(URL_RID, ""), "Site or feed address", screen.focus == URL_RID)
        col.gap(20)
        col.button("Search", ("search",))
        url = screen.args["searched"]
        if screen.args["error"]:
            col.text(screen.args["error"], height=100, style="hint", rid=ERROR_RID)
        elif url:
            col.gap(20)
            col.add(View(LINEAR, (0, col.y, WIDTH, col.y + ROW_H), package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("pick", url), style="row", children=[
                             View(TEXT_VIEW, (MARGIN, col.y + 25, WIDTH - MARGIN, col.y + 120),
                                  text=D.CATALOGUE[url]["title"], rid=RESULT_RID, package=PACKAGE,
                                  style="row_title"),
                             View(TEXT_VIEW, (MARGIN, col.y + 125, WIDTH - MARGIN, col.y + 200), text=url,
                                  package=PACKAGE, style="row_summary")]))
        return [toolbar("Add feed", PACKAGE, PACKAGE), *col.views]

    def _edit(self, screen: Screen) -> list[View]:
        url = screen.args["url"]
        col = Column(CONTENT_TOP + TOOLBAR_H + 40, PACKAGE)
        col.text(url, height=90, style="secondary", rid=f"{PACKAGE}:id/feed_url")
        col.text("Title", height=70, style="secondary")
        col.field(TITLE_RID, screen.fields.get(TITLE_RID, ""), "Title", screen.focus == TITLE_RID)
        col.text("Tag", height=70, style="secondary")
        col.field(TAG_FIELD_RID, screen.fields.get(TAG_FIELD_RID, ""), "Tag", screen.focus == TAG_FIELD_RID)
        col.gap(40)
        col.add(View(BUTTON, (WIDTH - 360, col.y, WIDTH - MARGIN, col.y + 140), text="OK", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("ok",), style="button"))
        return [toolbar("Add feed" if screen.args["new"] else "Edit feed", PACKAGE, PACKAGE), *col.views]

    def _delete(self, screen: Screen) -> View:
        title = self.feeds[screen.args["url"]]["title"]
        return app_dialog(PACKAGE, "Delete feed?", [], [("Cancel", ("cancel",), True), ("Delete", ("ok",), True)],
                          message=f"\u201c{title}\u201d and its articles will be removed.")

    def _reader(self, screen: Screen) -> list[View]:
        i = screen.args["id"]
        a = self.articles[i]
        col = Column(CONTENT_TOP + TOOLBAR_H + 40, PACKAGE)
        col.text(a["title"], height=200, style="section", rid=READER_TITLE_RID)
        col.text(f"By {a['author']}", height=90, style="secondary", rid=AUTHOR_RID)
        col.text(D.moment_label(a["date"], a["time"]), height=90, style="secondary", rid=DATE_RID)
        col.text(self.feeds[a["feed"]]["title"], height=90, style="secondary", rid=READER_FEED_RID)
        col.gap(30)
        for k, paragraph in enumerate(D.body_of(a["title"], a["author"])):
            col.text(paragraph, height=260, rid=f"{PACKAGE}:id/paragraph_{k}")
        col.text(a["link"], height=120, style="link", rid=LINK_RID)
        return [toolbar("", PACKAGE, PACKAGE),
                self._action(2, "Remove from saved" if a["saved"] else "Save article", "star", ("save", i)),
                self._action(1, "Mark as unread" if a["read"] else "Mark as read", "visibility", ("read", i)),
                self._action(0, "Copy link", "link", ("copy", i)), *col.views]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The list, the drawer, the menu, the add and edit forms, the delete dialog and the reader's actions."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "articles", ("drawer",):
                return self.phone.push(Screen(PACKAGE, "drawer"))
            case "articles", ("menu",):
                return self.phone.push(Screen(PACKAGE, "menu"))
            case "articles", ("mark_all",):
                for i in self.listing(screen.args["showing"]):
                    self.articles[i]["read"] = True
                return True
            case "articles", ("open", i):
                self.articles[i]["read"] = True
                self.opened.append(i)
                return self.phone.push(Screen(PACKAGE, "reader", {"id": i}))
            case "drawer", ("show", showing):
                self.phone.pop()
                return self.phone.replace(Screen(PACKAGE, "articles", {"showing": showing}))
            case "menu", ("add",):
                self.phone.pop()
                return self.phone.push(Screen(PACKAGE, "add", {"searched": "", "error": ""}, focus=URL_RID))
            case "menu", (("edit" | "delete") as kind,):
                self.phone.pop()
                url = self.phone.top.args["showing"][5:]
                if kind == "delete":
                    return self.phone.push(Screen(PACKAGE, "delete", {"url": url}))
                f = self.feeds[url]
                return self.phone.push(Screen(PACKAGE, "edit", {"url": url, "new": False},
                                              {TITLE_RID: f["title"], TAG_FIELD_RID: f["tag"]}))
            case "add", ("search",):
                return self._search(screen)
            case "add", ("pick", url):
                return self.phone.replace(Screen(PACKAGE, "edit", {"url": url, "new": True},
                                                 {TITLE_RID: D.CATALOGUE[url]["title"], TAG_FIELD_RID: ""}))
            case "edit", ("ok",):
                return self._save(screen)
            case "delete", ("ok",):
                url = screen.args["url"]
                del self.feeds[url]
                self.articles = {i: a for i, a in self.articles.items() if a["feed"] != url}
                self.removed.append(url)
                self.phone.pop()
                return self.phone.replace(Screen(PACKAGE, "articles", {"showing": "all"}))
            case "reader", ("save", i):
                self.articles[i]["saved"] = not self.articles[i]["saved"]
                return True
            case "reader", ("read", i):
                self.articles[i]["read"] = not self.articles[i]["read"]
                return True
            case "reader", ("copy", i):
                link = self.articles[i]["link"]
                self.phone.set_clipboard(link)
                self.copied.append(link)
                return True
        return False

    def _search(self, screen: Screen) -> bool:
        """Look the typed address up: a known feed is offered, an unknown or followed one refused."""
        url = screen.fields.get(URL_RID, "").strip()
        screen.focus = None
        if url not in D.CATALOGUE:
            screen.args.update(searched="", error=NOT_FOUND)
        elif url in self.feeds:
            screen.args.update(searched="", error=ALREADY)
        else:
            screen.args.update(searched=url, error="")
        return True

    def _save(self, screen: Screen) -> bool:
        """Subscribe to the new feed (and show it), or save the feed's title and tag; a blank title keeps the feed's
        own."""  # noqa: D205, D209
        url = screen.args["url"]
        title = screen.fields.get(TITLE_RID, "").strip() or D.CATALOGUE[url]["title"]
        tag = screen.fields.get(TAG_FIELD_RID, "").strip()
        if screen.args["new"]:
            self._subscribe(url, title, tag)
            self.added.append(url)
            self.phone.pop()
            return self.phone.replace(Screen(PACKAGE, "articles", {"showing": f"feed:{url}"}))
        self.feeds[url] = {"title": title, "tag": tag}
        self.edited.append({"url": url, "title": title, "tag": tag})
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the address field searches."""
        return self._search(screen) if screen.name == "add" and rid == URL_RID else False

    def on_back(self, screen: Screen) -> bool:
        """BACK on a feed's, a tag's or the saved list goes to All feeds first, as the app does."""
        if screen.name == "articles" and screen.args["showing"] != "all":
            return self.phone.replace(Screen(PACKAGE, "articles", {"showing": "all"}))
        return False

