"""Tests of the goal parser: plain goal lines (AitW task-file format) become checkable, solvable tasks on the sim.

The phrasings below were written apart from the parser's own (`android_gym/tasks/goals/rules.py`): other word
orders, synonyms and places, as a user's list would hold them.
"""

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.tasks.base import Task
from android_gym.tasks.files import file_coverage
from android_gym.tasks.goals import GoalMatch, ParsedGoals, Uncovered, coverage, parse_goal
from android_gym.tasks.goals.phrasing import Phrasing, PhrasingError
from android_gym.tasks.goals.slots import UnknownValue, parse_time
from android_gym.testing.rollout import run_episode

HELD_OUT: list[tuple[str, str, dict]] = [
    ("how's the weather in Cape Town right now", "weather", {"city": "cape town"}),
    ("Tell me the forecast for Oslo", "weather", {"city": "oslo"}),
    ("What's the local time in Hong Kong?", "time", {"city": "hong kong"}),
    ("How many people live in Cairo?", "population", {"city": "cairo"}),
    ("Look up the capital of Kenya", "capital", {"country": "kenya"}),
    ("Who's the prime minister of Japan?", "office", {"office": "prime minister", "country": "japan"}),
    ("what is the latest news on bitcoin", "news", {"topic": "bitcoin"}),
    ("What's in the news this evening?", "news", {"topic": ""}),
    ("How much is a macbook air?", "price", {"product": "macbook air"}),
    ("Find me a good Thai restaurant in Bangkok", "restaurants", {"cuisine": "thai", "city": "bangkok"}),
    ("Set an alarm at 6:45 am", "alarm", {"hour": 6, "minute": 45}),
    ("wake me up at 7am", "alarm", {"hour": 7, "minute": 0}),
    ("Disable the 7:30 PM alarm", "alarm", {"hour": 19, "minute": 30}),
    ("Switch Bluetooth off", "settings", {"setting": "bluetooth", "on": False}),
    ("enable dark mode", "settings", {"setting": "dark_theme", "on": True}),
    ("Launch the camera app", "open_app", {"app": "Camera"}),
    ("Download Daily Notes from the Play Store", "install_app", {"app": "Daily Notes"}),
    ("Watch a video about origami on YouTube", "youtube", {"topic": "origami"}),
    ("Look for cheap flights from Tokyo to Seoul", "flights", {"origin": "tokyo", "destination": "seoul"}),
    ("Book a hotel in Kyoto", "hotels", {"city": "kyoto"}),
    ("What's the average rent for a one bedroom apartment in Seattle?", "rent",
     {"size": "1 bedroom", "city": "seattle"}),
    ("Show me the menu at Five Guys", "menu", {"chain": "five guys"}),
    ("Convert dollars to euros", "exchange", {"currency": "euro"}),
    ("Give me directions to the closest pharmacy", "directions", {"place": "pharmacy"}),
    ("How fast can a cheetah run?", "facts", {"measure": "speed", "thing": "cheetah"}),
    ("How far away is the moon from earth?", "facts", {"measure": "distance", "thing": "moon"}),
    ("Where do I buy a cheap beach umbrella?", "web_search", {"terms": "beach umbrella"}),
    ("start a private window in chrome", "chrome_tabs", {"incognito": True}),
    ("Open a new Chrome tab please", None, {}),
    ("Show me the app info for Google Photos", "app_settings", {"app": "Photos"}),
    ("Mute notifications from the Netflix app", "app_notifications", {"app": "Netflix", "on": False}),
    ("Watch the newest video from IGN on YouTube", "youtube_channels", {"channel": "IGN"}),
    ("Look for cheap coffee shops on Google Maps", "maps", {"terms": "coffee shops"}),
    ("Launch the calculator", "open_app", {"app": "Calculator"}),
    ("Open the music player", "open_app", {"app": "YT Music"}),
    ("Show me my documents folder", "files", {"category": "Documents"}),
    ("What's on my schedule this week", "calendar", {"view": "week"}),
    ("Show me the top post on Reddit", "forum", {"stage": "top_post"}),
    ("Visit bestbuy.com", "shop", {"site": "bestbuy.com"}),
    ("Open walmart.com and search for usb-c cable", "shop", {"site": "walmart.com", "query": "usb-c cable"}),
    ("Search for 'lenovo thinkpad' on newegg.com and select the first result", "shop",
     {"site": "newegg.com", "query": "lenovo thinkpad"}),
]


@pytest.mark.parametrize(("line", "family", "params"), HELD_OUT, ids=[h[0] for h in HELD_OUT])
def test_held_out_phrasings_parse_to_the_right_family_and_parameters(line, family, params):
    """A wording the parser's authors did not write down still reads as its family, with the right values."""
    match = parse_goal(line)
    if family is None:  # a wording the parser does not know must say so, not guess
        assert isinstance(match, Uncovered), match
        return
    assert isinstance(match, GoalMatch), match
    assert match.family == family
    assert {k: match.params[k] for k in params} == params


def _task(match: GoalMatch) -> Task:
    return ParsedGoals(match.template, "file:test", [{"goal": match.line, "params": match.params}]).tasks("train")[0]


SOLVABLE = [h for h in HELD_OUT if h[1] is not None]


@pytest.mark.parametrize(("line", "family", "params"), SOLVABLE[::3], ids=[h[0] for h in SOLVABLE[::3]])
def test_parsed_goals_start_unsolved_and_the_expert_solves_them(line, family, params):
    """A parsed task is worded as the line, is not solved at reset, and its template's expert solves it."""
    match = parse_goal(line)
    assert isinstance(match, GoalMatch)
    task = _task(match)
    assert task.goal == line and task.max_steps == match.template.max_steps
    episode = run_episode(task, seed=3)  # raises if the check already holds at reset
    assert episode.success, task


