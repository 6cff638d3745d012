"""Task decks and expert steps the AnkiDroid templates share (`anki_tasks`).

The task decks: every deck name with its (front, back) pairs (`DECKS`: AnkiDroid's seeded topics and more), a deck of
known counts for an instance number (`deck_spec`, `deck_counts`), and the checks' readers (`anki_state`,
`find_card`, `find_deck`, `untouched`, `count_matches`). Each expert step reads the UI elements and the sim's state
and returns the next action towards a sub-goal: the deck list (`to_decks`), a deck's overview (`to_overview`), a card
opened in the browser (`to_card`), a note added (`add_note`), a deck name typed into its dialog (`name_deck`), a
study session answered (`study`).
"""  # noqa: D205, D209

from __future__ import annotations

import re
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import anki as A
from android_gym.sim.apps import anki_data as D
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, enter, fill, find, tap, wait
from android_gym.tasks.world.base import Elements, State, leave, press

ANKI = D.PACKAGE
LABEL = A.AnkiApp.label
DECKS: dict[str, tuple[tuple[str, str], ...]] = {
    **D.TOPICS,
    "Portuguese": (("o cachorro", "the dog"), ("o gato", "the cat"), ("a casa", "the house"), ("o leite", "the milk"),
                   ("a porta", "the door"), ("o carro", "the car"), ("a chave", "the key"), ("o queijo", "the cheese"),
                   ("a janela", "the window"), ("o livro", "the book")),
    "Dutch": (("de hond", "the dog"), ("de kat", "the cat"), ("het huis", "the house"), ("het boek", "the book"),
              ("de appel", "the apple"), ("de tafel", "the table"), ("het brood", "the bread"),
              ("de fiets", "the bike"), ("de sleutel", "the key"), ("de kaas", "the cheese")),
    "Anatomy": (("femur", "thigh bone"), ("tibia", "shin bone"), ("radius", "forearm bone"), ("sternum", "breastbone"),
                ("scapula", "shoulder blade"), ("patella", "kneecap"), ("clavicle", "collarbone"),
                ("mandible", "lower jawbone"), ("cranium", "skull"), ("humerus", "upper arm bone")),
    "History": (("1066", "Battle of Hastings"), ("1492", "Columbus reaches America"), ("1789", "French Revolution"),
                ("1815", "Battle of Waterloo"), ("1914", "World War I begins"), ("1969", "Moon landing"),
                ("1989", "Fall of the Berlin Wall"), ("1453", "Fall of Constantinople"),
                ("1776", "Declaration of Independence"), ("1945", "World War II ends")),
    "Music theory": (("forte", "loud"), ("piano", "soft"), ("allegro", "fast"), ("adagio", "slow"),
                     ("crescendo", "getting louder"), ("staccato", "short and detached"),
                     ("legato", "smooth and connected"), ("fermata", "hold the note"), ("tempo", "speed"),
                     ("ritardando", "slowing down")),
    "Japanese": (("neko", "cat"), ("inu", "dog"), ("mizu", "water"), ("hon", "book"), ("kuruma", "car"),
                 ("sakana", "fish"), ("tori", "bird"), ("yama", "mountain"), ("kawa", "river"), ("sora", "sky")),
    "Biology": (("mitochondria", "powerhouse of the cell"), ("ribosome", "makes proteins"),
                ("nucleus", "holds the DNA"), ("chloroplast", "does photosynthesis"), ("neuron", "nerve cell"),
                ("enzyme", "speeds up reactions"), ("alveoli", "air sacs of the lungs"),
                ("hemoglobin", "carries oxygen"), ("insulin", "lowers blood sugar"),
                ("osmosis", "water through a membrane")),
}
"""Task decks: AnkiDroid's seeded topics and more, each with ten or more (front, back) pairs; no front repeats."""
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")


