"""The Contacts app: the phone's address book, which owns the episode's contacts (`ContactsApp.people`).

Screens: "list" (home: a search field that filters, favourites first, then everyone by name, and the "Create contact"
button), "details" (args {"name"}: one contact's card with Call / Text / Email, the favourite star, "Edit contact" and
"More options"), "menu" and "confirm" (the "More options" menu and the "Delete this contact?" dialog, each drawn over
the card beneath), and "editor" (args {"name": the contact being edited, or None for a new one}: First name, Last
name, Phone (with its label: "Mobile" until picked from the label menu, args "phone_label" and "labels") and Email
fields and "Save"; BACK with unsaved changes asks "Discard changes?").

The contacts an episode starts with come from `people.people(seed)` (never the episode RNG); task set-up adds or
removes some (`ContactsInitial`). Calls go to an installed app that implements `Caller` (the Phone app), texts and
e-mails to Messages and Gmail (through `Composer` when they implement it, else they just open).
"""

from __future__ import annotations

import re
from typing import Literal, Protocol, runtime_checkable

from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import ACTION_VIEW, App, IntentFilter, Screen
from android_gym.sim.app_state import closed
from android_gym.sim.apps.people import CONTACTS_PACKAGE, Person
from android_gym.sim.apps.people import people as seeded_people
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    ROW_H,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = CONTACTS_PACKAGE
SEARCH_RID = f"{PACKAGE}:id/open_search_bar_text_view"
ROW_RID = f"{PACKAGE}:id/cliv_name_textview"
FAB_RID = f"{PACKAGE}:id/floating_action_button"
NAME_RID = f"{PACKAGE}:id/large_title"
STAR_RID = f"{PACKAGE}:id/menu_star"
SAVE_RID = f"{PACKAGE}:id/toolbar_button"
FIRST_RID, LAST_RID, PHONE_RID, EMAIL_RID = (f"{PACKAGE}:id/{n}" for n in ("first_name", "last_name", "phone",
                                                                            "email"))
FIELDS = (("First name", FIRST_RID, "person"), ("Last name", LAST_RID, ""), ("Phone", PHONE_RID, "phone"),
          ("Email", EMAIL_RID, "mail"))
"""The editor's fields in order: hint, resource-id, leading icon (ENTER moves to the next one)."""
NO_NAME = "Add a name to save this contact"
LABEL_RID = f"{PACKAGE}:id/phone_type"
PHONE_LABELS = ("Mobile", "Home", "Work", "Main", "Other")
"""The Phone field's labels, in the label menu's order (a new number is "Mobile" until changed; the sim's saved
contacts keep their number, not its label)."""
HEADER_H = 96
INFO_ROW_H = 210
MENU_ITEMS = (("Delete", ("ask_delete",)), ("Share", ("close",)), ("Help & feedback", ("close",)))


_NOT_DIALABLE = re.compile(r"[^0-9*#+]")


def digits(number: str) -> str:
    """The dialable characters of a phone number (digits, "*", "#", "+").

    >>> digits("(415) 555-0123")
    '4155550123'
    """
    return _NOT_DIALABLE.sub("", number)


def format_number(text: str) -> str:
    """A number as the apps show it: ten digits (or 1 and ten) as "(415) 555-0123", anything else as typed.

    >>> format_number("4155550123"), format_number("+1 415 555 0123"), format_number(" 911 ")
    ('(415) 555-0123', '(415) 555-0123', '911')
    """
    d = digits(text).lstrip("+")
    if len(d) == 11 and d.startswith("1"):
        d = d[1:]
    if len(d) == 10 and d.isdigit():
        return f"({d[:3]}) {d[3:6]}-{d[6:]}"
    return text.strip()


def same_name(a: str, b: str) -> bool:
    """Whether two names are the same contact name, ignoring case and spacing.

    >>> same_name("Ana  costa", "Ana Costa")
    True
    """
    return " ".join(a.split()).lower() == " ".join(b.split()).lower()


def same_person(a: str, b: str) -> bool:
    """`same_name`, full stops ignored too ("Dr Alvarez" is "Dr. Alvarez").

    >>> same_person("dr alvarez", "Dr. Alvarez")
    True
    """
    return same_name(a.replace(".", " "), b.replace(".", " "))


