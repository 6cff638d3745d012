"""Everyday instructions of the music and video, maps and places, web and cannot-do sections (issue 49).

Each line parses onto the template that checks it with the values it names, the expert solves it under the default
perturbations, a do-nothing agent does not, and values the phone does not know are refused with a reason naming
them. The sim features these lines needed (YT Music's queue and search, YouTube's Subscribe, Maps' addresses and
labels, a country's population card) are checked on the phone directly.
"""

from __future__ import annotations

from typing import Any

import pytest
from everyday_lines import parsed, parsed_task, play, section

from android_gym.actions import Action, ActionType
from android_gym.sim.apps import maps, music, playstore, youtube
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.web.content import answer
from android_gym.tasks.apps import PlayVideoTemplate
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find
from android_gym.tasks.goals import Uncovered, parse_goal
from android_gym.tasks.maps_tasks import DirectionsToAddressTemplate, MapsSearchTemplate
from android_gym.tasks.web import SearchSite, WeatherQuestion
from android_gym.tasks.web_answers import CountryPopulationQuestion, DirectionsQuestion, VisitWebsite
from android_gym.tasks.world.music_tasks import (
    NextSongTemplate,
    PauseMusicTemplate,
    PlayMusicTemplate,
    PlaySongTemplate,
    SearchVideosTemplate,
)
from android_gym.tasks.world.places_tasks import LabelPlaceTemplate
from android_gym.tasks.world.unavailable_tasks import UnavailableServiceTemplate
from android_gym.tasks.youtube_channels import SubscribeTemplate
from android_gym.testing.rollout import run_episode

SECTIONS = ("music and video", "maps and places", "web", "things the phone cannot do")
EXPECTED: dict[str, tuple[type[TaskTemplate], dict[str, Any]]] = {
    "Play some music": (PlayMusicTemplate, {"phrasing": 0}),
    'Play the song "Blue in Green"': (PlaySongTemplate, {"title": "Blue in Green"}),
    "Pause the music": (PauseMusicTemplate, {"rank": 0}),
    "Skip to the next song": (NextSongTemplate, {"rank": 0}),
    "Search YouTube for lo-fi music": (SearchVideosTemplate, {"terms": "lo-fi music"}),
    "Play a cooking video on YouTube": (PlayVideoTemplate, {"topic": "cooking"}),
    "Subscribe to the channel Veritasium on YouTube": (SubscribeTemplate, {"channel": "Veritasium"}),
    "Navigate to the nearest gas station": (DirectionsQuestion, {"place": "gas station"}),
    "How do I get to the airport?": (DirectionsQuestion, {"place": "airport"}),
    "Find a coffee shop near me": (MapsSearchTemplate, {"terms": "coffee shop"}),
    "Save this place as Home": (LabelPlaceTemplate, {"label": "Home", "phrasing": 0}),
    "Show me directions to 1600 Amphitheatre Parkway": (DirectionsToAddressTemplate,
                                                        {"address": "1600 Amphitheatre Parkway"}),
    "Search for the weather in Boston": (WeatherQuestion, {"city": "boston"}),
    "Look up the population of Canada": (CountryPopulationQuestion, {"country": "canada"}),
    "Open wikipedia.org": (VisitWebsite, {"site": "wikipedia.org"}),
    "Search amazon for a phone charger": (SearchSite, {"site": "amazon.com", "query": "phone charger"}),
    "Find the price of a macbook air on bestbuy.com": (SearchSite, {"site": "bestbuy.com", "query": "macbook air"}),
    "Go to the New York Times website": (VisitWebsite, {"site": "nytimes.com"}),
    "Order me a pizza": (UnavailableServiceTemplate, {"service": "food delivery", "what": "pizza"}),
    "Book a flight to London for next week": (UnavailableServiceTemplate,
                                              {"service": "flight booking", "what": "london"}),
}
LINES = [line for title in SECTIONS for line in section(title)]


def wait_policy(elements: Any, state: Any) -> Action:
    """The do-nothing agent."""
    return Action.key(ActionType.WAIT)


def test_every_line_of_the_sections_is_expected() -> None:
    """The table covers exactly the fixture's lines of these sections (a new line needs its expectation)."""
    assert sorted(LINES) == sorted(EXPECTED)


@pytest.mark.parametrize("line", LINES)
def test_line_parses_to_its_template_and_values(line: str) -> None:
    """The line reads as the template that checks it, with the values it names."""
    template, params = EXPECTED[line]
    match = parsed(line)
    assert isinstance(match.template, template) and match.params == params


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("line", LINES)
def test_expert_solves_the_parsed_line(line: str, seed: int) -> None:
    """The expert solves the task the line becomes, under the default perturbations."""
    episode = play(line, seed)
    assert episode.success, f"{line!r} seed {seed}: {episode.steps} steps"


@pytest.mark.parametrize("line", LINES)
def test_doing_nothing_does_not_solve(line: str) -> None:
    """Waiting out the step budget leaves the task unsolved (and no task starts solved: run_episode checks)."""
    task = parsed_task(line)
    assert not run_episode(task, seed=0, policy=wait_policy).success


