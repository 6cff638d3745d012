"""Long World-suite tasks over Loop Habit Tracker and AnkiDroid (issue 48, the suite's share of tasks of 15 expert
steps or more): several items in one task, or information carried from another app.

Loop Habit Tracker: create a habit with frequency, reminder and notes and check its last three days
(`HabitFullTemplate`); create two habits at once (`TwoHabitsTemplate`); write four habits' current streaks into a
Markor note (`StreaksToNoteTemplate`); make a daily habit of each open to-do of a Tasks list
(`HabitsFromTodosTemplate`). AnkiDroid: add three cards to a deck (`ThreeCardsTemplate`); study a whole deck with
the answers the goal gives (`StudyMixedTemplate`); move two cards to another deck (`MoveCardsTemplate`); a new deck
made of a Markor note's word list (`DeckFromMarkorTemplate`).

The checks are as strict as the single-item templates they grow from (`habits_tasks`, `anki_tasks`): every item,
nothing extra (the apps' change logs hold exactly the asked changes), the near miss (a twin habit or deck, a
completed to-do, a card of another deck) refused.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import anki as A
from android_gym.sim.apps import habits_data as D
from android_gym.sim.apps import markor, todo
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import home
from android_gym.tasks.world.anki_cross_tasks import LANGUAGES, NEW_PAIRS, NOTES, cards_added
from android_gym.tasks.world.anki_expert import (
    ANKI,
    add_note,
    anki_state,
    deck_spec,
    find_deck,
    name_deck,
    study,
    to_card,
    to_decks,
)
from android_gym.tasks.world.anki_tasks import EXTRA, NAMES, only
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, into_app, nth, press, state_of, wait
from android_gym.tasks.world.habits_cross_tasks import NOTE_STEMS, TODOS, numbers_besides
from android_gym.tasks.world.habits_expert import (
    HAB,
    TWINS,
    create_habit,
    days_ago,
    find_habit,
    habits_state,
    only_changes,
    tap_day,
    to_habit,
    twin_grid,
    twin_habits,
    untouched,
)
from android_gym.tasks.world.habits_tasks import FREQUENCIES, NEW_NAMES
from android_gym.tasks.world.messaging_expert import words
from android_gym.tasks.world.notes_expert import (
    MARKOR,
    markor_create,
    markor_item,
    markor_write,
    only_touched,
    tasks_view,
)

NOTES_TEXT = ("Right after brushing my teeth", "Keep it short", "Start small", "Track it every evening",
              "Ask Sam to join", "No excuses on weekends", "Use the blue notebook")
"""Notes a created habit gets."""
TIMES = ("07:30", "06:45", "21:15", "08:00", "19:30", "12:10", "22:05", "06:20", "18:40", "09:55")
"""Reminder times of created habits (multiples of five minutes)."""


def _created(state: State, want: dict[str, Any]) -> D.HabitState | None:
    """The habit created this episode named `want["name"]` (case aside) when it holds `want`'s kind, frequency,
    reminder and notes (case and outer spaces aside), else None."""  # noqa: D205, D209
    name = next((n for n in habits_state(state)["added"] if n.strip().casefold() == want["name"].casefold()), None)
    h = find_habit(state, name) if name is not None else None
    if h is None or (h["kind"], h["times"], h["days"]) != ("yes_no", want["times"], want["days"]):
        return None
    if "reminder" in want and h["reminder"] != want["reminder"]:
        return None
    if "notes" in want and h["notes"].strip().casefold() != want["notes"].casefold():
        return None
    return h


class HabitFullTemplate(WorldTemplate):
    """Create the yes/no habit {name} ({freq_text}, reminder at {time}, notes {notes}) and check its last three days."""

    name, split_key, apps, max_steps = "habits_create_full", "name", (HAB,), 33
    phrasings = ('Create a habit "{name}" in Loop Habit Tracker, {freq_text}, reminder at {time}, with the note '
                 '"{notes}"; I already did it today, yesterday and the day before, so check those three days',
                 "Start tracking {name} in Loop ({freq_text}, remind me at {time}, notes: {notes}) and mark it done "
                 "for today and the two days before",
                 'Add the habit {name}: {freq_text}, a {time} reminder and the notes "{notes}". Then check it off for '
                 "the last three days, today included")

    def grid(self) -> list[dict[str, Any]]:
        """Every new name twice, frequencies, times and notes rotating."""
        out = []
        for i, name in enumerate(NEW_NAMES):
            for k in range(2):
                times, days, text = nth(FREQUENCIES, 3 * i + k + 1)
                reminder = nth(TIMES, i + 3 * k)
                out.append({"name": name, "times": times, "days": days, "freq_text": text, "reminder": reminder,
                            "time": D.reminder_label(reminder), "notes": nth(NOTES_TEXT, i + k),
                            "phrasing": 2 * i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No habit of that name."""
        return {HAB: {"absent": [params["name"]]}}

    def check(self, params: Params, state: State) -> bool:
        """One new habit as asked, done on exactly the last three days; nothing else changed."""
        s = habits_state(state)
        h = _created(state, dict(params))
        if h is None or len(s["added"]) != 1:
            return False
        days = {days_ago(k): 1 for k in range(3)}
        log = s["entries"]
        return (h["entries"] == days and all(c["habit"] == h["name"] for c in log)
                and only_changes(state, added=s["added"], entries=log))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add habit with the form filled in, then tap its buttons for the three days on the list."""
        h = find_habit(state, params["name"]) if habits_state(state)["added"] else None
        if h is None:
            want = {k: params[k] for k in ("name", "times", "days", "reminder", "notes")}
            return create_habit(want, elements, state)
        day = next((days_ago(k) for k in range(3) if h["entries"].get(days_ago(k)) != 1), None)
        return wait() if day is None else tap_day(params["name"], day, elements, state)


class TwoHabitsTemplate(WorldTemplate):
    """Create the yes/no habits {name} ({freq_text}, at {time}) and {name2} ({freq_text2}, at {time2})."""

    name, split_key, apps, max_steps = "habits_create_two", "name", (HAB,), 45
    phrasings = ('In Loop Habit Tracker create two habits: "{name}", {freq_text}, reminder at {time}; and '
                 '"{name2}", {freq_text2}, reminder at {time2}',
                 "Add {name} ({freq_text}, remind me at {time}) and {name2} ({freq_text2}, remind me at {time2}) "
                 "to my habits",
                 "I want to track two new habits in Loop: {name} {freq_text} with a {time} reminder, and {name2} "
                 "{freq_text2} with a {time2} reminder")

    def grid(self) -> list[dict[str, Any]]:
        """Every new name twice, with the next name as the second habit, frequencies and times rotating."""
        out = []
        for i, name in enumerate(NEW_NAMES):
            for k in range(2):
                f1, f2 = nth(FREQUENCIES, 2 * i + k), nth(FREQUENCIES, 2 * i + k + 3)
                r1, r2 = nth(TIMES, i + k), nth(TIMES, i + k + 4)
                out.append({"name": name, "times": f1[0], "days": f1[1], "freq_text": f1[2], "reminder": r1,
                            "time": D.reminder_label(r1), "name2": nth(NEW_NAMES, i + 1 + k * 5),
                            "times2": f2[0], "days2": f2[1], "freq_text2": f2[2], "reminder2": r2,
                            "time2": D.reminder_label(r2), "phrasing": 2 * i + k})
        return out

    def wanted(self, params: Params) -> list[dict[str, Any]]:
        """The two habits as `_created` takes them."""
        return [{k: params[k] for k in ("name", "times", "days", "reminder")},
                {k: params[f"{k}2"] for k in ("name", "times", "days", "reminder")}]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No habit of either name."""
        return {HAB: {"absent": [params["name"], params["name2"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the two habits created, each as asked; nothing else changed."""
        s = habits_state(state)
        return (len(s["added"]) == 2 and all(_created(state, w) is not None for w in self.wanted(params))
                and only_changes(state, added=s["added"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Create the first habit not yet added."""
        added = {n.casefold() for n in habits_state(state)["added"]}
        want = next((w for w in self.wanted(params) if w["name"].casefold() not in added), None)
        return wait() if want is None else create_habit(want, elements, state)


class StreaksToNoteTemplate(WorldTemplate):
    """Write the current streaks of four habits into a new Markor note {note}: a line per habit, name and streak."""

    name, split_key, apps, max_steps = "habits_streaks_to_note", "name", (HAB, MARKOR), 28
    phrasings = ('Create a Markor note "{note}" listing my current streak for {listed}, one line per habit',
                 "Look up in Loop Habit Tracker how many days in a row I've kept up {listed}, and write each habit "
                 "with its streak in a new note {note}",
                 "Make a note called {note} with the current streak of each of these habits: {listed}")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair twice, with the task names of the next three pairs."""
        out = []
        for p in twin_grid(2):
            i = p["phrasing"] // 2
            habits = [p["name"], *(nth(TWINS, i + 1 + k + 4 * p["variant"])[0] for k in range(3))]
            out.append({**p, "habits": habits, "listed": ", ".join(habits[:-1]) + f" and {habits[-1]}",
                        "note": f"{nth(NOTE_STEMS, p['phrasing'] + 1)}_{p['variant'] + 1}.md"})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The four habits and their twins; no such note."""
        habits: list[dict[str, Any]] = []
        absent: list[str] = []
        for k, name in enumerate(params["habits"]):
            twin = next(t for n, t in TWINS if n == name)
            pair = twin_habits({"name": name, "twin": twin, "variant": params["variant"] + 2 * k,
                                "reminder": nth(TIMES, k)})
            habits += pair["habits"]
            absent += pair["absent"]
        return {HAB: {"absent": absent, "habits": habits}, MARKOR: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note has a line per habit whose only number (its name's aside) is its current streak, and no other
        number; no other note edited; the habits unchanged."""  # noqa: D205, D209
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"])
        if text is None or not untouched(state) or not only_touched(m["edits"], {params["note"]}):
            return False
        lines = [ln for ln in text.splitlines() if any(w.isdigit() for w in words(ln))]
        if len(lines) != len(params["habits"]):
            return False
        for name in params["habits"]:
            h = find_habit(state, name)
            own = [ln for ln in lines if " ".join(words(name)) in " ".join(words(ln))]
            if h is None or len(own) != 1 or numbers_besides(own[0], name) != [str(D.current_streak(h))]:
                return False
        return True

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open each habit's page in turn (the last opened tells how far), then create the note and type the list."""
        habits = params["habits"]
        last = habits_state(state)["last_opened"]
        at = habits.index(last) if last in habits else -1
        if at < len(habits) - 1:
            return to_habit(habits[at + 1], elements, state) or to_habit(habits[0], elements, state) or home()
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            text = "\n".join(f"{n}: {D.current_streak(find_habit(state, n))}" for n in habits)  # type: ignore[arg-type]
            return markor_write(params["note"], text, elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class HabitsFromTodosTemplate(WorldTemplate):
    """Make a daily habit of each open to-do of my Tasks list {list}; its completed to-do and the other list not."""

    name, split_key, apps, max_steps = "habits_from_open_todos", "key", (todo.PACKAGE, HAB), 37
    phrasings = ('Turn every open to-do in my Tasks list "{list}" into a daily habit in Loop Habit Tracker',
                 "For each unfinished item on my {list} list in Tasks, create an everyday habit of the same name",
                 "My {list} list has some to-dos I haven't done: track each one as a daily habit in Loop")

    def grid(self) -> list[dict[str, Any]]:
        """Every to-do as the first of three open ones twice, a done one and another list's to-do rotating."""
        out = []
        for i, title in enumerate(TODOS):
            for k in range(2):
                picks = [nth(TODOS, i + k * 5 + j) for j in range(5)]
                out.append({"key": f"{title}:{k}", "open": picks[:3], "done": picks[3], "other": picks[4],
                            "list": nth(("Habits to start", "New routines", "Resolutions", "Try this month"), i + k),
                            "other_list": nth(("Errands", "Shopping", "Chores", "Weekend"), i),
                            "phrasing": 2 * i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The list (three open to-dos and a completed one) and another list's to-do; no habit of those names."""
        p = params
        todos = [{"title": t} for t in p["open"]]
        todos.insert(1 + p["phrasing"] % 3, {"title": p["done"], "completed": True})
        names = [*p["open"], p["done"], p["other"]]
        return {todo.PACKAGE: {"absent": names, "lists": {p["list"]: todos, p["other_list"]: [{"title": p["other"]}]}},
                HAB: {"absent": names}}

    def check(self, params: Params, state: State) -> bool:
        """A yes/no everyday habit per open to-do (case aside), no other habit; nothing else changed in either app."""
        s = habits_state(state)
        names = sorted(n.strip().casefold() for n in s["added"])
        return (names == sorted(t.casefold() for t in params["open"])
                and all(_created(state, {"name": t, "times": 1, "days": 1}) is not None for t in params["open"])
                and only_changes(state, added=s["added"]) and not state_of(state, todo.TasksState)["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Show the list in Tasks to read its open to-dos, then create a habit for each."""
        t = state_of(state, todo.TasksState)
        added = {n.casefold() for n in habits_state(state)["added"]}
        if not added and t["view"] != params["list"]:
            return tasks_view(params["list"], elements, state) or home()
        titles = [x["title"] for x in t["lists"][params["list"]] if not x["completed"]]
        name = next((n for n in titles if n.casefold() not in added), None)
        return wait() if name is None else create_habit({"name": name, "times": 1, "days": 1}, elements, state)


# -- AnkiDroid ---------------------------------------------------------------------------------------------------------
class _DeckPairTemplate(WorldTemplate):
    """A task on the deck {deck} (instance {n}) with the twin deck {twin} beside it; split on the (deck, n) key."""

    split_key, apps = "key", (ANKI,)

    def grid(self) -> list[dict[str, Any]]:
        """Every deck three times, a twin rotating."""
        return [{"key": f"{name}:{v}", "deck": name, "n": i * 3 + v, "twin": nth(NAMES, i + 1 + v), "phrasing": i + v}
                for i, name in enumerate(NAMES) for v in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The deck and its twin."""
        return {ANKI: {"decks": [deck_spec(params["deck"], params["n"]), deck_spec(params["twin"], params["n"] + 1)]}}


class ThreeCardsTemplate(_DeckPairTemplate):
    """Add three Basic cards ({cards}) to {deck}; the twin deck gets nothing."""

    name, max_steps = "anki_add_three_cards", 31
    phrasings = ("Add three Basic flashcards to my {deck} deck in AnkiDroid: {cards}",
                 "In Anki, make these cards in {deck} (front = back): {cards}",
                 "Create three new AnkiDroid cards in the {deck} deck: {cards}")

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance with three pairs to add."""
        out = []
        for p in super().grid():
            pairs = [list(nth(EXTRA, p["n"] + 3 * k)) for k in range(3)]
            out.append({**p, "pairs": pairs, "cards": "; ".join(f'"{f}" = "{b}"' for f, b in pairs)})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Exactly the three cards added to {deck} (any order, case aside), nothing else changed."""
        return cards_added(state, params["deck"], [tuple(p) for p in params["pairs"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add a note per pair not yet added."""
        done = {c["front"] for c in anki_state(state)["added"]}
        pair = next((p for p in params["pairs"] if p[0] not in done), None)
        return wait() if pair is None else add_note(params["deck"], "Basic", *pair, elements, state)


def _session(params: Params) -> list[str]:
    """The fronts of deck instance {n}'s study session: its new and learning cards and its reviews due by today."""
    cards = deck_spec(params["deck"], params["n"])["cards"]
    return sorted(c["front"] for c in cards if c["queue"] != "review" or c["due"] <= D.DATE.isoformat())


class StudyMixedTemplate(_DeckPairTemplate):
    """Study all of {deck}'s session answering Easy to {front} and Good to every other card."""

    name, max_steps = "anki_study_mixed", 31
    phrasings = ('Study my {deck} deck in AnkiDroid until it is done for today: answer Easy on "{front}" and Good on '
                 "every other card",
                 "Go through today's {deck} cards in Anki. I know {front} well, so press Easy for it; Good for the "
                 "rest",
                 'Do my {deck} review in AnkiDroid: "{front}" gets Easy, all other cards get Good')

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance with a session of six or more cards, the Easy card rotating through it."""
        out = []
        for p in super().grid():
            n = nth((3, 11, 15, 23), p["n"])
            session = _session({**p, "n": n})
            out.append({**p, "n": n, "front": nth(session, p["n"])})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Every card of the session answered once, {front} Easy and the others Good; nothing else changed."""
        reviews = anki_state(state)["reviews"]
        return (sorted(r["front"] for r in reviews) == _session(params) and only(state, reviews=reviews)
                and all(r == {"deck": params["deck"], "front": r["front"],
                              "ease": "easy" if r["front"] == params["front"] else "good"} for r in reviews))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Study now, then Show answer and the card's answer until the session is done."""
        a = anki_state(state)
        if len(a["reviews"]) >= len(_session(params)):
            return wait()
        return study(params["deck"], "Easy" if a["card"] == params["front"] else "Good", elements, state)


class MoveCardsTemplate(_DeckPairTemplate):
    """Move the cards {front} and {front2} from {deck} to {twin}; their fronts and backs stay."""

    name, max_steps = "anki_move_cards", 40
    phrasings = ('Move the AnkiDroid cards "{front}" and "{front2}" to my {twin} deck',
                 "In Anki, {front} and {front2} belong in {twin}: move both cards there",
                 'Put the flashcards "{front}" and "{front2}" into the {twin} deck in AnkiDroid')

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance with two of its cards (the rest of the deck the near misses)."""
        out = []
        for p in super().grid():
            cards = deck_spec(p["deck"], p["n"])["cards"]
            first, second = nth(cards, p["n"]), nth(cards, p["n"] + 1 + p["n"] % 2)
            out.append({**p, "front": first["front"], "back": first["back"], "front2": second["front"],
                        "back2": second["back"]})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit per card: now in {twin}, front and back as they were (any order); nothing else changed."""
        want = [{"card": params[f], "deck": params["twin"], "front": params[f], "back": params[b]}
                for f, b in (("front", "back"), ("front2", "back2"))]
        edits = anki_state(state)["edited"]
        key = lambda e: e["card"]  # noqa: E731
        return sorted(edits, key=key) == sorted(want, key=key) and only(state, edited=edits)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Per card not yet moved: search it in the browser, open it, choose the deck, Save."""
        moved = {e["card"] for e in anki_state(state)["edited"]}
        front = next((f for f in (params["front"], params["front2"]) if f not in moved), None)
        if front is None:
            return wait()
        step = into_app(A.AnkiApp.label, ANKI, elements, state)
        if step is None and state["screen"]["name"] == "choice":
            return press(elements, text=params["twin"], clickable=True)
        step = step or to_card(front, elements, state)
        if step is not None:
            return step
        args = state["screen"]["args"]
        return press(elements, desc="Save") if args["deck"] == params["twin"] else press(
            elements, text=f"Deck: {args['deck']}")


class DeckFromMarkorTemplate(WorldTemplate):
    """Create the deck {new} and make a Basic card in it for each "front - back" line of the Markor note {note}."""

    name, max_steps, split_key = "anki_deck_from_markor", 47, "key"
    apps = (MARKOR, ANKI)
    phrasings = ('Create a new AnkiDroid deck "{new}" and fill it with the word list in my Markor note "{note}", '
                 "one Basic card per line",
                 "Make a deck called {new} in Anki with a card for every line of the Markor note {note} (word on the "
                 "front, meaning on the back)",
                 'Read the note {note} in Markor and turn its lines into flashcards of a new deck "{new}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every language four times, the note holding three or four words, a new deck name rotating."""
        return [{"key": f"{lang}:{v}", "lang": lang, "v": v, "count": 3 + (i + v) % 2, "note": nth(NOTES, i + v),
                 "new": f"{lang} {nth(('extra', 'lesson 4', 'week 2', 'holiday'), i + v)}", "n": i + v,
                 "phrasing": i + v} for i, lang in enumerate(LANGUAGES) for v in range(4)]

    def pairs(self, params: Params) -> list[tuple[str, str]]:
        """The note's (front, back) pairs."""
        pool = NEW_PAIRS[params["lang"]]
        return [pool[(params["v"] + k) % len(pool)] for k in range(params["count"])]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note; the language's deck (the near miss) on the phone; no deck of the new name."""
        text = f"# {params['lang']} words\n\n" + "".join(f"{f} - {b}\n" for f, b in self.pairs(params))
        return {MARKOR: {"absent": [params["note"]], "files": {params["note"]: text}},
                ANKI: {"decks": [deck_spec(params["lang"], params["n"])]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the deck {new} created and a card per line in it; nothing else changed; no Markor note edited."""
        a = anki_state(state)
        added = a["added"]
        got = sorted((c["deck"], c["front"].casefold(), c["back"].casefold()) for c in added)
        want = sorted((params["new"], f.casefold(), b.casefold()) for f, b in self.pairs(params))
        return (got == want and only(state, added=added, decks_added=[params["new"]])
                and not state_of(state, markor.MarkorState)["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor, create the deck, then add a card per line."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["note"]:
            return markor_item(params["note"], elements, state)
        if find_deck(state, params["new"]) is None:
            step = name_deck("create", params["new"], elements, state)
            if step is not None:
                return step
            if state["foreground"] == ANKI and state["screen"]["name"] == "fab_menu" and not state.get("dialog"):
                return press(elements, text="Create deck")
            return to_decks(elements, state) or press(elements, desc=A.FAB_DESC)
        done = {c["front"] for c in anki_state(state)["added"]}
        pair = next((p for p in self.pairs(params) if p[0] not in done), None)
        return wait() if pair is None else add_note(params["new"], "Basic", *pair, elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    HabitFullTemplate(), TwoHabitsTemplate(), StreaksToNoteTemplate(), HabitsFromTodosTemplate(),
    ThreeCardsTemplate(), StudyMixedTemplate(), MoveCardsTemplate(), DeckFromMarkorTemplate(),
)
"""The long Loop Habit Tracker and AnkiDroid templates of the world suite."""
