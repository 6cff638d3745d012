"""Long World-suite tasks over Breezy Weather and Feeder (issue 48, item 3): several items in one goal, across apps.

Breezy Weather: add two cities, drop one and switch both units; a Markor note of tomorrow's high in each saved city;
three friends texted tomorrow's high where each is; a rain task per city (Tasks), due on its first rainy day.
Feeder: subscribe to two feeds under a tag and drop a third; save three articles and mark a feed read; the latest
article of two feeds (titles and links) into a Markor note; a "Read <title>" task for every saved article.

Each check is as strict as the single-item template it grows from (`weather_tasks`, `feeder_tasks`,
`feeder_cross_tasks`): every item, nothing extra, and the near miss (another day's high, a twin article, a city left
out) refused. Forecasts and article links are read from the state at the end, never from the parameters.
"""

from __future__ import annotations

import re
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import feeder as F
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import weather_data as WD
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.feeder_cross_tasks import NOTES as FEED_NOTES
from android_gym.tasks.world.feeder_cross_tasks import TODAY, kept, read_first
from android_gym.tasks.world.feeder_expert import (
    AUTHORS,
    FEEDER,
    FEEDS,
    TITLES,
    article,
    feeder_state,
    feeds_untouched,
    find_article,
    find_feed,
    subscribe,
    title_of,
    to_article,
    to_showing,
    unsubscribe,
)
from android_gym.tasks.world.feeder_tasks import NEW_TAGS, UNSUBSCRIBED
from android_gym.tasks.world.messaging_expert import conversation, holds, names, person, same_number, send_text
from android_gym.tasks.world.notes_expert import MARKOR, TASKS, find_tasks, markor_create, markor_write, only_touched
from android_gym.tasks.world.notes_expert import tasks_add as add_task
from android_gym.tasks.world.weather_expert import (
    TASK_CITIES,
    WEATHER,
    add_city,
    day_of,
    find_location,
    numbers,
    remove_city,
    set_unit,
    shown,
    to_location,
    untouched,
    weather_state,
)
from android_gym.tasks.world.weather_tasks import NOTES, RAIN_ITEMS, UNIT_NAMES, WIND_NAMES, ascii_degrees

OTHER_UNIT = {"°C": "°F", "°F": "°C"}
PIECE = re.compile(r"[\n,;]| and ")


def quad(i: int) -> list[str]:
    """Four distinct task cities for instance `i` (spread over the list so neighbours differ)."""
    return [nth(TASK_CITIES, i + k) for k in (0, 7, 16, 23)]


def says_high(text: str, good: set[float], bad: set[float]) -> bool:
    """Whether `text` says a number of `good` and none of `bad` (other than a good one).

    >>> says_high("the one in Oslo: 15 C", {15.0, 59.0}, {17.0}), says_high("17 or 15", {15.0}, {17.0})
    (True, False)
    """
    said = set(numbers(text))
    return bool(said & good) and not said & (bad - good)


def per_city(text: str, want: dict[str, set[float]], bad: dict[str, set[float]]) -> bool:
    """Whether `text` gives each city of `want` one of its numbers: split at newlines, commas, semicolons and "and",
    some piece names the city, every piece naming it names no other city, says one of its numbers and none of its
    `bad` ones or another city's.

    >>> want, bad = {"Lisbon": {24.0}, "Oslo": {15.0}}, {"Lisbon": {20.0}, "Oslo": {11.0}}
    >>> per_city("Lisbon: 24 C, Oslo: 15 C", want, bad), per_city("Lisbon 15 and Oslo 24", want, bad)
    (True, False)
    >>> per_city("Lisbon 24", want, bad), per_city("Lisbon 20, Oslo 15", want, bad)
    (False, False)
    """  # noqa: D205
    pieces = [p.casefold() for p in PIECE.split(text)]
    for city, good in want.items():
        mine = [p for p in pieces if city.casefold() in p]
        others = set().union(*(v for c, v in want.items() if c != city)) | bad[city]
        if not mine or not all(says_high(p, good, others) and not any(c.casefold() in p for c in want if c != city)
                               for p in mine):
            return False
    return True


def highs(state: State, cities: list[str], offset: int = 1) -> dict[str, set[float]] | None:
    """Each city's high `offset` days ahead (tomorrow unless told), in both units (None when a city is not saved)."""
    days = {c: day_of(state, c, offset) for c in cities}
    if any(d is None for d in days.values()):
        return None
    return {c: {float(shown(d["high_c"], u)) for u in WD.TEMPERATURE_UNITS} for c, d in days.items() if d is not None}