def split_name(name: str) -> tuple[str, str]:
    """The editor's First name and Last name for `name`: its first word, and the rest ("" for one name).

    >>> split_name("Ana Costa"), split_name("Mom")
    (('Ana', 'Costa'), ('Mom', ''))
    """
    first, _, last = name.partition(" ")
    return first, last.strip()


def details_screen(name: str) -> Screen:
    """The card of contact `name` (for intents from other apps)."""
    return Screen(PACKAGE, "details", {"name": name})


def editor_screen(person: Person | None = None, phone: str = "") -> Screen:
    """The editor for `person`, or "Create contact" with the Phone field pre-filled with `phone`."""
    if person is None:
        values = {FIRST_RID: "", LAST_RID: "", PHONE_RID: phone, EMAIL_RID: ""}
    else:
        first, _, last = person.name.partition(" ")
        values = {FIRST_RID: first, LAST_RID: last, PHONE_RID: person.phone, EMAIL_RID: person.email}
    return Screen(PACKAGE, "editor", {"name": person.name if person else None, "original": dict(values),
                                      "error": "", "discard": False, "phone_label": "Mobile", "labels": False},
                  fields=dict(values))


@runtime_checkable
class Caller(Protocol):
    """An app that places phone calls (the Phone app); Contacts' Call buttons go through it."""

    def place_call(self, number: str) -> bool:
        """Call `number`, showing the in-call screen; True if a call started."""
        ...


@runtime_checkable
class Composer(Protocol):
    """An app that starts a message or an e-mail to an address (Messages, Gmail), when it offers one."""

    def compose_to(self, address: str) -> bool:
        """Open a new message to `address` (a phone number or an e-mail address); True if anything changed."""
        ...


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
ContactsScreen = Literal["list", "details", "menu", "confirm", "editor"]


@closed
class ContactEntry(TypedDict):
    """A contact as tasks see it: name, phone number as shown ("" for none), e-mail ("" for none), favourite or not."""

    name: str
    phone: str
    email: str
    starred: bool


@closed
class ContactsState(TypedDict):
    """What the Contacts app reports (`ContactsApp.state`); "since the start" means after the task's set-up.

    Attributes:
        contacts: every contact, sorted by name.
        screen: the front screen's name when Contacts is in front, else None.
        shown: the contact whose card is in front (screen "details"), else None.
        query: the contact list's search text ("" without a list on the stack).
        added: the contacts not there at the start.
        removed: the names of the contacts no longer there.
        changed: the names of the contacts still there whose phone, e-mail or star changed.
        opened: the names whose card was opened from the list since the start, in order (a task reads a card, then
            goes on in another app: the card is no longer in front).
    """

    contacts: list[ContactEntry]
    screen: ContactsScreen | None
    shown: str | None
    query: str
    added: list[ContactEntry]
    removed: list[str]
    changed: list[str]
    opened: list[str]


class NewContact(ConfigModel):
    """A contact a task adds.

    Attributes:
        name: the full name (an added contact replaces one of the same name).
        phone: the number, shown formatted (`format_number`).
        email: the e-mail address ("" for none).
        starred: whether it is a favourite.
    """

    name: str
    phone: str
    email: str = ""
    starred: bool = False


class ContactChanges(ConfigModel):
    """How a task changes the episode's contacts: names removed first, then contacts added.

    Attributes:
        add: contacts added (replacing any of the same name).
        remove: names removed (a name that is not there does nothing: the seeded contacts differ per episode).
    """

    add: tuple[NewContact, ...] = ()
    remove: tuple[str, ...] = ()


class ContactsInitial(ConfigModel):
    """The initial conditions a Contacts task may set.

    Attributes:
        contacts: the changes to the episode's contacts.
    """

    contacts: ContactChanges = ContactChanges()


