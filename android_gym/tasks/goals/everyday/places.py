"""Everyday phrasings of maps and places goals (issue 49): Maps searches, directions, labels; web directions.

    >>> from android_gym.tasks.goals import parse_goal
    >>> parse_goal("Show me directions to 1600 Amphitheatre Parkway").params
    {'address': '1600 Amphitheatre Parkway'}

"Find a coffee shop near me" searches Maps (around the phone's city); "How do I get to the airport?" is answered by the
search engine's directions card to the nearest one, as "How do I get to the nearest Best Buy?" is; directions to a
street address are Maps' (it finds any address); "Save this place as Home" labels the place Maps reopens on (the
place page the user left it on, drawn per episode). "Navigate to the nearest gas station" is read by the AitW-style
directions family in `rules`.
"""

from __future__ import annotations

from android_gym.sim.apps import maps
from android_gym.sim.web.places import title
from android_gym.tasks.goals.rule import Rule, rule
from android_gym.tasks.goals.slots import Names, Parsed, UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.maps_tasks import DirectionsToAddressTemplate, MapsSearchTemplate
from android_gym.tasks.web_answers import DirectionsQuestion
from android_gym.tasks.world.places_tasks import LabelPlaceTemplate


def read_address(text: str) -> str:
    """A street address Maps finds, title-cased ("1600 amphitheatre parkway" -> "1600 Amphitheatre Parkway").

    >>> read_address("1600 amphitheatre parkway")
    '1600 Amphitheatre Parkway'
    """
    found = maps.address_place(" ".join(words(text)))
    if found is None:
        raise UnknownValue(f"{text!r} is not a street address (a number, then the street: '1600 Amphitheatre Parkway')")
    return title(found["name"].lower())


_NEAR = "(near me|nearby|around here|close by|near here|in the area)"

RULES: tuple[Rule, ...] = (
    rule("maps", MapsSearchTemplate(), (
        f"(find|show me|search for|look for|locate) [me] (a|an|some|the) [good|nice] {{place_kind}} {_NEAR}",
        f"(where is|wheres|where's) (a|an|the) {{place_kind}} {_NEAR}",
        f"(are there|is there) (a|an|any) {{place_kind}} {_NEAR}",
    ), lambda s: {"terms": s["place_kind"]}),
    rule("directions", DirectionsQuestion(), (  # "the airport": the nearest one, as the directions card answers
        "how (do|can|would|should) i get to [the] {store}",
        "(what's|what is|whats) the (way|best way|fastest way|route) to the {store}",
    ), lambda s: {"place": s["store"]}),
    rule("maps_directions", DirectionsToAddressTemplate(), (
        "[show me|give me|get|find] [the] directions to {address} [on maps|on google maps|in maps]",
        "how (do|can) i get to {address}",
        "(show|find) [me] the (way|route) to {address}",
    ), readers={"address": Parsed("street address", read_address)}),
    rule("maps_label", LabelPlaceTemplate(), (
        "(save|set|label|mark|add) this (place|location|spot|address) as [my] {label} [address|location]",
        "(label|name) this (place|location|spot) {label}",
        "make this (place|location) my {label} [address|location]",
    ), lambda s: {"label": s["label"], "phrasing": 0},
        readers={"label": Names("place label", {label.lower(): label for label in maps.LABELS})}),
)