def deck_counts(n: int) -> tuple[int, int, int, int]:
    """The (new, learning, due, future) card counts of task deck instance `n`: 1-3 new, 0-1 learning, 1-4 due for
    review, 1-2 reviews due later (never more than ten cards).

    >>> deck_counts(0), deck_counts(5)
    ((1, 0, 1, 1), (3, 1, 2, 2))
    """  # noqa: D205
    return 1 + (n // 2) % 3, n % 2, 1 + n % 4, 1 + n % 2


def deck_spec(name: str, n: int) -> dict[str, Any]:
    """Deck `name` as `AnkiInitial` takes it, with `deck_counts(n)` cards drawn in turn from its pairs."""
    new, learning, due, future = deck_counts(n)
    pool = DECKS[name]
    pairs = [pool[(n + k) % len(pool)] for k in range(new + learning + due + future)]
    queues = ["new"] * new + ["learning"] * learning + ["review"] * (due + future)
    dues = [D.day(0)] * (new + learning) + [D.day(-1 - k) for k in range(due)] + [D.day(2 + 3 * k)
                                                                                 for k in range(future)]
    return {"name": name, "cards": [{"front": f, "back": b, "queue": q, "due": d, "reviews": 0 if q == "new" else 2 + k}
                                    for k, ((f, b), q, d) in enumerate(zip(pairs, queues, dues, strict=True))]}


def anki_state(state: State) -> D.AnkiState:
    """AnkiDroid's part of the device state."""
    return state_of(state, D.AnkiState)


def find_card(state: State, front: str) -> D.CardState | None:
    """The (first) card whose front is `front`, or None."""
    return next((c for c in anki_state(state)["cards"] if c["front"] == front), None)


def find_deck(state: State, name: str) -> D.DeckState | None:
    """The deck called `name`, or None."""
    return next((d for d in anki_state(state)["decks"] if d["name"] == name), None)


def untouched(state: State) -> bool:
    """Nothing added, removed, edited, studied, nor any deck created, renamed or deleted in AnkiDroid."""
    a = anki_state(state)
    return not any(a[k] for k in ("added", "removed", "edited", "reviews", "decks_added", "decks_removed",
                                  "decks_renamed"))


def count_matches(given: str, truth: str) -> bool:
    """Whether the answer `given` names the count `truth` and no other number (digits or a word; "3", "3 cards",
    "three").

    >>> count_matches("3 cards", "3"), count_matches("Three.", "3"), count_matches("13", "3"), count_matches("3 or 4", "3")
    (True, True, False, False)
    """  # noqa: D205, E501
    tokens = re.findall(r"[0-9]+|[a-z]+", given.casefold())
    numbers = [int(t) if t.isdigit() else NUMBER_WORDS.index(t) for t in tokens if t.isdigit() or t in NUMBER_WORDS]
    return numbers == [int(truth)]


def answer(text: str) -> Action:
    """Declare the task complete with `text`."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


# -- expert steps ----------------------------------------------------------------------------------------------------
def to_decks(elements: Elements, state: State) -> Action | None:
    """The next step to the deck list (None once there, nothing over it)."""
    step = into_app(LABEL, ANKI, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name == "decks":
        return None
    return leave(elements) if name in ("fab_menu", "deck_menu", "deck_name", "delete_deck", "choice",
                                       "delete_card") else back()


def to_overview(deck: str, elements: Elements, state: State) -> Action | None:
    """The next step to `deck`'s overview (None once there)."""
    step = into_app(LABEL, ANKI, elements, state)
    if step is None and state["screen"]["name"] == "overview":
        return None if state["screen"]["args"]["deck"] == deck else back()
    return step or to_decks(elements, state) or press(elements, rid=A.DECK_RID, text=deck)


def overview_count(elements: Elements, label: str) -> str | None:
    """The count the overview shows after `label` ("Due", "New", "Total cards"), or None while not shown."""
    e = next((e for e in elements if e.text.startswith(f"{label}: ")), None)
    return e.text.split(": ")[1] if e is not None else None


def to_card(front: str, elements: Elements, state: State) -> Action | None:
    """The next step to the editor of card `front`, found with the browser's search (None once there)."""
    step = into_app(LABEL, ANKI, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "edit":
        return None if anki_state(state)["card"] == front else back()
    if screen["name"] != "browser":
        return to_decks(elements, state) or press(elements, desc=A.BROWSER_DESC)
    if screen["args"]["query"] != front:
        typed = fill(elements, state, A.SEARCH_RID, front, missing=wait())
        if typed is not None:
            return typed
        if screen["focus"] != A.SEARCH_RID:
            field = find(elements, rid=A.SEARCH_RID)
            return tap(field) if field is not None else wait()
        return enter()
    return press(elements, rid=A.ROW_FRONT_RID, text=front)


def add_note(deck: str, note_type: str, front: str, back_text: str, elements: Elements, state: State) -> Action:
    """The next step to add a note of `note_type` to `deck`: Add, the type and the deck, Front, Back, Save."""
    step = into_app(LABEL, ANKI, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "choice":
        want = note_type if screen["args"]["key"] == "type" else deck
        return press(elements, text=want, clickable=True)
    if screen["name"] == "fab_menu":
        return press(elements, text="Add", clickable=True)
    if screen["name"] != "add":
        return to_decks(elements, state) or press(elements, desc=A.FAB_DESC)
    args = screen["args"]
    if args["type"] != note_type:
        return press(elements, text=f"Type: {args['type']}")
    if args["deck"] != deck:
        return press(elements, text=f"Deck: {args['deck']}")
    step = fill(elements, state, A.FRONT_FIELD, front) or fill(elements, state, A.BACK_FIELD, back_text)
    return step or press(elements, desc="Save")


def name_deck(mode: str, name: str, elements: Elements, state: State) -> Action | None:
    """On the deck name dialog of `mode` ("create" or "rename"): type `name` and OK (None when not on it)."""
    screen = state["screen"]
    if state["foreground"] != ANKI or screen["name"] != "deck_name" or state.get("dialog"):
        return None
    if screen["args"]["mode"] != mode:
        return leave(elements)
    current = screen["fields"].get(A.NAME_RID, "")
    if current and not name.startswith(current):
        field = find(elements, rid=A.NAME_RID)
        if screen["focus"] != A.NAME_RID:
            return tap(field) if field is not None else wait()
        return press(elements, desc="Delete")
    return fill(elements, state, A.NAME_RID, name, missing=wait()) or press(elements, text="OK")


def study(deck: str, ease: str, elements: Elements, state: State) -> Action:
    """The next step of studying `deck`, answering every card `ease` ("Good")."""
    step = into_app(LABEL, ANKI, elements, state)
    if step is None and state["screen"]["name"] == "review":
        if state["screen"]["args"]["deck"] != deck:
            return back()
        return press(elements, text=ease) if anki_state(state)["shown"] else press(elements, text="Show answer")
    return step or to_overview(deck, elements, state) or press(elements, text="Study now")
