"""The AnkiDroid flashcard app (com.ichi2.anki): decks with their counts, study, add notes, the card browser, decks
created, renamed and deleted. The data, the scheduling rule and the typed state are in `anki_data`.

Screens: "decks" (the deck list: each deck's New / Learning / Due counts, a "More options" button per deck, the
"Card browser" action and the "Add" FAB), "fab_menu" (Add / Create deck), "deck_menu" (args {"deck"}: Rename deck /
Delete deck), "deck_name" (args {"mode": "create"|"rename", "deck", "error"}: the name in fields[NAME_RID]),
"delete_deck" (args {"deck"}), "overview" (args {"deck"}: its counts, total, "Study now"), "review" (args {"deck",
"card", "shown"}: the front, "Show answer", then Again / Hard / Good / Easy), "add" (args {"type", "deck", "error",
"added"}: the note editor, Front and Back in fields), "choice" (args {"key": "type"|"deck"}: a list over "add" or
"edit" that sets that screen's arg), "browser" (args {"query"}: the cards whose front or back holds the query, search
text in fields[SEARCH_RID]), "edit" (args {"card", "deck"}: a card's editor, Save, Delete note) and "delete_card".

A "Basic (and reversed card)" note makes two cards (front/back and back/front) of one note; deleting a card in the
browser deletes its note, both cards. Editing changes that card only.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, name_refusal, popup_menu
from android_gym.sim.apps import anki_data as D
from android_gym.sim.apps.anki_data import PACKAGE, AnkiInitial, AnkiState
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

DECK_RID = f"{PACKAGE}:id/deckpicker_name"
NEW_RID, LEARN_RID, DUE_RID = (f"{PACKAGE}:id/deckpicker_new", f"{PACKAGE}:id/deckpicker_lrn",
                               f"{PACKAGE}:id/deckpicker_rev")
TOTAL_RID = f"{PACKAGE}:id/studyoptions_total"
STUDY_RID = f"{PACKAGE}:id/studyoptions_start"
FRONT_RID, BACK_RID = f"{PACKAGE}:id/card_front", f"{PACKAGE}:id/card_back"
ROW_FRONT_RID, ROW_BACK_RID, ROW_INFO_RID = (f"{PACKAGE}:id/card_sfld", f"{PACKAGE}:id/card_answer",
                                             f"{PACKAGE}:id/card_info")
FRONT_FIELD, BACK_FIELD = f"{PACKAGE}:id/note_front", f"{PACKAGE}:id/note_back"
SEARCH_RID = f"{PACKAGE}:id/search_src_text"
NAME_RID = f"{PACKAGE}:id/deck_name_input"
DECK_ROW_H, CARD_ROW_H = 200, 230
FAB_DESC = "Add"
BROWSER_DESC = "Card browser"
EASE_LABELS = {"again": "Again", "hard": "Hard", "good": "Good", "easy": "Easy"}


def interval_label(days: int) -> str:
    """An answer button's interval as the reviewer shows it.

    >>> interval_label(0), interval_label(1), interval_label(7)
    ('<10m', '1d', '7d')
    """
    return "<10m" if days == 0 else f"{days}d"


def when(card: dict[str, Any]) -> str:
    """A card's schedule as the browser shows it: "New" for a new card, else its due day.

    >>> when({"queue": "new", "due": "2026-06-10"}), when({"queue": "review", "due": "2026-06-12"})
    ('New', 'Due Jun 12, 2026')
    """
    return "New" if card["queue"] == "new" else f"Due {D.due_label(card['due'])}"


class AnkiApp(App):
    """AnkiDroid: the deck list, a deck's overview, the reviewer, the note editor, the card browser, deck dialogs."""

    package = PACKAGE
    label = "AnkiDroid"
    icon = "anki"
    aliases = ("anki", "flashcards", "AnkiDroid Flashcards")
    state_schema = AnkiState
    initial_model = AnkiInitial

    def reset(self) -> None:
        """The episode's seeded decks; nothing changed yet."""
        self.decks: list[str] = []
        self.cards: dict[int, dict[str, Any]] = {}
        self.next_id = 0
        for name, cards in D.seeded_decks(self.phone.seed).items():
            self._put_deck(name, cards)
        self.current: str | None = None
        self.added: list[int] = []
        self.removed: list[dict[str, str]] = []
        self.edited: list[dict[str, str]] = []
        self.reviews: list[dict[str, str]] = []
        self.decks_added: list[str] = []
        self.decks_removed: list[str] = []
        self.decks_renamed: list[dict[str, str]] = []
        self.opened: list[str] = []

    def _put_deck(self, name: str, cards: list[dict[str, Any]]) -> None:
        if name not in self.decks:
            self.decks.append(name)
        for card in cards:
            self.cards[self.next_id] = {**card, "deck": name, "note": self.next_id}
            self.next_id += 1

    def set_up(self, initial: AnkiInitial) -> None:
        """Drop the seeded decks (unless `seeded`), the absent decks and cards; put the task's decks in."""
        gone = set(initial.absent_decks) | {d.name for d in initial.decks} | (set() if initial.seeded else
                                                                             set(self.decks))
        absent = set(initial.absent_cards)
        self.decks = [d for d in self.decks if d not in gone]
        self.cards = {i: c for i, c in self.cards.items() if c["deck"] not in gone and c["front"] not in absent}
        for deck in initial.decks:
            self._put_deck(deck.name, [c.to_data() for c in deck.cards])

    def home(self) -> Screen:
        """The deck list."""
        return Screen(PACKAGE, "decks")

    # -- the model ----------------------------------------------------------------------------------------------------
    def deck_cards(self, deck: str) -> list[dict[str, Any]]:
        """The cards of `deck`."""
        return [c for c in self.cards.values() if c["deck"] == deck]

    def listing(self) -> list[str]:
        """The decks as the deck list shows them: by name."""
        return sorted(self.decks, key=str.casefold)

    def next_card(self, deck: str) -> int | None:
        """The next card to study in `deck`: learning cards due, then review cards due, then new cards (by id)."""
        today = D.day(0)
        for queue in ("learning", "review", "new"):
            due = [i for i, c in self.cards.items() if c["deck"] == deck and c["queue"] == queue
                   and (queue == "new" or c["due"] <= today)]
            if due:
                return min(due, key=lambda i: (self.cards[i]["due"], i))
        return None

    def state(self) -> AnkiState:
        """The decks, the cards, the screen and what changed since set-up (see `AnkiState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened = next((s for s in reversed(mine) if s.name in ("review", "edit")), None)
        card = self.cards.get(opened.args["card"]) if opened is not None else None
        decks = []
        for name in self.listing():
            cards = self.deck_cards(name)
            new, learning, due = D.counts(cards)
            decks.append({"name": name, "new": new, "learning": learning, "due": due, "cards": len(cards)})
        keys = ("deck", "front", "back", "queue", "due", "reviews")
        return {"decks": decks,
                "cards": [{k: c[k] for k in keys} for c in sorted(self.cards.values(),
                                                                   key=lambda c: (c["deck"], c["front"]))],
                "screen": front.name if front else None, "deck": self.current,
                "card": card["front"] if card is not None else None,
                "shown": bool(front is not None and front.name == "review" and front.args["shown"]),
                "added": [{k: self.cards[i][k] for k in ("deck", "front", "back")} for i in self.added],
                "removed": [dict(r) for r in self.removed], "edited": [dict(e) for e in self.edited],
                "reviews": [dict(r) for r in self.reviews], "decks_added": list(self.decks_added),
                "decks_removed": list(self.decks_removed), "decks_renamed": [dict(r) for r in self.decks_renamed],
                "opened": list(self.opened)}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a dialog or menu over the (inert) page below it."""
        pages = {"decks": self._decks, "overview": self._overview, "review": self._review, "add": self._add,
                 "browser": self._browser, "edit": self._edit}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        overlays = {"fab_menu": self._fab_menu, "deck_menu": self._deck_menu, "deck_name": self._deck_name,
                    "delete_deck": self._delete_deck, "choice": self._choice, "delete_card": self._delete_card}
        return [*under, overlays[screen.name](screen)]

    def _action(self, i: int, desc: str, icon: str, event: tuple) -> View:
        """Toolbar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H,
                                   CONTENT_TOP + TOOLBAR_H), desc=desc, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, icon=icon)

    def _decks(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = [self._deck_row(top + k * DECK_ROW_H, name) for k, name in enumerate(self.listing())]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No decks",
                         package=PACKAGE, style="hint")]
        fab = View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                   rid=f"{PACKAGE}:id/fab_main", package=PACKAGE, clickable=True, focusable=True, on_tap=("fab",),
                   style="fab", icon="add")
        return [toolbar("AnkiDroid", PACKAGE, PACKAGE, has_back=False),
                self._action(0, BROWSER_DESC, "search", ("browse",)),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/files"), fab]

    def _deck_row(self, y: int, name: str) -> View:
        new, learning, due = D.counts(self.deck_cards(name))
        kids = [View(TEXT_VIEW, (MARGIN, y + 40, WIDTH - 560, y + 160), text=name, rid=DECK_RID, package=PACKAGE,
                     style="row_title")]
        for k, (value, rid, what) in enumerate(((new, NEW_RID, "new"), (learning, LEARN_RID, "learning"),
                                                (due, DUE_RID, "due"))):
            x = WIDTH - 540 + k * 130
            kids.append(View(TEXT_VIEW, (x, y + 40, x + 120, y + 160), text=str(value), rid=rid,
                             desc=f"{value} {what}", package=PACKAGE, style="row_summary"))
        kids.append(View(IMAGE_BUTTON, (WIDTH - 150, y + 40, WIDTH - 30, y + 160), desc=f"More options for {name}",
                         package=PACKAGE, clickable=True, focusable=True, on_tap=("deck_menu", name), icon="more"))
        return View(LINEAR, (0, y, WIDTH, y + DECK_ROW_H), rid=f"{PACKAGE}:id/DeckPickerHoriz", package=PACKAGE,
                    clickable=True, focusable=True, on_tap=("open", name), style="row", children=kids)

    def _overview(self, screen: Screen) -> list[View]:
        deck = screen.args["deck"]
        cards = self.deck_cards(deck)
        new, learning, due = D.counts(cards)
        col = Column(CONTENT_TOP + TOOLBAR_H + 60, PACKAGE)
        col.text(deck, height=130, style="section", rid=f"{PACKAGE}:id/studyoptions_deck_name")
        for label, value, rid in (("New", new, NEW_RID), ("Learning", learning, LEARN_RID), ("Due", due, DUE_RID)):
            col.text(f"{label}: {value}", height=100, rid=rid.replace("deckpicker", "studyoptions"))
        col.text(f"Total cards: {len(cards)}", height=100, style="secondary", rid=TOTAL_RID)
        col.gap(60)
        if self.next_card(deck) is None:
            col.text("Congratulations! You have finished this deck for now.", height=140, style="hint",
                     rid=f"{PACKAGE}:id/studyoptions_congrats")
        else:
            col.button("Study now", ("study", deck), rid=STUDY_RID)
        return [toolbar(deck, PACKAGE, PACKAGE), *col.views]

    def _review(self, screen: Screen) -> list[View]:
        card = self.cards[screen.args["card"]]
        col = Column(CONTENT_TOP + TOOLBAR_H + 120, PACKAGE)
        col.text(card["front"], height=200, style="display", rid=FRONT_RID)
        views = [toolbar(screen.args["deck"], PACKAGE, PACKAGE)]
        y = CONTENT_BOTTOM - 220
        if screen.args["shown"]:
            col.gap(60)
            col.text(card["back"], height=200, style="section", rid=BACK_RID)
            w = WIDTH // 4
            for k, ease in enumerate(D.EASES):
                days = D.INTERVALS_D[ease]
                views.append(View(BUTTON, (k * w + 10, y, (k + 1) * w - 10, y + 200), text=EASE_LABELS[ease],
                                  desc=f"{EASE_LABELS[ease]}, {interval_label(days)}", package=PACKAGE,
                                  rid=f"{PACKAGE}:id/flashcard_layout_ease{k + 1}", clickable=True, focusable=True,
                                  on_tap=("answer", ease), style="button"))
        else:
            views.append(View(BUTTON, (MARGIN, y, WIDTH - MARGIN, y + 200), text="Show answer",
                              rid=f"{PACKAGE}:id/flashcard_layout_flip", package=PACKAGE, clickable=True,
                              focusable=True, on_tap=("show",), style="button"))
        return [*views, *col.views]

    def _editor(self, screen: Screen, title: str, rows: list[tuple[str, tuple]], actions: list[View]) -> list[View]:
        col = Column(CONTENT_TOP + TOOLBAR_H + 30, PACKAGE)
        for text, event in rows:
            col.button(text, event, height=140, style="row")
        col.text("Front", height=70, style="secondary")
        col.field(FRONT_FIELD, screen.fields.get(FRONT_FIELD, ""), "Front", screen.focus == FRONT_FIELD)
        col.text("Back", height=70, style="secondary")
        col.field(BACK_FIELD, screen.fields.get(BACK_FIELD, ""), "Back", screen.focus == BACK_FIELD)
        if screen.args.get("error"):
            col.text(screen.args["error"], height=80, style="hint", rid=f"{PACKAGE}:id/error")
        return [toolbar(title, PACKAGE, PACKAGE), *actions, *col.views]

    def _add(self, screen: Screen) -> list[View]:
        rows = [(f"Type: {screen.args['type']}", ("choose", "type")), (f"Deck: {screen.args['deck']}",
                                                                        ("choose", "deck"))]
        views = self._editor(screen, "Add", rows, [self._action(0, "Save", "check", ("save",))])
        if screen.args["added"]:
            n = screen.args["added"]
            views.append(View(TEXT_VIEW, (MARGIN, CONTENT_BOTTOM - 200, WIDTH - MARGIN, CONTENT_BOTTOM - 100),
                              text=f"{n} note{'s' if n > 1 else ''} added", package=PACKAGE, style="secondary"))
        return views

    def _edit(self, screen: Screen) -> list[View]:
        card = self.cards[screen.args["card"]]
        views = self._editor(screen, "Edit note", [(f"Deck: {screen.args['deck']}", ("choose", "deck"))],
                             [self._action(1, "Delete note", "delete", ("delete_card",)),
                              self._action(0, "Save", "check", ("save",))])
        views.append(View(TEXT_VIEW, (MARGIN, CONTENT_BOTTOM - 200, WIDTH - MARGIN, CONTENT_BOTTOM - 100),
                          text=f"{when(card)} \u00b7 {card['reviews']} reviews",
                          rid=f"{PACKAGE}:id/card_due", package=PACKAGE, style="secondary"))
        return views

    def matches(self, query: str) -> list[int]:
        """The cards whose front or back holds `query` (case ignored), by front."""
        q = query.strip().casefold()
        hits = [i for i, c in self.cards.items() if q in c["front"].casefold() or q in c["back"].casefold()]
        return sorted(hits, key=lambda i: (self.cards[i]["front"].casefold(), self.cards[i]["deck"], i))

    def _browser(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        search = text_field((MARGIN, top + 10, WIDTH - MARGIN, top + 150), SEARCH_RID,
                            screen.fields.get(SEARCH_RID, ""), "Search", screen.focus == SEARCH_RID, PACKAGE,
                            icon="search")
        y0 = top + 170
        rows = []
        for k, i in enumerate(self.matches(screen.args["query"])):
            c, y = self.cards[i], y0 + k * CARD_ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + CARD_ROW_H), package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("card", i), style="row", children=[
                                 View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 90), text=c["front"],
                                      rid=ROW_FRONT_RID, package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (MARGIN, y + 90, WIDTH - MARGIN, y + 155), text=c["back"],
                                      rid=ROW_BACK_RID, package=PACKAGE, style="row_summary"),
                                 View(TEXT_VIEW, (MARGIN, y + 155, WIDTH - MARGIN, y + 215),
                                      text=f"{c['deck']} \u00b7 {when(c)}", rid=ROW_INFO_RID,
                                      package=PACKAGE, style="row_summary")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, y0 + 100, WIDTH - MARGIN, y0 + 200), text="No cards found",
                         package=PACKAGE, style="hint")]
        return [toolbar("Card browser", PACKAGE, PACKAGE), search,
                scroll_list(y0, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/card_browser_list")]

    def _fab_menu(self, screen: Screen) -> View:
        return popup_menu(PACKAGE, [("Add", ("add",)), ("Create deck", ("create",))], ("cancel",))

    def _deck_menu(self, screen: Screen) -> View:
        return popup_menu(PACKAGE, [("Rename deck", ("rename",)), ("Delete deck", ("delete_deck",))], ("cancel",))

    def _deck_name(self, screen: Screen) -> View:
        y = dialog_body_top(560)
        body = [text_field((150, y, WIDTH - 150, y + 144), NAME_RID, screen.fields.get(NAME_RID, ""), "Deck name",
                           screen.focus == NAME_RID, PACKAGE)]
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=screen.args["error"],
                             rid=f"{PACKAGE}:id/txt_error", package=PACKAGE, style="hint"))
        title = "Create deck" if screen.args["mode"] == "create" else "Rename deck"
        return app_dialog(PACKAGE, title, body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)])

    def _delete_deck(self, screen: Screen) -> View:
        deck = screen.args["deck"]
        n = len(self.deck_cards(deck))
        return app_dialog(PACKAGE, "Delete deck?", [], [("Cancel", ("cancel",), True), ("Delete", ("ok",), True)],
                          message=f"\u201c{deck}\u201d and its {n} card{'s' if n != 1 else ''} will be deleted.")

    def _delete_card(self, screen: Screen) -> View:
        return app_dialog(PACKAGE, "Delete note?", [], [("Cancel", ("cancel",), True), ("Delete", ("ok",), True)],
                          message="This note and its cards will be deleted.")

    def _choice(self, screen: Screen) -> View:
        below = self.phone.screens(PACKAGE)[-2]
        key = screen.args["key"]
        options = D.NOTE_TYPES if key == "type" else tuple(self.listing())
        y = dialog_body_top(300)
        rows = [View("android.widget.RadioButton", (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130), text=o,
                     package=PACKAGE, clickable=True, focusable=True, checkable=True, checked=below.args[key] == o,
                     on_tap=("pick", o), style="radio") for k, o in enumerate(options)]
        title = "Note type" if key == "type" else "Choose deck"
        return app_dialog(PACKAGE, title, rows, [("Cancel", ("cancel",), True)], top=300)

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The deck list, menus, dialogs, the overview, the reviewer, the editors and the browser."""
        if event == ("cancel",):
            return self.phone.pop()
        push = self.phone.push
        match screen.name, event:
            case "decks", ("open", deck):
                self.current = deck
                self.opened.append(deck)
                return push(Screen(PACKAGE, "overview", {"deck": deck}))
            case "decks", ("browse",):
                return push(Screen(PACKAGE, "browser", {"query": ""}))
            case "decks", ("fab",):
                return push(Screen(PACKAGE, "fab_menu"))
            case "decks", ("deck_menu", deck):
                return push(Screen(PACKAGE, "deck_menu", {"deck": deck}))
            case "fab_menu", ("add",):
                deck = self.current if self.current in self.decks else next(iter(self.listing()), "Default")
                return self.phone.replace(Screen(PACKAGE, "add", {"type": "Basic", "deck": deck, "error": "",
                                                                  "added": 0}))
            case "fab_menu", ("create",):
                return self.phone.replace(Screen(PACKAGE, "deck_name", {"mode": "create", "deck": None, "error": ""},
                                                 focus=NAME_RID))
            case "deck_menu", ("rename",):
                deck = screen.args["deck"]
                return self.phone.replace(Screen(PACKAGE, "deck_name", {"mode": "rename", "deck": deck, "error": ""},
                                                 {NAME_RID: deck}, focus=NAME_RID))
            case "deck_menu", ("delete_deck",):
                return self.phone.replace(Screen(PACKAGE, "delete_deck", {"deck": screen.args["deck"]}))
            case "deck_name", ("ok",):
                return self._name_ok(screen)
            case "delete_deck", ("ok",):
                return self._delete_deck_ok(screen.args["deck"])
            case "overview", ("study", deck):
                card = self.next_card(deck)
                return card is not None and push(Screen(PACKAGE, "review", {"deck": deck, "card": card,
                                                                            "shown": False}))
            case "review", ("show",):
                screen.args["shown"] = True
                return True
            case "review", ("answer", ease) if screen.args["shown"]:
                return self._answer(screen, ease)
            case ("add" | "edit"), ("choose", key):
                return push(Screen(PACKAGE, "choice", {"key": key}))
            case "choice", ("pick", value):
                self.phone.screens(PACKAGE)[-2].args[screen.args["key"]] = value
                return self.phone.pop()
            case "add", ("save",):
                return self._add_ok(screen)
            case "browser", ("card", i):
                c = self.cards[i]
                return push(Screen(PACKAGE, "edit", {"card": i, "deck": c["deck"], "error": ""},
                                   {FRONT_FIELD: c["front"], BACK_FIELD: c["back"]}))
            case "edit", ("save",):
                return self._edit_ok(screen)
            case "edit", ("delete_card",):
                return push(Screen(PACKAGE, "delete_card", {"card": screen.args["card"]}))
            case "delete_card", ("ok",):
                return self._delete_card_ok(screen.args["card"])
        return False

    def _name_ok(self, screen: Screen) -> bool:
        name, old = screen.fields.get(NAME_RID, "").strip(), screen.args["deck"]
        if name == old:
            return self.phone.pop()
        if error := name_refusal(name, self.decks, "deck"):
            screen.args["error"] = error
            return True
        if old is None:
            self.decks.append(name)
            self.decks_added.append(name)
        else:
            self.decks[self.decks.index(old)] = name
            for c in self.cards.values():
                if c["deck"] == old:
                    c["deck"] = name
            self.decks_renamed.append({"from": old, "to": name})
            self.decks_added = [name if d == old else d for d in self.decks_added]
            self.current = name if self.current == old else self.current
        return self.phone.pop()

    def _delete_deck_ok(self, deck: str) -> bool:
        for i in [i for i, c in self.cards.items() if c["deck"] == deck]:
            self._drop(i)
        self.decks.remove(deck)
        self.decks_removed.append(deck)
        self.current = None if self.current == deck else self.current
        return self.phone.pop()

    def _drop(self, i: int) -> None:
        c = self.cards.pop(i)
        if i in self.added:
            self.added.remove(i)
        else:
            self.removed.append({"deck": c["deck"], "front": c["front"], "back": c["back"]})

    def _answer(self, screen: Screen, ease: str) -> bool:
        i, deck = screen.args["card"], screen.args["deck"]
        c = self.cards[i]
        c["queue"] = "learning" if ease == "again" else "review"
        c["due"], c["reviews"] = D.day(D.INTERVALS_D[ease]), c["reviews"] + 1
        self.reviews.append({"deck": deck, "front": c["front"], "ease": ease})
        nxt = self.next_card(deck)
        if nxt is None:
            return self.phone.pop()
        screen.args.update(card=nxt, shown=False)
        return True

    def _add_ok(self, screen: Screen) -> bool:
        front, back = screen.fields.get(FRONT_FIELD, "").strip(), screen.fields.get(BACK_FIELD, "").strip()
        if not front:
            screen.args["error"] = "The first field is empty"
            return True
        deck, note = screen.args["deck"], self.next_id
        if deck not in self.decks:
            self.decks.append(deck)
        sides = [(front, back)] + ([(back, front)] if screen.args["type"] != "Basic" and back else [])
        for f, b in sides:
            self.cards[self.next_id] = {"deck": deck, "front": f, "back": b, "queue": "new", "due": D.day(0),
                                        "reviews": 0, "note": note}
            self.added.append(self.next_id)
            self.next_id += 1
        screen.fields.clear()
        screen.focus = FRONT_FIELD
        screen.args.update(error="", added=screen.args["added"] + 1)
        return True

    def _edit_ok(self, screen: Screen) -> bool:
        c = self.cards[screen.args["card"]]
        front, back = screen.fields.get(FRONT_FIELD, "").strip(), screen.fields.get(BACK_FIELD, "").strip()
        if not front:
            screen.args["error"] = "The first field is empty"
            return True
        after = {"deck": screen.args["deck"], "front": front, "back": back}
        if after != {k: c[k] for k in after}:
            self.edited.append({"card": c["front"], **after})
            c.update(after)
        return self.phone.pop()

    def _delete_card_ok(self, i: int) -> bool:
        note = self.cards[i]["note"]
        for j in [j for j, c in self.cards.items() if c["note"] == note]:
            self._drop(j)
        self.phone.pop()
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER searches in the browser, is OK in the deck name dialog, and moves from Front to Back in an editor."""
        if screen.name == "browser" and rid == SEARCH_RID:
            screen.args["query"], screen.focus, screen.scroll = screen.fields.get(SEARCH_RID, ""), None, 0
            return True
        if screen.name == "deck_name" and rid == NAME_RID:
            return self._name_ok(screen)
        if screen.name in ("add", "edit") and rid == FRONT_FIELD:
            screen.focus = BACK_FIELD
            return True
        return False
