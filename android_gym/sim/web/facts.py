"""What else the simulated web knows (plain data): currencies, restaurant chains, stores, measurable things, offices.

Names are lower-case words as `goals.text.words` and `catalog.normalize` leave them ("mcdonalds", "in-n-out"), so a
query matches them after normalising; aliases map other spellings to a name. Figures the web shows about them are
seeded from the name (`content.py`), as everywhere in the simulated web: its own numbers, not the real world's.
"""

from __future__ import annotations

CURRENCIES: dict[str, str] = {
    "euro": "EUR", "british pound": "GBP", "japanese yen": "JPY", "chinese yuan": "CNY", "canadian dollar": "CAD",
    "mexican peso": "MXN", "south korean won": "KRW", "swiss franc": "CHF", "brazilian real": "BRL",
    "australian dollar": "AUD", "indian rupee": "INR", "russian ruble": "RUB", "swedish krona": "SEK",
    "norwegian krone": "NOK", "new zealand dollar": "NZD", "singapore dollar": "SGD", "hong kong dollar": "HKD",
    "turkish lira": "TRY", "south african rand": "ZAR", "thai baht": "THB",
}
"""Currency name -> ISO code; the exchange-rate card quotes each against the US dollar."""
CURRENCY_ALIASES: dict[str, str] = {
    "euros": "euro", "pound": "british pound", "pound sterling": "british pound", "pounds": "british pound",
    "yen": "japanese yen", "yuan": "chinese yuan", "renminbi": "chinese yuan", "peso": "mexican peso",
    "won": "south korean won", "korean won": "south korean won", "franc": "swiss franc", "real": "brazilian real",
    "rupee": "indian rupee", "ruble": "russian ruble", "rand": "south african rand", "baht": "thai baht",
    **{code.lower(): name for name, code in CURRENCIES.items() if code != "TRY"},  # "try" is an English word
}

RESTAURANT_CHAINS: tuple[str, ...] = (
    "mcdonalds", "burger king", "taco bell", "subway", "panera", "olive garden", "in-n-out", "ihop", "five guys",
    "dominos", "dennys", "chick-fil-a", "cheesecake factory", "starbucks", "red lobster", "pizza hut", "papa johns",
    "papa murphys", "chipotle", "wendys", "kfc", "dunkin", "popeyes", "shake shack", "applebees", "panda express",
    "arbys", "sonic", "jack in the box", "little caesars", "buffalo wild wings", "outback steakhouse",
)
"""Chains whose menu the web shows ("What's on the menu at Panera?")."""
CHAIN_ALIASES: dict[str, str] = {
    "mcdonald": "mcdonalds", "mc donalds": "mcdonalds", "panera bread": "panera", "in n out": "in-n-out",
    "in and out": "in-n-out", "in-n-out burger": "in-n-out", "dominos pizza": "dominos", "chick fil a": "chick-fil-a",
    "the cheesecake factory": "cheesecake factory", "dunkin donuts": "dunkin", "kentucky fried chicken": "kfc",
}

STORES: tuple[str, ...] = (
    "best buy", "target", "walmart", "costco", "home depot", "lowes", "ikea", "macys", "nordstrom", "jcpenney",
    "apple store", "verizon store", "at&t store", "t-mobile store", "sprint store", "starbucks", "mcdonalds",
    "burger king", "subway", "chipotle", "grocery store", "electronics store", "supermarket", "pharmacy",
    "gas station", "coffee shop", "bank", "atm", "post office", "hospital", "gym", "library", "park",
    "train station", "bus stop", "airport", "hardware store", "bookstore", "walgreens", "cvs", "whole foods",
    "trader joes", "7-eleven",
)
"""Places the web gives directions to ("How do I get to the nearest Best Buy?")."""
STORE_ALIASES: dict[str, str] = {
    "lowe": "lowes", "macy": "macys", "jc penney": "jcpenney", "the home depot": "home depot",
    "att store": "at&t store", "at t store": "at&t store", "tmobile store": "t-mobile store",
    "grocery": "grocery store",
    "coffee shops": "coffee shop", "trader joe": "trader joes", "seven eleven": "7-eleven",
}

MEASURES: dict[str, tuple[str, ...]] = {
    "speed": ("light", "sound", "train", "tiger", "skateboard", "rocket", "plane", "jet", "bicycle", "cheetah",
              "car", "horse", "human", "bullet train", "airplane", "space shuttle", "falcon", "dolphin", "ostrich"),
    "size": ("universe", "sun", "moon", "earth", "lion", "giraffe", "dinosaur", "tiger", "blue whale", "elephant",
             "jupiter", "mars", "milky way", "mount everest", "pacific ocean", "black hole", "shark", "t-rex"),
    "age": ("earth", "universe", "sun", "moon", "pyramids", "milky way", "dinosaurs", "grand canyon"),
    "distance": ("moon", "sun", "mars", "jupiter", "nearest star", "andromeda", "pluto", "venus"),
}
"""Measure -> the things the web knows it of ("What is the speed of a cheetah?", "How old is the earth?")."""

OFFICES: dict[str, tuple[str, ...]] = {
    "president": ("united states", "france", "brazil", "mexico", "south korea", "argentina", "russia", "china"),
    "prime minister": ("united kingdom", "canada", "japan", "india", "australia", "italy", "spain", "new zealand"),
    "chancellor": ("germany", "austria"),
}
"""Office -> the countries whose holder the web names ("Who is the president of France?")."""
