"""The Phone app (Google's dialer): Favourites, Recents (the call log) and Contacts tabs, a keypad, and calls.

Screens: one per tab ("favourites", "recents", "contacts"), "keypad" (args {"digits"}), "call_details" (args
{"number"}: one number's calls, with Call, Message and "Create new contact" for a number that is not a contact) and
"call" (args {"number"}: the in-call screen). A call starts from a Call button (here or on a contact's card in the
Contacts app, through `place_call`) and shows "Calling <name or number>", then its duration ("00:03", one second per
agent step); "End call" or BACK ends it and logs it as an outgoing call. Leaving the in-call screen otherwise (HOME, a
launch) ends the call at the end of the step.

The call log an episode starts with is drawn from `stable_seed("dialer", seed)` (never the episode RNG), from the
episode's contacts and a few unknown numbers; names are looked up in the live contacts, so a number saved as a
contact shows its name from then on.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import numpy as np
from pydantic import Field
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import (
    ACTION_CALL,
    ACTION_DIAL,
    ACTION_VIEW,
    END_CALL,
    App,
    Intent,
    IntentFilter,
    Screen,
    stable_seed,
)
from android_gym.sim.app_state import closed
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.apps.clock import format_time
from android_gym.sim.apps.contacts import (
    Composer,
    ContactsApp,
    details_screen,
    digits,
    editor_screen,
    format_number,
)
from android_gym.sim.apps.people import contacts_of, people
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    EDIT_TEXT,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    ROW_H,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.dialer"
Tab = Literal["Favourites", "Recents", "Contacts"]
CallKind = Literal["incoming", "outgoing", "missed"]
TABS: tuple[Tab, ...] = get_args(Tab)
TAB_ICONS = {"Favourites": "star", "Recents": "clock", "Contacts": "person"}
TAB_H = 200
TABS_TOP = CONTENT_BOTTOM - TAB_H
KINDS: tuple[CallKind, ...] = get_args(CallKind)
KIND_LABELS = {"incoming": "Incoming call", "outgoing": "Outgoing call", "missed": "Missed call"}
KEYS = (("1", "one"), ("2", "two"), ("3", "three"), ("4", "four"), ("5", "five"), ("6", "six"), ("7", "seven"),
        ("8", "eight"), ("9", "nine"), ("*", "star"), ("0", "zero"), ("#", "pound"))
KEY_RIDS = {key: f"{PACKAGE}:id/{name}" for key, name in KEYS}
DIGITS_RID = f"{PACKAGE}:id/digits"
DELETE_RID = f"{PACKAGE}:id/deleteButton"
DIAL_RID = f"{PACKAGE}:id/dialpad_floating_action_button"
KEYPAD_FAB_RID = f"{PACKAGE}:id/dialpad_fab"
ROW_RID = f"{PACKAGE}:id/call_log_row"
CALL_BUTTON_RID = f"{PACKAGE}:id/call_button"
CONTACT_RID = f"{PACKAGE}:id/contact_name"
END_CALL_RID = f"{PACKAGE}:id/incall_end_call"
UNKNOWN_AREAS = ("628", "929", "773", "857", "425", "737")
"""Area codes of the seeded unknown callers (the seeded contacts use others)."""
LOG_ROW_H = 210
MAX_DIGITS = 15
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def call_log(seed: int) -> list[dict[str, Any]]:
    """The calls episode `seed` starts with, newest first: {"number", "kind", "ago_min"} (minutes before now).

    About two thirds are with the episode's contacts, the rest with three unknown numbers; all are 30 minutes to
    four days old, so a task's own calls (`DialerInitial.calls`) can be newer than every seeded one.
    """
    rng = np.random.default_rng(stable_seed("dialer", seed))
    known = [p.phone for p in people(seed)]
    unknown = [f"({UNKNOWN_AREAS[int(rng.integers(len(UNKNOWN_AREAS)))]}) 555-{int(n):04d}"
               for n in rng.choice(np.arange(100, 1000), size=3, replace=False)]
    # Squared uniforms crowd the calls towards the present, as a real log is (most calls today and yesterday).
    agos = sorted({30 + int((4 * 1440 - 30) * u * u) for u in rng.random(int(rng.integers(10, 15)))})
    log = []
    for ago in agos:
        pool = known if rng.random() < 0.65 else unknown
        log.append({"number": pool[int(rng.integers(len(pool)))], "kind": KINDS[int(rng.choice(3, p=[.4, .35, .25]))],
                    "ago_min": ago})
    return log


def when(ago_min: int, clock: str) -> str:
    """How the call log shows a call `ago_min` minutes before the phone's `clock` ("9:41") on Wednesday.

    >>> when(0, "9:41"), when(20, "9:41"), when(100, "9:41"), when(700, "9:41"), when(3000, "9:41")
    ('Just now', '20 min ago', '8:01 AM', 'Yesterday', 'Monday')
    """
    if ago_min == 0:
        return "Just now"
    if ago_min < 60:
        return f"{ago_min} min ago"
    hour, minute = (int(p) for p in clock.split(":"))
    t = hour * 60 + minute - ago_min
    if t >= 0:
        return format_time(t // 60, t % 60)
    days = (-t - 1) // 1440 + 1
    return "Yesterday" if days == 1 else _WEEKDAYS[(_WEEKDAYS.index(TODAY[3]) - days) % 7]


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
DialerScreen = Literal["favourites", "recents", "contacts", "keypad", "call_details", "call"]


@closed
class LoggedCall(TypedDict):
    """A row of the call log: the contact's name (None for a number that is no contact), the number, the kind, the
    time as shown and how many minutes ago the call was."""  # noqa: D205, D209

    name: str | None
    number: str
    kind: CallKind
    when: str
    ago_min: int


@closed
class PlacedCall(TypedDict):
    """A call the user placed this episode: to whom, whether it ended, how long it lasted (s, one per step)."""

    name: str | None
    number: str
    ended: bool
    duration_s: int


@closed
class ActiveCall(TypedDict):
    """The call in progress: to whom, for how long so far (s), and its Mute and Speaker toggles."""

    name: str | None
    number: str
    duration_s: int
    muted: bool
    speaker: bool


@closed
class DialerState(TypedDict):
    """What the Phone app reports (`DialerApp.state`).

    Attributes:
        tab: the tab Phone opens on (the last one used).
        screen: the front screen's name when Phone is in front, else None.
        digits: the keypad's number when the keypad is in front, else "".
        details: the number on the front call-details page, else None.
        log: the call log, newest first.
        calls: the calls placed this episode, in order.
        active: the call in progress, or None.
    """

    tab: Tab
    screen: DialerScreen | None
    digits: str
    details: str | None
    log: list[LoggedCall]
    calls: list[PlacedCall]
    active: ActiveCall | None


class CallSpec(ConfigModel):
    """A call a task puts in the log.

    Attributes:
        number: the other party's number (shown formatted, `contacts.format_number`).
        kind: incoming, outgoing or missed.
        ago_min: how many minutes before the episode's start it was (at least 1: newer than nothing the user does).
    """

    number: str
    kind: CallKind
    ago_min: int = Field(ge=1)


class DialerInitial(ConfigModel):
    """The initial conditions a Phone task may set.

    Attributes:
        calls: calls that join the seeded log, in time order.
        tab: the tab the app opens on; None keeps Favourites.
    """

    calls: tuple[CallSpec, ...] = ()
    tab: Tab | None = None


class DialerApp(App):
    """Google Phone: tabs, keypad, call details and the in-call screen; places calls for other apps (`Caller`)."""

    package = PACKAGE
    label = "Phone"
    icon = "phone"
    aliases = ("dialer",)
    intent_filters = (IntentFilter(ACTION_VIEW, ("tel:",)), IntentFilter(ACTION_DIAL, ("tel:",)),
                      IntentFilter(ACTION_CALL, ("tel:",)), IntentFilter(END_CALL))
    state_schema = DialerState
    initial_model = DialerInitial

    def reset(self) -> None:
        """The episode's call log, no calls made, the Favourites tab."""
        self.log: list[dict[str, Any]] = call_log(self.phone.seed)
        self.calls: list[dict[str, Any]] = []
        self.active: dict[str, Any] | None = None
        self.tab = "Favourites"

    def set_up(self, initial: DialerInitial) -> None:
        """The calls join the log in time order; the app opens on the tab (see `DialerInitial`)."""
        self.log += [{"number": format_number(c.number), "kind": c.kind, "ago_min": c.ago_min} for c in initial.calls]
        self.log.sort(key=lambda c: c["ago_min"])
        self.tab = initial.tab or self.tab

    def home(self) -> Screen:
        """The last tab used."""
        return Screen(PACKAGE, self.tab.lower())

    # -- calls --------------------------------------------------------------------------------------------------------
    def name_of(self, number: str) -> str | None:
        """The contact whose number is `number` (compared digit by digit), or None."""
        d = digits(number)
        return next((p.name for p in contacts_of(self.phone) if d and digits(p.phone) == d), None)

    def on_intent(self, intent: Intent) -> bool:
        """`tel:` intents open the app, `CALL` also places the call (False when it cannot: a call in progress, no
        digits); `END_CALL` hangs up without opening anything (False with no call)."""  # noqa: D205, D209
        if intent.action == END_CALL:
            return self.end_call()
        self.phone.launch(PACKAGE)
        return intent.action != ACTION_CALL or self.place_call(intent.data.removeprefix("tel:"))

    def in_call(self) -> bool:
        """Whether the in-call screen is open (a call the user has not left)."""
        return any(s.name == "call" for s in self.phone.screens(PACKAGE))

    def place_call(self, number: str) -> bool:
        """Call `number`: the in-call screen opens over whatever is in front; False during a call or without digits."""
        if self.active is not None or not digits(number):
            return False
        number = format_number(number)
        self.active = {"number": number, "start": self.phone.steps, "muted": False, "speaker": False}
        self.calls.append({"name": self.name_of(number), "number": number, "ended": False, "duration_s": 0})
        return self.phone.push(Screen(PACKAGE, "call", {"number": number}))

    def end_call(self) -> bool:
        """Hang up the call in progress (the ENDCALL key); False when there is none."""
        return self.active is not None and self._end_call()

    def _end_call(self) -> bool:
        """Hang up: log the call as outgoing (just now) and close the in-call screen if it is in front."""
        assert self.active is not None  # callers check
        self.calls[-1].update(ended=True, duration_s=self.phone.steps - self.active["start"])
        self.log.insert(0, {"number": self.active["number"], "kind": "outgoing", "ago_min": 0})
        self.active = None
        top = self.phone.top
        if top.package == PACKAGE and top.name == "call":
            self.phone.pop()
        return True

    def on_tick(self) -> bool:
        """A call's timer advances; a call whose screen was left (HOME, a launch) ends."""
        if self.active is None:
            return False
        if not any(s.name == "call" for s in self.phone.screens(PACKAGE)):
            return self._end_call()
        return True

    def _contacts_app(self) -> ContactsApp | None:
        return next((a for a in self.phone.installed() if isinstance(a, ContactsApp)), None)

    # -- state --------------------------------------------------------------------------------------------------------
    def state(self) -> DialerState:
        """The call log, the calls made, the call in progress and where the app is (see `DialerState`)."""
        top = self.phone.top
        front = top if top.package == PACKAGE else None
        clock = self.phone.system["clock"]
        by_digits = {digits(p.phone): p.name for p in reversed(contacts_of(self.phone))}  # the first contact wins

        def name_of(number: str) -> str | None:  # `self.name_of` per row looked the contacts up 13 times per state
            return by_digits.get(digits(number)) if digits(number) else None

        active = None
        if self.active is not None:
            active = {"name": name_of(self.active["number"]), "number": self.active["number"],
                      "duration_s": self.phone.steps - self.active["start"], "muted": self.active["muted"],
                      "speaker": self.active["speaker"]}
        return {"tab": self.tab, "screen": front.name if front else None,
                "digits": front.args["digits"] if front and front.name == "keypad" else "",
                "details": front.args["number"] if front and front.name == "call_details" else None,
                "log": [{"name": name_of(c["number"]), "number": c["number"], "kind": c["kind"],
                         "when": when(c["ago_min"], clock), "ago_min": c["ago_min"]} for c in self.log],
                "calls": [dict(c) for c in self.calls], "active": active}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A tab with the tab bar and keypad button, the keypad, a number's call details, or the in-call screen."""
        match screen.name:
            case "keypad":
                return self._keypad(screen.args["digits"])
            case "call":
                return self._call_screen(screen.args["number"])
            case "call_details":
                return self._details(screen.args["number"])
        body = {"favourites": self._favourites, "recents": self._recents, "contacts": self._contacts}[screen.name]()
        fab = View(IMAGE_BUTTON, (WIDTH - MARGIN - 220, TABS_TOP - 260, WIDTH - MARGIN, TABS_TOP - 40),
                   desc="key pad", rid=KEYPAD_FAB_RID, package=PACKAGE, clickable=True, focusable=True,
                   on_tap=("keypad",), style="fab", icon="dialpad")
        return [toolbar(self.tab, PACKAGE, PACKAGE, has_back=False), body, fab, self._tabs()]

    def _tabs(self) -> View:
        w = WIDTH // len(TABS)
        return View(LINEAR, (0, TABS_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/tabs", package=PACKAGE,
                    style="tabbar", children=[
                        View(TEXT_VIEW, (i * w, TABS_TOP, (i + 1) * w, CONTENT_BOTTOM), text=t, desc=t,
                             package=PACKAGE, clickable=True, focusable=True, selected=t == self.tab,
                             on_tap=("tab", t), style="tab", icon=TAB_ICONS[t]) for i, t in enumerate(TABS)])

    def _rows(self, rows: list[View], empty: str) -> View:
        top = CONTENT_TOP + TOOLBAR_H
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text=empty, package=PACKAGE,
                         style="hint")]
        return scroll_list(top, TABS_TOP, PACKAGE, rows, rid=f"{PACKAGE}:id/list")

    def _name_rows(self, names: list[str], event: str, icon: str) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        return [View(LINEAR, (0, top + i * ROW_H, WIDTH, top + (i + 1) * ROW_H), text=name, rid=CONTACT_RID,
                     package=PACKAGE, clickable=True, focusable=True, on_tap=(event, name), style="row", icon=icon)
                for i, name in enumerate(names)]

    def _favourites(self) -> View:
        app = self._contacts_app()
        names = [p.name for p in app.people if p.name in app.starred] if app else []
        return self._rows(self._name_rows(names, "call_contact", "star"), "No favourites yet")

    def _contacts(self) -> View:
        names = sorted(p.name for p in contacts_of(self.phone))
        return self._rows(self._name_rows(names, "contact", "person"), "No contacts")

    def _recents(self) -> View:
        top = CONTENT_TOP + TOOLBAR_H
        clock = self.phone.system["clock"]
        rows = []
        for i, c in enumerate(self.log):
            y = top + i * LOG_ROW_H
            who = self.name_of(c["number"]) or c["number"]
            kind, shown = KIND_LABELS[c["kind"]], when(c["ago_min"], clock)
            rows.append(View(LINEAR, (0, y, WIDTH, y + LOG_ROW_H), desc=f"{kind}, {who}, {shown}", rid=ROW_RID,
                             package=PACKAGE, clickable=True, focusable=True, on_tap=("log", i), style="row",
                             icon="person", children=[
                                 View(TEXT_VIEW, (180, y + 25, WIDTH - 220, y + 115), text=who, package=PACKAGE,
                                      rid=f"{PACKAGE}:id/primary_text"),
                                 View(TEXT_VIEW, (180, y + 115, WIDTH - 220, y + 185), text=f"{kind} · {shown}",
                                      package=PACKAGE, rid=f"{PACKAGE}:id/secondary_text", style="secondary"),
                                 View(IMAGE_BUTTON, (WIDTH - 200, y + 35, WIDTH - 40, y + 175), desc=f"Call {who}",
                                      rid=CALL_BUTTON_RID, package=PACKAGE, clickable=True, focusable=True,
                                      on_tap=("call", c["number"]), icon="phone")]))
        return self._rows(rows, "No recent calls")

    def _keypad(self, typed: str) -> list[View]:
        top = CONTENT_TOP + 160
        views = [View(EDIT_TEXT, (MARGIN, top, WIDTH - 220, top + 200), text=format_number(typed) if typed else "",
                      rid=DIGITS_RID, package=PACKAGE, style="time"),
                 View(IMAGE_BUTTON, (WIDTH - 200, top + 30, WIDTH - 40, top + 170), desc="backspace",
                      rid=DELETE_RID, package=PACKAGE, clickable=True, focusable=True, enabled=bool(typed),
                      on_tap=("backspace",), icon="backspace")]
        grid_top, w, h = top + 320, 300, 210
        for i, (key, _) in enumerate(KEYS):
            x, y = (WIDTH - 3 * w - 2 * 30) // 2 + (i % 3) * (w + 30), grid_top + (i // 3) * (h + 24)
            views.append(View(BUTTON, (x, y, x + w, y + h), text=key, desc=key, rid=KEY_RIDS[key], package=PACKAGE,
                              clickable=True, focusable=True, on_tap=("digit", key), style="key"))
        y = grid_top + 4 * (h + 24) + 40
        views.append(View(IMAGE_BUTTON, (WIDTH // 2 - 110, y, WIDTH // 2 + 110, y + 220), desc="dial", rid=DIAL_RID,
                          package=PACKAGE, clickable=True, focusable=True, on_tap=("dial",), style="fab",
                          icon="phone"))
        return views

    def _details(self, number: str) -> list[View]:
        name = self.name_of(number)
        top = CONTENT_TOP + TOOLBAR_H
        views = [toolbar("Call details", PACKAGE, PACKAGE),
                 View(TEXT_VIEW, (MARGIN, top + 40, WIDTH - MARGIN, top + 170), text=name or number,
                      rid=f"{PACKAGE}:id/contactgrid_contact_name", package=PACKAGE, style="title")]
        if name:
            views.append(View(TEXT_VIEW, (MARGIN, top + 170, WIDTH - MARGIN, top + 250), text=f"Mobile {number}",
                              package=PACKAGE, style="secondary"))
        actions = [("Call", ("call", number), "phone"), ("Message", ("message", number), "sms"),
                   ("View contact", ("contact", name), "person") if name else
                   ("Create new contact", ("new_contact", number), "add")]
        y = top + 290
        for text, event, icon in actions:
            views.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), text=text, package=PACKAGE, clickable=True,
                              focusable=True, on_tap=event, style="row", icon=icon))
            y += ROW_H
        clock = self.phone.system["clock"]
        for c in (c for c in self.log if digits(c["number"]) == digits(number)):
            views.append(View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 110),
                              text=f"{KIND_LABELS[c['kind']]} · {when(c['ago_min'], clock)}", package=PACKAGE,
                              style="secondary"))
            y += 100
            if y > CONTENT_BOTTOM - 120:
                break
        return views

    def _call_screen(self, number: str) -> list[View]:
        who = self.name_of(number) or number
        active = self.active or {"start": self.phone.steps, "muted": False, "speaker": False}
        elapsed = self.phone.steps - active["start"]
        status = f"Calling {who}" if elapsed == 0 else f"{elapsed // 60:02d}:{elapsed % 60:02d}"
        top = CONTENT_TOP + 200
        views = [View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 140), text=who, package=PACKAGE,
                      rid=f"{PACKAGE}:id/contactgrid_contact_name", style="title"),
                 View(TEXT_VIEW, (MARGIN, top + 160, WIDTH - MARGIN, top + 250), text=status, package=PACKAGE,
                      rid=f"{PACKAGE}:id/contactgrid_status_text", style="secondary")]
        for i, (label, key) in enumerate((("Mute", "muted"), ("Speaker", "speaker"))):
            x = MARGIN + 60 + i * 500
            views.append(View(BUTTON, (x, 1200, x + 400, 1340), text=label, desc=label, package=PACKAGE,
                              clickable=True, focusable=True, checkable=True, checked=active[key],
                              on_tap=("toggle", key), style="toggle"))
        views.append(View(IMAGE_BUTTON, (WIDTH // 2 - 120, 1700, WIDTH // 2 + 120, 1940), desc="End call",
                          rid=END_CALL_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("end",),
                          style="fab", icon="phone"))
        return views

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, the keypad, calls, call details and intents to Contacts and Messages."""
        match event:
            case ("tab", name):
                if name == self.tab:
                    return False
                self.tab = name
                return self.phone.replace(Screen(PACKAGE, name.lower()))
            case ("keypad",):
                return self.phone.push(Screen(PACKAGE, "keypad", {"digits": ""}))
            case ("digit", key) if len(screen.args["digits"]) < MAX_DIGITS:
                screen.args["digits"] += key
                return True
            case ("backspace",) if screen.args["digits"]:
                screen.args["digits"] = screen.args["digits"][:-1]
                return True
            case ("dial",) if digits(screen.args["digits"]):
                number, screen.args["digits"] = screen.args["digits"], ""  # the keypad clears, as after a call
                return self.place_call(number)
            case ("call", number):
                return self.place_call(number)
            case ("call_contact", name):
                person = next((p for p in contacts_of(self.phone) if p.name == name), None)
                return person is not None and self.place_call(person.phone)
            case ("log", index):
                return self.phone.push(Screen(PACKAGE, "call_details", {"number": self.log[index]["number"]}))
            case ("contact", name):
                return self._open_contact(name)
            case ("new_contact", number):
                return self._contacts_app() is not None and self.phone.push(editor_screen(phone=number))
            case ("message", number):
                return self._message(number)
            case ("toggle", key) if self.active is not None:
                self.active[key] = not self.active[key]
                return True
            case ("end",) if self.active is not None:
                return self._end_call()
        return False

    def on_back(self, screen: Screen) -> bool:
        """BACK on the in-call screen hangs up."""
        if screen.name == "call" and self.active is not None:
            return self._end_call()
        return False

    def _open_contact(self, name: str) -> bool:
        """A contact's card in Contacts; without that app, tapping a contact calls it."""
        if self._contacts_app() is not None:
            return self.phone.push(details_screen(name))
        person = next((p for p in contacts_of(self.phone) if p.name == name), None)
        return person is not None and self.place_call(person.phone)

    def _message(self, number: str) -> bool:
        try:
            app = self.phone.find_app("Messages")
        except KeyError:  # not installed: nothing happens
            return False
        return app.compose_to(number) if isinstance(app, Composer) else self.phone.push(app.home())
