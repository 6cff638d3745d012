"""The simulated web: a search engine, shopping sites, a forum and article sites, all seeded and offline.

`make_sites(web)` builds one episode's sites for a browser; the content generators (`content`, `catalog`) are pure
functions usable without a phone (task templates and experts read them).
"""

from __future__ import annotations

from android_gym.sim.web.forum import HOST as FORUM_HOST
from android_gym.sim.web.forum import ForumSite
from android_gym.sim.web.local import HOST as LOCAL_HOST
from android_gym.sim.web.local import LocalSite
from android_gym.sim.web.search import ARTICLE_SITES, SearchEngine
from android_gym.sim.web.search import HOST as SEARCH_HOST
from android_gym.sim.web.shop_specs import SHOPS
from android_gym.sim.web.shops import make_shops
from android_gym.sim.web.site import ArticleSite, Site, Web

SHOP_HOSTS: tuple[str, ...] = tuple(SHOPS)
"""Every shopping site's host, e.g. "amazon.com"."""


def make_sites(web: Web) -> dict[str, Site]:
    """Every site of the web by normalised host; shop layouts are drawn from the phone's RNG here."""
    sites: dict[str, Site] = {SEARCH_HOST: SearchEngine(web)}
    sites.update(make_shops(web))
    for host, name in ARTICLE_SITES.items():
        sites[host] = ArticleSite(web, host, name)
    sites[FORUM_HOST] = ForumSite(web, FORUM_HOST, "Reddit")  # a forum, not an article site
    sites[LOCAL_HOST] = LocalSite(web)  # file:// pages of storage (issue 48: AndroidWorld's browser tasks)
    return sites


__all__ = ["SEARCH_HOST", "SHOP_HOSTS", "Site", "Web", "make_sites"]
