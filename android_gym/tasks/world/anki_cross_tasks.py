"""AnkiDroid templates of the world suite that carry information between apps (issue 48): cards made from a Markor
note's word list (`CardsFromMarkorTemplate`) or a Joplin note (`CardFromJoplinTemplate`), a deck's due count texted
to someone (`DueToTextTemplate`) or written into a Markor note (`DueToNoteTemplate`), and a Tasks reminder to study
the deck with the most cards due (`StudyReminderTemplate`). They keep the conventions of `anki_tasks`: the task's
deck next to a twin of other counts, checks on the change logs of both apps, splits on (deck, variant) keys.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.sim.apps.joplin_data import FOLDERS as NOTEBOOKS
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import home, wait
from android_gym.tasks.world.anki_expert import (
    ANKI,
    DECKS,
    add_note,
    anki_state,
    count_matches,
    deck_counts,
    deck_spec,
    find_deck,
    to_overview,
    untouched,
)
from android_gym.tasks.world.anki_tasks import NAMES, only
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, state_of
from android_gym.tasks.world.joplin_expert import find_note, joplin_state, note_spec, to_note
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok
from android_gym.tasks.world.notes_expert import (
    MARKOR,
    TASKS,
    find_tasks,
    markor_create,
    markor_item,
    markor_write,
    only_touched,
    tasks_add,
)

NEW_PAIRS = {
    "Spanish": (("el reloj", "the clock"), ("la playa", "the beach"), ("el barco", "the boat"),
                ("la nube", "the cloud"), ("el bosque", "the forest")),
    "French": (("la plage", "the beach"), ("le bateau", "the boat"), ("le nuage", "the cloud"),
               ("la foret", "the forest"), ("le pont", "the bridge")),
    "German": (("die Uhr", "the clock"), ("der Strand", "the beach"), ("das Boot", "the boat"),
               ("die Wolke", "the cloud"), ("der Wald", "the forest")),
    "Italian": (("la spiaggia", "the beach"), ("la barca", "the boat"), ("la nuvola", "the cloud"),
                ("il bosco", "the forest"), ("il ponte", "the bridge")),
    "Portuguese": (("o relogio", "the clock"), ("a praia", "the beach"), ("o barco", "the boat"),
                   ("a nuvem", "the cloud"), ("a ponte", "the bridge")),
    "Dutch": (("de klok", "the clock"), ("het strand", "the beach"), ("de boot", "the boat"), ("de wolk", "the cloud"),
              ("het bos", "the forest")),
    "Japanese": (("tokei", "clock"), ("umi", "sea"), ("fune", "boat"), ("kumo", "cloud"), ("mori", "forest")),
}
"""Words a note asks to make cards of, by language deck (no deck holds them)."""
LANGUAGES = tuple(NEW_PAIRS)
NOTES = ("new_words.md", "vocab_list.md", "words_to_learn.md", "class_words.md", "flashcards_todo.md",
         "lesson_words.md", "word_list.md")
JOPLIN_TITLES = ("Word of the day", "Vocabulary from class", "New word", "Words to remember", "Lesson notes")


def _pairs(params: Params) -> list[tuple[str, str]]:
    """The (front, back) pairs of the instance's note: two or three of its language's new words."""
    pool = NEW_PAIRS[params["deck"]]
    return [pool[(params["v"] + k) % len(pool)] for k in range(params["count"])]


def cards_added(state: State, deck: str, pairs: list[tuple[str, str]]) -> bool:
    """Exactly a Basic card per pair added to `deck` (any order, case aside), nothing else changed in AnkiDroid."""
    added = anki_state(state)["added"]
    got = sorted((c["deck"], c["front"].casefold(), c["back"].casefold()) for c in added)
    return got == sorted((deck, f.casefold(), b.casefold()) for f, b in pairs) and only(state, added=added)


def _next_pair(state: State, pairs: list[tuple[str, str]]) -> tuple[str, str] | None:
    """The first pair not yet added as a card."""
    done = {c["front"] for c in anki_state(state)["added"]}
    return next((p for p in pairs if p[0] not in done), None)


class CardsFromMarkorTemplate(WorldTemplate):
    """Make a Basic card in {deck} for each "front - back" line of the Markor note {note}."""

    name, max_steps, split_key = "anki_cards_from_markor", 35, "key"
    apps = (MARKOR, ANKI)
    phrasings = ('Make AnkiDroid flashcards in my {deck} deck from the word list in the Markor note "{note}"',
                 "Turn every line of {note} in Markor into a card of the {deck} deck in Anki (word on the front, "
                 "meaning on the back)",
                 "Add the words in my Markor note {note} to AnkiDroid's {deck} deck, one Basic card per word")

    def grid(self) -> list[dict[str, Any]]:
        """Every language deck four times, the note holding two or three words."""
        return [{"key": f"{deck}:{v}", "deck": deck, "v": v, "count": 2 + (i + v) % 2, "note": nth(NOTES, i + v),
                 "n": i + v, "phrasing": i + v} for i, deck in enumerate(LANGUAGES) for v in range(4)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note and the deck; another language's deck as the twin."""
        text = f"# {params['deck']} words\n\n" + "".join(f"{f} - {b}\n" for f, b in _pairs(params))
        twin = nth(LANGUAGES, LANGUAGES.index(params["deck"]) + 1)
        return {MARKOR: {"absent": [params["note"]], "files": {params["note"]: text}},
                ANKI: {"decks": [deck_spec(params["deck"], params["n"]), deck_spec(twin, params["n"] + 1)]}}

    def check(self, params: Params, state: State) -> bool:
        """A card per line in {deck}, nothing else changed in AnkiDroid, no Markor note edited."""
        return cards_added(state, params["deck"], _pairs(params)) and not state_of(
            state, markor.MarkorState)["edits"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Markor to read it, then add a card per line."""
        if state_of(state, markor.MarkorState)["last_opened"] != params["note"]:
            return markor_item(params["note"], elements, state)
        pair = _next_pair(state, _pairs(params))
        return wait() if pair is None else add_note(params["deck"], "Basic", *pair, elements, state)


class CardFromJoplinTemplate(CardsFromMarkorTemplate):
    """Make a Basic card in {deck} of the word the Joplin note {title} holds."""

    name, max_steps = "anki_card_from_joplin", 28
    apps = (J.PACKAGE, ANKI)
    phrasings = ('Add the word from my Joplin note "{title}" to the {deck} deck in AnkiDroid as a Basic card',
                 "Read {title} in Joplin and make an Anki flashcard of it in {deck}: the word on the front, its "
                 "meaning on the back",
                 "Put the vocabulary word of the Joplin note {title} into my {deck} AnkiDroid deck")

    def grid(self) -> list[dict[str, Any]]:
        """Every language deck four times, one word, a note title and notebook."""
        return [{**{k: v for k, v in p.items() if k != "note"}, "count": 1, "title": nth(JOPLIN_TITLES, p["n"]),
                 "folder": nth(NOTEBOOKS, p["n"])} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note and the deck; another language's deck as the twin."""
        (front, back), = _pairs(params)
        twin = nth(LANGUAGES, LANGUAGES.index(params["deck"]) + 1)
        body = f"New {params['deck']} word: {front}\nMeaning: {back}"
        return {J.PACKAGE: {"absent": [params["title"]], "notes": [note_spec(params["title"], params["folder"], body)]},
                ANKI: {"decks": [deck_spec(params["deck"], params["n"]), deck_spec(twin, params["n"] + 1)]}}

    def check(self, params: Params, state: State) -> bool:
        """That card in {deck}, nothing else changed in AnkiDroid nor in Joplin."""
        return cards_added(state, params["deck"], _pairs(params)) and not joplin_state(state)["edits"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Joplin to read it, then add the card."""
        note = find_note(state, params["title"])
        if note is None or joplin_state(state)["last_opened"] != note["id"]:
            return to_note(params["title"], elements, state) or wait()
        pair = _next_pair(state, _pairs(params))
        return wait() if pair is None else add_note(params["deck"], "Basic", *pair, elements, state)


class _DueTemplate(WorldTemplate):
    """A task carrying the Due count of {deck} (instance {n}) elsewhere; a twin deck of another count is listed."""

    split_key = "key"

    def grid(self) -> list[dict[str, Any]]:
        """Every deck twice, a twin rotating."""
        return [{"key": f"{name}:{v}", "deck": name, "n": 2 * i + v, "twin": nth(NAMES, i + 2 + v),
                 "phrasing": i + v} for i, name in enumerate(NAMES) for v in range(2)]

    def decks(self, params: Params) -> dict[str, Any]:
        """The deck and its twin (the twin's Due count differs by one)."""
        return {"decks": [deck_spec(params["deck"], params["n"]), deck_spec(params["twin"], params["n"] + 1)]}

    def due(self, params: Params) -> str:
        """The deck's Due count."""
        return str(deck_counts(params["n"])[2])


class DueToTextTemplate(_DueTemplate):
    """Text {person} how many cards of {deck} are due: one SMS holding the count."""

    name, max_steps = "anki_due_to_text", 16
    apps = (ANKI, M.PACKAGE)
    phrasings = ("Text {person} how many cards I have due in my {deck} deck in AnkiDroid",
                 "{person} is my study buddy: send them a message with the {deck} deck's due count from Anki",
                 "Check how many {deck} cards are due in AnkiDroid and SMS the number to {person}")

    def grid(self) -> list[dict[str, Any]]:
        """Every deck twice, with a person."""
        return [{**p, "person": names(f"anki:{p['key']}", 1)[0]} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The decks; a conversation with the person."""
        p = person(params["person"])
        return {ANKI: self.decks(params),
                M.PACKAGE: {"threads": [conversation(p, ("How many cards do you still have to review?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the deck's Due count; AnkiDroid unchanged."""
        return texts_ok(state, [(params["person"], self.due(params))], contains=True) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the deck to read its Due count, then text it."""
        if params["deck"] not in anki_state(state)["opened"]:
            return to_overview(params["deck"], elements, state) or home()
        deck = find_deck(state, params["deck"])
        if deck is None:
            return wait()
        return send_text(person(params["person"]), f"{deck['due']} cards due in {params['deck']}", elements, state)


class DueToNoteTemplate(_DueTemplate):
    """Write the Due count of {deck} into a new Markor note {note}."""

    name, max_steps = "anki_due_to_note", 19
    apps = (ANKI, MARKOR)
    phrasings = ('Write how many cards are due in my AnkiDroid deck {deck} into a new Markor note "{note}"',
                 "Save the {deck} deck's due count from Anki in a Markor note called {note}",
                 "Create the note {note} in Markor with the number of {deck} cards due today in AnkiDroid")

    def grid(self) -> list[dict[str, Any]]:
        """Every deck twice, with a note name."""
        return [{**p, "note": f"{p['deck'].lower().replace(' ', '_')}_due_{p['n'] % 3 + 1}.md"}
                for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The decks; no note of that name."""
        return {ANKI: self.decks(params), MARKOR: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note holds the count and no other number; no other note touched; AnkiDroid unchanged."""
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"])
        return (text is not None and count_matches(text, self.due(params))
                and only_touched(m["edits"], {params["note"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the deck to read its Due count, then create the note in Markor and type it."""
        if params["deck"] not in anki_state(state)["opened"]:
            return to_overview(params["deck"], elements, state) or home()
        deck = find_deck(state, params["deck"])
        if deck is None:
            return wait()
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], str(deck["due"]), elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class StudyReminderTemplate(WorldTemplate):
    """Add a task "Study {deck}" to the Tasks list {list}, {deck} being the AnkiDroid deck with the most cards due."""

    name, max_steps, split_key = "anki_study_reminder", 20, "key"
    apps = (ANKI, TASKS)
    phrasings = ('Find the AnkiDroid deck with the most cards due and add a task "Study <deck name>" for it to my '
                 "{list} list in Tasks",
                 "Which Anki deck has the most due cards? Remind me to study it: a Tasks item in {list} titled "
                 '"Study" and the deck\'s name',
                 'Add "Study" followed by the name of my AnkiDroid deck with the most reviews due as a task in the '
                 "{list} list")

    def grid(self) -> list[dict[str, Any]]:
        """Every deck three times, with two or three other decks of fewer due cards and a list."""
        out = []
        for i, name in enumerate(NAMES):
            for v in range(3):
                others = [nth(NAMES, i + 1 + v + 4 * k) for k in range(2 + v % 2)]
                out.append({"key": f"{name}:{v}", "deck": name, "others": others, "n": 3 + 4 * v,
                            "list": nth(todo.LISTS, i + v), "phrasing": i + v})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's decks: {deck} with 4 cards due, the others 1-3; no such task."""
        decks = [deck_spec(params["deck"], params["n"])] + [deck_spec(o, k) for k, o in enumerate(params["others"])]
        return {ANKI: {"seeded": False, "decks": decks}, TASKS: {"absent": [f"Study {d}" for d in DECKS]}}

    def check(self, params: Params, state: State) -> bool:
        """One open task "Study {deck}" in {list}, undated, without priority; no other task edited; AnkiDroid
        unchanged.
        """  # noqa: D205
        title = f"Study {params['deck']}"
        t = state_of(state, todo.TasksState)
        found = [{**x, "title": x["title"].strip().casefold()} for x in find_tasks(t["lists"], params["list"], title)]
        want = {"title": title.casefold(), "due": None, "priority": "none", "completed": False}
        return (found == [want] and all(e["title"].strip().casefold() == title.casefold() for e in t["edits"])
                and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the top deck's overview (read off the deck list), then add the task."""
        if params["deck"] not in anki_state(state)["opened"]:
            return to_overview(params["deck"], elements, state) or home()
        return tasks_add(params["list"], f"Study {params['deck']}", None, "none", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    CardsFromMarkorTemplate(), CardFromJoplinTemplate(), DueToTextTemplate(), DueToNoteTemplate(),
    StudyReminderTemplate(),
)
"""The AnkiDroid templates of the world suite that span two apps."""
