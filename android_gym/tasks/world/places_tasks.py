"""World-suite tasks on Maps (issue 17): save places of a search to a list, save the best-rated one, remove a place
from a list, tell a travel time, call a place (and a place that has no number: infeasible), text someone a place's
address through Messages.

Places are Maps' own seeded search results (`maps.places_for`, fixed by the query); each task starts with places the
episode draws into the saved lists (`MapsInitial.seeded`, from `stable_seed` of the phone's seed), so the Saved tab
differs per episode. Checks read the net effect of Maps' edit log (`saved_changes`), so saving a place beside the
target, in the wrong list, or one too many fails. Splits hold out whole search queries (`split_of`). Experts search,
open the place by its name, and use its page (Save sheet, Directions, Call) from the UI elements.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import dialer, maps
from android_gym.sim.apps import messages as M
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, find, swipe_up, tap, type_into, wait
from android_gym.tasks.maps_tasks import KINDS
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate
from android_gym.tasks.world.infeasible_tasks import impossible
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok

MAPS = maps.PACKAGE
QUERIES = tuple(k for k in KINDS if k not in maps.SEED_QUERIES)
"""What the tasks search for: none of the queries the episode's saved places come from."""
SEEDED = 3
"""Places each episode draws into the lists (they differ by seed and never are a task's target)."""


def place_of(query: str, rank: int) -> dict[str, Any]:
    """Result `rank` of the search `query`."""
    return maps.places_for(query)[rank]


def unique_ranks(query: str) -> list[int]:
    """The ranks of the search's results whose name no other result shares (the expert finds rows by name)."""
    found = maps.places_for(query)
    return [p["rank"] for p in found if sum(q["name"] == p["name"] for q in found) == 1]


def saved_changes(state: State) -> dict[tuple[str, str, str], str]:
    """The net effect of this episode's list edits: {(list, name, address): "save" | "remove"} (a save undone by a
    removal, or the other way round, is no change)."""  # noqa: D205, D209
    net: dict[tuple[str, str, str], str] = {}
    for e in state_of(state, maps.MapsState)["edits"]:
        k = (e["list"], e["name"], e["address"])
        if net.get(k, e["op"]) != e["op"]:
            del net[k]
        else:
            net[k] = e["op"]
    return net


