"""AnkiDroid's data: the seeded decks, the scheduling rule, the typed state tasks read and the initial conditions
they set (the app itself is `anki`).

Scheduling uses fixed intervals (not Anki's SM-2): answering a card Again puts it in learning, due today (shown again
this session); Hard, Good and Easy make it a review card due 1, 3 and 7 days after the sim's today (`INTERVALS_D`).
A card is "new" until its first answer. A deck's counts are its new cards, its learning cards due by today, and its
review cards due by today ("Due").

The decks are drawn per episode from `stable_seed("anki", phone.seed)`: 3-5 of the topics in `TOPICS`, each with 4-9
of its cards, some new, some in learning, most in review with due days from 6 days ago to 12 days ahead.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any, Literal

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, iso_day, refuse_blank
from android_gym.sim.apps.calendar import TODAY

PACKAGE = "com.ichi2.anki"
DATE = datetime.date(*TODAY[:3])
Queue = Literal["new", "learning", "review"]
Ease = Literal["again", "hard", "good", "easy"]
NoteType = Literal["Basic", "Basic (and reversed card)"]
NOTE_TYPES: tuple[NoteType, ...] = ("Basic", "Basic (and reversed card)")
EASES: tuple[Ease, ...] = ("again", "hard", "good", "easy")
INTERVALS_D: dict[str, int] = {"again": 0, "hard": 1, "good": 3, "easy": 7}
"""Days from the sim's today to a card's next due day, by answer."""
TOPICS: dict[str, tuple[tuple[str, str], ...]] = {
    "Spanish": (("la manzana", "the apple"), ("el perro", "the dog"), ("la casa", "the house"),
                ("el libro", "the book"), ("la mesa", "the table"), ("el gato", "the cat"), ("la leche", "the milk"),
                ("el agua", "the water"), ("la llave", "the key"), ("el queso", "the cheese"),
                ("la ventana", "the window"), ("el pan", "the bread")),
    "French": (("le chien", "the dog"), ("la pomme", "the apple"), ("le livre", "the book"),
               ("la maison", "the house"), ("le fromage", "the cheese"), ("la porte", "the door"),
               ("le pain", "the bread"), ("la lune", "the moon"), ("le soleil", "the sun"), ("la voiture", "the car"),
               ("le jardin", "the garden")),
    "German": (("der Hund", "the dog"), ("die Katze", "the cat"), ("das Haus", "the house"), ("der Apfel", "the apple"),
               ("das Buch", "the book"), ("die Blume", "the flower"), ("der Tisch", "the table"),
               ("das Brot", "the bread"), ("die Stadt", "the city"), ("der Baum", "the tree")),
    "Capitals": (("France", "Paris"), ("Japan", "Tokyo"), ("Canada", "Ottawa"), ("Kenya", "Nairobi"), ("Peru", "Lima"),
                 ("Norway", "Oslo"), ("Egypt", "Cairo"), ("Chile", "Santiago"), ("Vietnam", "Hanoi"),
                 ("Poland", "Warsaw"), ("Ghana", "Accra"), ("Australia", "Canberra")),
    "Chemistry": (("H", "Hydrogen"), ("O", "Oxygen"), ("Na", "Sodium"), ("Fe", "Iron"), ("K", "Potassium"),
                  ("Au", "Gold"), ("Ag", "Silver"), ("Cu", "Copper"), ("Pb", "Lead"), ("Sn", "Tin")),
    "Italian": (("il cane", "the dog"), ("la mela", "the apple"), ("il formaggio", "the cheese"),
                ("la strada", "the street"), ("il treno", "the train"), ("la chiave", "the key"),
                ("il fiume", "the river"), ("la notte", "the night"), ("il vino", "the wine"),
                ("la sedia", "the chair")),
}
"""Seeded decks' names and their (front, back) pairs; no front appears in two topics."""


def day(offset_d: int) -> str:
    """The ISO day `offset_d` days after the sim's today.

    >>> day(0) == str(DATE), day(3) > day(0)
    (True, True)
    """
    return str(DATE + datetime.timedelta(days=offset_d))


def due_label(iso: str) -> str:
    """A due day as the browser shows it ("Jun 12, 2026")."""
    d = datetime.date.fromisoformat(iso)
    return f"{d:%b} {d.day}, {d.year}"


def seeded_decks(seed: int) -> dict[str, list[dict[str, Any]]]:
    """Episode `seed`'s decks, in topic order: deck name -> cards ({"front", "back", "queue", "due", "reviews"})."""
    rng = np.random.default_rng(stable_seed("anki", seed))
    names = sorted(rng.choice(len(TOPICS), size=int(rng.integers(3, 6)), replace=False))
    out = {}
    for k in names:
        name = list(TOPICS)[int(k)]
        pool = TOPICS[name]
        picks = sorted(rng.choice(len(pool), size=int(rng.integers(4, min(10, len(pool) + 1))), replace=False))
        cards = []
        for i in picks:
            roll = rng.random()
            queue: Queue = "new" if roll < 0.35 else "learning" if roll < 0.45 else "review"
            due = 0 if queue != "review" else int(rng.integers(-6, 13))
            cards.append({"front": pool[int(i)][0], "back": pool[int(i)][1], "queue": queue, "due": day(due),
                          "reviews": 0 if queue == "new" else int(rng.integers(1, 13))})
        out[name] = cards
    return out


