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

WORLD_CITIES: dict[str, tuple[str, float]] = {
    **CITIES,
    "moscow": ("Russia", 3), "rio de janeiro": ("Brazil", -3), "washington dc": ("United States", -5),
    "orlando": ("United States", -5), "phoenix": ("United States", -7), "portland": ("United States", -8),
    "san diego": ("United States", -8), "san jose": ("United States", -8), "sacramento": ("United States", -8),
    "houston": ("United States", -6), "dallas": ("United States", -6), "new jersey": ("United States", -5),
    "nashville": ("United States", -6), "minneapolis": ("United States", -6), "detroit": ("United States", -5),
    "st. petersburg": ("Russia", 3), "cancun": ("Mexico", -5), "bali": ("Indonesia", 8),
    "ho chi minh city": ("Vietnam", 7), "florence": ("Italy", 1), "geneva": ("Switzerland", 1),
    "frankfurt": ("Germany", 1), "hamburg": ("Germany", 1), "lyon": ("France", 1), "manchester": ("United Kingdom", 0),
    "tel aviv": ("Israel", 2), "doha": ("Qatar", 3), "abu dhabi": ("United Arab Emirates", 4),
    "karachi": ("Pakistan", 5), "dhaka": ("Bangladesh", 6), "kathmandu": ("Nepal", 5.75),
    "colombo": ("Sri Lanka", 5.5), "montevideo": ("Uruguay", -3), "quito": ("Ecuador", -5),
    "caracas": ("Venezuela", -4), "panama city": ("Panama", -5), "san juan": ("Puerto Rico", -4),
    "kingston": ("Jamaica", -5), "nassau": ("Bahamas", -5),
}
"""Every place the simulated web knows: the general suite's `CITIES` and more, for goal lists that name them."""

WORLD_CAPITALS: dict[str, str] = {
    **CAPITALS,
    "russia": "Moscow", "uruguay": "Montevideo", "paraguay": "Asuncion", "ecuador": "Quito", "venezuela": "Caracas",
    "bolivia": "Sucre", "panama": "Panama City", "costa rica": "San Jose", "jamaica": "Kingston",
    "pakistan": "Islamabad", "bangladesh": "Dhaka", "nepal": "Kathmandu", "sri lanka": "Sri Jayawardenepura Kotte",
    "israel": "Jerusalem", "saudi arabia": "Riyadh", "united arab emirates": "Abu Dhabi", "qatar": "Doha",
    "iran": "Tehran", "iraq": "Baghdad", "ukraine": "Kyiv", "romania": "Bucharest", "czechia": "Prague",
    "croatia": "Zagreb", "serbia": "Belgrade", "ghana": "Accra", "ethiopia": "Addis Ababa", "tanzania": "Dodoma",
    "singapore": "Singapore", "taiwan": "Taipei", "cambodia": "Phnom Penh", "laos": "Vientiane",
    "myanmar": "Naypyidaw", "mongolia": "Ulaanbaatar", "north korea": "Pyongyang", "scotland": "Edinburgh",
}
"""Every country whose capital the simulated web knows: the general suite's `CAPITALS` and more."""

CUISINES: tuple[str, ...] = (
    "italian", "thai", "mexican", "japanese", "chinese", "indian", "french", "korean", "vietnamese", "greek",
    "spanish", "lebanese", "ethiopian", "turkish", "vegan", "seafood",
)

WORLD_CUISINES: tuple[str, ...] = (
    *CUISINES, "pizza", "sushi", "burger", "bbq", "barbecue", "vegetarian", "american", "steak", "ramen", "tapas",
    "dim sum", "brunch",
)
"""Every cuisine the web's restaurant cards know: the general suite's `CUISINES` and more."""

HOME_CITY = "san francisco"
"""Where the simulated phone is: restaurant searches without a place are answered for here (its clock is Pacific)."""

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