class ContactsApp(App):
    """Google Contacts. `people` is the live list (sorted by name, names unique), `starred` the favourites' names."""

    package = PACKAGE
    label = "Contacts"
    icon = "contacts"
    aliases = ("google contacts", "address book")
    intent_filters = (IntentFilter(ACTION_VIEW, ("content://contacts/", "content://com.android.contacts/")),)
    state_schema = ContactsState
    initial_model = ContactsInitial

    def reset(self) -> None:
        """The episode's contacts (`people.people(seed)`), none starred."""
        self.people: list[Person] = seeded_people(self.phone.seed)
        self.starred: set[str] = set()
        self.opened: list[str] = []
        self._baseline = self._contacts()

    def set_up(self, initial: ContactsInitial) -> None:
        """Remove, then add the contacts of `initial.contacts`; what is there after is what `state` compares with."""
        change = initial.contacts
        for name in change.remove:
            self._drop(name)
        for c in change.add:
            self._drop(c.name)
            self.people.append(Person(c.name, format_number(c.phone), c.email))
            if c.starred:
                self.starred.add(c.name)
        self.people.sort(key=lambda p: p.name)
        self._baseline = self._contacts()

    def home(self) -> Screen:
        """The contact list."""
        return Screen(PACKAGE, "list")

    def find(self, name: str) -> Person | None:
        """The contact called `name` (case and spacing ignored), or None."""
        return next((p for p in self.people if same_name(p.name, name)), None)

    def _drop(self, name: str) -> None:
        person = self.find(name)
        if person is not None:
            self.people.remove(person)
            self.starred.discard(person.name)

    def _contacts(self) -> list[ContactEntry]:
        return [{"name": p.name, "phone": p.phone, "email": p.email, "starred": p.name in self.starred}
                for p in self.people]

    def state(self) -> ContactsState:
        """The contacts, where the app is, and what changed since the episode began (see `ContactsState`)."""
        now = self._contacts()
        before = {c["name"]: c for c in self._baseline}
        names = {c["name"] for c in now}
        top = self.phone.top
        front = top if top.package == PACKAGE else None
        mine = self.phone.screens(PACKAGE)
        lists = [s for s in mine if s.name == "list"]
        return {"contacts": now, "screen": front.name if front else None,
                "shown": front.args["name"] if front and front.name == "details" else None,
                "query": lists[-1].fields.get(SEARCH_RID, "") if lists else "",
                "added": [c for c in now if c["name"] not in before],
                "removed": [n for n in before if n not in names],
                "changed": [c["name"] for c in now if c["name"] in before and c != before[c["name"]]],
                "opened": list(self.opened)}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The list, a card (with the menu or the delete dialog over it), or the editor."""
        if screen.name in ("menu", "confirm"):
            overlay = self._menu() if screen.name == "menu" else self._confirm(screen.args["name"])
            return [*self._details(screen.args["name"]), overlay]
        if screen.name == "details":
            return self._details(screen.args["name"])
        if screen.name == "editor":
            return self._editor(screen)
        return self._list(screen)

    def _list(self, screen: Screen) -> list[View]:
        query = screen.fields.get(SEARCH_RID, "")
        top = CONTENT_TOP + 24
        search = text_field((MARGIN, top, WIDTH - MARGIN, top + 144), SEARCH_RID, query, "Search contacts",
                            screen.focus == SEARCH_RID, PACKAGE, icon="search")
        list_top = top + 168
        q, qd = query.strip().lower(), digits(query)
        shown = [p for p in self.people if q in p.name.lower() or (qd and qd in digits(p.phone))]
        rows: list[View] = []
        y = list_top

        def section(title: str, people: list[Person]) -> None:
            nonlocal y
            rows.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + HEADER_H), text=title, package=PACKAGE,
                             style="secondary"))
            y += HEADER_H
            for p in people:
                rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), text=p.name, rid=ROW_RID, package=PACKAGE,
                                 clickable=True, focusable=True, on_tap=("open", p.name), style="row",
                                 icon="star" if p.name in self.starred else "person"))
                y += ROW_H

        favourites = [p for p in shown if p.name in self.starred]
        if favourites:
            section("Favourites", favourites)
        others = [p for p in shown if p.name not in self.starred]
        if others:
            section(f"Contacts ({len(others)})", others)
        if not shown:
            rows.append(View(TEXT_VIEW, (MARGIN, y + 200, WIDTH - MARGIN, y + 320), package=PACKAGE, style="hint",
                             text=f'No results for "{query.strip()}"' if q else "No contacts yet"))
        fab = View(IMAGE_BUTTON, (WIDTH - MARGIN - 220, CONTENT_BOTTOM - 260, WIDTH - MARGIN, CONTENT_BOTTOM - 40),
                   desc="Create contact", rid=FAB_RID, package=PACKAGE, clickable=True, focusable=True,
                   on_tap=("create",), style="fab", icon="add")
        return [search, scroll_list(list_top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/contact_list"),
                fab]

    def _details(self, name: str) -> list[View]:
        bar = toolbar("", PACKAGE, PACKAGE)
        person = self.find(name)
        if person is None:  # only while a screen outlives its contact; never on top
            return [bar]
        starred = person.name in self.starred
        b = bar.bounds
        bar.children += [
            View(IMAGE_BUTTON, (WIDTH - 3 * TOOLBAR_H, b[1], WIDTH - 2 * TOOLBAR_H, b[3]), rid=STAR_RID,
                 desc="Remove from favourites" if starred else "Add to favourites", package=PACKAGE, clickable=True,
                 focusable=True, checkable=True, checked=starred, on_tap=("star",), icon="star"),
            View(BUTTON, (WIDTH - 2 * TOOLBAR_H, b[1] + 30, WIDTH - TOOLBAR_H, b[3] - 30), text="Edit",
                 desc="Edit contact", rid=f"{PACKAGE}:id/menu_edit", package=PACKAGE, clickable=True,
                 focusable=True, on_tap=("edit",), style="text_button"),
            View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, b[1], WIDTH, b[3]), desc="More options", package=PACKAGE,
                 rid=f"{PACKAGE}:id/more_options", clickable=True, focusable=True, on_tap=("menu",), icon="more"),
        ]
        top = b[3]
        views = [bar,
                 View(IMAGE_VIEW, (WIDTH // 2 - 130, top + 40, WIDTH // 2 + 130, top + 300), package=PACKAGE,
                      rid=f"{PACKAGE}:id/photo", icon="person"),
                 View(TEXT_VIEW, (MARGIN, top + 330, WIDTH - MARGIN, top + 460), text=person.name, rid=NAME_RID,
                      package=PACKAGE, style="title")]
        w = (WIDTH - 2 * MARGIN) // 3
        for i, (verb, icon, event, ok) in enumerate((("Call", "phone", ("call",), bool(person.phone)),
                                                     ("Text", "sms", ("text",), bool(person.phone)),
                                                     ("Email", "mail", ("email",), bool(person.email)))):
            x = MARGIN + i * w
            views.append(View(BUTTON, (x + 12, top + 500, x + w - 12, top + 640), text=verb, desc=verb,
                              rid=f"{PACKAGE}:id/verb_{verb.lower()}", package=PACKAGE, clickable=True,
                              focusable=True, enabled=ok, on_tap=event, style="outlined_button", icon=icon))
        views.append(View(TEXT_VIEW, (MARGIN, top + 700, WIDTH - MARGIN, top + 700 + HEADER_H),
                          text="Contact info", package=PACKAGE, style="secondary"))
        y = top + 700 + HEADER_H
        for value, kind, verb, icon, event in ((person.phone, "Mobile", "Call", "phone", ("call",)),
                                               (person.email, "Home", "Email", "mail", ("email",))):
            if value:
                views.append(self._info_row(value, kind, f"{verb} {kind} {value}", icon, event, y))
                y += INFO_ROW_H
        return views

    @staticmethod
    def _info_row(value: str, kind: str, desc: str, icon: str, event: tuple, y: int) -> View:
        """A row of the card's contact info: the value over its kind ("Mobile"); a tap calls or e-mails."""
        return View(LINEAR, (0, y, WIDTH, y + INFO_ROW_H), desc=desc, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, style="row", icon=icon, children=[
                        View(TEXT_VIEW, (180, y + 25, WIDTH - MARGIN, y + 115), text=value, package=PACKAGE,
                             rid=f"{PACKAGE}:id/{'phone_number' if icon == 'phone' else 'email_address'}"),
                        View(TEXT_VIEW, (180, y + 115, WIDTH - MARGIN, y + 185), text=kind, package=PACKAGE,
                             style="secondary")])

    def _menu(self) -> View:
        x0, x1, y0 = WIDTH - 600, WIDTH - 24, CONTENT_TOP + 24
        rows = [View(TEXT_VIEW, (x0, y0 + 30 + i * 140, x1, y0 + 170 + i * 140), text=label, package=PACKAGE,
                     rid=f"{PACKAGE}:id/title", clickable=True, focusable=True, on_tap=event, style="row")
                for i, (label, event) in enumerate(MENU_ITEMS)]
        box = View(FRAME, (x0, y0, x1, y0 + 60 + 140 * len(rows)), package=PACKAGE, style="dialog", children=rows)
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=PACKAGE, clickable=True, on_tap=("close",),
                    style="scrim", children=[box])

    @staticmethod
    def _dialog(title: str, message: str, buttons: tuple[tuple[str, tuple], ...], dismiss: tuple) -> View:
        """An app-own alert: title, message and text buttons (the last one is the positive one, on the right)."""
        x0, x1, y0 = 90, WIDTH - 90, 820
        kids = [View(TEXT_VIEW, (x0 + 60, y0 + 60, x1 - 60, y0 + 200), text=title, rid="android:id/alertTitle",
                     package=PACKAGE, style="dialog_title"),
                View(TEXT_VIEW, (x0 + 60, y0 + 200, x1 - 60, y0 + 380), text=message, rid="android:id/message",
                     package=PACKAGE)]
        right = x1 - 60
        for i, (label, event) in enumerate(reversed(buttons)):
            kids.append(View(BUTTON, (right - 320, y0 + 400, right, y0 + 530), text=label, package=PACKAGE,
                             rid=f"android:id/button{i + 1}", clickable=True, focusable=True, on_tap=event,
                             style="text_button"))
            right -= 340
        box = View(FRAME, (x0, y0, x1, y0 + 580), rid="android:id/parentPanel", package=PACKAGE, style="dialog",
                   children=kids)
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=PACKAGE, clickable=True, on_tap=dismiss, style="scrim",
                    children=[box])

    def _confirm(self, name: str) -> View:
        return self._dialog("Delete this contact?", f"{name} will be permanently deleted from this device.",
                            (("Cancel", ("close",)), ("Delete", ("delete",))), ("close",))

    def _editor(self, screen: Screen) -> list[View]:
        args = screen.args
        bar = toolbar("Edit contact" if args["name"] else "Create contact", PACKAGE, PACKAGE)
        bar.children.append(View(BUTTON, (WIDTH - 300, CONTENT_TOP + 28, WIDTH - MARGIN, CONTENT_TOP + 140),
                                 text="Save", rid=SAVE_RID, package=PACKAGE, clickable=True, focusable=True,
                                 on_tap=("save",), style="button"))
        col = Column(CONTENT_TOP + TOOLBAR_H + 24, PACKAGE)
        if args["error"]:
            col.text(args["error"], height=96, rid=f"{PACKAGE}:id/error")
        for hint, rid, icon in FIELDS:
            col.field(rid, screen.fields.get(rid, ""), hint, screen.focus == rid, icon=icon)
            if rid == PHONE_RID:  # the number's label, a spinner under it ("Mobile Phone" as TalkBack reads it)
                label = args["phone_label"]
                col.add(View("android.widget.Spinner", (MARGIN + 120, col.y + 12, 520, col.y + 120), text=label,
                             desc=f"{label} Phone", rid=LABEL_RID, package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("labels",), style="row_title"))
            col.gap(36)
        views = [bar, *col.views]
        if args["labels"]:
            spinner = next(v for v in col.views if v.rid == LABEL_RID).bounds
            rows = [View(TEXT_VIEW, (spinner[0], spinner[1] + i * 130, spinner[0] + 480, spinner[1] + (i + 1) * 130),
                         text=name, rid="android:id/text1", package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("label", name), style="row") for i, name in enumerate(PHONE_LABELS)]
            box = View(FRAME, (spinner[0], spinner[1], spinner[0] + 480, spinner[1] + 130 * len(rows)),
                       package=PACKAGE, style="dialog", children=rows)
            views.append(View(FRAME, (0, 0, WIDTH, HEIGHT), package=PACKAGE, clickable=True, on_tap=("label", None),
                              style="scrim", children=[box]))
        if args["discard"]:
            views.append(self._dialog("Discard changes?", "Your changes to this contact will not be saved.",
                                      (("Keep editing", ("keep",)), ("Discard", ("discard",))), ("keep",)))
        return views

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """List, card, menu, dialog and editor actions."""
        name = screen.args.get("name")
        person = self.find(name) if name else None
        match event:
            case ("open", who):
                self.opened.append(who)
                return self.phone.push(details_screen(who))
            case ("create",):
                return self.phone.push(editor_screen())
            case ("star",) if person is not None:
                self.starred ^= {person.name}
                return True
            case ("edit",) if person is not None:
                return self.phone.push(editor_screen(person))
            case ("menu",):
                return self.phone.push(Screen(PACKAGE, "menu", {"name": name}))
            case ("close",):
                return self.phone.pop()
            case ("ask_delete",):
                return self.phone.replace(Screen(PACKAGE, "confirm", {"name": name}))
            case ("delete",) if person is not None:
                self._drop(person.name)
                self.phone.pop()  # the dialog, then the card of the contact that is gone
                return self.phone.pop()
            case ("call",) if person is not None and person.phone:
                return self._call(person.phone)
            case ("text",) if person is not None and person.phone:
                return self._compose("Messages", person.phone)
            case ("email",) if person is not None and person.email:
                return self._compose("Gmail", person.email)
            case ("save",):
                return self._save(screen)
            case ("keep",):
                args_changed = screen.args["discard"]
                screen.args["discard"] = False
                return args_changed
            case ("discard",):
                return self.phone.pop()
            case ("labels",):
                screen.args["labels"], screen.focus = True, None
                return True
            case ("label", picked):  # a label of the menu, or None: the menu closed by a tap outside it
                screen.args["labels"] = False
                screen.args["phone_label"] = picked or screen.args["phone_label"]
                return True
        return False

    def on_back(self, screen: Screen) -> bool:
        """BACK in the editor with unsaved changes asks first; BACK on that dialog keeps editing."""
        if screen.name != "editor":
            return False
        if screen.args["labels"]:
            screen.args["labels"] = False
            return True
        if screen.args["discard"]:
            screen.args["discard"] = False
            return True
        if screen.fields != screen.args["original"] or screen.args["phone_label"] != "Mobile":
            screen.args["discard"] = True
            return True
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in an editor field moves to the next field (the last one closes the keyboard); the search field
        filters as it is typed, so ENTER there only closes the keyboard."""  # noqa: D205, D209
        order = [r for _, r, _ in FIELDS]
        if screen.name != "editor" or rid not in order or rid == order[-1]:
            return False
        screen.focus = order[order.index(rid) + 1]
        return True

    def _save(self, screen: Screen) -> bool:
        """Save the editor: refused with a message without a name or with another contact's name."""
        f = screen.fields
        name = " ".join(" ".join(f.get(r, "").split()) for r in (FIRST_RID, LAST_RID) if f.get(r, "").strip())
        original = screen.args["name"]
        clash = self.find(name) if name else None
        if not name or (clash is not None and clash.name != original):
            screen.args["error"] = f"{clash.name} is already in your contacts" if clash else NO_NAME
            screen.focus = None
            return True
        phone = f.get(PHONE_RID, "")
        person = Person(name, format_number(phone) if phone.strip() else "", f.get(EMAIL_RID, "").strip())
        if original is not None:
            was_starred = original in self.starred
            self._drop(original)
            if was_starred:
                self.starred.add(name)
        self.people = sorted([*self.people, person], key=lambda p: p.name)
        screen.focus = None
        if original is None:  # a new contact's card opens in place of the editor
            return self.phone.replace(details_screen(name))
        self.phone.pop()
        below = self.phone.top
        if below.package == PACKAGE and below.name == "details":
            below.args["name"] = name
        return True

    def _call(self, number: str) -> bool:
        caller = next((a for a in self.phone.installed() if isinstance(a, Caller)), None)
        return caller is not None and caller.place_call(number)

    def _compose(self, app_name: str, address: str) -> bool:
        """Hand `address` to the app `app_name`: a new message where it offers one, else just its home screen."""
        try:
            app = self.phone.find_app(app_name)
        except KeyError:  # not installed: the button does nothing
            return False
        if isinstance(app, Composer):
            return app.compose_to(address)
        return self.phone.push(app.home())
