"""Task articles and expert steps the Feeder templates share (`feeder_tasks`).

The task articles: titles no seeded feed draws (`TITLES`, each with a near-miss twin), authors no seeded article has
(`AUTHORS`), and `article` to put one in a feed. The checks read Feeder's state (`feeder_state`) with `find_article`,
`feeds_untouched` and `untouched`. Each expert step reads the UI elements and the sim's state and returns the next
action towards a sub-goal: an article list shown (`to_showing`, through the drawer), an article open in the reader
(`to_article`), a feed's edit form saved (`edit_feed`, its fields replaced whole with `set_text`), a feed subscribed
by address (`subscribe`) or deleted (`unsubscribe`).
"""

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import feeder as F
from android_gym.sim.apps import feeder_data as D
from android_gym.sim.clipboard import MENU_RID
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, fill, find, swipe_up, tap
from android_gym.tasks.world.base import Elements, State, leave, press
from android_gym.tasks.world.clipboard_expert import long_press

FEEDER = D.PACKAGE
LABEL = F.FeederApp.label
TITLES = (("City opens a repair cafe", "City closes a repair cafe"),
          ("The river cleanup, one year on", "The river cleanup, two years on"),
          ("Inside the new tram depot", "Outside the new tram depot"),
          ("How the heat pump trial went", "How the heat pump trial began"),
          ("A guide to the summer reading list", "A guide to the winter reading list"),
          ("Volunteers map every tree", "Volunteers map every bench"),
          ("What the census tells us", "What the census hides"),
          ("Five apps for learning Welsh", "Five apps for learning Dutch"),
          ("The lighthouse keeper retires", "The lighthouse keeper returns"),
          ("A tiny forest in the car park", "A tiny garden in the car park"),
          ("Night trains are back", "Night buses are back"),
          ("The quiet rise of board games", "The loud rise of board games"))
"""Task article titles, each with a twin (the near miss); no feed's pool holds one."""
AUTHORS = ("Nadia Petrov", "Colm Brennan", "Yara Haddad", "Theo Lindgren", "Amara Nwosu", "Kenji Mori",
           "Elsa Brandt", "Mateo Ruiz", "Freya Holm", "Idris Bello", "Clara Moreau", "Sami Virtanen")
"""Task authors; no seeded article has one."""
FEEDS = tuple(D.SUBSCRIBED)
"""The feeds the phone starts subscribed to, where task articles go."""


def title_of(url: str) -> str:
    """The catalogue title of feed `url`."""
    return D.CATALOGUE[url]["title"]


def article(feed: str, title: str, author: str, date: str, time: str = "09:00", read: bool = False,
            saved: bool = False) -> dict[str, Any]:
    """An initial article of feed `feed` (Feeder's `ArticleSpec` data)."""
    return {"feed": feed, "title": title, "author": author, "date": date, "time": time, "read": read,
            "saved": saved}


def feeder_state(state: State) -> D.FeederState:
    """Feeder's part of the device state."""
    return state_of(state, D.FeederState)


def find_article(state: State, title: str) -> D.ArticleState | None:
    """The (newest) article titled `title`, or None."""
    return next((a for a in feeder_state(state)["articles"] if a["title"] == title), None)


def find_feed(state: State, url: str) -> D.FeedState | None:
    """The subscribed feed at `url`, or None."""
    return next((f for f in feeder_state(state)["feeds"] if f["url"] == url), None)


def feeds_untouched(state: State) -> bool:
    """No feed added, removed or edited this episode."""
    f = feeder_state(state)
    return not (f["added"] or f["removed"] or f["edited"])


def untouched(state: State) -> bool:
    """No feed changed and no article's read or saved flag changed this episode."""
    f = feeder_state(state)
    return feeds_untouched(state) and not f["read_changed"] and not f["saved_changed"]


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_showing(showing: str, elements: Elements, state: State) -> Action | None:
    """The next step to the article list showing `showing` (None once there, nothing over it)."""
    step = into_app(LABEL, FEEDER, elements, state)
    if step is not None:
        return step
    f = feeder_state(state)
    screen = f["screen"]
    if screen == "articles":
        return None if f["showing"] == showing else press(elements, desc=F.DRAWER_DESC)
    if screen != "drawer":
        return leave(elements) if screen in ("menu", "delete") else back()
    kind, _, value = showing.partition(":")
    if kind == "feed":
        feed = find_feed(state, value)
        row = find(elements, rid=F.FEED_RID, text=feed["title"]) if feed is not None else None
    else:
        row = find(elements, rid=F.TAG_RID, text={"all": "All feeds", "saved": "Saved articles"}.get(kind, value))
    return tap(row) if row is not None else swipe_up()