# -- expert steps --------------------------------------------------------------------------------------------------
def to_results(query: str, elements: Elements, state: State) -> Action | None:
    """The next step to Maps showing the loaded results of `query` (None once there)."""
    step = into_app("Maps", MAPS, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "results" and screen["args"]["query"] == query:
        return None
    if screen["name"] == "search":
        return type_into(elements, state, maps.SEARCH_RID, query)
    if screen["name"] == "home":
        bar = find(elements, rid=f"{MAPS}:id/search_omnibox")
        return tap(bar) if bar is not None else wait()
    return back()


def to_place(query: str, rank: int, elements: Elements, state: State) -> Action | None:
    """The next step to the page of result `rank` of `query`, no sheet open (None once there)."""
    place = place_of(query, rank)
    m = state_of(state, maps.MapsState)
    if state["foreground"] == MAPS and not state.get("dialog") and m["page"] == "place" and not m["loading"]:
        if (m["place"], m["address"]) == (place["name"], place["address"]):
            return back() if m["sheet"] else None
        return back()
    step = to_results(query, elements, state)
    if step is not None:
        return step
    row = find(elements, rid=maps.PLACE_RID, desc=f"{place['name']} - {place['rating']} stars")
    return tap(row) if row is not None else swipe_up()


def save_to(query: str, rank: int, lists: Sequence[str], elements: Elements, state: State) -> Action | None:
    """The next step to result `rank` of `query` saved in exactly `lists` of those it is asked for (None when done)."""
    place = place_of(query, rank)
    m = state_of(state, maps.MapsState)
    missing = [n for n in lists if not any(p["name"] == place["name"] and p["address"] == place["address"]
                                           for p in m["lists"][n])]
    if (state["foreground"] == MAPS and not state.get("dialog") and m["sheet"] == "save"
            and (m["place"], m["address"]) == (place["name"], place["address"])):
        if not missing:
            return tap(find(elements, text="Done")) if find(elements, text="Done") else back()
        box = find(elements, rid=f"{MAPS}:id/list_checkbox", text=missing[0])
        return tap(box) if box is not None else wait()
    if not missing:
        return None
    step = to_place(query, rank, elements, state)
    if step is not None:
        return step
    button = find(elements, desc=f"Save {place['name']}")
    return tap(button) if button is not None else wait()


def to_list(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to Maps' saved list `name`, no menu open (None once there)."""
    step = into_app("Maps", MAPS, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "list" and screen["args"]["list"] == name and screen["args"]["menu"] is None:
        return None
    if screen["name"] == "home":
        return tap(find(elements, desc="Saved")) if find(elements, desc="Saved") else wait()
    if screen["name"] == "saved":
        row = find(elements, rid=maps.LIST_RID, desc=name)
        return tap(row) if row is not None else swipe_up()
    return back()


# -- templates -----------------------------------------------------------------------------------------------------
class _PlacesTemplate(WorldTemplate):
    """Shared shape: suite "world", values from `grid()` split by query, goals by params["phrasing"]."""

    suite = "world"
    phrasings: tuple[str, ...] = ()
    split_key = "query"

    def grid(self) -> list[dict[str, Any]]:
        """Every parameter dict, both splits."""
        raise NotImplementedError

    def split_value(self, params: Params) -> object:
        """The query, in the Maps tasks' hash space."""
        return f"maps:{params['query']}"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The episode's saved places."""
        return {MAPS: {"seeded": SEEDED}}


def _place_params(query: str, rank: int) -> dict[str, Any]:
    place = place_of(query, rank)
    return {"query": query, "rank": rank, "name": place["name"], "address": place["address"]}


class SaveTwoPlacesTemplate(_PlacesTemplate):
    """Save {name} and {other} of the search {query} to list {list}: exactly those two saves, nothing else."""

    name, max_steps = "maps_save_two_places", 21
    apps = (MAPS,)
    phrasings = ('Search Maps for {query} and save {name} and {other} to my "{list}" list',
                 "Add {name} and {other} from the {query} results on Maps to {list}",
                 "On Maps, look up {query}, then put both {name} and {other} in your {list} list")

    def grid(self) -> list[dict[str, Any]]:
        """Two distinctly named results per query, in each list."""
        out = []
        for i, q in enumerate(QUERIES):
            ranks = unique_ranks(q)
            a = ranks[stable_seed("two", q) % len(ranks)]
            b = next(r for r in ranks[::-1] if r != a)
            for k, lst in enumerate(maps.LISTS):
                out.append({**_place_params(q, a), "other": place_of(q, b)["name"], "other_rank": b, "list": lst,
                            "phrasing": i + k})
        return out

    def _wanted(self, params: Params) -> dict[tuple[str, str, str], str]:
        other = place_of(params["query"], params["other_rank"])
        return {(params["list"], params["name"], params["address"]): "save",
                (params["list"], other["name"], other["address"]): "save"}

    def check(self, params: Params, state: State) -> bool:
        """The two places saved to the list, and no other list change."""
        return saved_changes(state) == self._wanted(params)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search, open each place, Save, tick the list, Done."""
        for rank in (params["rank"], params["other_rank"]):
            step = save_to(params["query"], rank, [params["list"]], elements, state)
            if step is not None:
                return step
        return wait()


class SaveBestRatedTemplate(_PlacesTemplate):
    """Save the best-rated result of the search {query} to {list} (the first result is not the best one)."""

    name, max_steps = "maps_save_best_rated", 13
    apps = (MAPS,)
    phrasings = ('Find the highest-rated {query} on Maps and save it to "{list}"',
                 "Search Maps for {query} and add the best rated one to my {list} list",
                 "Which of the {query} on Maps has the top rating? Save that place in {list}")

    def grid(self) -> list[dict[str, Any]]:
        """Every query whose best rating is one result's alone (and not the first's), in each list."""
        out = []
        for i, q in enumerate(QUERIES):
            found = maps.places_for(q)
            best = max(p["rating"] for p in found)
            top = [p["rank"] for p in found if p["rating"] == best]
            if len(top) == 1 and top[0] != 0 and top[0] in unique_ranks(q):
                out += [{**_place_params(q, top[0]), "list": lst, "phrasing": i + k}
                        for k, lst in enumerate(("Favorites", "Want to go"))]
        return out

    def check(self, params: Params, state: State) -> bool:
        """The best-rated place saved to the list, and nothing else changed."""
        return saved_changes(state) == {(params["list"], params["name"], params["address"]): "save"}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search, open the top-rated place, save it."""
        return save_to(params["query"], params["rank"], [params["list"]], elements, state) or wait()


class RemoveFromListTemplate(_PlacesTemplate):
    """Remove {name} from list {list}; it is saved in another list too (keep it there), beside two other places."""

    name, max_steps = "maps_remove_from_list", 10
    apps = (MAPS,)
    phrasings = ('Remove {name} from my "{list}" list in Maps', "Take {name} off the {list} list on Google Maps",
                 "In Maps, delete {name} from {list}")

    def grid(self) -> list[dict[str, Any]]:
        """A result per query, removed from each list."""
        out = []
        for i, q in enumerate(QUERIES):
            ranks = unique_ranks(q)
            for k, lst in enumerate(maps.LISTS):
                rank = ranks[(stable_seed("remove", q) + k) % len(ranks)]
                near = maps.LISTS[(k + 1) % len(maps.LISTS)]
                out.append({**_place_params(q, rank), "list": lst, "near": near, "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The place in the list and in the near list, two other results of its search in the list."""
        q, rank = params["query"], params["rank"]
        others = [r for r in range(maps.PLACES_PER_QUERY) if r != rank][:2]
        saved = [{"list": params["list"], "query": q, "rank": r} for r in (others[0], rank, others[1])]
        saved.append({"list": params["near"], "query": q, "rank": rank})
        return {MAPS: {"seeded": SEEDED, "saved": saved}}

    def check(self, params: Params, state: State) -> bool:
        """The place removed from that list, and nothing else changed."""
        return saved_changes(state) == {(params["list"], params["name"], params["address"]): "remove"}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Saved > the list > the place's More options > Remove from list."""
        m = state_of(state, maps.MapsState)
        if state["foreground"] == MAPS and not state.get("dialog") and m["page"] == "list":
            if state["screen"]["args"]["menu"] is not None:
                item = find(elements, text="Remove from list")
                return tap(item) if item is not None else back()
        step = to_list(params["list"], elements, state)
        if step is not None:
            return step
        more = find(elements, desc=f"More options for {params['name']}")
        return tap(more) if more is not None else swipe_up()


class TravelTimeTemplate(_PlacesTemplate):
    """How long is the {mode} trip to {name} of the search {query}? Answered with the duration Directions shows."""

    name, max_steps = "maps_travel_time", 15
    outcome, apps = "answer", (MAPS,)
    phrasings = ("How long does it take to {verb} to {name}? Search Maps for {query} to find it",
                 "Using Maps, find {name} among the {query} and tell me the {noun} time there",
                 "Look up {query} on Maps: how many minutes is it to {name} {how}?")
    WORDS = {"Walk": ("walk", "walking", "on foot"), "Bike": ("bike", "cycling", "by bike"),
             "Transit": ("get by public transit", "transit", "by transit")}

    def grid(self) -> list[dict[str, Any]]:
        """A result per query, by each mode but driving (the page opens on it)."""
        out = []
        for i, q in enumerate(QUERIES):
            ranks = unique_ranks(q)
            for k, mode in enumerate(self.WORDS):
                verb, noun, how = self.WORDS[mode]
                rank = ranks[(stable_seed("travel", q) + 3 * k) % len(ranks)]
                out.append({**_place_params(q, rank), "mode": mode, "verb": verb, "noun": noun, "how": how,
                            "phrasing": i + k})
        return out

    def answer(self, params: Params, state: State) -> str | None:
        """The duration Maps gives for the place by the mode (fixed by the place, whatever the state)."""
        return maps.duration(maps.travel(place_of(params["query"], params["rank"]), params["mode"])[0])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search, open the place, Directions, the mode's tab, answer with the duration."""
        m = state_of(state, maps.MapsState)
        if (state["foreground"] == MAPS and not state.get("dialog") and m["page"] == "directions"
                and m["place"] == params["name"] and not m["loading"]):
            if m["mode"] != params["mode"]:
                tab = find(elements, desc=f"{params['mode']} mode")
                return tap(tab) if tab is not None else wait()
            return answer_with(find(elements, rid=maps.DURATION_RID))
        step = to_place(params["query"], params["rank"], elements, state)
        if step is not None:
            return step
        button = find(elements, text="Directions")
        return tap(button) if button is not None else wait()


def _calls(state: State) -> list[dict[str, Any]]:
    return state_of(state, dialer.DialerState)["calls"]


class _CallPlaceBase(_PlacesTemplate):
    """Call {name} of the search {query} from its Maps page (the Phone app places the call)."""

    phrasings = ("Search Maps for {query} and call {name}", "Give {name} a call; it is among the {query} on Maps",
                 "Use Maps to phone {name} ({query})")

    def places(self, with_phone: bool) -> list[dict[str, Any]]:
        """Uniquely named results with (or without) a phone number, two per query."""
        out = []
        for i, q in enumerate(QUERIES):
            ranks = [r for r in unique_ranks(q) if bool(place_of(q, r)["phone"]) is with_phone]
            out += [{**_place_params(q, r), "phrasing": i + k} for k, r in enumerate(ranks[:2])]
        return out


class CallPlaceTemplate(_CallPlaceBase):
    """Call {name}: one call, to the place's number."""

    name, max_steps = "maps_call_place", 12
    apps = (MAPS, dialer.PACKAGE)  # Maps' Call brings the Phone app's in-call screen to the front

    def grid(self) -> list[dict[str, Any]]:
        """Places with a number."""
        return self.places(True)

    def check(self, params: Params, state: State) -> bool:
        """Exactly one call placed, to the place's number."""
        calls = _calls(state)
        number = place_of(params["query"], params["rank"])["phone"]
        return len(calls) == 1 and M.digits(calls[0]["number"]) == M.digits(number)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search, open the place, Call."""
        step = to_place(params["query"], params["rank"], elements, state)
        if step is not None:
            return step
        call = find(elements, desc=f"Call {params['name']}")
        return tap(call) if call is not None else wait()


class CallPlaceWithoutNumberTemplate(_CallPlaceBase):
    """Call {name}, which lists no phone number: the right outcome is to declare it impossible."""

    name, max_steps = "maps_call_place_without_number", 12
    outcome, apps = "infeasible", (MAPS,)

    def grid(self) -> list[dict[str, Any]]:
        """Places without a number."""
        return self.places(False)

    def check(self, params: Params, state: State) -> bool:
        """The place has no number, no call was placed and no list changed."""
        return not place_of(params["query"], params["rank"])["phone"] and not _calls(state) and not saved_changes(
            state)

    def looked(self, params: Params, state: State) -> bool:
        """Maps in front on the place's page."""
        m = state_of(state, maps.MapsState)
        return (state.get("foreground") == MAPS and m["page"] == "place"
                and (m["place"], m["address"]) == (params["name"], params["address"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search, open the place: no Call button, so declare."""
        return to_place(params["query"], params["rank"], elements, state) or impossible()


class TextAddressTemplate(_PlacesTemplate):
    """Text {person} the address of {name} (search {query}): one SMS to them holding the address."""

    name, max_steps = "maps_text_address", 20
    apps = (MAPS, M.PACKAGE)
    phrasings = ("Text {person} the address of {name} from the {query} results on Maps",
                 "Find {name} on Maps (search {query}) and send its address to {person} in Messages",
                 "{person} wants to meet at {name}. Look it up on Maps under {query} and text them the address")

    def grid(self) -> list[dict[str, Any]]:
        """A result per query, to two people each."""
        out = []
        for i, q in enumerate(QUERIES):
            ranks = unique_ranks(q)
            for k in range(2):
                rank = ranks[(stable_seed("text", q) + k) % len(ranks)]
                out.append({**_place_params(q, rank), "person": names(f"maps:{q}:{k}", 1)[0], "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The episode's saved places; a conversation with the person."""
        p = person(params["person"])
        return {MAPS: {"seeded": SEEDED},
                M.PACKAGE: {"threads": [conversation(p, ("Where should we meet?",), False)]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the address."""
        return texts_ok(state, [(params["person"], params["address"])], contains=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the place on Maps (to read the address), then text it."""
        if params["name"] not in state_of(state, maps.MapsState)["viewed"]:
            return to_place(params["query"], params["rank"], elements, state) or wait()
        return send_text(person(params["person"]), params["address"], elements, state)


class LabelPlaceTemplate(_PlacesTemplate):
    """Save this place as {label}: Maps reopens on a place's page (drawn per episode); label that place {label}.

    For everyday goals (issue 49: "Save this place as Home"), where "this place" is the one the user is looking at;
    not part of the World suite's task set.
    """

    name, max_steps, split_key = "maps_label_place", 10, "label"
    apps = (MAPS,)
    phrasings = ("Save this place as {label}", "Label this place {label} in Maps", "Set this place as my {label}")

    def grid(self) -> list[dict[str, Any]]:
        """Every label, in every phrasing."""
        return [{"label": label, "phrasing": k} for label in maps.LABELS for k in range(len(self.phrasings))]

    def split_value(self, params: Params) -> object:
        """The label, in its own hash space."""
        return f"maps-label:{params['label']}"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The episode's saved places; Maps reopens on a place the episode draws."""
        return {MAPS: {"seeded": SEEDED, "open": "seeded"}}

    def check(self, params: Params, state: State) -> bool:
        """The place Maps reopened on has the label (and it is the only label set); no list changed."""
        m = state_of(state, maps.MapsState)
        here = m["resumed"]
        return (here is not None and not saved_changes(state)
                and m["labels"] == {params["label"]: {"name": here["name"], "address": here["address"]}})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open Maps (on the place), Save, tick the label, Done."""
        m = state_of(state, maps.MapsState)
        here = m["resumed"]
        if (state["foreground"] == MAPS and not state.get("dialog") and m["sheet"] == "save"
                and (m["place"], m["address"]) == (here["name"], here["address"])):
            if params["label"] in m["labels"]:
                done = find(elements, text="Done")
                return tap(done) if done is not None else back()
            box = find(elements, rid=maps.LABEL_RID, text=params["label"])
            return tap(box) if box is not None else wait()
        step = into_app("Maps", MAPS, elements, state) or to_place(here["query"], here["rank"], elements, state)
        if step is not None:
            return step
        button = find(elements, desc=f"Save {here['name']}")
        return tap(button) if button is not None else wait()


TEMPLATES: tuple[TaskTemplate, ...] = (SaveTwoPlacesTemplate(), SaveBestRatedTemplate(), RemoveFromListTemplate(),
                                      TravelTimeTemplate(), CallPlaceTemplate(), CallPlaceWithoutNumberTemplate(),
                                      TextAddressTemplate())
