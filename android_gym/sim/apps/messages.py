"""The Messages app (Google Messages): conversations with the episode's contacts, threads, new chats, deletion.

Conversations are drawn per episode from `stable_seed("messages", phone.seed)` and the phone's contacts
(`people.contacts_of`), never from the episode RNG. Screens: "home" (the conversation list, newest first), "thread"
(args {"number", "name"}: one conversation's bubbles and the compose bar), "new" (a new conversation's "To" field
and the matching contacts), "menu" (a "More options" pop-up over the screen under it, args {"items"}) and "confirm"
(the app's own "Delete this conversation?" dialog over the thread, args {"number"}).

"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
from pydantic import field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import SMS_DELIVER, App, Intent, IntentFilter, Screen, stable_seed
from android_gym.sim.app_dialogs import alert_dialog, popup_menu
from android_gym.sim.app_state import closed
from android_gym.sim.apps.people import contacts_of
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.keyboard import KEYBOARD_TOP
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.apps.messaging"
COMPOSE_RID = f"{PACKAGE}:id/compose_message_text"
TO_RID = f"{PACKAGE}:id/recipient_text_view"
ROW_RID = f"{PACKAGE}:id/swipeableContainer"
NAME_RID = f"{PACKAGE}:id/conversation_name"
CONTACT_RID = f"{PACKAGE}:id/contact_picker_item"
MESSAGE_RID = f"{PACKAGE}:id/message_text"
ROW_H = 220
BAR_H = 180
TIMES = ("9:32 AM", "8:51 AM", "7:15 AM", "Yesterday", "Mon", "Sun", "Sat", "Jun 4", "Jun 2", "May 30", "May 27",
         "May 21", "May 14", "May 2")
"""Time labels of the conversation list, newest first (the phone's clock reads 9:41 on Wednesday 10 June)."""
LINES = ("Are you free later?", "Sure, sounds good", "On my way!", "Running 10 minutes late, sorry",
         "Did you see the game last night?", "Can you call me when you get a chance?", "Thanks so much!",
         "See you at 7", "Happy birthday!! Hope it's a great one", "Lunch tomorrow?", "Just landed",
         "Got it, thanks", "Where are you parked?", "Love that idea", "Haha yes", "I'll bring snacks",
         "Don't forget the tickets", "Can you pick up milk on the way home?", "Meeting moved to 3",
         "Let me check and get back to you", "Miss you guys", "Is the party still on for Saturday?",
         "Call me back please", "Sent you the photos", "Good luck today!", "Traffic is terrible",
         "Want to grab coffee this week?", "No worries at all")


def digits(number: str) -> str:
    """The digits of a phone number, to compare numbers however they are written.

    >>> digits("(415) 555-0123")
    '4155550123'
    """
    return "".join(c for c in number if c.isdigit())


def seeded_threads(seed: int, people: list[Any]) -> list[dict[str, Any]]:
    """The conversations episode `seed` starts with, newest first: 4-6 of `people` (`people.Person`s)."""
    rng = np.random.default_rng(stable_seed("messages", seed))
    picks = rng.permutation(len(people))[:int(rng.integers(4, 7))]
    threads = []
    for k in picks:
        n = int(rng.integers(2, 7))
        lines = rng.choice(len(LINES), size=n, replace=False)
        mine = rng.random(n) < 0.45
        messages = [{"from_me": bool(m), "text": LINES[int(i)]} for i, m in zip(lines, mine, strict=True)]
        unread = not messages[-1]["from_me"] and bool(rng.random() < 0.5)
        threads.append({"name": people[int(k)].name, "number": people[int(k)].phone, "messages": messages,
                        "unread": unread, "time": ""})
    return threads


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
MessagesScreen = Literal["home", "thread", "new", "menu", "confirm"]


@closed
class TextMessage(TypedDict):
    """One bubble of a conversation: whether the user sent it, and its text."""

    from_me: bool
    text: str


@closed
class Conversation(TypedDict):
    """A conversation: the other person's name and number, whether it is unread, its messages oldest first."""

    name: str
    number: str
    unread: bool
    messages: list[TextMessage]


@closed
class SentText(TypedDict):
    """A text the user sent this episode: to whom (the conversation's name and number) and what."""

    name: str
    number: str
    text: str


@closed
class DeletedConversation(TypedDict):
    """A conversation the user deleted this episode."""

    name: str
    number: str


@closed
class MessagesState(TypedDict):
    """What the Messages app reports (`MessagesApp.state`).

    Attributes:
        screen: the front Messages screen's name, None when Messages has no screen on the stack.
        thread: the number of the conversation that screen belongs to (a thread, or a menu or dialog over one), else
            None.
        threads: every conversation, newest first.
        sent: the texts sent this episode, in order.
        deleted: the conversations deleted this episode, in order.
    """

    screen: MessagesScreen | None
    thread: str | None
    threads: list[Conversation]
    sent: list[SentText]
    deleted: list[DeletedConversation]


class MessageSpec(ConfigModel):
    """A message of a conversation a task puts on the phone.

    Attributes:
        from_me: whether the user sent it.
        text: what it says.
    """

    from_me: bool
    text: str


class ConversationSpec(ConfigModel):
    """A conversation a task puts on the phone.

    Attributes:
        name: the other person's name as the list shows it.
        number: their phone number.
        messages: the messages, oldest first (at least one).
        unread: whether the conversation is unread.
    """

    name: str
    number: str
    messages: tuple[MessageSpec, ...]
    unread: bool

    @field_validator("messages")
    @classmethod
    def _not_empty(cls, messages: tuple[MessageSpec, ...]) -> tuple[MessageSpec, ...]:
        if not messages:  # the conversation list shows the last message of each
            raise FieldError("messages", "at least one message", messages)
        return messages


class RecipientSpec(ConfigModel):
    """Someone the "To" field finds besides the phone's contacts.

    Attributes:
        name: their name.
        number: their phone number.
    """

    name: str
    number: str


class IncomingSpec(ConfigModel):
    """A text that arrives after the set-up.

    Attributes:
        name: the name of the conversation it starts when there is none with `number`.
        number: the sender's number.
        text: what it says.
    """

    name: str
    number: str
    text: str


class MessagesInitial(ConfigModel):
    """The initial conditions a Messages task may set.

    Attributes:
        remove: names whose seeded conversations are dropped (the names of contacts a task removes; a name with no
            conversation does nothing).
        threads: conversations placed among the seeded ones at positions drawn from the episode seed (a seeded
            conversation with the same name or number is dropped).
        contacts: people the "To" field finds besides the phone's contacts.
        incoming: texts that arrive after all that, in order (each `receive`d: the newest conversation, unread).
    """

    remove: tuple[str, ...] = ()
    threads: tuple[ConversationSpec, ...] = ()
    contacts: tuple[RecipientSpec, ...] = ()
    incoming: tuple[IncomingSpec, ...] = ()


class MessagesApp(App):
    """Google Messages: a conversation list, threads with a compose bar, new conversations, an overflow menu.

    Opening a thread marks it read; sending appends the message and moves the thread to the top; deleting asks first.
    """

    package = PACKAGE
    label = "Messages"
    icon = "sms"
    aliases = ("sms",)
    intent_filters = (IntentFilter(SMS_DELIVER),)
    state_schema = MessagesState
    initial_model = MessagesInitial

    def reset(self) -> None:
        """The episode's seeded conversations; nothing sent or deleted."""
        self.threads = seeded_threads(self.phone.seed, contacts_of(self.phone))
        self.extra_contacts: list[dict[str, str]] = []
        self.sent: list[dict[str, str]] = []
        self.deleted: list[dict[str, str]] = []
        self._relabel()

    def _relabel(self) -> None:
        for i, t in enumerate(self.threads):
            t["time"] = TIMES[min(i, len(TIMES) - 1)]

    def set_up(self, initial: MessagesInitial) -> None:
        """Drop the conversations of `initial.remove`, add the extra contacts, place the conversations among the
        seeded ones, then let the incoming texts arrive (see `MessagesInitial`)."""  # noqa: D205, D209
        gone = set(initial.remove)
        self.threads = [t for t in self.threads if t["name"] not in gone]
        self.extra_contacts += [{"name": c.name, "number": c.number} for c in initial.contacts]
        threads = initial.threads
        for t in threads:
            self.threads = [s for s in self.threads if s["name"] != t.name and digits(s["number"]) != digits(t.number)]
        # Anywhere in the list, so no task finds its conversation at a fixed row.
        rng = np.random.default_rng(stable_seed("messages-apply", self.phone.seed))
        slots = rng.choice(len(self.threads) + len(threads), len(threads), replace=False)
        for at, k in sorted((int(at), k) for k, at in enumerate(slots)):
            t = threads[k]
            self.threads.insert(at, {"name": t.name, "number": t.number, "unread": t.unread, "time": "",
                                     "messages": [{"from_me": m.from_me, "text": m.text} for m in t.messages]})
        self._relabel()
        for m in initial.incoming:
            self._arrive(m.number, m.text, m.name)

    def state(self) -> MessagesState:
        """The conversations, what was sent and deleted this episode, and where the app is (see `MessagesState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        return {"screen": front.name if front else None,
                "thread": front.args.get("number") if front else None,
                "threads": [{"name": t["name"], "number": t["number"], "unread": t["unread"],
                             "messages": [dict(m) for m in t["messages"]]} for t in self.threads],
                "sent": [dict(s) for s in self.sent], "deleted": [dict(d) for d in self.deleted]}

    def on_intent(self, intent: Intent) -> bool:
        """An incoming SMS (`SMS_DELIVER`, extras "number" and "text"): received without opening the app."""
        self.receive(intent.extra("number"), intent.extra("text"))
        return True

    def receive(self, number: str, text: str) -> None:
        """An incoming SMS (the emulator console's `sms send`): appended, unread, to `number`'s conversation, which
        moves to the top; a new conversation, named after the contact with that number if there is one, otherwise."""  # noqa: D205, D209
        name = next((c["name"] for c in self.contacts() if digits(c["number"]) == digits(number)), number)
        self._arrive(number, text, name)

    def _arrive(self, number: str, text: str, name: str) -> None:
        """`text` from `number` joins its conversation (a new one called `name`), which becomes the newest, unread."""
        thread = self.thread(number)
        if thread is None:
            thread = {"name": name, "number": number, "messages": [], "unread": True, "time": ""}
        else:
            self.threads.remove(thread)
        thread["messages"].append({"from_me": False, "text": text})
        thread["unread"] = True
        self.threads.insert(0, thread)
        self._relabel()

    # -- helpers -------------------------------------------------------------------------------------------------------
    def thread(self, number: str) -> dict[str, Any] | None:
        """The conversation with `number` (compared by digits), or None."""
        return next((t for t in self.threads if digits(t["number"]) == digits(number)), None)

    def contacts(self) -> list[dict[str, str]]:
        """Everyone the "To" field can find: the phone's contacts, the extra ones, the threads' people; by name."""
        found: dict[str, dict[str, str]] = {}
        people = [{"name": p.name, "number": p.phone} for p in contacts_of(self.phone)]
        for c in [*people, *self.extra_contacts, *({"name": t["name"], "number": t["number"]} for t in self.threads)]:
            if digits(c["number"]):
                found.setdefault(digits(c["number"]), c)
        return sorted(found.values(), key=lambda c: c["name"])

    def matches(self, query: str) -> list[dict[str, str]]:
        """Contacts whose name contains `query` (case-insensitive) or whose number contains its digits."""
        q = query.strip().lower()
        return [c for c in self.contacts() if not q or q in c["name"].lower()
                or (digits(q) and digits(q) in digits(c["number"]))]

    # -- views ---------------------------------------------------------------------------------------------------------
    def home(self) -> Screen:
        """The conversation list."""
        return Screen(PACKAGE, "home")

    def build(self, screen: Screen) -> list[View]:
        """The screen's views; a menu or dialog is drawn over the screen under it."""
        if screen.name in ("menu", "confirm"):
            under = self.build(self.phone.screens(PACKAGE)[-2])
            if screen.name == "menu":
                return [*under, popup_menu(PACKAGE, [(label, ("menu_item", label)) for label in screen.args["items"]],
                                           ("close",))]
            return [*under, alert_dialog(PACKAGE, "Delete this conversation?", "", [
                ("Cancel", ("close",)), ("Delete", ("delete", screen.args["number"]))], ("close",))]
        return {"home": self._home, "thread": self._thread, "new": self._new}[screen.name](screen)

    def _bar(self, title: str, back: bool, more: bool = True) -> View:
        top, bottom = CONTENT_TOP, CONTENT_TOP + TOOLBAR_H
        kids = []
        if back:
            kids.append(View(IMAGE_BUTTON, (0, top, TOOLBAR_H, bottom), desc="Navigate up", package=PACKAGE,
                             clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"))
        kids.append(View(TEXT_VIEW, (TOOLBAR_H if back else MARGIN, top, WIDTH - 200, bottom), text=title,
                         rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"))
        if more:
            kids.append(View(IMAGE_BUTTON, (WIDTH - 168, top, WIDTH, bottom), desc="More options", package=PACKAGE,
                             rid=f"{PACKAGE}:id/overflow", clickable=True, focusable=True, on_tap=("menu",),
                             icon="more"))
        return View(FRAME, (0, top, WIDTH, bottom), rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar",
                    children=kids)

    def _home(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = [self._row(t, top + i * ROW_H) for i, t in enumerate(self.threads)]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No conversations",
                         package=PACKAGE, style="hint")]
        fab = View(BUTTON, (WIDTH - 460, CONTENT_BOTTOM - 220, WIDTH - MARGIN, CONTENT_BOTTOM - 70),
                   text="Start chat", desc="Start chat", rid=f"{PACKAGE}:id/start_chat_fab", package=PACKAGE,
                   clickable=True, focusable=True, on_tap=("new",), style="button", icon="sms")
        return [self._bar("Messages", back=False),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/conversation_list"), fab]

    def _row(self, t: dict[str, Any], y: int) -> View:
        last = t["messages"][-1]
        snippet = ("You: " if last["from_me"] else "") + last["text"]
        unread = len(_unread_tail(t)) if t["unread"] else 0
        desc = f"{t['name']}, {snippet}, {t['time']}" + (f", {unread} unread" if unread else "")
        kids = [View(IMAGE_VIEW, (MARGIN, y + 45, MARGIN + 130, y + 175), desc=f"{t['name']} avatar", package=PACKAGE,
                     icon="person"),
                View(TEXT_VIEW, (MARGIN + 170, y + 30, WIDTH - 260, y + 110), text=t["name"], rid=NAME_RID,
                     package=PACKAGE, style="title" if unread else ""),
                View(TEXT_VIEW, (MARGIN + 170, y + 115, WIDTH - 200, y + 190), text=snippet,
                     rid=f"{PACKAGE}:id/conversation_snippet", package=PACKAGE, style="secondary"),
                View(TEXT_VIEW, (WIDTH - 250, y + 30, WIDTH - MARGIN, y + 110), text=t["time"],
                     rid=f"{PACKAGE}:id/conversation_timestamp", package=PACKAGE, style="secondary")]
        if unread:
            kids.append(View(TEXT_VIEW, (WIDTH - 150, y + 120, WIDTH - MARGIN, y + 185), text=str(unread),
                             desc=f"{unread} unread", rid=f"{PACKAGE}:id/unread_badge", package=PACKAGE,
                             selected=True, style="chip"))
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=desc, rid=ROW_RID, package=PACKAGE, clickable=True,
                    focusable=True, long_clickable=True, on_tap=("open", t["number"], t["name"]), style="row",
                    children=kids)

    def _thread(self, screen: Screen) -> list[View]:
        number, name = screen.args["number"], screen.args["name"]
        t = self.thread(number)
        top = CONTENT_TOP + TOOLBAR_H
        bottom = (KEYBOARD_TOP if screen.focus else CONTENT_BOTTOM) - BAR_H
        bubbles, y = [], top + 30
        for m in (t["messages"] if t else []):
            h = 70 + 58 * math.ceil(len(m["text"]) / 30)
            x0, x1 = (WIDTH - 820, WIDTH - MARGIN) if m["from_me"] else (MARGIN, 820)
            who = "You" if m["from_me"] else name
            bubbles.append(View(TEXT_VIEW, (x0, y, x1, y + h), text=m["text"], desc=f"{who} said: {m['text']}",
                                rid=MESSAGE_RID, package=PACKAGE, selected=m["from_me"],
                                style="chip" if m["from_me"] else "card"))
            y += h + 30
        if not bubbles:
            bubbles = [View(TEXT_VIEW, (MARGIN, top + 60, WIDTH - MARGIN, top + 160), package=PACKAGE, style="hint",
                            text=f"Start a conversation with {name}")]
        text = screen.fields.get(COMPOSE_RID, "")
        bar = View(LINEAR, (0, bottom, WIDTH, bottom + BAR_H), package=PACKAGE, rid=f"{PACKAGE}:id/compose_bar",
                   children=[
                       text_field((MARGIN, bottom + 20, WIDTH - 200, bottom + BAR_H - 20), COMPOSE_RID, text,
                                  "Text message", screen.focus == COMPOSE_RID, PACKAGE),
                       View(IMAGE_BUTTON, (WIDTH - 180, bottom + 20, WIDTH - 40, bottom + BAR_H - 20),
                            desc="Send SMS", rid=f"{PACKAGE}:id/send_message_button_icon", package=PACKAGE,
                            clickable=True, focusable=True, enabled=bool(text.strip()), on_tap=("send",),
                            style="fab", icon="send")])
        return [self._bar(name, back=True),
                scroll_list(top, bottom, PACKAGE, bubbles, rid=f"{PACKAGE}:id/messages_list"), bar]

    def _new(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        query = screen.fields.get(TO_RID, "")
        field = text_field((MARGIN, top + 10, WIDTH - MARGIN, top + 150), TO_RID, query,
                           "Type name, phone number, or email", screen.focus == TO_RID, PACKAGE)
        list_top = top + 180
        rows = []
        for i, c in enumerate(self.matches(query)):
            y = list_top + i * 180
            rows.append(View(LINEAR, (0, y, WIDTH, y + 180), desc=f"{c['name']}, {c['number']}", rid=CONTACT_RID,
                             package=PACKAGE, clickable=True, focusable=True, on_tap=("chat", c["number"], c["name"]),
                             style="row", children=[
                                 View(TEXT_VIEW, (MARGIN + 150, y + 20, WIDTH - MARGIN, y + 100), text=c["name"],
                                      package=PACKAGE),
                                 View(TEXT_VIEW, (MARGIN + 150, y + 100, WIDTH - MARGIN, y + 165), text=c["number"],
                                      package=PACKAGE, style="secondary")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, list_top + 40, WIDTH - MARGIN, list_top + 160), package=PACKAGE,
                         text=f"Send to {query}" if digits(query) else "No matching contacts", style="hint")]
        bottom = KEYBOARD_TOP if screen.focus else CONTENT_BOTTOM
        return [self._bar("New conversation", back=True, more=False), field,
                scroll_list(list_top, bottom, PACKAGE, rows, rid=f"{PACKAGE}:id/contact_list")]

    # -- events --------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Open threads and chats, send, the overflow menu, its items and the delete dialog."""
        match event:
            case ("open", number, name):
                return self._open(number, name)
            case ("new",):
                return self.phone.push(Screen(PACKAGE, "new", focus=TO_RID))
            case ("chat", number, name):
                thread = self.thread(number)
                self.phone.pop()  # the new-conversation screen gives way to the thread (BACK: the list)
                return self._open(thread["number"] if thread else number, thread["name"] if thread else name)
            case ("send",):
                return self._send(screen)
            case ("menu",):
                items = ["Delete", "Mark as unread"] if screen.name == "thread" else ["Mark all as read"]
                return self.phone.push(Screen(PACKAGE, "menu", {"items": items, **self._thread_args(screen)}))
            case ("close",):
                return self.phone.pop()
            case ("menu_item", label):
                return self._menu_item(label, screen)
            case ("delete", number):
                return self._delete(number)
        return False

    def compose_to(self, address: str) -> bool:
        """Another app's "send message" intent: the conversation with phone number `address` opens over it, its
        compose field focused (BACK returns to that app); the name is the thread's or contact's, else the number."""  # noqa: D205, D209
        thread = self.thread(address)
        known = thread or next((c for c in self.contacts() if digits(c["number"]) == digits(address)), None)
        if thread is not None:
            thread["unread"] = False
        number, name = (known["number"], known["name"]) if known else (address, address)
        return self.phone.push(Screen(PACKAGE, "thread", {"number": number, "name": name}, focus=COMPOSE_RID,
                                      scroll=10**6))

    def _thread_args(self, screen: Screen) -> dict[str, Any]:
        return {k: screen.args[k] for k in ("number", "name") if k in screen.args}

    def _open(self, number: str, name: str) -> bool:
        thread = self.thread(number)
        if thread is not None:
            thread["unread"] = False
        # A large scroll is clamped to the end: a thread opens on its newest messages.
        return self.phone.push(Screen(PACKAGE, "thread", {"number": number, "name": name}, scroll=10**6))

    def _send(self, screen: Screen) -> bool:
        text = screen.fields.get(COMPOSE_RID, "").strip()
        if screen.name != "thread" or not text:
            return False
        number, name = screen.args["number"], screen.args["name"]
        thread = self.thread(number)
        if thread is None:
            thread = {"name": name, "number": number, "messages": [], "unread": False, "time": ""}
        else:
            self.threads.remove(thread)
        thread["messages"].append({"from_me": True, "text": text})
        self.threads.insert(0, thread)
        self._relabel()
        thread["time"] = "Now"
        self.sent.append({"name": name, "number": number, "text": text})
        screen.fields[COMPOSE_RID] = ""
        screen.scroll = 10**6
        return True

    def _menu_item(self, label: str, screen: Screen) -> bool:
        self.phone.pop()
        number = screen.args.get("number")
        if label == "Mark all as read":
            for t in self.threads:
                t["unread"] = False
            return True
        if label == "Mark as unread" and number is not None:
            thread = self.thread(number)
            if thread is not None:
                thread["unread"] = True
            return self._leave_thread()
        if label == "Delete" and number is not None:
            if self.thread(number) is None:  # nothing sent yet: there is no conversation to delete
                return self._leave_thread()
            return self.phone.push(Screen(PACKAGE, "confirm", {"number": number, "name": screen.args["name"]}))
        return True

    def _delete(self, number: str) -> bool:
        thread = self.thread(number)
        self.phone.pop()
        if thread is not None:
            self.threads.remove(thread)
            self._relabel()
            self.deleted.append({"name": thread["name"], "number": thread["number"]})
        return self._leave_thread()

    def _leave_thread(self) -> bool:
        """Close the front thread for the conversation list (as the app does after Delete or Mark as unread)."""
        mine = self.phone.screens(PACKAGE)
        if len(mine) >= 2 and mine[-2].name == "home":
            return self.phone.pop()
        return self.phone.replace(self.home())

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the "To" field opens the chat with a typed number or the only matching contact."""
        if rid != TO_RID:
            return False  # ENTER in the compose field only closes the keyboard (the phone does that)
        query = screen.fields.get(TO_RID, "").strip()
        found = self.matches(query) if query else []
        if len(found) == 1:
            return self.handle(("chat", found[0]["number"], found[0]["name"]), screen)
        if len(digits(query)) >= 7 and not found:
            return self.handle(("chat", query, query), screen)
        return False


def _unread_tail(t: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages after the last one the user sent (what an unread badge counts)."""
    tail: list[dict[str, Any]] = []
    for m in reversed(t["messages"]):
        if m["from_me"]:
            break
        tail.append(m)
    return tail or t["messages"][-1:]
