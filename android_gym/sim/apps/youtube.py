"""The YouTube app: a home feed, search with suggestions, result lists with sponsored entries, and a player.

Videos are generated from the query with `stable_seed`, so the same query shows the same results in every process;
which results are sponsored depends on the episode seed too (`phone.seed`), never on the episode RNG, so building a
screen never consumes randomness.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

import numpy as np
from typing_extensions import TypedDict

from android_gym.sim.app import App, Screen, stable_seed
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

PACKAGE = "com.google.android.youtube"
SEARCH_RID = f"{PACKAGE}:id/search_edit_text"
CARD_RID = f"{PACKAGE}:id/video_card"
PLAY_PAUSE_RID = f"{PACKAGE}:id/player_control_play_pause_replay_button"
SUBSCRIBE_RID = f"{PACKAGE}:id/subscribe_button"
META_RID = f"{PACKAGE}:id/video_meta"
CHANNEL_RID = f"{PACKAGE}:id/channel_name"
LENGTH_RID = f"{PACKAGE}:id/time_bar_total_time"
TABS = ("Home", "Shorts", "Subscriptions", "Library")
TAB_H = 170
CARD_H = 380
RESULTS_PER_QUERY = 10

TOPICS = (
    "guitar lessons", "sourdough bread", "cat videos", "yoga for beginners", "chess openings", "home workout",
    "piano tutorial", "space exploration", "python programming", "street food", "car reviews", "drawing tutorial",
    "photography tips", "minecraft builds", "lofi music", "stand up comedy", "travel vlog", "origami", "card tricks",
    "gardening tips", "woodworking", "makeup tutorial", "dog training", "basketball highlights", "soccer skills",
    "marathon training", "meditation music", "jazz piano", "electric cars", "smartphone review", "budget travel",
    "vegan recipes", "knitting", "skateboarding", "rock climbing", "camping gear", "bird watching",
    "history documentary", "ancient rome", "black holes", "volcanoes", "ocean animals", "math tricks",
    "learning spanish", "learning japanese", "public speaking", "coffee brewing", "pasta recipes", "thai curry",
    "bike repair", "home organization", "interior design", "magic tricks", "tennis lessons", "golf swing", "surfing",
    "watercolor painting", "calligraphy", "3d printing", "drone footage", "retro games", "pottery", "salsa dancing",
    "beatboxing", "sushi making", "weight loss tips", "study music", "night sky timelapse", "train journeys",
    "rubiks cube",
)
"""Video topics: the feed draws from them, search suggests them, tasks ask for them."""

_TITLES = ("{T} | Complete Guide", "Top 10 {T} Moments", "{T} in 10 Minutes", "I Tried {T} for 30 Days",
           "The Ultimate {T} Compilation", "{T} - Everything You Need to Know", "Relaxing {T} (4K)",
           "{T}: Tips and Tricks", "Why {T} Is Amazing", "{T} Live Stream", "{T} for Absolute Beginners",
           "My Favorite {T} of the Year")
_CHANNELS = ("Daily Dose", "The Curious Mind", "Maker Lab", "Chill Beats", "Explained", "Weekend Pro", "Studio 9",
             "Green Thumb", "Kitchen Stories", "Pixel Perfect", "Go Outside", "Brain Food", "Sunday Sessions",
             "Tiny Desk Club", "Nerd Corner", "Urban Explorer")
_ADVERTISERS = ("SkillHub", "LearnIt Pro", "MasterClassy", "Streamly", "CoursePeak")


SUITE_CHANNELS: dict[str, str] = {
    "gamespot": "GameSpot", "gamespot reviews": "GameSpot Reviews", "gamespot trailers": "GameSpot Trailers",
    "gamespot esports": "GameSpot eSports", "gamespot news": "GameSpot News", "gamexplain": "GameXplain",
    "gametrailers": "GameTrailers", "gameranx": "Gameranx", "ign": "IGN", "game informer": "Game Informer",
    "polygon": "Polygon", "kotaku": "Kotaku", "bbc": "BBC", "bbc news": "BBC News", "cnn": "CNN",
    "washington post": "The Washington Post", "wall street journal": "The Wall Street Journal",
    "new york times": "The New York Times", "huffpost": "HuffPost", "vox": "Vox", "the verge": "The Verge",
    "nasa": "NASA", "ted": "TED", "national geographic": "National Geographic",
}
"""The channels the general suite's latest-video tasks ask for (kept as published)."""
CHANNELS: dict[str, str] = {
    **SUITE_CHANNELS, "veritasium": "Veritasium", "kurzgesagt": "Kurzgesagt", "vsauce": "Vsauce",
    "mark rober": "Mark Rober", "mkbhd": "MKBHD", "linus tech tips": "Linus Tech Tips",
    "smarter every day": "SmarterEveryDay", "3blue1brown": "3Blue1Brown", "crash course": "CrashCourse",
    "tasty": "Tasty", "bon appetit": "Bon Appetit", "binging with babish": "Babish Culinary Universe",
    "mrbeast": "MrBeast", "the slow mo guys": "The Slow Mo Guys", "numberphile": "Numberphile",
    "tom scott": "Tom Scott", "lofi girl": "Lofi Girl",
}
"""Well-known channels by their lower-case name without a leading "the": searching one lists its uploads, newest
first ("What's the latest video from GameSpot?"), and its videos' player offers Subscribe."""
CHANNEL_ALIASES = {"huffington post": "huffpost", "wsj": "wall street journal", "nyt": "new york times",
                   "nat geo": "national geographic", "verge": "the verge",
                   "kurzgesagt in a nutshell": "kurzgesagt", "marques brownlee": "mkbhd", "ltt": "linus tech tips",
                   "smartereveryday": "smarter every day", "crashcourse": "crash course",
                   "babish": "binging with babish", "mr beast": "mrbeast", "slow mo guys": "the slow mo guys"}
