"""The product catalogue of the simulated web: product queries by category, and seeded products per site and query.

Every product is a pure function of (site host, query, slot): the same in every process and every episode
(`stable_seed`, never Python's salted `hash`). Only *where* sponsored entries sit in a result list varies per
episode (see `android_gym.sim.web.shops`).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from android_gym.heap import track_cache
from android_gym.sim.app import stable_seed

ORGANIC_PER_QUERY = 10
"""Organic (non-sponsored) results every shop lists for a query."""
ADS_PER_QUERY = 3
"""Sponsored products a shop holds per query; a result page shows up to this many."""


@dataclass(frozen=True)
class Category:
    """A kind of product: its price range in US dollars, the brands of its generic products, and title variants."""

    price_usd: tuple[int, int]
    brands: tuple[str, ...]
    features: tuple[str, ...]


CATEGORIES: dict[str, Category] = {
    "laptop": Category((399, 2499), ("Dell", "HP", "Lenovo", "ASUS", "Acer", "MSI"),
                       ("8GB RAM, 256GB SSD", "16GB RAM, 512GB SSD", "2024 Model", "Renewed", "with Backlit Keyboard",
                        "Touchscreen", "32GB RAM, 1TB SSD")),
    "phone": Category((149, 1399), ("Samsung", "Motorola", "OnePlus", "Nokia"),
                      ("128GB, Unlocked", "256GB, Unlocked", "Renewed", "512GB", "Dual SIM", "with Case Bundle")),
    "tablet": Category((89, 1299), ("Samsung", "Lenovo", "Amazon"),
                       ("64GB, Wi-Fi", "128GB, Wi-Fi", "256GB, Wi-Fi + Cellular", "with Keyboard", "Renewed")),
    "audio": Category((19, 549), ("Sony", "Bose", "JBL", "Anker", "Skullcandy", "Sennheiser"),
                      ("Wireless", "Noise Cancelling", "with Microphone", "Bluetooth 5.3", "Refurbished", "Over-Ear")),
    "gaming": Category((19, 249), ("Logitech", "Razer", "Corsair", "SteelSeries", "HyperX", "Redragon"),
                       ("RGB", "Wireless", "Wired", "Mechanical", "with Cable", "Tournament Edition")),
    "console": Category((199, 699), ("Sony", "Microsoft", "Nintendo"),
                        ("Console", "Bundle", "Digital Edition", "1TB", "with Extra Controller", "Renewed")),
    "accessory": Category((5, 59), ("Anker", "Amazon Basics", "Belkin", "UGREEN", "Cable Matters", "Syntech"),
                          ("6 ft", "3-Pack", "Braided", "Fast Charging", "10 ft", "2-Pack", "Compact")),
    "storage": Category((29, 399), ("Samsung", "SanDisk", "WD", "Seagate", "Crucial", "Kingston"),
                        ("1TB", "2TB", "500GB", "4TB", "USB 3.2", "Portable")),
    "display": Category((99, 1999), ("Samsung", "LG", "TCL", "Sony", "Dell", "ASUS"),
                        ("55-inch", "65-inch", "27-inch", "4K UHD", "144Hz", "HDR", "Smart TV")),
    "camera": Category((49, 2499), ("Canon", "Sony", "GoPro", "Nikon", "Ring", "Garmin"),
                       ("Body Only", "with Lens Kit", "Bundle", "4K", "Renewed", "with Memory Card")),
    "home": Category((15, 699), ("Ninja", "Cuisinart", "Hamilton Beach", "Shark", "iRobot", "Philips"),
                     ("Stainless Steel", "6 Quart", "Compact", "Programmable", "2-Pack", "Large", "Quiet")),
    "office": Category((5, 499), ("Amazon Basics", "HP", "Epson", "Staples", "Herman Miller", "Flexispot"),
                       ("Heavy Duty", "Ergonomic", "Adjustable", "Pack of 12", "Wireless", "Large")),
    "lifestyle": Category((9, 199), ("Nike", "Adidas", "Hydro Flask", "Philips", "LEGO", "Gaiam"),
                          ("Travel Size", "Premium", "Size 10", "32 oz", "Set", "Large", "Pack of 2")),
}

PRODUCT_QUERIES: dict[str, tuple[str, ...]] = {
    "laptop": ("macbook air", "macbook pro", "dell xps 13", "hp spectre x360", "lenovo thinkpad x1 carbon",
               "asus zenbook 14", "acer swift 3", "microsoft surface laptop", "razer blade 15", "chromebook",
               "gaming laptop", "asus rog zephyrus", "lenovo legion 5", "hp pavilion laptop", "dell inspiron 15"),
    "phone": ("iphone 15", "iphone 15 pro", "samsung galaxy s24", "google pixel 8", "oneplus 12", "motorola edge",
              "samsung galaxy a54", "iphone se", "google pixel 7a", "nothing phone 2"),
    "tablet": ("ipad air", "ipad pro", "samsung galaxy tab s9", "amazon fire hd 10", "kindle paperwhite",
               "microsoft surface pro", "ipad mini"),
    "audio": ("airpods pro", "sony wh-1000xm5", "bose quietcomfort 45", "beats studio buds", "jbl flip 6", "sonos one",
              "jabra elite 85t", "sennheiser hd 600", "razer thresher", "steelseries arctis 7", "hyperx cloud ii",
              "logitech g pro x headset", "anker soundcore speaker", "bluetooth speaker", "noise cancelling headphones",
              "wireless earbuds", "soundbar", "record player"),
    "gaming": ("logitech g910", "logitech g502", "razer deathadder", "razer blackwidow", "corsair k70",
               "steelseries apex pro", "logitech g pro wireless", "razer viper", "corsair harpoon",
               "hyperx alloy origins", "gaming mouse", "mechanical keyboard", "xbox wireless controller",
               "ps5 dualsense controller", "nintendo switch pro controller", "gaming chair", "mouse pad",
               "razer kraken", "logitech g29 racing wheel"),
    "console": ("playstation 5", "xbox series x", "xbox series s", "nintendo switch oled", "steam deck",
                "meta quest 3"),
    "accessory": ("usb-c cable", "hdmi cable", "lightning cable", "usb-c hub", "phone charger", "wireless charger",
                  "power bank", "laptop stand", "phone case", "screen protector", "usb flash drive", "sd card",
                  "surge protector", "ethernet cable", "aa batteries", "car phone mount", "webcam", "ring light",
                  "hdmi switch", "displayport cable"),
    "storage": ("samsung t7 ssd", "wd my passport", "sandisk extreme ssd", "seagate portable drive", "tp-link router",
                "netgear nighthawk", "google nest wifi", "external hard drive", "nvme ssd", "mesh wifi system",
                "wifi extender"),
    "display": ("lg oled tv", "samsung 4k tv", "tcl roku tv", "dell ultrasharp monitor", "lg ultragear monitor",
                "asus 27 inch monitor", "4k monitor", "fire tv stick", "roku streaming stick",
                "chromecast with google tv", "apple tv 4k", "portable monitor", "projector"),
    "camera": ("gopro hero 12", "canon eos r50", "sony a7 iv", "apple watch series 9", "fitbit charge 6",
               "garmin forerunner 255", "samsung galaxy watch 6", "ring video doorbell", "blink outdoor camera",
               "instant camera", "dash cam", "dji mini 4 pro"),
    "home": ("instant pot", "ninja air fryer", "keurig coffee maker", "nespresso vertuo", "kitchenaid stand mixer",
             "vitamix blender", "dyson v15", "roomba", "shark vacuum", "electric kettle", "toaster oven", "rice cooker",
             "cast iron skillet", "chef knife", "water filter pitcher", "air purifier", "space heater",
             "led light bulbs", "smart plug", "echo dot", "google nest hub", "nest thermostat", "robot vacuum",
             "humidifier", "food processor", "nonstick frying pan", "weighted blanket"),
    "office": ("office chair", "standing desk", "printer paper", "hp laserjet printer", "epson ecotank", "desk lamp",
               "ballpoint pens", "backpack", "label maker", "paper shredder", "whiteboard", "sticky notes",
               "monitor arm", "wireless keyboard and mouse"),
    "lifestyle": ("water bottle", "yoga mat", "dumbbells", "running shoes", "electric toothbrush", "hair dryer",
                  "lego star wars", "board games", "coffee beans", "resistance bands", "sunglasses", "umbrella",
                  "luggage set", "camping tent", "sleeping bag", "bike helmet", "jump rope"),
}

CATEGORY_OF: dict[str, str] = {q: cat for cat, qs in PRODUCT_QUERIES.items() for q in qs}
ALL_PRODUCT_QUERIES: tuple[str, ...] = tuple(sorted(CATEGORY_OF))

# Advertisers: brands that never make organic products, so a sponsored entry can never be mistaken for one.
AD_BRANDS = ("Vexo", "Zentra", "Lumio", "Orbix", "Kovana", "Trendix", "Nuvola", "Pexar")
COLOURS = ("Black", "White", "Silver", "Blue", "Gray", "Red", "Green", "Rose Gold")

# Words whose first letter case alone would look wrong in a product title.
_CASED = {w.lower(): w for w in (
    "iPhone", "iPad", "AirPods", "MacBook", "PlayStation", "DualSense", "ThinkPad", "ZenBook", "QuietComfort",
    "SteelSeries", "HyperX", "BlackWidow", "DeathAdder", "NVMe", "UltraSharp", "UltraGear", "KitchenAid", "EcoTank",
    "LaserJet", "TP-Link", "GoPro", "WiFi", "OnePlus", "USB", "HDMI", "SSD", "TV", "LED", "OLED", "HP", "LG", "AA",
    "SD", "XPS", "ROG", "JBL", "WD", "TCL", "EOS", "DJI", "HD", "LEGO", "DisplayPort", "II")}
# First words that already name a maker or a product line; other queries get a seeded brand in front.
_BRANDED = {"macbook", "iphone", "ipad", "airpods", "dell", "hp", "lenovo", "asus", "acer", "microsoft", "razer",
            "samsung", "google", "oneplus", "motorola", "nothing", "amazon", "kindle", "sony", "bose", "beats", "jbl",
            "sonos", "jabra", "sennheiser", "steelseries", "hyperx", "logitech", "anker", "corsair", "xbox", "ps5",
            "nintendo", "playstation", "steam", "meta", "wd", "sandisk", "seagate", "tp-link", "netgear", "lg", "tcl",
            "fire", "roku", "chromecast", "apple", "gopro", "canon", "fitbit", "garmin", "ring", "blink", "dji",
            "instant", "ninja", "keurig", "nespresso", "kitchenaid", "vitamix", "dyson", "roomba", "shark", "echo",
            "nest", "epson", "lego"}
_MAKER = {"macbook": "Apple", "iphone": "Apple", "ipad": "Apple", "airpods": "Apple", "roomba": "iRobot",
          "kindle": "Amazon", "echo": "Amazon", "fire": "Amazon", "chromecast": "Google", "nest": "Google"}


@dataclass(frozen=True)
class Product:
    """One product listed by a shop for a query.

    Attributes:
        pid: the shop's product id (stable across processes).
        host: the shop's host, e.g. "amazon.com".
        query: the normalised query it was listed for.
        title: the listing title; it contains every word of the query (case-insensitive).
        price: in US dollars, two decimals.
        rating: stars in [3.0, 5.0], one decimal.
        reviews: number of ratings.
        rank: 1-based organic rank; None for a sponsored product.
        sponsored: whether it is an advert.
        slot: index among the organic products (rank - 1) or among the adverts.
    """

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

    def to_state(self) -> dict[str, Any]:
        """Plain data for `state()`."""
        return asdict(self)


def normalize(text: str) -> str:
    """Lower-case, drop punctuation except '-' and '.', collapse spaces: how sites compare queries.

    >>> normalize("  MacBook  Air? ")
    'macbook air'
    """
    return " ".join(re.sub(r"[^\w\s.\-]", " ", text.lower()).split())


def display_name(query: str) -> str:
    """Title-case a query the way a product title writes it; `display_name(q).lower() == q` for normalised q.

    >>> display_name("usb-c cable"), display_name("sony wh-1000xm5"), display_name("macbook air")
    ('USB-C Cable', 'Sony WH-1000XM5', 'MacBook Air')
    """
    def word(w: str) -> str:
        if w in _CASED:
            return _CASED[w]
        if any(c.isdigit() for c in w) and any(c.isalpha() for c in w) and len(w) <= 10:
            return w.upper()  # model numbers: G910, WH-1000XM5, 4K
        if "-" in w:
            return "-".join(word(p) for p in w.split("-"))
        return w[:1].upper() + w[1:]

    return " ".join(word(w) for w in query.split())


def category_of(query: str) -> Category:
    """The category of a known query; unknown queries (typed by an agent) are priced as office goods."""
    return CATEGORIES[CATEGORY_OF.get(query, "office")]


def typical_price(query: str) -> float:
    """The seeded typical price of `query` in US dollars (what the search engine's price card says)."""
    lo, hi = category_of(query).price_usd
    u = np.random.default_rng(stable_seed("price", query)).random()
    return round(lo + (hi - lo) * u**2, 2)  # squared: most products sit at the cheap end, as in real shops


RESULTS_CACHE_SIZE = 1024
"""Result lists kept per kind (organic, sponsored); bounded for the same reason as `content.ANSWER_CACHE_SIZE`, and a
query's two lists hold ~100 Python objects (13 products), so 4,096 of each held ~0.4M once an agent had typed enough
distinct queries."""


@lru_cache(maxsize=RESULTS_CACHE_SIZE)
def organic(host: str, query: str) -> tuple[Product, ...]:
    """The organic results of `host` for `query`, best first (ranks 1..ORGANIC_PER_QUERY)."""
    return tuple(_products(host, normalize(query), sponsored=False))


@lru_cache(maxsize=RESULTS_CACHE_SIZE)
def adverts(host: str, query: str) -> tuple[Product, ...]:
    """The sponsored products `host` may show for `query`."""
    return tuple(_products(host, normalize(query), sponsored=True))


track_cache("shop results", lambda: organic.cache_info().currsize + adverts.cache_info().currsize)


def _products(host: str, query: str, sponsored: bool) -> list[Product]:
    cat = category_of(query)
    rng = np.random.default_rng(stable_seed("products", host, query, sponsored))
    name = display_name(query)
    first = query.split()[0] if query else ""
    n = ADS_PER_QUERY if sponsored else ORGANIC_PER_QUERY
    combos = [(f, c) for f in cat.features for c in COLOURS]
    picks = rng.permutation(len(combos))[:n]  # without replacement: titles are unique within a list
    base = typical_price(query)
    out = []
    for slot, k in enumerate(picks):
        feature, colour = combos[int(k)]
        if sponsored:
            brand = AD_BRANDS[int(rng.integers(len(AD_BRANDS)))]
        elif first in _BRANDED:
            brand = _MAKER.get(first, "")
        else:
            brand = cat.brands[int(rng.integers(len(cat.brands)))]
        title = f"{brand} {name} - {feature}, {colour}".strip()
        price = max(1.99, round(base * (0.85 + 0.35 * rng.random())) - 0.01)  # inside the price card's range
        rating = round(3.0 + 2.0 * rng.random() ** 0.5, 1)
        reviews = int(rng.integers(3, 40000))
        pid = f"{host[:2].upper()}{stable_seed(host, query, sponsored, slot) % 10**9:09d}"
        out.append(Product(pid, host, query, title, round(price, 2), rating, reviews,
                           None if sponsored else slot + 1, sponsored, slot))
    return out
