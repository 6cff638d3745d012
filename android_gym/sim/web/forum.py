"""A Reddit-like forum (reddit.com): a front page of today's top posts, and a page per post with its comments.

Posts are seeded (`stable_seed`), the same in every process and episode, so "the top post" is a fact a task can
check. Pages: "home" (args {}) and "post" (args {"id"}); `describe` reports {"post": {"id", "title", "rank"}} on a
post page.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.sim.app import Screen, stable_seed
from android_gym.sim.layout import LINEAR, MARGIN, TEXT_VIEW, WIDTH, Column
from android_gym.sim.view import View
from android_gym.sim.web.site import PACKAGE, WEB_TOP, Site, header

HOST = "reddit.com"
POSTS = 10
_SUBS = ("worldnews", "science", "technology", "pics", "todayilearned", "gaming", "movies", "space", "aww", "food",
         "askreddit", "dataisbeautiful", "sports", "books", "music")
_OPENERS = ("TIL that", "Scientists find that", "After 10 years,", "My grandmother's", "First photo of",
            "Local team wins", "New study:", "I built a", "Today I learned", "The view from")
_ENDS = ("a tiny village still uses a hand-cranked ferry", "octopuses dream in colour", "I finally finished my cabin",
         "a 100-year-old recipe still wins fairs", "the rarest bird in the valley", "the championship in overtime",
         "coffee may help you live longer", "a robot that waters my plants", "the northern lights over a lake",
         "a library that lends tools", "the longest train in the world", "a cat who rides the bus daily")


def front_page() -> list[dict[str, Any]]:
    """Today's top posts, best first: {"id", "title", "subreddit", "score", "comments", "rank" (1-based)}."""
    rng = np.random.default_rng(stable_seed("forum-front"))
    scores = sorted((int(rng.integers(2_000, 90_000)) for _ in range(POSTS)), reverse=True)
    out = []
    for rank, score in enumerate(scores, start=1):
        title = f"{_OPENERS[int(rng.integers(len(_OPENERS)))]} {_ENDS[int(rng.integers(len(_ENDS)))]}"
        out.append({"id": f"p{stable_seed('forum-post', rank) % 10**6:06d}", "title": title,
                    "subreddit": _SUBS[int(rng.integers(len(_SUBS)))], "score": score,
                    "comments": int(score * rng.uniform(0.02, 0.2)), "rank": rank})
    return out


class ForumSite(Site):
    """reddit.com: the front page and post pages."""

    def route(self, path: str, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """"/comments/<id>" (anywhere in the path) is a post; anything else is the front page."""
        parts = [p for p in path.split("/") if p]
        if "comments" in parts and parts.index("comments") + 1 < len(parts):
            post_id = parts[parts.index("comments") + 1]
            if any(p["id"] == post_id for p in front_page()):
                return "post", {"id": post_id}
        return "home", {}

    def url(self, page: str, args: dict[str, Any]) -> str:
        """The page's URL."""
        if page == "post":
            post = self._post(args["id"])
            return f"https://www.{HOST}/r/{post['subreddit']}/comments/{post['id']}/"
        return f"https://www.{HOST}/"

    def build(self, screen: Screen) -> list[View]:
        """The front page's post list, or one post with its comments."""
        col = Column(WEB_TOP + 24, PACKAGE)
        header(col, self.name)
        if screen.name == "post":
            post = self._post(screen.args["id"])
            col.text(f"r/{post['subreddit']} · {post['score']:,} points", height=90, style="meta")
            col.text(post["title"], height=200, style="title")
            rng = np.random.default_rng(stable_seed("forum-comments", post["id"]))
            for _ in range(4):
                words = " ".join(_ENDS[int(i)] for i in rng.integers(len(_ENDS), size=2))
                col.text(f"u/user{int(rng.integers(100, 9999))}: Wow, {words}.", height=200)
            return col.views
        col.text("Popular today", height=110, style="title")
        for post in front_page():
            y = col.y
            url = self.url("post", {"id": post["id"]})
            col.add(View(LINEAR, (MARGIN, y, WIDTH - MARGIN, y + 300), desc=f"Post: {post['title']}",
                         rid="forum-post", package=PACKAGE, clickable=True, focusable=True, on_tap=("go", url),
                         style="card", children=[
                             View(TEXT_VIEW, (MARGIN + 32, y + 20, WIDTH - MARGIN - 32, y + 90),
                                  text=f"r/{post['subreddit']}", package=PACKAGE, style="meta"),
                             View(TEXT_VIEW, (MARGIN + 32, y + 90, WIDTH - MARGIN - 32, y + 220), text=post["title"],
                                  package=PACKAGE, style="title"),
                             View(TEXT_VIEW, (MARGIN + 32, y + 220, WIDTH - MARGIN - 32, y + 290),
                                  text=f"{post['score']:,} points · {post['comments']:,} comments", package=PACKAGE,
                                  style="meta")]))
        return col.views

    def describe(self, screen: Screen) -> dict[str, Any]:
        """{"post": {"id", "title", "rank"}} on a post page."""
        if screen.name != "post":
            return {}
        post = self._post(screen.args["id"])
        return {"post": {"id": post["id"], "title": post["title"], "rank": post["rank"]}}

    @staticmethod
    def _post(post_id: str) -> dict[str, Any]:
        return next(p for p in front_page() if p["id"] == post_id)
