"""World-suite tasks over AnkiDroid (issue 48): how many cards are due in a deck, how many cards it holds, the back
of a card, when a card is due, which deck holds it, which deck has the most new cards; create, rename a deck; add a
Basic or a reversed note, study a deck answering Good, move and delete a card. The templates that carry AnkiDroid's
data to and from other apps are in `anki_cross_tasks`.

Every task puts its deck on the phone (`initial`: in place of a seeded deck of that name) with known counts
(`deck_spec`), next to a twin deck of other counts (the near miss), among the episode's seeded decks. Checks read
AnkiDroid's state and its change log ("added", "removed", "edited", "reviews", "decks_*"), so touching the twin, or
anything else, fails; answers are read from the state while nothing was changed. Splits hold out (deck, variant)
keys. The task decks and expert steps are in `anki_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import anki as A
from android_gym.sim.apps import anki_data as D
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate, normalise_answer
from android_gym.tasks.expert import wait
from android_gym.tasks.world.anki_expert import (
    ANKI,
    DECKS,
    add_note,
    anki_state,
    answer,
    count_matches,
    deck_counts,
    deck_spec,
    find_card,
    find_deck,
    name_deck,
    overview_count,
    study,
    to_card,
    to_decks,
    to_overview,
    untouched,
)
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, find, nth, press

NAMES = tuple(DECKS)
NEW_DECKS = ("Road signs", "Kanji N5", "Spanish verbs", "Bird calls", "Flags of Europe", "Periodic table",
             "Guitar chords", "Medical terms", "Idioms", "Irregular verbs", "Star constellations", "Greek roots")
"""Names of decks a task creates or renames to (no task deck has one)."""
EXTRA = (("el reloj", "the clock"), ("la playa", "the beach"), ("el barco", "the boat"), ("la nube", "the cloud"),
         ("el bosque", "the forest"), ("la luna llena", "the full moon"), ("el puente", "the bridge"),
         ("la isla", "the island"), ("el cielo", "the sky"), ("la tormenta", "the storm"))
"""(front, back) pairs a task adds (no deck holds them)."""


def strip_article(text: str) -> str:
    """`text` normalised as answers are, without a leading article ("The apple" and "apple" say the same).

    >>> strip_article("The Apple."), strip_article("a dog")
    ('apple', 'dog')
    """
    words = normalise_answer(text).split()
    return " ".join(words[1:] if len(words) > 1 and words[0] in ("the", "a", "an") else words)


def deck_words(text: str) -> str:
    """A deck's name as an answer says it, normalised, without a leading article or a trailing "deck".

    >>> deck_words("The Music theory deck."), deck_words("music theory")
    ('music theory', 'music theory')
    """
    words = strip_article(text).split()
    return " ".join(words[:-1] if len(words) > 1 and words[-1] == "deck" else words)


class _DeckTemplate(WorldTemplate):
    """A task about the deck {deck} (instance {n}), with the twin deck {twin} listed; split on the (deck, n) key."""

    split_key, apps = "key", (ANKI,)
    variants = 3

    def grid(self) -> list[dict[str, Any]]:
        """Every deck `variants` times, a twin deck rotating."""
        return [{"key": f"{name}:{v}", "deck": name, "n": i * self.variants + v, "twin": nth(NAMES, i + 1 + v),
                 "phrasing": i + v} for i, name in enumerate(NAMES) for v in range(self.variants)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The deck and its twin (other counts)."""
        return {ANKI: {"decks": [deck_spec(params["deck"], params["n"]), deck_spec(params["twin"], params["n"] + 1)]}}


class DueCountTemplate(_DeckTemplate):
    """How many cards of {deck} are due for review? Answered with the Due count its overview shows."""

    name, max_steps, outcome = "anki_due_count", 9, "answer"
    phrasings = ("How many cards are due in my {deck} deck in AnkiDroid?",
                 "Check AnkiDroid: how many {deck} cards are due for review today?",
                 "What is the due count of the {deck} deck in Anki?")

    def answer(self, params: Params, state: State) -> str | None:
        """The deck's Due count, while nothing was changed."""
        deck = find_deck(state, params["deck"])
        return str(deck["due"]) if deck is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count, with or without a unit, in digits or a word."""
        return count_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the deck and answer with its Due count."""
        step = to_overview(params["deck"], elements, state)
        count = overview_count(elements, "Due")
        return step or (answer(count) if count is not None else wait())


