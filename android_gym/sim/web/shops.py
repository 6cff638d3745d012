"""The shopping sites: home, search results, product and cart pages, with per-episode layouts and sponsored entries.

Pages and their args (plain data, part of the phone's state):
  * "home": {};
  * "results": {"query"} — sponsored entries (when the perturbation is on) sit at slots drawn per episode;
  * "product": {"query", "slot", "sponsored"} — the product `catalog.organic(host, query)[slot]` or
    `catalog.adverts(host, query)[slot]`; "added" counts Add-to-cart taps on this page;
  * "cart": {}.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote_plus

import numpy as np

from android_gym.sim.app import Screen, stable_seed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import BUTTON, FRAME, IMAGE_VIEW, LINEAR, MARGIN, TEXT_VIEW, WIDTH, Column
from android_gym.sim.view import View
from android_gym.sim.web import catalog
from android_gym.sim.web.catalog import Product
from android_gym.sim.web.shop_specs import SHOPS, ShopSpec
from android_gym.sim.web.site import PACKAGE, WEB_TOP, Site, Web, header, search_field

AD_SLOTS = 6
"""Sponsored entries are placed among the first this-many positions of a result list."""


@dataclass(frozen=True)
class ShopLayout:
    """One look of a shop, drawn per episode when layout variants are on.

    Attributes:
        banner_first: a promotion banner sits above the search box (else below it).
        cards: results are tall cards with an image (else compact rows).
        ids: which of the site's two resource-id sets its elements use (0 or 1).
    """

    banner_first: bool = False
    cards: bool = False
    ids: int = 0

    @property
    def name(self) -> str:
        """A short label, e.g. "banner/cards/ids1"."""
        return f"{'banner' if self.banner_first else 'search'}/{'cards' if self.cards else 'list'}/ids{self.ids}"


class ShopSite(Site):
    """A shopping site built from a `ShopSpec`; its layout is drawn from the phone's RNG when the browser resets."""

    def __init__(self, web: Web, spec: ShopSpec) -> None:
        super().__init__(web, spec.host, spec.name)
        self.spec = spec
        self.cart: list[dict[str, Any]] = []
        self.layout = ShopLayout()
        if web.phone.perturbations.layout_variants:
            rng = web.phone.rng
            self.layout = ShopLayout(bool(rng.random() < 0.5), bool(rng.random() < 0.5), int(rng.integers(2)))

    # -- addresses -----------------------------------------------------------------------------------------------------
    def route(self, path: str, params: dict[str, str]) -> tuple[str, dict[str, Any]]:
        """Home, search (`search_path?search_param=`), product (`product_path<pid>?k=&r=|sp=`) and cart pages."""
        s = self.spec
        query = catalog.normalize(params.get(s.search_param, "") or params.get("k", ""))
        if path == s.search_path and query:
            return "results", {"query": query}
        if path.startswith(s.product_path) and query:
            sponsored = "sp" in params
            pool = catalog.adverts(self.host, query) if sponsored else catalog.organic(self.host, query)
            slot = params.get("sp" if sponsored else "r", "")
            if slot.isdigit() and int(slot) < len(pool):
                return "product", {"query": query, "slot": int(slot), "sponsored": sponsored}
        if path.rstrip("/") == "/cart":
            return "cart", {}
        return "home", {}

    def url(self, page: str, args: dict[str, Any]) -> str:
        """The canonical URL of a page."""
        if page == "results":
            return self.spec.search_url(args["query"])
        if page == "product":
            p = self.product(args)
            key = "sp" if p.sponsored else "r"
            return f"https://www.{self.host}{self.spec.product_path}{p.pid}?k={quote_plus(p.query)}&{key}={p.slot}"
        if page == "cart":
            return f"https://www.{self.host}/cart"
        return f"https://www.{self.host}/"

    # -- content -------------------------------------------------------------------------------------------------------
    def product(self, args: dict[str, Any]) -> Product:
        """The product a product page shows."""
        pool = catalog.adverts if args["sponsored"] else catalog.organic
        return pool(self.host, args["query"])[args["slot"]]

    def listing(self, query: str) -> list[Product]:
        """The result list for `query` as shown: organic results with this episode's sponsored entries mixed in."""
        organic = list(catalog.organic(self.host, query))
        if not self.web.phone.perturbations.sponsored:
            return organic
        rng = np.random.default_rng(stable_seed("ads", self.web.salt, self.host, query))
        ads = catalog.adverts(self.host, query)
        count = int(rng.integers(1, len(ads) + 1))
        slots = sorted(rng.choice(AD_SLOTS, size=count, replace=False).tolist())
        for ad, slot in zip(ads, slots, strict=False):  # ascending inserts keep every ad at its slot
            organic.insert(slot, ad)
        return organic

    @property
    def search_rid(self) -> str:
        """The resource-id of the search box in this episode's layout."""
        return self.spec.search_ids[self.layout.ids]

    # -- pages ---------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The page's views."""
        col = Column(WEB_TOP, PACKAGE)
        header(col, self.name, sum(i["qty"] for i in self.cart), self.url("cart", {}), "nav-cart")
        query = screen.args.get("query", "") if screen.name == "results" else ""
        if self.layout.banner_first:
            self._banner(col)
        search_field(col, screen, self.search_rid, self.spec.placeholder, query)
        col.gap(24)
        if screen.name == "home":
            self._home(col)
        elif screen.name == "results":
            self._results(col, screen.args["query"])
        elif screen.name == "product":
            self._product(col, screen)
        elif screen.name == "cart":
            self._cart(col)
        return col.views

    def _banner(self, col: Column) -> None:
        col.add(View(FRAME, (0, col.y, WIDTH, col.y + 300), text=self.spec.banner, package=PACKAGE, style="banner"))
        col.gap(24)

    def _home(self, col: Column) -> None:
        if not self.layout.banner_first:
            self._banner(col)
        col.text("Shop by category", height=110, style="title")
        for label, query in self.spec.categories:
            col.button(label, ("go", self.spec.search_url(query)), height=130, style="link")
        col.text("Today's deals", height=110, style="title")
        rng = np.random.default_rng(stable_seed("deals", self.host))
        for q in rng.choice(catalog.ALL_PRODUCT_QUERIES, size=3, replace=False):
            p = catalog.organic(self.host, str(q))[0]
            col.button(f"{p.title} — ${p.price:,.2f}", ("go", self.url("product", _args(p))), height=170,
                       style="card")

    def _results(self, col: Column, query: str) -> None:
        items = self.listing(query)
        col.text(f'{len(items)} results for "{query}"', height=100, rid="results-count")
        for p in items:
            self._row(col, p)

    def _row(self, col: Column, p: Product) -> None:
        x0, x1, y = MARGIN, WIDTH - MARGIN, col.y
        kids: list[View] = []
        if self.layout.cards:
            kids.append(View(IMAGE_VIEW, (x0, y, x1, y + 240), desc="Product image", package=PACKAGE, icon="image",
                             style="image"))
            y += 240
        if p.sponsored:
            kids.append(View(TEXT_VIEW, (x0 + 24, y + 8, x1, y + 58), text="Sponsored", package=PACKAGE,
                             style="meta"))
            y += 58
        kids += [View(TEXT_VIEW, (x0 + 24, y, x1 - 24, y + 130), text=p.title, package=PACKAGE, style="row_title"),
                 View(TEXT_VIEW, (x0 + 24, y + 130, x1 - 24, y + 190), text=f"{p.rating} out of 5 stars "
                      f"({p.reviews:,})", package=PACKAGE, style="rating"),
                 View(TEXT_VIEW, (x0 + 24, y + 190, x1 - 24, y + 260), text=f"${p.price:,.2f}", package=PACKAGE,
                      style="price")]
        style = "sponsored" if p.sponsored else ("card" if self.layout.cards else "row")
        col.add(View(LINEAR, (x0, col.y, x1, y + 280), package=PACKAGE, clickable=True, focusable=True,
                     on_tap=("go", self.url("product", _args(p))), style=style, children=kids))
        col.gap(24 if self.layout.cards else 8)

    def _product(self, col: Column, screen: Screen) -> None:
        p = self.product(screen.args)
        if p.sponsored:
            col.text("Sponsored", height=60, style="meta")
        col.text(p.title, height=200, style="title", rid="productTitle")
        col.add(View(IMAGE_VIEW, (MARGIN, col.y, WIDTH - MARGIN, col.y + 420), desc="Product image",
                     package=PACKAGE, icon="image", style="image"))
        col.text(f"{p.rating} out of 5 stars · {p.reviews:,} ratings", height=80, style="rating")
        col.text(f"${p.price:,.2f}", height=110, style="price", rid="price")
        col.button(self.spec.add_label, ("add_to_cart",), height=150, rid=self.spec.add_ids[self.layout.ids],
                   icon="cart")
        col.gap(16)
        col.button("Buy Now", ("buy_now",), height=150, style="button")
        if screen.args.get("added"):
            col.text(f"Added to cart ({screen.args['added']})", height=90, style="confirmation")
        col.text(f"About this item: {p.title}. Ships in 2 days. Free returns within 30 days.", height=260)

    def _cart(self, col: Column) -> None:
        col.text("Shopping cart", height=120, style="title")
        if not self.cart:
            col.text("Your cart is empty.", height=100)
        for item in self.cart:
            col.text(f"{item['title']} — ${item['price']:,.2f} × {item['qty']}", height=170, style="row")
        total = sum(i["price"] * i["qty"] for i in self.cart)
        col.text(f"Subtotal: ${total:,.2f}", height=100, style="price")
        col.add(View(BUTTON, (MARGIN, col.y, WIDTH - MARGIN, col.y + 150), text="Proceed to checkout",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("checkout",), style="button"))

    # -- events --------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Add to cart puts the page's product in the cart (again: one more); checkout and Buy Now are not built."""
        match event:
            case ("add_to_cart",) if screen.name == "product":
                p = self.product(screen.args)
                item = next((i for i in self.cart if i["pid"] == p.pid), None)
                if item is None:
                    self.cart.append({**p.to_state(), "qty": 1})
                else:
                    item["qty"] += 1
                screen.args["added"] = screen.args.get("added", 0) + 1
                return True
        return False  # ("buy_now",), ("checkout",)

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search box searches the site."""
        query = catalog.normalize(screen.fields.get(rid, ""))
        return bool(query) and self.web.go(self.spec.search_url(query), screen)

    def describe(self, screen: Screen) -> dict[str, Any]:
        """The page's query and product, and the site's layout."""
        out: dict[str, Any] = {"layout": self.layout.name}
        if screen.name in ("results", "product"):
            out["query"] = screen.args["query"]
        if screen.name == "product":
            out["product"] = self.product(screen.args).to_state()
        return out

    def state(self) -> dict[str, Any]:
        """The cart: one dict per product (`Product.to_state()` plus "qty")."""
        return {"cart": [dict(i) for i in self.cart]}


def _args(p: Product) -> dict[str, Any]:
    return {"query": p.query, "slot": p.slot, "sponsored": p.sponsored}


def make_shops(web: Web) -> dict[str, ShopSite]:
    """One site per shop spec, in a fixed order (their layouts draw from the phone's RNG in that order)."""
    return {host: ShopSite(web, spec) for host, spec in SHOPS.items()}