_UPLOADS = ("Full Review", "Official Trailer", "Everything We Know", "Top 10 Moments", "Breaking News", "Explained",
            "Live Coverage", "First Look", "The Week in Review", "Behind the Scenes", "Interview", "Highlights")


def channel_of(query: str) -> str | None:
    """The channel a query names exactly (its display name), or None.

    >>> channel_of("The Wall Street Journal"), channel_of("IGN videos")
    ('The Wall Street Journal', None)
    """
    q = " ".join(query.lower().split())
    q = q[4:] if q.startswith("the ") and q[4:] in {*CHANNELS, *CHANNEL_ALIASES} else q
    return CHANNELS.get(CHANNEL_ALIASES.get(q, q))


def _uploads(channel: str, q: str) -> list[dict]:
    """A channel's latest uploads, newest first ("newest": True on the first)."""
    rng = np.random.default_rng(stable_seed("youtube-channel", channel))
    picks = rng.permutation(len(_UPLOADS))[:RESULTS_PER_QUERY]
    ages = ["3 hours ago", "1 day ago", "2 days ago", "4 days ago", "1 week ago", "2 weeks ago", "3 weeks ago",
            "1 month ago", "2 months ago", "3 months ago"]
    return [{"title": f"{channel}: {_UPLOADS[int(k)]}", "channel": channel, "views": _count(rng),
             "duration": f"{int(rng.integers(2, 59))}:{int(rng.integers(60)):02d}", "age": ages[i], "query": q,
             "ad": False, "newest": i == 0} for i, k in enumerate(picks)]


def videos(query: str, perturbed_seed: int | None = None) -> list[dict]:
    """The result list for `query`: organic videos whose titles contain the query, plus sponsored ones.

    For a channel's name (`channel_of`), the organic videos are that channel's uploads, newest first.

    Args:
        query: what was searched (case and surrounding blanks are ignored for generation).
        perturbed_seed: the episode seed when sponsored entries are on, else None (no ads).

    Returns:
        Video dicts {"title", "channel", "views", "duration", "age", "query", "rank", "ad"}, and "newest" on a
        channel's list; `rank` is the 0-based position in the list (ads included).
    """
    q = " ".join(query.lower().split())
    channel = channel_of(q)
    if channel is not None:
        out = _uploads(channel, q)
    else:
        q = _titled().get(_words(q), q)  # a video's own title finds the list it is in
        rng = np.random.default_rng(stable_seed("youtube", q))
        titles = rng.permutation(len(_TITLES))[:RESULTS_PER_QUERY]
        out = [{"title": _TITLES[t].replace("{T}", q.title()),
                "channel": _CHANNELS[int(rng.integers(len(_CHANNELS)))], "views": _count(rng),
                "duration": f"{int(rng.integers(2, 59))}:{int(rng.integers(60)):02d}",
                "age": f"{int(rng.integers(1, 12))} {['days', 'months', 'years'][int(rng.integers(3))]} ago",
                "query": q, "ad": False} for t in titles]
    if perturbed_seed is not None:
        ad_rng = np.random.default_rng(stable_seed("youtube-ads", perturbed_seed, q))
        for pos in (0, 3):  # ads sit on top of the list or among the first screenful, like the real feed
            if ad_rng.random() < 0.5:
                brand = _ADVERTISERS[int(ad_rng.integers(len(_ADVERTISERS)))]
                out.insert(pos, {"title": f"{q.title()} Masterclass - Start Your Free Trial", "channel": brand,
                                 "views": "", "duration": "0:30", "age": "", "query": q, "ad": True,
                                 **({"newest": False} if channel else {})})
    return [{**v, "rank": i} for i, v in enumerate(out)]


