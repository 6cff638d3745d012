"""The world the simulated web knows about: cities, countries, cuisines and news topics (plain data).

Names are lower-case ASCII, so a query matches them after `normalize`; `title()` gives the display form.
"""

from __future__ import annotations

CITIES: dict[str, tuple[str, float]] = {
    # city: (country, UTC offset in hours)
    "paris": ("France", 1), "london": ("United Kingdom", 0), "new york": ("United States", -5),
    "tokyo": ("Japan", 9), "sydney": ("Australia", 10), "berlin": ("Germany", 1), "madrid": ("Spain", 1),
    "rome": ("Italy", 1), "amsterdam": ("Netherlands", 1), "vienna": ("Austria", 1), "prague": ("Czechia", 1),
    "lisbon": ("Portugal", 0), "dublin": ("Ireland", 0), "stockholm": ("Sweden", 1), "oslo": ("Norway", 1),
    "copenhagen": ("Denmark", 1), "helsinki": ("Finland", 2), "athens": ("Greece", 2), "istanbul": ("Turkey", 3),
    "dubai": ("United Arab Emirates", 4), "mumbai": ("India", 5.5), "delhi": ("India", 5.5),
    "bangkok": ("Thailand", 7), "singapore": ("Singapore", 8), "hong kong": ("China", 8), "shanghai": ("China", 8),
    "beijing": ("China", 8), "seoul": ("South Korea", 9), "osaka": ("Japan", 9), "manila": ("Philippines", 8),
    "jakarta": ("Indonesia", 7), "kuala lumpur": ("Malaysia", 8), "auckland": ("New Zealand", 12),
    "melbourne": ("Australia", 10), "cairo": ("Egypt", 2), "nairobi": ("Kenya", 3), "lagos": ("Nigeria", 1),
    "cape town": ("South Africa", 2), "johannesburg": ("South Africa", 2), "casablanca": ("Morocco", 0),
    "toronto": ("Canada", -5), "vancouver": ("Canada", -8), "montreal": ("Canada", -5),
    "chicago": ("United States", -6), "los angeles": ("United States", -8), "san francisco": ("United States", -8),
    "seattle": ("United States", -8), "boston": ("United States", -5), "miami": ("United States", -5),
    "austin": ("United States", -6), "denver": ("United States", -7), "mexico city": ("Mexico", -6),
    "sao paulo": ("Brazil", -3), "buenos aires": ("Argentina", -3), "lima": ("Peru", -5), "bogota": ("Colombia", -5),
    "santiago": ("Chile", -4), "havana": ("Cuba", -5), "reykjavik": ("Iceland", 0), "zurich": ("Switzerland", 1),
    "brussels": ("Belgium", 1), "warsaw": ("Poland", 1), "budapest": ("Hungary", 1), "edinburgh": ("United Kingdom", 0),
    "barcelona": ("Spain", 1), "munich": ("Germany", 1), "milan": ("Italy", 1), "venice": ("Italy", 1),
    "kyoto": ("Japan", 9), "taipei": ("Taiwan", 8), "hanoi": ("Vietnam", 7), "marrakech": ("Morocco", 0),
    "honolulu": ("United States", -10), "las vegas": ("United States", -8),
    "new orleans": ("United States", -6), "philadelphia": ("United States", -5), "atlanta": ("United States", -5),
}

CAPITALS: dict[str, str] = {
    "france": "Paris", "germany": "Berlin", "italy": "Rome", "spain": "Madrid", "portugal": "Lisbon",
    "japan": "Tokyo", "china": "Beijing", "india": "New Delhi", "brazil": "Brasilia", "argentina": "Buenos Aires",
    "canada": "Ottawa", "australia": "Canberra", "mexico": "Mexico City", "egypt": "Cairo", "kenya": "Nairobi",
    "nigeria": "Abuja", "south africa": "Pretoria", "morocco": "Rabat", "turkey": "Ankara", "greece": "Athens",
    "sweden": "Stockholm", "norway": "Oslo", "finland": "Helsinki", "denmark": "Copenhagen", "poland": "Warsaw",
    "hungary": "Budapest", "austria": "Vienna", "switzerland": "Bern", "belgium": "Brussels",
    "netherlands": "Amsterdam", "ireland": "Dublin", "iceland": "Reykjavik", "south korea": "Seoul",
    "thailand": "Bangkok", "vietnam": "Hanoi", "indonesia": "Jakarta", "philippines": "Manila",
    "malaysia": "Kuala Lumpur", "new zealand": "Wellington", "peru": "Lima", "colombia": "Bogota",
    "chile": "Santiago", "cuba": "Havana", "united kingdom": "London", "united states": "Washington, D.C.",
}

CUISINES: tuple[str, ...] = (
    "italian", "thai", "mexican", "japanese", "chinese", "indian", "french", "korean", "vietnamese", "greek",
    "spanish", "lebanese", "ethiopian", "turkish", "vegan", "seafood",
)

NEWS_TOPICS: tuple[str, ...] = (
    "artificial intelligence", "climate change", "the stock market", "electric vehicles", "space exploration", "nasa",
    "spacex", "bitcoin", "cryptocurrency", "the world cup", "the olympics", "the nba", "formula 1", "tennis",
    "the premier league", "cybersecurity", "renewable energy", "inflation", "interest rates", "the housing market",
    "nvidia", "quantum computing", "smartphones", "video games", "the film industry", "the music industry",
    "the oscars", "public health", "vaccines", "nutrition", "education", "air travel", "airlines", "wildfires",
    "hurricanes", "earthquakes", "elections", "the economy", "startups", "robotics", "self-driving cars",
    "social media", "streaming services", "fashion", "wildlife", "ocean conservation", "mars", "the moon",
    "the supreme court", "the european union", "the job market", "semiconductors",
)

def topic_key(topic: str) -> str:
    """A news topic without its article, as queries usually write it.

    >>> topic_key("the stock market")
    'stock market'
    """
    return topic[4:] if topic.startswith("the ") else topic


def title(name: str) -> str:
    """The display form of a place name.

    >>> title("new york")
    'New York'
    """
    return " ".join(w[:1].upper() + w[1:] for w in name.split())