class DeckSizeTemplate(_DeckTemplate):
    """How many cards does {deck} hold? Answered with the total its overview shows."""

    name, max_steps, outcome = "anki_deck_size", 9, "answer"
    phrasings = ("How many cards are in my {deck} deck in AnkiDroid?", "How big is the {deck} deck in Anki, in cards?",
                 "Count the cards of the AnkiDroid deck {deck}")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The deck and its twin, which holds another number of cards."""
        m = params["n"] + 1
        while sum(deck_counts(m)) == sum(deck_counts(params["n"])):
            m += 1
        return {ANKI: {"decks": [deck_spec(params["deck"], params["n"]), deck_spec(params["twin"], m)]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The deck's number of cards, while nothing was changed."""
        deck = find_deck(state, params["deck"])
        return str(deck["cards"]) if deck is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count, with or without a unit, in digits or a word."""
        return count_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the deck and answer with its total."""
        step = to_overview(params["deck"], elements, state)
        count = overview_count(elements, "Total cards")
        return step or (answer(count) if count is not None else wait())


class _CardTemplate(_DeckTemplate):
    """A task about the card {front} (the deck's first review card), its deck's other cards the near misses."""

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance with the front and back of its first card due for review."""
        out = []
        for p in super().grid():
            card = next(c for c in deck_spec(p["deck"], p["n"])["cards"] if c["queue"] == "review")
            out.append({**p, "front": card["front"], "back": card["back"], "due": card["due"]})
        return out


class CardBackTemplate(_CardTemplate):
    """What is on the back of the card {front}? Answered with its back as the browser shows it."""

    name, max_steps, outcome = "anki_card_back", 14, "answer"
    phrasings = ('What is the back of the card "{front}" in AnkiDroid?', "In Anki, what answer does the card {front} "
                 "have?", 'Look up the flashcard "{front}" in AnkiDroid and tell me what its back says')

    def answer(self, params: Params, state: State) -> str | None:
        """The card's back, while nothing was changed."""
        card = find_card(state, params["front"])
        return card["back"] if card is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The back, case, punctuation and a leading article aside."""
        return bool(strip_article(given)) and strip_article(given) == strip_article(truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the card in the browser, open it and answer with its back."""
        step = to_card(params["front"], elements, state)
        field = find(elements, rid=A.BACK_FIELD)
        return step or (answer(field.text) if field is not None else wait())