def counts(cards: list[dict[str, Any]], today: str = str(DATE)) -> tuple[int, int, int]:
    """A deck's (new, learning, due) counts from its cards, as the deck list shows them.

    >>> counts([{"queue": "new", "due": "2026-01-01"}, {"queue": "review", "due": "2000-01-01"}])
    (1, 0, 1)
    """
    new = sum(c["queue"] == "new" for c in cards)
    learning = sum(c["queue"] == "learning" and c["due"] <= today for c in cards)
    due = sum(c["queue"] == "review" and c["due"] <= today for c in cards)
    return new, learning, due


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["decks", "deck_menu", "fab_menu", "deck_name", "delete_deck", "overview", "review", "add", "choice",
               "browser", "edit", "delete_card"]


@closed
class CardState(TypedDict):
    """A card: its deck, front and back, queue, next due day ("YYYY-MM-DD") and how often it was answered."""

    deck: str
    front: str
    back: str
    queue: Queue
    due: str
    reviews: int


@closed
class DeckState(TypedDict):
    """A deck as the deck list shows it: its name, the New, Learning and Due counts, and its number of cards."""

    name: str
    new: int
    learning: int
    due: int
    cards: int


@closed
class CardRef(TypedDict):
    """A card added or removed this episode: its deck, front and back."""

    deck: str
    front: str
    back: str


@closed
class CardEdit(TypedDict):
    """A card saved in the editor: its front before, and its deck, front and back after."""

    card: str
    deck: str
    front: str
    back: str


@closed
class Review(TypedDict):
    """One answer in the reviewer: the card's deck and front and the answer given."""

    deck: str
    front: str
    ease: Ease


DeckRenaming = closed(TypedDict("DeckRenaming", {"from": str, "to": str}))  # "from" is a keyword: no class syntax
DeckRenaming.__doc__ = """A deck renamed this episode: its name before and after."""


@closed
class AnkiState(TypedDict):
    """What AnkiDroid reports (`AnkiApp.state`).

    Attributes:
        decks: every deck with its counts, by name.
        cards: every card, by deck then front.
        screen: the front AnkiDroid screen's name, None when the app has none on the stack.
        deck: the deck whose overview or reviewer is open (or was opened last), or None.
        card: the front of the card in the reviewer or the editor in front, or None.
        shown: whether the reviewer shows the answer.
        added: cards added this episode.
        removed: cards deleted this episode (a deleted deck's cards too).
        edited: cards saved in the editor this episode (a move to another deck too).
        reviews: answers given in the reviewer this episode, in order.
        decks_added: decks created this episode (their current names).
        decks_removed: decks deleted this episode.
        decks_renamed: decks renamed this episode, in order.
        opened: decks whose overview was opened this episode, in order.
    """

    decks: list[DeckState]
    cards: list[CardState]
    screen: Page | None
    deck: str | None
    card: str | None
    shown: bool
    added: list[CardRef]
    removed: list[CardRef]
    edited: list[CardEdit]
    reviews: list[Review]
    decks_added: list[str]
    decks_removed: list[str]
    decks_renamed: list[DeckRenaming]
    opened: list[str]


class CardSpec(ConfigModel):
    """A card a task puts in a deck.

    Attributes:
        front: its front (not blank).
        back: its back.
        queue: "new", "learning" or "review".
        due: its due day ("YYYY-MM-DD"; default the sim's today).
        reviews: how often it was answered before.
    """

    front: str
    back: str = ""
    queue: Queue = "new"
    due: str = str(DATE)
    reviews: int = Field(default=0, ge=0)

    @field_validator("front")
    @classmethod
    def _not_blank(cls, front: str) -> str:
        return refuse_blank("front", front)

    @field_validator("due")
    @classmethod
    def _iso_day(cls, due: str) -> str:
        return iso_day("due", due)


class DeckSpec(ConfigModel):
    """A deck a task puts on the phone (in place of a seeded deck of that name).

    Attributes:
        name: the deck's name (not blank).
        cards: its cards.
    """

    name: str
    cards: tuple[CardSpec, ...] = ()

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        return refuse_blank("name", name)


class AnkiInitial(ConfigModel):
    """The initial conditions an AnkiDroid task may set, applied in this order; they are the set-up, not changes.

    Attributes:
        seeded: whether the episode's seeded decks stay (False: only the task's decks).
        absent_decks: seeded decks removed, with their cards.
        absent_cards: fronts of seeded cards removed from every deck.
        decks: decks added (each replaces a deck of its name).
    """

    seeded: bool = True
    absent_decks: tuple[str, ...] = ()
    absent_cards: tuple[str, ...] = ()
    decks: tuple[DeckSpec, ...] = ()