def _words(text: str) -> str:
    """`text` as titles are looked up: its lower-case words, single-spaced."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@cache
def _titled() -> dict[str, str]:
    """The words of every topic video's title -> its topic (built once, by the same draw as `videos`)."""
    out: dict[str, str] = {}
    for topic in TOPICS:
        rng = np.random.default_rng(stable_seed("youtube", topic))
        for t in rng.permutation(len(_TITLES))[:RESULTS_PER_QUERY]:
            out[_words(_TITLES[t].replace("{T}", topic.title()))] = topic
    return out


def _count(rng: np.random.Generator) -> str:
    n = int(10 ** rng.uniform(3, 7.5))
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n // 1000}K"


# -- the typed seam: the state tasks read ----------------------------------------------------------------------------
@closed
class PlayingVideo(TypedDict):
    """The video the player in front plays, once loaded.

    Attributes:
        title: its title; query: the search it was found by (`videos`' "query"); rank: its 0-based place in that
            list, adverts included.
        ad: whether it is a sponsored entry (its channel is then the advertiser).
        paused: whether the player is paused.
        channel: its channel.
        newest: whether it is its channel's latest upload (False outside a channel's list).
    """

    title: str
    query: str
    rank: int
    ad: bool
    paused: bool
    channel: str
    newest: bool


@closed
class YouTubeState(TypedDict):
    """What the YouTube app reports (`YouTubeApp.state`).

    Attributes:
        page: the front YouTube screen's name, None when YouTube has no screen on the stack.
        query: the latest search in the back stack, or None.
        loading: whether the front YouTube screen still shows a spinner.
        playing: the video while the player is loaded in front, else None.
        subscriptions: the channels subscribed to, in the order subscribed.
        liked: the titles of the videos liked, in the order liked.
        watch_later: the titles of the videos saved to Watch later, in the order saved.
        watched: the titles of the videos opened this episode, in the order first opened.
    """

    page: Literal["home", "shorts", "subscriptions", "library", "search", "results", "player"] | None
    query: str | None
    loading: bool
    playing: PlayingVideo | None
    subscriptions: list[str]
    liked: list[str]
    watch_later: list[str]
    watched: list[str]


