"""Retro Music's world: the songs on a fresh phone and the playlists made of them, drawn per episode from
`stable_seed("retro", phone.seed)` (never the episode RNG), and how the app writes lengths.

A library holds 12-18 songs of a pool of 48 titles, each with its artist, album and a length of 2-6 minutes; one or
two playlists are made of them.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.sim.app import stable_seed

ARTISTS = {"Nora Vale": ("Paper Lanterns", "North Window"), "The Quiet Hours": ("Lowlight", "Static Bloom"),
           "Milo Grant": ("Second Wind", "Harbor Lights"), "Ivy & The Keys": ("Glasshouse", "Open Road"),
           "Sol Ramirez": ("Desert Radio",), "Kites Over Kyoto": ("Paper Sky", "Blue Hour")}
"""Artists and their albums."""
TITLES = ("Amber Streetlights", "Blue Umbrella", "Cardboard Castles", "Coastline", "Copper Moon", "Dandelion Wire",
          "Empty Platform", "Feather Weight", "Fireflies in June", "Glass Harbor", "Gravel Road", "Half Past Nine",
          "Honey and Smoke", "Into the Static", "June Parade", "Kitchen Radio", "Lanterns", "Last Tram Home",
          "Lemon Tree Lane", "Low Tide", "Marble Steps", "Midnight Laundromat", "Northbound", "Orchard Song",
          "Paper Planes", "Postcards", "Quiet Engines", "Rainy Window", "Red Balloon", "River Stones",
          "Rooftop Garden", "Salt and Pepper", "Satellite Heart", "Seventh Floor", "Slow Motion", "Snow Globe",
          "Sunday Crossword", "Tangerine Sky", "Telephone Wires", "Thunder Bay", "Tin Soldiers", "Velvet Hour",
          "Violet Hill Road", "Wildflower", "Winter Coats", "Wooden Boats", "Yellow Kite", "Zero Gravity")
"""Titles the seeded songs are drawn from."""
PLAYLIST_NAMES = ("Road trip", "Favourites", "Evening chill", "Running", "Sunday morning")


def clock(ms: int) -> str:
    """A length as Retro writes it: minutes and seconds, hours when there are any.

    >>> clock(185_000), clock(59_999), clock(2_850_000), clock(3_725_000)
    ('3:05', '0:59', '47:30', '1:02:05')
    """
    s = ms // 1000
    h, m = divmod(s // 60, 60)
    return f"{h}:{m:02d}:{s % 60:02d}" if h else f"{m}:{s % 60:02d}"


def count_label(n: int) -> str:
    """How many songs, as Retro's lists say it.

    >>> count_label(1), count_label(4)
    ('1 Song', '4 Songs')
    """
    return f"{n} Song" + ("" if n == 1 else "s")


def seeded_library(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s songs: {"title", "artist", "album", "duration_ms"}, 12-18 of them."""
    rng = random.Random(stable_seed("retro", "songs", seed))
    out = []
    for title in rng.sample(TITLES, rng.randint(12, 18)):
        artist = rng.choice(sorted(ARTISTS))
        out.append({"title": title, "artist": artist, "album": rng.choice(ARTISTS[artist]),
                    "duration_ms": rng.randrange(120_000, 360_000)})
    return out


def seeded_playlists(seed: int, titles: list[str]) -> list[dict[str, Any]]:
    """Episode `seed`'s playlists over the library's `titles`: {"name", "songs"}, one or two of 2-5 songs."""
    rng = random.Random(stable_seed("retro", "playlists", seed))
    return [{"name": name, "songs": rng.sample(titles, rng.randint(2, 5))}
            for name in rng.sample(PLAYLIST_NAMES, rng.randint(1, 2))]