@pytest.mark.parametrize(("line", "named"), [
    ("Subscribe to the channel Flurbotron on YouTube", "flurbotron"),
    ("Order me a unicorn", "unicorn"),
    ("Book a flight to Atlantis for next week", "atlantis"),
    ("Show me directions to the moon base", "the moon base"),
    ("Save this place as Gym", "gym"),
    ("Go to the flurbotron.org website", "flurbotron.org"),
    ("Look up the population of Narnia", "narnia"),
])
def test_unknown_values_are_refused_by_name(line: str, named: str) -> None:
    """A value the phone does not know gives an Uncovered whose reason names it."""
    result = parse_goal(line)
    assert isinstance(result, Uncovered) and named in result.reason.lower(), result


# -- the sim features the lines needed ---------------------------------------------------------------------------------
def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone without perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: Any) -> None:
    """Tap the first element matching `criteria`; fail if none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    phone.tap(*element.center)
    while phone.top.loading:
        phone.tick()


def test_music_keeps_playing_its_queue_outside_the_player() -> None:
    """A song plays on after leaving the app; Next plays the queue's next song; the mini-player pauses."""
    phone = make_phone(3, {music.PACKAGE: {"playing": 2}})
    songs = music.library(3)
    state = phone.state()["apps"][music.PACKAGE]
    assert state["playing"] == songs[2]["title"] and state["library"] == [s["title"] for s in songs]
    phone.launch("YT Music")
    press(phone, rid=music.MINI_TITLE_RID)
    press(phone, desc="Next")
    assert phone.state()["apps"][music.PACKAGE]["playing"] == songs[3]["title"]
    phone.key("back")
    press(phone, rid=music.MINI_PLAY_PAUSE_RID)
    state = phone.state()["apps"][music.PACKAGE]
    assert state["playing"] is None and state["paused"] and state["song"]["title"] == songs[3]["title"]


def test_music_search_finds_the_title_and_other_recordings() -> None:
    """Searching a title lists it first, then other recordings; another recording is another title."""
    phone = make_phone()
    phone.launch("YT Music")
    press(phone, desc="Search")
    phone.type_text("blue in green")
    phone.key("enter")
    press(phone, desc="Play Blue in Green (Live)")
    assert phone.state()["apps"][music.PACKAGE]["playing"] == "Blue in Green (Live)"
    assert not PlaySongTemplate().check({"title": "Blue in Green"}, phone.state())


def test_youtube_subscribe_toggles_and_lists_the_channel() -> None:
    """Subscribe under a channel's video subscribes; Subscribed unsubscribes; another channel fails the task."""
    phone = make_phone()
    phone.launch("YouTube")
    press(phone, desc="Search")
    phone.type_text("Veritasium")
    phone.key("enter")
    press(phone, rid=youtube.CARD_RID)
    press(phone, desc="Subscribe to Veritasium")
    assert phone.state()["apps"][youtube.PACKAGE]["subscriptions"] == ["Veritasium"]
    assert SubscribeTemplate().check({"channel": "Veritasium"}, phone.state())
    assert not SubscribeTemplate().check({"channel": "Vsauce"}, phone.state())
    press(phone, desc="Unsubscribe from Veritasium")
    assert phone.state()["apps"][youtube.PACKAGE]["subscriptions"] == []


def test_maps_finds_a_street_address_alone() -> None:
    """An address search lists that address, whose page has Directions but no rating or Call."""
    found = maps.places_for("1600 amphitheatre parkway")
    assert len(found) == 1 and found[0]["kind"] == maps.ADDRESS_KIND
    assert maps.address_place("5 star hotels") is None and maps.address_place("coffee shops") is None


def test_maps_reopens_on_a_place_and_labels_it() -> None:
    """Maps opens on the place it was left on; its Save sheet labels it; BACK from it goes to Explore."""
    phone = make_phone(4, {maps.PACKAGE: {"open": {"query": "coffee", "rank": 1}}})
    place = maps.places_for("coffee")[1]
    phone.launch("Maps")
    assert phone.state()["apps"][maps.PACKAGE]["place"] == place["name"]
    press(phone, desc=f"Save {place['name']}")
    press(phone, rid=maps.LABEL_RID, text="Work")
    labels = phone.state()["apps"][maps.PACKAGE]["labels"]
    assert labels == {"Work": {"name": place["name"], "address": place["address"]}}
    assert not LabelPlaceTemplate().check({"label": "Home"}, phone.state())
    phone.key("back")
    phone.key("back")
    assert phone.state()["apps"][maps.PACKAGE]["page"] == "home"


def test_country_population_card_leaves_city_cards_alone() -> None:
    """A country's population is its own card; a city's stays the city's."""
    card = answer("population of canada")
    assert card is not None and (card.kind, card.subject) == ("population", "canada")
    city = answer("population of boston")
    assert city is not None and city.subject == "boston"


def test_declaring_impossible_blind_earns_nothing() -> None:
    """Declaring at once (without looking for the service) fails; looking in the Play Store counts as looking."""
    task = parsed_task("Order me a pizza")
    declare = Action.key(ActionType.STATUS_TASK_IMPOSSIBLE)
    assert not run_episode(task, seed=0, policy=lambda elements, state: declare).success
    template, params = UnavailableServiceTemplate(), parsed("Order me a pizza").params

    def store(query: str) -> dict[str, Any]:
        return {"foreground": playstore.PACKAGE, "screen": {"loading": 0},
                "apps": {playstore.PACKAGE: {"page": "results", "query": query, "installed": []}}}

    assert template.looked(params, store("food delivery")) and not template.looked(params, store("chess games"))