class YouTubeApp(App):
    """YouTube: feed tabs, search, results and a player with Subscribe.

    Screens: "home" / "shorts" / "subscriptions" / "library" (bottom tabs), "search" (args {}), "results" (args
    {"query"}), "player" (args {"video": a `videos()` dict, "paused": bool}).

    Results and the player load through `phone.push(..., slow=True)`, so they may show a spinner first. The player
    of a channel's video (not an advert's) has Subscribe beside the channel's name (Subscribed unsubscribes); the
    Subscriptions tab lists the channels subscribed to. The episode starts subscribed to none. The player shows the
    video's length, views, age and channel; its Like and Save to Watch later toggle, and the Library tab lists the
    videos saved to Watch later and those liked (each plays). Searching a topic video's own title lists its topic.
    """

    package = PACKAGE
    label = "YouTube"
    icon = "youtube"
    aliases = ("youtube app", "yt")
    state_schema = YouTubeState

    def reset(self) -> None:
        """Subscribed to no channel, nothing liked or saved."""
        self.subscriptions: list[str] = []
        self.liked: list[dict] = []  # video dicts, so that the Library tab can play them
        self.watch_later: list[dict] = []
        self.watched: list[str] = []  # a task that reads a video's page knows it was opened

    def home(self) -> Screen:
        """The home feed."""
        return Screen(PACKAGE, "home")

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The screen's views."""
        if screen.name == "search":
            return self._search(screen)
        if screen.name == "results":
            return self._results(screen.args["query"])
        if screen.name == "player":
            return self._player(screen.args)
        return self._tab(screen.name)

    def _topbar(self) -> View:
        y0, y1 = CONTENT_TOP, CONTENT_TOP + TOOLBAR_H
        return View(LINEAR, (0, y0, WIDTH, y1), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar",
                    children=[View(IMAGE_VIEW, (MARGIN, y0 + 30, 360, y1 - 30), desc="YouTube", package=PACKAGE,
                                   icon="youtube_logo"),
                              View(IMAGE_BUTTON, (WIDTH - 360, y0, WIDTH - 200, y1), desc="Cast", package=PACKAGE,
                                   clickable=True, on_tap=("noop",), icon="cast"),
                              View(IMAGE_BUTTON, (WIDTH - 190, y0, WIDTH - 30, y1), desc="Search",
                                   rid=f"{PACKAGE}:id/menu_item_1", package=PACKAGE, clickable=True,
                                   focusable=True, on_tap=("search",), icon="search")])

    def _tab(self, name: str) -> list[View]:
        top, bottom = CONTENT_TOP + TOOLBAR_H, CONTENT_BOTTOM - TAB_H
        if name == "home":
            rng = np.random.default_rng(stable_seed("youtube-home", self.phone.seed))
            feed = [videos(TOPICS[int(rng.integers(len(TOPICS)))])[int(rng.integers(RESULTS_PER_QUERY))]
                    for _ in range(8)]
            body = scroll_list(top, bottom, PACKAGE, [_card(v, top + i * CARD_H) for i, v in enumerate(feed)],
                               rid=f"{PACKAGE}:id/results")
        elif name == "subscriptions" and self.subscriptions:
            rows = [View(TEXT_VIEW, (MARGIN, top + i * 180, WIDTH - MARGIN, top + (i + 1) * 180), text=c, desc=c,
                         package=PACKAGE, style="row", icon="subscriptions") for i, c in enumerate(self.subscriptions)]
            body = scroll_list(top, bottom, PACKAGE, rows, rid=f"{PACKAGE}:id/subscriptions")
        elif name == "library" and (self.watch_later or self.liked):
            body = scroll_list(top, bottom, PACKAGE, self._library(top), rid=f"{PACKAGE}:id/library")
        else:
            body = View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 500), package=PACKAGE, style="hint",
                        text="Sign in to see updates from your favorite channels" if name == "subscriptions"
                        else f"Nothing in {name.title()} yet")
        w = WIDTH // len(TABS)
        tabs = View(LINEAR, (0, bottom, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/pivot_bar", package=PACKAGE,
                    style="tabbar", children=[
                        View(TEXT_VIEW, (i * w, bottom, (i + 1) * w, CONTENT_BOTTOM), text=t, desc=t, package=PACKAGE,
                             clickable=True, focusable=True, selected=t.lower() == name, on_tap=("tab", t.lower()),
                             style="tab", icon=t.lower()) for i, t in enumerate(TABS)])
        return [self._topbar(), body, tabs]

    def _library(self, top: int) -> list[View]:
        """The Library tab: a heading per playlist (Watch later, Liked videos), then its videos' cards."""
        rows, y = [], top
        for heading, items in (("Watch later", self.watch_later), ("Liked videos", self.liked)):
            rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 140), package=PACKAGE, style="section",
                             text=f"{heading} ({len(items)})"))
            y += 140
            for v in items:
                rows.append(_card(v, y))
                y += CARD_H
        return rows

    def _search(self, screen: Screen) -> list[View]:
        typed = screen.fields.get(SEARCH_RID, "")
        y0, y1 = CONTENT_TOP + 12, CONTENT_TOP + TOOLBAR_H - 12
        views = [View(IMAGE_BUTTON, (0, y0, 150, y1), desc="Navigate up", package=PACKAGE, clickable=True,
                      focusable=True, on_tap=NavKey("back"), icon="back"),
                 text_field((150, y0, WIDTH - MARGIN, y1), SEARCH_RID, typed, "Search YouTube",
                            screen.focus == SEARCH_RID, PACKAGE)]
        q = typed.strip().lower()
        suggestions = [t for t in TOPICS if q and t.startswith(q)][:6]
        top = CONTENT_TOP + TOOLBAR_H
        rows = [View(LINEAR, (0, top + i * 150, WIDTH, top + (i + 1) * 150), text=t, package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("query", t), style="suggestion", icon="search")
                for i, t in enumerate(suggestions)]
        return [*views, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/suggestions")]

    def _results(self, query: str) -> list[View]:
        y0, y1 = CONTENT_TOP, CONTENT_TOP + TOOLBAR_H
        bar = View(LINEAR, (0, y0, WIDTH, y1), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar",
                   children=[View(IMAGE_BUTTON, (0, y0, 150, y1), desc="Navigate up", package=PACKAGE,
                                  clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"),
                             View(TEXT_VIEW, (150, y0 + 20, WIDTH - MARGIN, y1 - 20), text=query,
                                  rid=f"{PACKAGE}:id/search_query", package=PACKAGE, clickable=True,
                                  focusable=True, on_tap=("search", query), style="searchbar")])
        seed = self.phone.seed if self.phone.perturbations.sponsored else None
        cards = [_card(v, y1 + i * CARD_H) for i, v in enumerate(videos(query, seed))]
        return [bar, scroll_list(y1, CONTENT_BOTTOM, PACKAGE, cards, rid=f"{PACKAGE}:id/results")]

    def _player(self, args: dict) -> list[View]:
        v, paused = args["video"], args["paused"]
        top = CONTENT_TOP
        player = View(LINEAR, (0, top, WIDTH, top + 608), desc="Video player", rid=f"{PACKAGE}:id/player_view",
                      package=PACKAGE, style="video", children=[
                          View(IMAGE_BUTTON, (WIDTH // 2 - 90, top + 214, WIDTH // 2 + 90, top + 394),
                               desc="Play video" if paused else "Pause video", rid=PLAY_PAUSE_RID, package=PACKAGE,
                               clickable=True, focusable=True, on_tap=("pause",), icon="play" if paused else "pause"),
                          View(TEXT_VIEW, (WIDTH - 300, top + 520, WIDTH - MARGIN, top + 590), text=v["duration"],
                               desc=f"Video length {v['duration']}", rid=LENGTH_RID,
                               package=PACKAGE)])
        meta = "Sponsored" if v["ad"] else f"{v['views']} views  {v['age']}"
        views = [player,
                 View(TEXT_VIEW, (MARGIN, top + 640, WIDTH - MARGIN, top + 800), text=v["title"],
                      rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"),
                 View(TEXT_VIEW, (MARGIN, top + 800, WIDTH - MARGIN, top + 880), text=meta, rid=META_RID,
                      package=PACKAGE),
                 View(TEXT_VIEW, (MARGIN, top + 900, WIDTH - 400, top + 1000), text=v["channel"], rid=CHANNEL_RID,
                      package=PACKAGE, style="channel")]
        if not v["ad"]:  # an advert's "channel" is its advertiser: nothing to subscribe to
            subscribed = v["channel"] in self.subscriptions
            views.append(View(BUTTON, (WIDTH - 380, top + 900, WIDTH - MARGIN, top + 1000),
                              text="Subscribed" if subscribed else "Subscribe",
                              desc=f"{'Unsubscribe from' if subscribed else 'Subscribe to'} {v['channel']}",
                              rid=SUBSCRIBE_RID, package=PACKAGE, clickable=True, focusable=True,
                              on_tap=("subscribe", v["channel"]), style="button"))
        items = tuple(sorted(v.items()))
        liked = any(x["title"] == v["title"] for x in self.liked)
        saved = any(x["title"] == v["title"] for x in self.watch_later)
        actions = (("Liked" if liked else "Like", ("like", items), "like", liked), ("Dislike", ("noop",), "dislike",
                                                                                   False),
                   ("Share", ("noop",), "share", False),
                   ("Saved to Watch later" if saved else "Save to Watch later", ("save", items), "save", saved))
        for i, (desc, event, icon, on) in enumerate(actions):
            x = MARGIN + i * 250
            views.append(View(IMAGE_BUTTON, (x, top + 1030, x + 220, top + 1150), desc=desc, package=PACKAGE,
                              clickable=True, focusable=True, selected=on, on_tap=event if not v["ad"] else ("noop",),
                              icon=icon))
        return views

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, search, opening a video, play/pause."""
        match event:
            case ("tab", name):
                return name != screen.name and self.phone.replace(Screen(PACKAGE, name))
            case ("search", *prefill):  # ("search",) from the toolbar, ("search", query) from a result page
                text = prefill[0] if prefill else ""
                return self.phone.push(Screen(PACKAGE, "search", fields={SEARCH_RID: text}, focus=SEARCH_RID))
            case ("query", text):
                return self._query(text)
            case ("play", items):  # the video dict as sorted (key, value) pairs, see `_card`
                title = dict(items)["title"]
                self.watched += [title] if title not in self.watched else []
                return self.phone.push(Screen(PACKAGE, "player", {"video": dict(items), "paused": False}), slow=True)
            case ("pause",):
                screen.args["paused"] = not screen.args["paused"]
                return True
            case ("subscribe", channel):  # Subscribe, or Subscribed (which unsubscribes)
                if channel in self.subscriptions:
                    self.subscriptions.remove(channel)
                else:
                    self.subscriptions.append(channel)
                return True
            case ("like" | "save" as kind, items):  # Like / Liked, Save to / Saved to Watch later: each toggles
                return self._toggle(self.liked if kind == "like" else self.watch_later, dict(items))
        return False  # ("noop",): Cast, Dislike, Share, an advert's buttons

    def _toggle(self, videos_: list[dict], video: dict) -> bool:
        mine = [x for x in videos_ if x["title"] == video["title"]]
        if mine:
            videos_.remove(mine[0])
        else:
            videos_.append(video)
        return True

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box runs the search."""
        return self._query(screen.fields.get(rid, ""))

    def _query(self, text: str) -> bool:
        query = " ".join(text.lower().split())
        return bool(query) and self.phone.push(Screen(PACKAGE, "results", {"query": query}), slow=True)

    def state(self) -> YouTubeState:
        """What is on and what plays (see `YouTubeState`)."""
        mine = self.phone.screens(PACKAGE)
        queries = [s.args["query"] for s in mine if s.name == "results"]
        top = self.phone.top
        playing: PlayingVideo | None = None
        if top.package == PACKAGE and top.name == "player" and not top.loading:
            v = top.args["video"]
            playing = {"title": v["title"], "query": v["query"], "rank": v["rank"], "ad": v["ad"],
                       "paused": top.args["paused"], "channel": v["channel"], "newest": v.get("newest", False)}
        return {"page": mine[-1].name if mine else None, "query": queries[-1] if queries else None,
                "loading": bool(mine and mine[-1].loading > 0), "playing": playing,
                "subscriptions": list(self.subscriptions), "liked": [v["title"] for v in self.liked],
                "watch_later": [v["title"] for v in self.watch_later], "watched": list(self.watched)}


def _card(v: dict, y: int) -> View:
    """A video in a list: thumbnail, title and a meta line; the whole card plays it."""
    meta = f"{v['channel']} - {v['views']} views - {v['age']}" if not v["ad"] else f"Sponsored - {v['channel']}"
    desc = (f"{'Sponsored - ' if v['ad'] else ''}{v['title']} - {v['duration']} - {v['channel']}"
            f"{'' if v['ad'] else ' - ' + v['views'] + ' views'} - play video")
    event = ("play", tuple(sorted(v.items())))  # events must be hashable
    return View(LINEAR, (0, y, WIDTH, y + CARD_H), desc=desc, rid=CARD_RID, package=PACKAGE, clickable=True,
                focusable=True, on_tap=event, style="sponsored" if v["ad"] else "card", children=[
                    View(IMAGE_VIEW, (MARGIN, y + 20, 460, y + CARD_H - 20), package=PACKAGE, icon="thumbnail"),
                    View(TEXT_VIEW, (500, y + 30, WIDTH - MARGIN, y + 230), text=v["title"],
                         rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"),
                    View(TEXT_VIEW, (500, y + 240, WIDTH - MARGIN, y + 340), text=meta, package=PACKAGE,
                         style="sponsored" if v["ad"] else "meta")])