class CardDueTemplate(_CardTemplate):
    """When is the card {front} due? Answered with its due day ("Jun 9, 2026", "June 9", "2026-06-09")."""

    name, max_steps, outcome = "anki_card_due", 14, "answer"
    phrasings = ('When is the AnkiDroid card "{front}" due?', "On what day is my flashcard {front} due in Anki?",
                 'Tell me the due date of the card "{front}" in AnkiDroid')

    def answer(self, params: Params, state: State) -> str | None:
        """The card's due day as ISO writes it, while nothing was changed."""
        card = find_card(state, params["front"])
        return card["due"] if card is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The day in any of the usual spellings (the sim's year when none is given)."""
        return read_day(given) == truth

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the card in the browser, open it and answer with its due day."""
        step = to_card(params["front"], elements, state)
        due = find(elements, rid=f"{D.PACKAGE}:id/card_due")
        return step or (answer(due.text.split(" \u00b7 ")[0].removeprefix("Due ")) if due is not None else wait())


class CardDeckTemplate(_CardTemplate):
    """Which deck holds the card {front}? Answered with the deck its editor shows."""

    name, max_steps, outcome = "anki_card_deck", 14, "answer"
    phrasings = ('Which AnkiDroid deck is the card "{front}" in?', "In Anki, what deck holds my flashcard {front}?",
                 'Find the card "{front}" in AnkiDroid and tell me its deck')

    def answer(self, params: Params, state: State) -> str | None:
        """The card's deck, while nothing was changed."""
        card = find_card(state, params["front"])
        return card["deck"] if card is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The deck's name, case, an article and a trailing "deck" aside."""
        return deck_words(given) == deck_words(truth) != ""

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the card in the browser, open it and answer with its deck."""
        step = to_card(params["front"], elements, state)
        row = find(elements, contains="Deck: ")
        return step or (answer(row.text.removeprefix("Deck: ")) if row is not None else wait())


def read_day(text: str) -> str | None:
    """The ISO day `text` names ("Jun 9, 2026", "June 9", "9 June 2026", "2026-06-09"), None when it names none.

    >>> read_day("Due Jun 9, 2026"), read_day("june 9"), read_day("9 June 2026"), read_day("soon")
    ('2026-06-09', '2026-06-09', '2026-06-09', None)
    """
    cleaned = " ".join(text.replace(",", " ").replace(".", " ").split()).removeprefix("Due ").removeprefix("due ")
    for fmt in ("%b %d %Y", "%B %d %Y", "%Y-%m-%d", "%d %B %Y", "%d %b %Y", "%B %d", "%b %d", "%d %B", "%d %b"):
        try:
            moment = datetime.datetime.strptime(cleaned, fmt)
        except ValueError:
            continue
        year = moment.year if "%Y" in fmt else D.DATE.year
        return str(moment.date().replace(year=year))
    return None


class MostNewTemplate(WorldTemplate):
    """Which deck has the most new cards? Only the task's three or four decks are on the phone."""

    name, max_steps, outcome, split_key = "anki_most_new", 6, "answer", "key"
    apps = (ANKI,)
    phrasings = ("Which of my AnkiDroid decks has the most new cards?", "In Anki, which deck has the most cards I "
                 "have not studied yet?", "Find the deck with the largest number of new cards in AnkiDroid")

    def grid(self) -> list[dict[str, Any]]:
        """Three or four decks per instance; the instance's deck gets 3 new cards, the others fewer."""
        out = []
        for i, name in enumerate(NAMES):
            for v in range(3):
                others = [nth(NAMES, i + 1 + v + 4 * k) for k in range(2 + v % 2)]
                out.append({"key": f"{name}:{v}", "deck": name, "others": others, "n": 4 + 6 * v,
                            "phrasing": i + v})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's decks: {deck} with 3 new cards, the others with 1 or 2."""
        decks = [deck_spec(params["deck"], params["n"])]
        decks += [deck_spec(o, (0, 2, 1)[k]) for k, o in enumerate(params["others"])]  # 1, 2 and 1 new cards
        return {ANKI: {"seeded": False, "decks": decks}}

    def answer(self, params: Params, state: State) -> str | None:
        """The deck with the most new cards (None on a tie or once anything changed)."""
        decks = sorted(anki_state(state)["decks"], key=lambda d: -d["new"])
        if not decks or not untouched(state) or (len(decks) > 1 and decks[0]["new"] == decks[1]["new"]):
            return None
        return decks[0]["name"]

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The deck's name, case, an article and a trailing "deck" aside ("the Spanish deck")."""
        return deck_words(given) == deck_words(truth) != ""

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the New column of the deck list and answer with the top deck's name."""
        step = to_decks(elements, state)
        if step is not None:
            return step
        rows = [e for e in elements if e.rid == A.DECK_RID]
        news = {e.bounds[1]: int(e.text) for e in elements if e.rid == A.NEW_RID}
        best = max(rows, key=lambda e: news.get(e.bounds[1], -1), default=None)
        return answer(best.text) if best is not None else wait()



# -- edits -----------------------------------------------------------------------------------------------------------
def only(state: State, **changes: Any) -> bool:
    """Whether AnkiDroid's change log holds exactly `changes` (log name -> entries) and every other log is empty."""
    a = anki_state(state)
    logs = ("added", "removed", "edited", "reviews", "decks_added", "decks_removed", "decks_renamed")
    return all(a[k] == changes.get(k, []) for k in logs)


class CreateDeckTemplate(_DeckTemplate):
    """Create an empty deck called {new}; nothing else changes."""

    name, max_steps = "anki_create_deck", 10
    phrasings = ('Create a new deck called "{new}" in AnkiDroid', "Make an AnkiDroid deck named {new}",
                 'Add a deck "{new}" to Anki')

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance with a new name."""
        return [{**p, "new": nth(NEW_DECKS, p["n"])} for p in super().grid()]

    def check(self, params: Params, state: State) -> bool:
        """Exactly that deck created (no cards in it), nothing else changed."""
        deck = find_deck(state, params["new"])
        return only(state, decks_added=[params["new"]]) and deck is not None and deck["cards"] == 0

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add, Create deck, the name, OK."""
        if find_deck(state, params["new"]) is not None:
            return wait()
        step = name_deck("create", params["new"], elements, state)
        if step is not None:
            return step
        if state["foreground"] == ANKI and state["screen"]["name"] == "fab_menu" and not state.get("dialog"):
            return press(elements, text="Create deck")
        return to_decks(elements, state) or press(elements, desc=A.FAB_DESC)


class RenameDeckTemplate(CreateDeckTemplate):
    """Rename the deck {deck} to {new}; its twin keeps its name, and its cards go with it."""

    name, max_steps = "anki_rename_deck", 22
    phrasings = ('Rename my AnkiDroid deck "{deck}" to "{new}"', "In Anki, call the {deck} deck {new} from now on",
                 'Change the name of the deck {deck} to "{new}" in AnkiDroid')

    def check(self, params: Params, state: State) -> bool:
        """Exactly that rename, the deck's cards now in {new}, nothing else changed."""
        deck = find_deck(state, params["new"])
        renamed = [{"from": params["deck"], "to": params["new"]}]
        return only(state, decks_renamed=renamed) and deck is not None and deck["cards"] == sum(
            deck_counts(params["n"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The deck's More options, Rename deck, clear the name, type the new one, OK."""
        if find_deck(state, params["new"]) is not None:
            return wait()
        step = name_deck("rename", params["new"], elements, state)
        if step is not None:
            return step
        if state["foreground"] == ANKI and state["screen"]["name"] == "deck_menu" and not state.get("dialog"):
            return press(elements, text="Rename deck")
        return to_decks(elements, state) or press(elements, desc=f"More options for {params['deck']}")


class AddCardTemplate(_DeckTemplate):
    """Add a Basic card {front} / {back} to {deck}; the twin deck gets nothing."""

    name, max_steps = "anki_add_card", 18
    reversed_card = False
    phrasings = ('Add a flashcard to my {deck} deck in AnkiDroid: front "{front}", back "{back}"',
                 'In Anki, make a new Basic card in {deck} with "{front}" on the front and "{back}" on the back',
                 'Create the AnkiDroid card "{front}" -> "{back}" in the {deck} deck')

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance with a pair to add."""
        return [{**p, "front": nth(EXTRA, p["n"])[0], "back": nth(EXTRA, p["n"])[1]} for p in super().grid()]

    def wanted(self, params: Params) -> list[dict[str, str]]:
        """The cards the note makes."""
        cards = [{"deck": params["deck"], "front": params["front"], "back": params["back"]}]
        if self.reversed_card:
            cards.append({"deck": params["deck"], "front": params["back"], "back": params["front"]})
        return cards

    def check(self, params: Params, state: State) -> bool:
        """Exactly the note's cards added (as typed, case aside), nothing else changed."""
        added = [{k: v.casefold() for k, v in c.items()} for c in anki_state(state)["added"]]
        want = [{k: v.casefold() for k, v in c.items()} for c in self.wanted(params)]
        return added == want and only(state, added=anki_state(state)["added"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Add, the note type and the deck, Front, Back, Save."""
        if anki_state(state)["added"]:
            return wait()
        kind = D.NOTE_TYPES[1] if self.reversed_card else D.NOTE_TYPES[0]
        return add_note(params["deck"], kind, params["front"], params["back"], elements, state)


class AddReversedTemplate(AddCardTemplate):
    """Add a "Basic (and reversed card)" note {front} / {back} to {deck}: two cards, one each way."""

    name, max_steps = "anki_add_reversed", 22
    reversed_card = True
    phrasings = ('Add a note with its reverse card to {deck} in AnkiDroid: "{front}" and "{back}"',
                 'In Anki, create a "Basic (and reversed card)" note in {deck}: front "{front}", back "{back}"',
                 "I want to learn {front} / {back} both ways: add it to my {deck} deck as a reversed note")


class StudyGoodTemplate(_DeckTemplate):
    """Study {deck}'s session (learning, due and new cards), answering Good to each; the twin deck untouched."""

    name, max_steps = "anki_study_good", 28
    phrasings = ("Study my {deck} deck in AnkiDroid until it is done for today, answering Good to every card",
                 "Go through today's {deck} cards in Anki and press Good on each one",
                 "Do my AnkiDroid {deck} review now; answer every card with Good")

    def grid(self) -> list[dict[str, Any]]:
        """Every deck instance twice, sessions of up to eight cards (those of instances 0-7 in turn)."""
        return [{**p, "n": p["n"] % 8} for p in super().grid()]

    def check(self, params: Params, state: State) -> bool:
        """Every card of the session answered Good once (the deck's cards due later not), nothing else changed."""
        cards = deck_spec(params["deck"], params["n"])["cards"]
        session = sorted(c["front"] for c in cards if c["queue"] != "review" or c["due"] <= D.day(0))
        reviews = anki_state(state)["reviews"]
        return (sorted(r["front"] for r in reviews) == session and only(state, reviews=reviews)
                and all(r == {"deck": params["deck"], "front": r["front"], "ease": "good"} for r in reviews))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Study now, then Show answer and Good until the deck is done."""
        done = sorted(r["front"] for r in anki_state(state)["reviews"])
        if len(done) >= sum(deck_counts(params["n"])[:3]):
            return wait()
        return study(params["deck"], "Good", elements, state)


class MoveCardTemplate(_CardTemplate):
    """Move the card {front} from {deck} to the deck {twin}; its front and back stay."""

    name, max_steps = "anki_move_card", 17
    phrasings = ('Move the AnkiDroid card "{front}" to my {twin} deck', "In Anki, the card {front} belongs in {twin}: "
                 "move it there", 'Put the flashcard "{front}" into the {twin} deck in AnkiDroid')

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the card now in {twin}, front and back as they were; nothing else changed."""
        edit = {"card": params["front"], "deck": params["twin"], "front": params["front"], "back": params["back"]}
        return only(state, edited=[edit])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the card in the browser, open it, choose the deck, Save."""
        if anki_state(state)["edited"]:
            return wait()
        step = into_app(A.AnkiApp.label, ANKI, elements, state)
        if step is None and state["screen"]["name"] == "choice":
            return press(elements, text=params["twin"], clickable=True)
        step = step or to_card(params["front"], elements, state)
        if step is not None:
            return step
        args = state["screen"]["args"]
        return press(elements, desc="Save") if args["deck"] == params["twin"] else press(
            elements, text=f"Deck: {args['deck']}")


class DeleteCardTemplate(_CardTemplate):
    """Delete the card {front}; the deck's other cards stay."""

    name, max_steps = "anki_delete_card", 16
    phrasings = ('Delete the card "{front}" from AnkiDroid', "Remove the flashcard {front} from my {deck} deck",
                 'I know "{front}" by heart now: delete that card in Anki')

    def check(self, params: Params, state: State) -> bool:
        """Exactly that card removed; nothing else changed."""
        return only(state, removed=[{"deck": params["deck"], "front": params["front"], "back": params["back"]}])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the card in the browser, open it, Delete note, Delete."""
        if anki_state(state)["removed"]:
            return wait()
        step = into_app(A.AnkiApp.label, ANKI, elements, state)
        if step is None and state["screen"]["name"] == "delete_card":
            return press(elements, text="Delete", clickable=True)
        return step or to_card(params["front"], elements, state) or press(elements, desc="Delete note")


TEMPLATES: tuple[TaskTemplate, ...] = (
    DueCountTemplate(), DeckSizeTemplate(), CardBackTemplate(), CardDueTemplate(), CardDeckTemplate(),
    MostNewTemplate(),
    CreateDeckTemplate(), RenameDeckTemplate(), AddCardTemplate(), AddReversedTemplate(), StudyGoodTemplate(),
    MoveCardTemplate(), DeleteCardTemplate(),
)
"""The AnkiDroid templates of the world suite (the cross-app ones are in `anki_cross_tasks`)."""