def to_article(title: str, showing: str, elements: Elements, state: State) -> Action | None:
    """The next step to the article `title` open in the reader, from the list `showing` (None once there)."""
    step = into_app(LABEL, FEEDER, elements, state)
    f = feeder_state(state)
    if step is None and f["screen"] == "reader":
        a = find_article(state, title)
        return None if a is not None and f["open"] == a["id"] else back()
    step = step or to_showing(showing, elements, state)
    if step is not None:
        return step
    row = find(elements, rid=F.ROW_TITLE_RID, text=title)
    return tap(row) if row is not None else swipe_up()


def edit_feed(url: str, title: str, tag: str, elements: Elements, state: State) -> Action:
    """The next step to save feed `url` with `title` and `tag` from its edit form."""
    step = into_app(LABEL, FEEDER, elements, state)
    f = feeder_state(state)
    if step is None and f["screen"] == "edit":
        args = state["screen"]["args"]
        if args["url"] != url or args["new"]:
            return back()
        return (set_text(F.TITLE_RID, title, elements, state) or set_text(F.TAG_FIELD_RID, tag, elements, state)
                or press(elements, text="OK"))
    if step is None and f["screen"] == "menu":
        return press(elements, text="Edit feed") if f["showing"] == f"feed:{url}" else leave(elements)
    return step or to_showing(f"feed:{url}", elements, state) or press(elements, desc=F.MENU_DESC)


def set_text(rid: str, text: str, elements: Elements, state: State) -> Action | None:
    """The next step to make field `rid` hold `text` (None once it does): text that does not lead to it is replaced
    whole, as a person does (long press, Select all, type over the selection), else the rest is typed."""  # noqa: D205, D209
    current = state["screen"]["fields"].get(rid, "")
    if current == text or text.startswith(current):
        return fill(elements, state, rid, text)
    selection = state["clipboard"]["selection"]
    if selection is None or selection["field"] != rid:
        field = find(elements, rid=rid)
        return long_press(field) if field is not None else back()
    widen = find(elements, text="Select all", rid=MENU_RID)
    return tap(widen) if widen is not None else Action.type(text)


def subscribe(url: str, tag: str, elements: Elements, state: State) -> Action:
    """The next step to subscribe to `url` under `tag`: More options, Add feed, the address, Search, the feed, OK."""
    step = into_app(LABEL, FEEDER, elements, state)
    if step is not None:
        return step
    screen = feeder_state(state)["screen"]
    if screen == "menu":
        return press(elements, text="Add feed")
    if screen == "add":
        if state["screen"]["args"]["searched"] == url:
            return press(elements, rid=F.RESULT_RID)
        return fill(elements, state, F.URL_RID, url) or press(elements, text="Search")
    if screen == "edit" and state["screen"]["args"]["new"]:
        return fill(elements, state, F.TAG_FIELD_RID, tag) or press(elements, text="OK")
    if screen == "articles":
        return press(elements, desc=F.MENU_DESC)
    return leave(elements) if screen == "delete" else back()


def unsubscribe(url: str, elements: Elements, state: State) -> Action:
    """The next step to delete feed `url`: its list, More options, Delete feed, Delete."""
    step = into_app(LABEL, FEEDER, elements, state)
    f = feeder_state(state)
    if step is None and f["screen"] == "delete":
        return press(elements, text="Delete") if state["screen"]["args"]["url"] == url else leave(elements)
    if step is None and f["screen"] == "menu":
        return press(elements, text="Delete feed") if f["showing"] == f"feed:{url}" else leave(elements)
    return step or to_showing(f"feed:{url}", elements, state) or press(elements, desc=F.MENU_DESC)