def near(state: State, cities: list[str]) -> dict[str, set[float]]:
    """Each city's near misses: today's high, in both units (empty when the city is not saved)."""
    return highs(state, cities, 0) or {c: set() for c in cities}


def highs_text(state: State, cities: list[str], sep: str) -> str:
    """What the experts write: each city's high tomorrow, as the app shows it."""
    unit = weather_state(state)["temperature_unit"]
    days = [(c, day_of(state, c, 1)) for c in cities]
    return sep.join(f"{c}: {ascii_degrees(WD.temperature_label(d['high_c'], unit))}" for c, d in days if d)


def view_all(cities: list[str], elements: Elements, state: State) -> Action | None:
    """The next step to open every city's page once this episode (None after)."""
    seen = weather_state(state)["viewed"]
    city = next((c for c in cities if c not in seen), None)
    return None if city is None else to_location(city, elements, state) or wait()


class _WeatherLong(WorldTemplate):
    """A long Breezy Weather task over four cities ({first}, {second}, {third}, {fourth}); split on the first."""

    split_key, apps = "city", (WEATHER,)

    def grid(self) -> list[dict[str, Any]]:
        """Every task city first once, with three others and a starting unit."""
        return [{"city": cities[0], "cities": cities, "first": cities[0], "second": cities[1], "third": cities[2],
                 "fourth": cities[3], "unit": "°F" if i % 2 else "°C", "phrasing": i}
                for i in range(len(TASK_CITIES)) for cities in [quad(i)]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The four cities saved, the unit."""
        return {WEATHER: {"locations": params["cities"], "temperature_unit": params["unit"]}}


class AddTwoAndUnitTemplate(_WeatherLong):
    """Add {first} and {second}, remove {third}, and show temperatures in {unit_name} and wind in {wind_name}."""

    name, max_steps = "weather_add_two_and_unit", 26
    phrasings = ("Add {first} and {second} to Breezy Weather, remove {third}, and switch to {unit_name} and "
                 "{wind_name}", "Swap {third} for {first} and {second} in my weather locations; temperatures in "
                 "{unit_name}, wind in {wind_name}", "I'm travelling to {first} and then {second}: add both to my "
                 "weather app, drop {third}, and use {unit_name} with wind speed in {wind_name}")

    def grid(self) -> list[dict[str, Any]]:
        """The two new cities, the one to drop, and the units to switch to."""
        return [{**p, "target": OTHER_UNIT[p["unit"]], "unit_name": UNIT_NAMES[OTHER_UNIT[p["unit"]]],
                 "wind": wind, "wind_name": WIND_NAMES[wind]}
                for p in super().grid() for wind in [nth(WD.WIND_UNITS[1:], p["phrasing"])]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the third and fourth cities saved, in the starting unit, wind in km/h."""
        return {WEATHER: {"locations": [params["third"], params["fourth"]], "temperature_unit": params["unit"],
                          "wind_unit": "km/h"}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the two cities added and the third removed (the fourth kept); both units as asked."""
        w = weather_state(state)
        return (sorted(w["added"]) == sorted([params["first"], params["second"]]) and w["removed"] == [params["third"]]
                and (w["temperature_unit"], w["wind_unit"]) == (params["target"], params["wind"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add each city, delete the third, then Settings for each unit."""
        for city in (params["first"], params["second"]):
            if find_location(state, city) is None:
                return add_city(city, elements, state)
        w = weather_state(state)
        if find_location(state, params["third"]) is not None:
            return remove_city(params["third"], elements, state)
        if w["temperature_unit"] != params["target"]:
            return set_unit("temperature", params["target"], elements, state)
        return set_unit("wind", params["wind"], elements, state) if w["wind_unit"] != params["wind"] else wait()


class HighsToNoteTemplate(_WeatherLong):
    """A new Markor note {note} with tomorrow's high in each saved city ({first}, {second}, {third})."""

    name, max_steps = "weather_highs_to_note", 28
    apps = (WEATHER, MARKOR)
    phrasings = ('Make a Markor note "{note}" listing tomorrow\'s high in each of my saved weather cities',
                 "Write tomorrow's forecast high for every city in Breezy Weather into a new note {note}, one line per "
                 "city", "Check Breezy Weather for tomorrow's highs in all my locations and note them in Markor as "
                 "{note}")

    def grid(self) -> list[dict[str, Any]]:
        """The three cities, with a note name."""
        return [{**p, "note": nth(NOTES, p["phrasing"])} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; no note of that name."""
        return {**super().initial(params), MARKOR: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note names each city with its high tomorrow (either unit), not today's or another city's; no other note
        edited; no location changed."""  # noqa: D205, D209
        m = state_of(state, markor.MarkorState)
        want = highs(state, params["cities"])
        if want is None or params["note"] not in m["files"]:
            return False
        text = m["files"][params["note"]]
        return (per_city(text, want, near(state, params["cities"])) and only_touched(m["edits"], {params["note"]})
                and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open each city's page, then create the note and write a line per city."""
        step = view_all(params["cities"], elements, state)
        if step is not None:
            return step
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], highs_text(state, params["cities"], "\n"), elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class HighsToTextTemplate(_WeatherLong):
    """Text {person} tomorrow's high in {first}, {person2} {second}'s and {person3} {third}'s (not {fourth}'s)."""

    name, max_steps = "weather_highs_to_texts", 40
    apps = (WEATHER, M.PACKAGE)
    phrasings = ("Text {person} tomorrow's high in {first}, {person2} the one in {second} and {person3} the one in "
                 "{third}", "Each of my friends is somewhere else tomorrow: send {person} the forecast high for "
                 "{first}, {person2} for {second}, {person3} for {third}", "Look up tomorrow's highs in Breezy "
                 "Weather and text them: {first} to {person}, {second} to {person2}, {third} to {person3}")

    def grid(self) -> list[dict[str, Any]]:
        """The cities, with three people per instance."""
        return [{**p, "person": who[0], "person2": who[1], "person3": who[2]}
                for p in super().grid() for who in [names(f"weather-long:{p['city']}", 3)]]

    def pairs(self, params: Params) -> list[tuple[str, str]]:
        """Each person with their city."""
        return [(params["person"], params["first"]), (params["person2"], params["second"]),
                (params["person3"], params["third"])]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; a conversation with each person."""
        people = [person(who) for who, _ in self.pairs(params)]
        return {**super().initial(params), M.PACKAGE: {
            "threads": [conversation(p, (f"Heading to {city} tomorrow!",), False)
                        for p, (_, city) in zip(people, self.pairs(params), strict=True)],
            "contacts": [{"name": p["name"], "number": p["number"]} for p in people]}}

    def check(self, params: Params, state: State) -> bool:
        """Three texts, one to each person, their city's high tomorrow (either unit), not today's or another's."""
        sent = state_of(state, M.MessagesState)["sent"]
        want = highs(state, [params["first"], params["second"], params["third"]])
        if len(sent) != 3 or want is None or not untouched(state):
            return False
        for who, city in self.pairs(params):
            mine = [s for s in sent if same_number(s["number"], person(who)["number"])]
            others = set().union(*(v for c, v in want.items() if c != city)) | near(state, [city])[city]
            if len(mine) != 1 or not says_high(mine[0]["text"], want[city], others):
                return False
        return True

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the three cities' pages, then text each person their city's high."""
        step = view_all([city for _, city in self.pairs(params)], elements, state)
        if step is not None:
            return step
        sent = state_of(state, M.MessagesState)["sent"]
        for who, city in self.pairs(params):
            p = person(who)
            if not any(same_number(s["number"], p["number"]) for s in sent):
                return send_text(p, highs_text(state, [city], ""), elements, state)
        return wait()


class RainTasksTemplate(_WeatherLong):
    """Two tasks in Tasks: {item} due on {first}'s first rainy day, {item2} on {second}'s."""

    name, max_steps = "weather_rain_tasks_two_cities", 37
    apps = (WEATHER, TASKS)
    phrasings = ('Add "{item}" to Tasks due on the first rainy day in {first}, and "{item2}" due on the first rainy '
                 "day in {second}", "For my trips: a task {item} due the first day rain is forecast in {first}, and a "
                 "task {item2} due the first day it rains in {second}", "Check the forecasts of {first} and "
                 "{second} and add to my Tasks: {item} for {first}'s first rainy day, {item2} for {second}'s")

    def grid(self) -> list[dict[str, Any]]:
        """The cities, with two items."""
        return [{**p, "item": nth(RAIN_ITEMS, p["phrasing"]), "item2": nth(RAIN_ITEMS, p["phrasing"] + 1)}
                for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The saved cities; no task of either title."""
        return {**super().initial(params), TASKS: {"absent": [params["item"], params["item2"]]}}

    def rainy(self, state: State, city: str) -> str | None:
        """The first date of `city`'s week with rain forecast (every week has one)."""
        loc = find_location(state, city)
        return None if loc is None else next(d["date"] for d in loc["daily"] if d["precip_pct"] >= WD.RAINY_PCT)

    def wanted(self, params: Params, state: State) -> list[tuple[str, str | None]]:
        """Each item with the date it is due."""
        return [(params["item"], self.rainy(state, params["first"])),
                (params["item2"], self.rainy(state, params["second"]))]

    def check(self, params: Params, state: State) -> bool:
        """One open task of each title, due its city's first rainy day; nothing else edited; no location changed."""
        t = state_of(state, todo.TasksState)
        titles = {params["item"].casefold(), params["item2"].casefold()}
        for item, due in self.wanted(params, state):
            found = [x for xs in t["lists"].values() for x in xs if x["title"].casefold() == item.casefold()]
            if len(found) != 1 or found[0]["completed"] or due is None or found[0]["due"] != due:
                return False
        return all(e["title"].casefold() in titles for e in t["edits"]) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open both cities' pages, then add each task to the Inbox with its due date."""
        step = view_all([params["first"], params["second"]], elements, state)
        if step is not None:
            return step
        lists = state_of(state, todo.TasksState)["lists"]
        for item, due in self.wanted(params, state):
            if not find_tasks(lists, "Inbox", item):
                return add_task("Inbox", item, due, "none", elements, state)
        return wait()


# -- Feeder ----------------------------------------------------------------------------------------------------------
class _FeederLong(WorldTemplate):
    """A long Feeder task; split on `key`."""

    split_key, apps = "key", (FEEDER,)


class SubscribeTwoDropOneTemplate(_FeederLong):
    """Subscribe to {url} and {url2} under tag {tag} and unsubscribe from {drop_title}."""

    name, max_steps = "feeder_subscribe_two_drop_one", 37
    phrasings = ("In Feeder, subscribe to {url} and {url2} under the tag {tag}, and unsubscribe from {drop_title}",
                 "Follow {url} and {url2} (tag both {tag}) and delete the {drop_title} feed",
                 "Swap {drop_title} for two new feeds in my news reader: {url} and {url2}, tagged {tag}")

    def grid(self) -> list[dict[str, Any]]:
        """Every pair of unsubscribed addresses with a tag and a feed to drop."""
        out = []
        n = len(UNSUBSCRIBED)
        for i in range(n):
            for j in range(1, n):
                u, v, drop = UNSUBSCRIBED[i], UNSUBSCRIBED[(i + j) % n], nth(FEEDS, i + 2 * j)
                out.append({"key": f"{u} {v}", "url": u, "url2": v, "tag": nth(NEW_TAGS, i + j), "drop": drop,
                            "drop_title": title_of(drop), "phrasing": i + j})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Exactly the two feeds added (own titles, the tag, case aside) and that one removed; nothing else."""
        f = feeder_state(state)
        if sorted(f["added"]) != sorted([params["url"], params["url2"]]) or f["removed"] != [params["drop"]]:
            return False
        new = [find_feed(state, u) for u in (params["url"], params["url2"])]
        return not f["edited"] and not f["saved_changed"] and all(
            x is not None and x["title"] == title_of(x["url"]) and x["tag"].casefold() == params["tag"].casefold()
            for x in new)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Subscribe to each address with the tag, then delete the feed."""
        f = feeder_state(state)
        for url in (params["url"], params["url2"]):
            if url not in f["added"]:
                return subscribe(url, params["tag"], elements, state)
        return wait() if f["removed"] else unsubscribe(params["drop"], elements, state)


class SaveThreeMarkReadTemplate(_FeederLong):
    """Save {a}, {b} and {c} (each beside an unsaved twin in its feed) and mark all of {read_title} read."""

    name, max_steps = "feeder_save_three_mark_read", 32
    phrasings = ('In Feeder, save "{a}", "{b}" and "{c}", and mark the {read_title} feed as read',
                 "Star these three articles: {a}; {b}; {c}. Then mark everything in {read_title} read",
                 "Add {a}, {b} and {c} to my saved articles and mark all of {read_title} as read")

    def grid(self) -> list[dict[str, Any]]:
        """Three titles in three feeds, a fourth feed to mark read."""
        out = []
        for i in range(len(TITLES)):
            for k in range(2):
                idx = (i, i + 4 + k, i + 8 + 2 * k)
                feeds = [nth(FEEDS, i + k + 2 * j) for j in range(3)]
                read = nth(FEEDS, i + k + 6)
                out.append({"key": f"{i}/{k}", "a": nth(TITLES, idx[0])[0], "b": nth(TITLES, idx[1])[0],
                            "c": nth(TITLES, idx[2])[0], "idx": list(idx), "feeds": feeds, "read": read,
                            "read_title": title_of(read), "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Each article and its twin unsaved in its feed; two unread task articles in the feed to mark."""
        arts = []
        for j, (k, feed) in enumerate(zip(params["idx"], params["feeds"], strict=True)):
            t, w = nth(TITLES, k)
            arts += [article(feed, t, nth(AUTHORS, j), TODAY, "08:00"), article(feed, w, nth(AUTHORS, j + 3), TODAY,
                                                                                "08:20")]
        t, w = nth(TITLES, params["idx"][0] + 2)
        arts += [article(params["read"], f"{t} (notes)", nth(AUTHORS, 7), TODAY, "07:00"),
                 article(params["read"], f"{w} (notes)", nth(AUTHORS, 8), TODAY, "06:00")]
        return {FEEDER: {"seeded_saved": False, "articles": arts}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the three articles' saved flags changed, to saved; every article of the feed read; read flags
        changed only there and on the three; no feed changed."""  # noqa: D205, D209
        f = feeder_state(state)
        mine = [find_article(state, params[k]) for k in "abc"]
        if any(a is None or not a["saved"] for a in mine):
            return False
        ids = {a["id"] for a in mine if a is not None}
        marked = {a["id"] for a in f["articles"] if a["feed"] == params["read"]}
        return (set(f["saved_changed"]) == ids and len(f["saved_changed"]) == 3 and feeds_untouched(state)
                and all(a["read"] for a in f["articles"] if a["id"] in marked)
                and set(f["read_changed"]) <= marked | ids)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Each article from its feed, Save article; then the feed's list, Mark all as read."""
        for key, feed in zip("abc", params["feeds"], strict=True):
            a = find_article(state, params[key])
            if a is not None and not a["saved"]:
                return to_article(params[key], f"feed:{feed}", elements, state) or press(elements, desc="Save article")
        f = feeder_state(state)
        if all(a["read"] for a in f["articles"] if a["feed"] == params["read"]):
            return wait()
        return to_showing(f"feed:{params['read']}", elements, state) or press(elements, desc=F.MARK_ALL_DESC)


class LatestTwoToNoteTemplate(_FeederLong):
    """A new Markor note {note} with the title and link of the latest article of {feed_title} and of {feed2_title}."""

    name, max_steps = "feeder_latest_two_to_note", 28
    apps = (FEEDER, MARKOR)
    phrasings = ("Put the titles and links of the latest {feed_title} and {feed2_title} articles in a new Markor "
                 "note {note}", "Create a Markor note {note} with the newest story of {feed_title} and the newest of "
                 "{feed2_title}: title and link of each", "Save the most recent articles of {feed_title} and "
                 "{feed2_title} for later: their titles and links in a note {note} in Markor")

    def grid(self) -> list[dict[str, Any]]:
        """Two titles in two feeds, their twins newest in other feeds, a note name."""
        out = []
        for i in range(len(TITLES)):
            for k in range(2):
                feed, feed2 = nth(FEEDS, i + 3 * k), nth(FEEDS, i + 3 * k + 2)
                out.append({"key": f"{i}/{k}", "title": nth(TITLES, i)[0], "twin": nth(TITLES, i)[1],
                            "title2": nth(TITLES, i + 5)[0], "twin2": nth(TITLES, i + 5)[1], "feed": feed,
                            "feed2": feed2, "feed_title": title_of(feed), "feed2_title": title_of(feed2),
                            "other": nth(FEEDS, i + 3 * k + 1), "note": nth(FEED_NOTES, i + k), "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two articles, newest of their feeds; the twins later today in a third feed; no note of that name."""
        p = params
        return {FEEDER: {"articles": [
            article(p["feed"], p["title"], nth(AUTHORS, 1), TODAY, "07:30"),
            article(p["feed2"], p["title2"], nth(AUTHORS, 2), TODAY, "07:40"),
            article(p["other"], p["twin"], nth(AUTHORS, 3), TODAY, "08:45"),
            article(p["other"], p["twin2"], nth(AUTHORS, 4), TODAY, "08:50")]}, MARKOR: {"absent": [p["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note holds both titles and links, neither twin's; no other note edited; feeds and saved flags kept."""
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"], "")
        arts = [find_article(state, params[k]) for k in ("title", "title2")]
        twins = [find_article(state, params[k]) for k in ("twin", "twin2")]
        if any(a is None for a in arts + twins):
            return False
        return (all(a is not None and holds(text, a["title"]) and holds(text, a["link"]) for a in arts)
                and not any(a is not None and (holds(text, a["title"]) or holds(text, a["link"])) for a in twins)
                and only_touched(m["edits"], {params["note"]}) and kept(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read both articles in their feeds, then create the note and type each title and link."""
        for key, feed in (("title", "feed"), ("title2", "feed2")):
            step = read_first(params[key], f"feed:{params[feed]}", elements, state)
            if step is not None:
                return step
        arts = [find_article(state, params[k]) for k in ("title", "title2")]
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            text = "\n".join(f"{a['title']}\n{a['link']}" for a in arts if a is not None)
            return markor_write(params["note"], text, elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class SavedToTasksTemplate(_FeederLong):
    """A task "Read <title>" in Tasks' Inbox for every article saved in Feeder ({count}; not an unsaved twin)."""

    name, max_steps = "feeder_saved_to_tasks", 38
    apps = (FEEDER, TASKS)
    phrasings = ('For every article I saved in Feeder, add a task "Read <its title>" to my Tasks inbox',
                 "Turn my saved articles into to-dos: one Tasks item per saved article, called Read and the title",
                 'Go through Feeder\'s saved articles and make a task "Read ..." in Tasks for each one')

    def grid(self) -> list[dict[str, Any]]:
        """Two or three saved titles, each with an unsaved twin."""
        return [{"key": f"{i}/{n}", "idx": [i + 4 * j for j in range(n)], "count": n, "phrasing": i + n}
                for i in range(len(TITLES)) for n in (2, 3)]

    def titles(self, params: Params) -> list[str]:
        """The saved titles."""
        return [nth(TITLES, k)[0] for k in params["idx"]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's articles saved, across feeds; the twins unsaved; no task of any of the titles."""
        arts = []
        for j, k in enumerate(params["idx"]):
            t, w = nth(TITLES, k)
            arts += [article(nth(FEEDS, k + j), t, nth(AUTHORS, j), "2026-06-0" + str(5 + j), "10:00", saved=True),
                     article(nth(FEEDS, k + j + 1), w, nth(AUTHORS, j + 4), TODAY, "09:00")]
        absent = [f"Read {nth(TITLES, k)[n]}" for k in params["idx"] for n in (0, 1)]
        return {FEEDER: {"seeded_saved": False, "articles": arts}, TASKS: {"absent": absent}}

    def check(self, params: Params, state: State) -> bool:
        """One open Inbox task "Read <title>" per saved article (case and outer spaces aside); no other task edited;
        Feeder's feeds and saved flags kept."""  # noqa: D205, D209
        t = state_of(state, todo.TasksState)
        saved = [a["title"] for a in feeder_state(state)["articles"] if a["saved"]]
        wants = {f"Read {x}".casefold() for x in saved}
        for want in wants:
            found = find_tasks(t["lists"], "Inbox", want)
            if len(found) != 1 or found[0]["completed"]:
                return False
        return bool(wants) and kept(state) and all(e["title"].strip().casefold() in wants for e in t["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open each saved article from Saved articles, then add a task for each."""
        for title in self.titles(params):
            step = read_first(title, "saved", elements, state)
            if step is not None:
                return step
        lists = state_of(state, todo.TasksState)["lists"]
        for title in self.titles(params):
            if not find_tasks(lists, "Inbox", f"Read {title}"):
                return add_task("Inbox", f"Read {title}", None, "none", elements, state)
        return wait()


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddTwoAndUnitTemplate(), HighsToNoteTemplate(), HighsToTextTemplate(), RainTasksTemplate(),
    SubscribeTwoDropOneTemplate(), SaveThreeMarkReadTemplate(), LatestTwoToNoteTemplate(), SavedToTasksTemplate(),
)
"""The long Breezy Weather and Feeder templates of the world suite."""