@pytest.mark.parametrize(("line", "family", "repaired"), [
    ("What's the weather like inToronto?", "weather", "intoronto -> in toronto"),
    ("Set an alarmfor 5pm", "alarm", "alarmfor -> alarm for"),
    ("Searchfor good French restaurants", "restaurants", "searchfor -> search for"),
    ("How much does a3 bedroom apartment rent for in Portland?", "rent", "a3 -> a 3"),
    ("What's US dollar exchange rateagainst the Mexican Peso?", "exchange", "rateagainst -> rate against"),
])
def test_spacing_slips_are_repaired_and_reported(line, family, repaired):
    """Words glued by a missing space are split, the line parses, and the repair is in the notes."""
    match = parse_goal(line)
    assert isinstance(match, GoalMatch) and match.family == family
    assert f"split {repaired}" in match.notes


def test_lines_that_parse_as_written_are_not_repaired():
    """The repair is a fallback: "5pm" stays one word when the line parses without splitting it."""
    match = parse_goal("Set an alarm for 5pm")
    assert isinstance(match, GoalMatch) and match.params == {"hour": 17, "minute": 0} and match.notes == ()


def test_an_ambiguous_line_takes_the_most_specific_family_and_says_so():
    """'The price of X on eBay' reads as a price question and as an eBay search; the site search is more specific."""
    match = parse_goal("What's the price of the Galaxy phone on eBay?")
    assert isinstance(match, GoalMatch)
    assert match.family == "shop" and match.params == {"site": "ebay.com", "query": "galaxy phone"}
    assert match.is_ambiguous and "also reads as price" in match.notes


def test_a_fallback_family_yields_to_any_other():
    """A plain web search reads "Search for hotels in Paris" too, but the hotel family takes it, unflagged."""
    match = parse_goal("Search for hotels in Paris")
    assert isinstance(match, GoalMatch) and match.family == "hotels" and not match.is_ambiguous


@pytest.mark.parametrize(("line", "family", "reason"), [
    ("What's the weather like in Atlantis?", "weather", "no place 'atlantis'"),
    ("Open the Flux Capacitor app", "open_app", "no app to open 'flux capacitor app'"),
    ("Set an alarm for 7:33 am", "alarm", "steps of five"),
    ("Go to etsy.com", "shop", "no shopping site 'etsy.com'"),
    ("Take a screenshot", "screenshot", "takes no screenshots"),
    ("Teleport me to Mars", None, "no phrasing of any family matches"),
    ("   ", None, "no words"),
    ("weather " * 2000, None, "longer than any goal"),
    ("\x00\x01\x02 \ufffd", None, "no words"),
])
def test_uncoverable_lines_say_why(line, family, reason):
    """A line naming something the sim does not know, or no goal at all, is uncovered with its reason."""
    result = parse_goal(line)
    assert isinstance(result, Uncovered)
    assert result.family == family and reason in result.reason


def test_times_of_day():
    """Alarm times read in the forms lists use; a time the dial cannot set is refused with the reason."""
    assert parse_time("5pm") == (17, 0) and parse_time("12 am") == (0, 0) and parse_time("12pm") == (12, 0)
    assert parse_time("7:35 PM") == (19, 35) and parse_time("17:05") == (17, 5) and parse_time("noon") == (12, 0)
    for bad in ("13pm", "25:00", "7", "seven", "7:61 am"):
        with pytest.raises(UnknownValue):
            parse_time(bad)


@pytest.mark.parametrize("text", ["[a", "(a|)", "(a|b", "{x} and {x}", "a ] b", "[]"])
def test_malformed_phrasings_are_refused(text):
    """A phrasing with unbalanced brackets, an empty alternative or a repeated slot does not compile."""
    with pytest.raises(PhrasingError):
        Phrasing(text)


def test_coverage_counts_families_and_lists_what_is_left(tmp_path):
    """The report counts covered lines per family and lists every uncovered, ambiguous and repaired line."""
    path = tmp_path / "goals.txt"
    path.write_text("# a list\nSet an alarm for 7am\n\nWhat's the weather in Paris?\nTeleport me to Mars\n"
                    "What's the price of the Galaxy phone on eBay?\nSet an alarmfor 8am\n")
    report = file_coverage(path)
    assert (report.covered, report.total) == (4, 5)
    assert report.by_family() == {"alarm": 2, "shop": 1, "weather": 1}
    text = report.render()
    assert "4 of 5 goal lines parse (80.0%)" in text
    assert "line 5: Teleport me to Mars  -- no phrasing" in text  # numbers are the file's lines
    assert "ambiguous (the most specific family won) (1):" in text and "line 6:" in text
    assert "repaired (1):" in text and "line 7:" in text
    assert coverage([]).fraction == 0.0


def test_coverage_of_a_bad_file_is_a_config_error(tmp_path):
    """An empty or binary file is reported, never a crash."""
    empty = tmp_path / "empty.txt"
    empty.write_text("\n# nothing\n")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    for path in (empty, binary, tmp_path / "missing.txt"):
        with pytest.raises(ConfigError, match=path.name):
            file_coverage(path)


def test_coverage_command(tmp_path, capsys):
    """`android-gym tasks --coverage FILE` prints the report; an unreadable file exits 2 with the reason."""
    from android_gym.cli import main

    path = tmp_path / "goals.txt"
    path.write_text("Set an alarm for 7am\nTeleport me to Mars\n")
    assert main(["tasks", "--coverage", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 of 2 goal lines parse" in out and "alarm" in out and "Teleport me to Mars" in out
    assert main(["tasks", "--coverage", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err
