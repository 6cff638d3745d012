"""The Gmail app: an inbox seeded per episode, email pages, compose/reply/forward, search, and folders in a drawer.

The inbox is drawn from `stable_seed("gmail", phone.seed)` and the phone's contacts (`people.contacts_of`), never
from the episode RNG. Screens: a folder list ("inbox", the home screen, "sent", "all" and "trash"), "drawer" (the
navigation drawer over the folder under it), "promotions" (the inbox's promotional mail, which the Primary inbox
leaves out, as Gmail's Promotions category), "email" (args {"id"}), "compose" (args {"kind": "new" | "reply" |
"forward", "ref": the replied or forwarded email's id or None}), "alert" (the app's own dialog over the compose
screen, args {"title", "message"}), "search" (the query field) and "results" (args {"query"}).

The typed seam (the state's schema `GmailState`, the initial conditions' model `GmailInitial`) lives in
`android_gym.sim.apps.gmail_state`; this module imports its names, so `gmail.GmailState` and the rest keep working.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from android_gym.sim.app import ACTION_VIEW, App, IntentFilter, Screen, stable_seed
from android_gym.sim.app_dialogs import alert_dialog
from android_gym.sim.apps.gmail_state import Draft as Draft  # re-exported: the importers' names keep working
from android_gym.sim.apps.gmail_state import Email as Email
from android_gym.sim.apps.gmail_state import EmailSpec, GmailInitial, GmailState
from android_gym.sim.apps.gmail_state import Folder as Folder
from android_gym.sim.apps.gmail_state import GmailScreen as GmailScreen
from android_gym.sim.apps.gmail_state import MailContactSpec as MailContactSpec
from android_gym.sim.apps.gmail_state import MailKind as MailKind
from android_gym.sim.apps.people import contacts_of
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.keyboard import KEYBOARD_TOP
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
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.gm"
USER_EMAIL = "you@example.com"
"""The phone owner's address: the "to" of received mail and the sender of sent mail."""
ROW_RID = f"{PACKAGE}:id/viewified_conversation_item_view"
SEARCH_BAR_RID = f"{PACKAGE}:id/open_search"
QUERY_RID = f"{PACKAGE}:id/search_actionbar_query_text"
TO_RID = f"{PACKAGE}:id/to"
SUBJECT_RID = f"{PACKAGE}:id/subject_field"
BODY_RID = f"{PACKAGE}:id/body"
SUGGESTION_RID = f"{PACKAGE}:id/suggestion"
FOLDERS = {"inbox": "Inbox", "promotions": "Promotions", "sent": "Sent", "all": "All mail", "trash": "Trash"}
"""Folder screen -> drawer label. "inbox" lists the Primary inbox (no promotions), "promotions" the inbox's
promotional mail, "all" the inbox and archived mail; "trash" the deleted mail."""
FOLDER_ICONS = {"inbox": "mail", "promotions": "label", "sent": "send", "all": "library", "trash": "delete"}
ROW_H = 240
TIMES = ("9:20 AM", "8:02 AM", "6:45 AM", "Jun 9", "Jun 9", "Jun 8", "Jun 7", "Jun 5", "Jun 4", "Jun 2", "May 31",
         "May 29", "May 26", "May 22", "May 18", "May 15", "May 11", "May 6")
"""Time labels of the inbox, newest first (the phone's clock reads 9:41 on Wednesday 10 June)."""
_SERVICES = (
    ("Google", "no-reply@accounts.google.com", "Security alert",
     "A new sign-in on Android was detected. If this was you, you don't need to do anything."),
    ("Amazon.com", "shipment-tracking@amazon.com", "Your package has shipped",
     "Your order of 2 items has shipped and will arrive Friday."),
    ("LinkedIn", "messages-noreply@linkedin.com", "You appeared in 9 searches this week",
     "See who's looking at your profile and grow your network."),
    ("Delta Air Lines", "deltaairlines@e.delta.com", "Your trip confirmation",
     "Thank you for booking. Check in opens 24 hours before departure."),
    ("Chase", "no.reply.alerts@chase.com", "Your statement is ready",
     "Your monthly statement is now available to view online."),
    ("Spotify", "no-reply@spotify.com", "Your weekly mixtape is here", "Discover Weekly has 30 new songs for you."),
    ("City Library", "notices@citylibrary.org", "Items due soon", "2 items you borrowed are due on June 14."),
)
_PERSONAL = (
    ("Photos from Saturday", "Here are the photos from the picnic, some turned out great!"),
    ("Dinner next week?", "Are you around next Thursday? We were thinking of trying the new ramen place."),
    ("Quick question", "Do you still have the charger I lent you? No rush."),
    ("Notes from today's call", "Attached are my notes. Let me know if I missed anything."),
    ("Recipe you asked for", "Here's the lemon cake recipe. Use less sugar than it says."),
    ("Carpool schedule", "I can drive Monday and Wednesday, can you take Friday?"),
    ("Book recommendation", "You have to read Project Hail Mary, I finished it in two days."),
    ("Garden tools", "Thanks for lending me the shears, I'll drop them off this weekend."),
)
_EMAIL_RE = re.compile(r"^[^@\s,]+@[^@\s,]+\.[A-Za-z]+$")


def recipients(text: str) -> list[str]:
    """The addresses of a "To" field: comma-separated, blanks dropped.

    >>> recipients("a@x.com, b@y.org, ")
    ['a@x.com', 'b@y.org']
    """
    return [t.strip() for t in text.split(",") if t.strip()]


def matches(mail: dict[str, Any], query: str) -> bool:
    """Whether `mail` holds every word of `query` (sender, address, recipients, subject or body); "" matches none.

    >>> matches({"sender": "Ann", "email": "a@x.com", "to": [], "subject": "Flight confirmation", "body": ""},
    ...         "flight ann")
    True
    """
    words = query.lower().split()
    text = f"{mail['sender']} {mail['email']} {' '.join(mail['to'])} {mail['subject']} {mail['body']}".lower()
    return bool(words) and all(w in text for w in words)


def seeded_inbox(seed: int, people: list[Any]) -> list[dict[str, Any]]:
    """The inbox episode `seed` starts with, newest first: 8-11 emails from services and from `people`."""
    rng = np.random.default_rng(stable_seed("gmail", seed))
    n_services, n_personal = int(rng.integers(3, 6)), int(rng.integers(5, 7))
    items = [_SERVICES[int(k)] for k in rng.choice(len(_SERVICES), n_services, replace=False)]
    senders = rng.choice(len(people), n_personal, replace=False)
    for k, s in zip(rng.choice(len(_PERSONAL), n_personal, replace=False), senders, strict=True):
        person = people[int(s)]
        items.append((person.name, person.email, *_PERSONAL[int(k)]))
    order = rng.permutation(len(items))
    return [{"sender": items[int(i)][0], "email": items[int(i)][1], "subject": items[int(i)][2],
             "body": items[int(i)][3], "unread": bool(rng.random() < 0.4)} for i in order]


class GmailApp(App):
    """Gmail: the inbox (home), email pages with Reply/Forward/Archive/Delete, compose, search and the drawer.

    Opening an email marks it read; Archive and Delete move it out of the inbox and return to the list; Send checks
    the recipients (the app's own dialog names a bad one) and files the mail under Sent; leaving a compose screen
    with text saves a draft.
    """

    package = PACKAGE
    label = "Gmail"
    icon = "mail"
    aliases = ("email",)
    intent_filters = (IntentFilter(ACTION_VIEW, ("mailto:",)),)
    state_schema = GmailState
    initial_model = GmailInitial

    def reset(self) -> None:
        """The episode's seeded inbox; nothing sent, archived, deleted or drafted."""
        self.mail: list[dict[str, Any]] = []
        self.next_id = 1
        for e in seeded_inbox(self.phone.seed, contacts_of(self.phone)):
            self.mail.append(self._received(e))
        self.extra_contacts: list[dict[str, str]] = []
        self.drafts: list[dict[str, str]] = []
        self.promotions: set[int] = set()
        self._relabel()

    def _received(self, e: dict[str, Any] | EmailSpec) -> dict[str, Any]:
        e = e.model_dump() if isinstance(e, EmailSpec) else e
        mail = {"id": self.next_id, "sender": str(e["sender"]), "email": str(e["email"]), "to": [USER_EMAIL],
                "subject": str(e["subject"]), "body": str(e["body"]), "time": "", "unread": bool(e["unread"]),
                "folder": "inbox", "kind": "received", "ref": None}
        self.next_id += 1
        return mail

    def _relabel(self) -> None:
        for i, m in enumerate(x for x in self.mail if x["folder"] != "sent"):
            m["time"] = TIMES[min(i, len(TIMES) - 1)]

    def set_up(self, initial: GmailInitial) -> None:
        """Add the extra contacts, then place the emails and the promotions among the seeded mail (see
        `GmailInitial`)."""  # noqa: D205, D209
        self.extra_contacts += [{"name": c.name, "email": c.email} for c in initial.contacts]
        emails = [*initial.emails, *initial.promotions]
        # Anywhere in the inbox, so no task finds its email at a fixed row.
        rng = np.random.default_rng(stable_seed("gmail-apply", self.phone.seed))
        slots = rng.choice(len(self.mail) + len(emails), len(emails), replace=False)
        first_promotion = len(initial.emails)
        for at, k in sorted((int(at), k) for k, at in enumerate(slots)):
            mail = self._received(emails[k])
            self.mail.insert(at, mail)
            if k >= first_promotion:
                self.promotions.add(mail["id"])
        self._relabel()

    def state(self) -> GmailState:
        """The mailboxes and where the app is (see `GmailState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None

        def box(folder: str) -> list[Any]:
            return [self._public(m) for m in self.mail if m["folder"] == folder]

        return {"inbox": box("inbox"), "archived": box("archive"), "deleted": box("trash"), "sent": box("sent"),
                "screen": front.name if front else None,
                "folder": None if front is None else front.name if front.name in FOLDERS else front.args.get("folder"),
                "open": front.args["id"] if front and front.name == "email" else None,
                "query": front.args["query"] if front and front.name == "results" else None,
                "drafts": [dict(d) for d in self.drafts],
                "promotions": sorted(self.promotions)}

    @staticmethod
    def _public(m: dict[str, Any]) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, list) else v) for k, v in m.items() if k != "folder"}

    # -- helpers -------------------------------------------------------------------------------------------------------
    def email(self, mail_id: int) -> dict[str, Any]:
        """The email with id `mail_id`."""
        return next(m for m in self.mail if m["id"] == mail_id)

    def listed(self, folder: str) -> list[dict[str, Any]]:
        """The emails a folder screen lists, newest first (the Primary inbox without the promotions)."""
        if folder in ("inbox", "promotions"):
            return [m for m in self.mail if m["folder"] == "inbox" and (m["id"] in self.promotions) == (
                folder == "promotions")]
        wanted = {"sent": ("sent",), "all": ("inbox", "archive", "sent"), "trash": ("trash",)}
        return [m for m in self.mail if m["folder"] in wanted[folder]]

    def search(self, query: str) -> list[dict[str, Any]]:
        """Mail outside the trash that `matches` `query`."""
        return [m for m in self.mail if m["folder"] != "trash" and matches(m, query)]

    def contacts(self) -> list[dict[str, str]]:
        """Everyone the "To" field suggests: the phone's contacts, the extra ones and the inbox's people, by name."""
        found: dict[str, dict[str, str]] = {}
        people = [{"name": p.name, "email": p.email} for p in contacts_of(self.phone)]
        senders = [{"name": m["sender"], "email": m["email"]} for m in self.mail if m["folder"] != "sent"]
        for c in [*people, *self.extra_contacts, *senders]:
            if c["email"]:  # a contact saved without an address has nothing to suggest
                found.setdefault(c["email"].lower(), c)
        return sorted(found.values(), key=lambda c: c["name"])

    def suggestions(self, to_text: str) -> list[dict[str, str]]:
        """People whose name or address holds the "To" field's last, unfinished address (at most four)."""
        last = to_text.split(",")[-1].strip().lower()
        if not last:
            return []
        return [c for c in self.contacts() if (last in c["name"].lower() or last in c["email"].lower())
                and c["email"].lower() != last][:4]

    # -- views ---------------------------------------------------------------------------------------------------------
    def home(self) -> Screen:
        """The inbox."""
        return Screen(PACKAGE, "inbox")

    def build(self, screen: Screen) -> list[View]:
        """The screen's views; the drawer and dialogs are drawn over the screen under them."""
        if screen.name in ("drawer", "alert"):
            under = self.build(self.phone.screens(PACKAGE)[-2])
            if screen.name == "alert":
                return [*under, alert_dialog(PACKAGE, screen.args["title"], screen.args["message"],
                                             [("OK", ("close",))], ("close",))]
            return [*under, self._drawer(screen.args["folder"])]
        if screen.name in FOLDERS:
            return self._folder(screen.name)
        return {"email": self._email, "compose": self._compose, "search": self._search,
                "results": self._results}[screen.name](screen)

    def _search_bar(self, text: str, has_back: bool = False) -> View:
        """The search bar: the drawer's button (Navigate up on results), the query or "Search in mail", the account."""
        top = CONTENT_TOP + 24
        lead = (View(IMAGE_BUTTON, (MARGIN, top + 10, MARGIN + 120, top + 130), desc="Navigate up", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=NavKey("back"), icon="back") if has_back else
                View(IMAGE_BUTTON, (MARGIN, top + 10, MARGIN + 120, top + 130), desc="Open navigation drawer",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("drawer",), icon="menu"))
        return View(LINEAR, (MARGIN - 16, top, WIDTH - MARGIN + 16, top + 140), rid=SEARCH_BAR_RID,
                    package=PACKAGE, clickable=True, focusable=True, on_tap=("search",), style="searchbar",
                    children=[
                        lead,
                        View(TEXT_VIEW, (MARGIN + 150, top + 10, WIDTH - MARGIN - 150, top + 130), text=text,
                             rid=f"{PACKAGE}:id/open_search_view_text", package=PACKAGE,
                             style="" if has_back else "hint"),
                        View(IMAGE_BUTTON, (WIDTH - MARGIN - 130, top + 10, WIDTH - MARGIN - 10, top + 130),
                             desc="Account and settings", rid=f"{PACKAGE}:id/og_apd_ring_view", package=PACKAGE,
                             icon="account")])

    def _folder(self, folder: str) -> list[View]:
        top = CONTENT_TOP + 190
        label = View(TEXT_VIEW, (MARGIN, top, WIDTH - MARGIN, top + 90), text="Primary" if folder == "inbox"
                     else FOLDERS[folder], rid=f"{PACKAGE}:id/folder_header", package=PACKAGE, style="secondary")
        list_top = top + 100
        mails = self.listed(folder)
        rows = [self._row(m, list_top + i * ROW_H) for i, m in enumerate(mails)]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, list_top + 300, WIDTH - MARGIN, list_top + 420),
                         text=f"Nothing in {FOLDERS[folder]}", package=PACKAGE, style="hint")]
        fab = View(BUTTON, (WIDTH - 430, CONTENT_BOTTOM - 220, WIDTH - MARGIN, CONTENT_BOTTOM - 70), text="Compose",
                   desc="Compose", rid=f"{PACKAGE}:id/compose_button", package=PACKAGE, clickable=True,
                   focusable=True, on_tap=("compose", "new", None), style="button", icon="add")
        return [self._search_bar("Search in mail"), label,
                scroll_list(list_top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/thread_list_view"), fab]

    def _row(self, m: dict[str, Any], y: int) -> View:
        who = "To: " + ", ".join(m["to"]) if m["kind"] != "received" else m["sender"]
        snippet = m["body"][:60]
        desc = f"{'Unread, ' if m['unread'] else ''}{who}, {m['subject']}, {snippet}, {m['time']}"
        bold = "title" if m["unread"] else ""
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), desc=desc, rid=ROW_RID, package=PACKAGE, clickable=True,
                    focusable=True, long_clickable=True, on_tap=("open", m["id"]), style="row", children=[
                        View(IMAGE_VIEW, (MARGIN, y + 40, MARGIN + 120, y + 160), package=PACKAGE,
                             rid=f"{PACKAGE}:id/contact_image", icon="account"),
                        View(TEXT_VIEW, (MARGIN + 150, y + 20, WIDTH - 260, y + 95), text=who,
                             rid=f"{PACKAGE}:id/senders", package=PACKAGE, style=bold),
                        View(TEXT_VIEW, (WIDTH - 250, y + 20, WIDTH - MARGIN, y + 95), text=m["time"],
                             rid=f"{PACKAGE}:id/date", package=PACKAGE, style="secondary"),
                        View(TEXT_VIEW, (MARGIN + 150, y + 95, WIDTH - MARGIN, y + 160), text=m["subject"],
                             rid=f"{PACKAGE}:id/subject", package=PACKAGE, style=bold),
                        View(TEXT_VIEW, (MARGIN + 150, y + 160, WIDTH - MARGIN, y + 225), text=snippet,
                             rid=f"{PACKAGE}:id/snippet", package=PACKAGE, style="secondary")])

    def _drawer(self, folder: str) -> View:
        rows = [View(TEXT_VIEW, (0, 300 + i * 160, 820, 460 + i * 160), text=label, desc=label,
                     rid=f"{PACKAGE}:id/name", package=PACKAGE, clickable=True, focusable=True,
                     selected=key == folder, on_tap=("folder", key), style="row", icon=FOLDER_ICONS[key])
                for i, (key, label) in enumerate(FOLDERS.items())]
        panel = View(FRAME, (0, CONTENT_TOP, 840, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/drawer_container",
                     package=PACKAGE, style="dialog", children=[
                         View(TEXT_VIEW, (MARGIN, CONTENT_TOP + 60, 800, CONTENT_TOP + 180), text="Gmail",
                              package=PACKAGE, style="logo"), *rows])
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=PACKAGE, clickable=True, on_tap=("close",), style="scrim",
                    children=[panel])

    def _toolbar(self, actions: list[tuple[str, str, tuple]], title: str = "") -> View:
        top, bottom = CONTENT_TOP, CONTENT_TOP + TOOLBAR_H
        kids = [View(IMAGE_BUTTON, (0, top, TOOLBAR_H, bottom), desc="Navigate up", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=NavKey("back"), icon="back")]
        if title:
            kids.append(View(TEXT_VIEW, (TOOLBAR_H, top, WIDTH - 170 * len(actions), bottom), text=title,
                             rid=f"{PACKAGE}:id/title", package=PACKAGE, style="title"))
        for i, (desc, icon, event) in enumerate(reversed(actions)):
            x1 = WIDTH - 20 - i * 160
            kids.append(View(IMAGE_BUTTON, (x1 - 150, top, x1, bottom), desc=desc, package=PACKAGE,
                             rid=f"{PACKAGE}:id/{desc.lower().replace(' ', '_')}", clickable=True, focusable=True,
                             on_tap=event, icon=icon))
        return View(FRAME, (0, top, WIDTH, bottom), rid=f"{PACKAGE}:id/mail_toolbar", package=PACKAGE,
                    style="toolbar", children=kids)

    def _email(self, screen: Screen) -> list[View]:
        m = self.email(screen.args["id"])
        actions: list[tuple[str, str, tuple]] = []
        if m["folder"] == "inbox":
            actions.append(("Archive", "archive", ("archive", m["id"])))
        if m["folder"] != "trash":
            actions.append(("Delete", "delete", ("trash", m["id"])))
        actions.append(("Mark unread", "mail", ("unread", m["id"])))
        top = CONTENT_TOP + TOOLBAR_H
        who = f"to {', '.join(m['to'])}" if m["kind"] != "received" else "to me"
        body = View(TEXT_VIEW, (MARGIN, top + 520, WIDTH - MARGIN, top + 1100), text=m["body"],
                    rid=f"{PACKAGE}:id/conversation_body", package=PACKAGE)
        views = [self._toolbar(actions),
                 View(TEXT_VIEW, (MARGIN, top + 20, WIDTH - MARGIN, top + 200), text=m["subject"],
                      rid=f"{PACKAGE}:id/subject_and_folder_view", package=PACKAGE, style="title"),
                 View(IMAGE_VIEW, (MARGIN, top + 240, MARGIN + 120, top + 360), package=PACKAGE,
                      rid=f"{PACKAGE}:id/contact_badge", icon="account"),
                 View(TEXT_VIEW, (MARGIN + 150, top + 230, WIDTH - 220, top + 310), text=m["sender"],
                      rid=f"{PACKAGE}:id/sender_name", package=PACKAGE, style="title"),
                 View(TEXT_VIEW, (MARGIN + 150, top + 310, WIDTH - 220, top + 380), text=m["email"],
                      rid=f"{PACKAGE}:id/sender_address", package=PACKAGE, style="secondary"),
                 View(TEXT_VIEW, (MARGIN + 150, top + 380, WIDTH - 220, top + 450), text=f"{who} · {m['time']}",
                      rid=f"{PACKAGE}:id/recipient_summary", package=PACKAGE, style="secondary"),
                 View(IMAGE_BUTTON, (WIDTH - 200, top + 240, WIDTH - MARGIN, top + 380), desc="Reply",
                      rid=f"{PACKAGE}:id/reply_button", package=PACKAGE, clickable=True, focusable=True,
                      on_tap=("compose", "reply", m["id"]), icon="back"), body]
        y = CONTENT_BOTTOM - 220
        for i, (label, kind) in enumerate((("Reply", "reply"), ("Reply all", "reply"), ("Forward", "forward"))):
            x0 = MARGIN + i * 330
            views.append(View(BUTTON, (x0, y, x0 + 310, y + 140), text=label, package=PACKAGE, clickable=True,
                              focusable=True, on_tap=("compose", kind, m["id"]), style="outlined_button",
                              rid=f"{PACKAGE}:id/{label.lower().replace(' ', '_')}_footer"))
        return views

    def _compose(self, screen: Screen) -> list[View]:
        kind, ref = screen.args["kind"], screen.args["ref"]
        title = {"new": "Compose", "reply": "Reply", "forward": "Forward"}[kind]
        top = CONTENT_TOP + TOOLBAR_H
        f, focus = screen.fields, screen.focus
        views = [self._toolbar([("Attach file", "add", ("attach",)), ("Send", "send", ("send",))], title),
                 View(TEXT_VIEW, (MARGIN, top + 10, WIDTH - MARGIN, top + 130), text=f"From    {USER_EMAIL}",
                      package=PACKAGE, style="secondary"),
                 text_field((MARGIN, top + 140, WIDTH - MARGIN, top + 280), TO_RID, f.get(TO_RID, ""), "To",
                            focus == TO_RID, PACKAGE),
                 text_field((MARGIN, top + 300, WIDTH - MARGIN, top + 440), SUBJECT_RID, f.get(SUBJECT_RID, ""),
                            "Subject", focus == SUBJECT_RID, PACKAGE),
                 text_field((MARGIN, top + 460, WIDTH - MARGIN, top + 760), BODY_RID, f.get(BODY_RID, ""),
                            "Compose email", focus == BODY_RID, PACKAGE)]
        if ref is not None:
            m = self.email(ref)
            quoted = (f"On {m['time']}, {m['sender']} <{m['email']}> wrote: {m['body']}" if kind == "reply" else
                      f"---------- Forwarded message ---------\nFrom: {m['sender']} <{m['email']}>\n"
                      f"Subject: {m['subject']}\n\n{m['body']}")
            bottom = KEYBOARD_TOP if focus else CONTENT_BOTTOM
            views.append(View(TEXT_VIEW, (MARGIN, top + 790, WIDTH - MARGIN, max(top + 800, min(bottom, top + 1300))),
                              text=quoted, rid=f"{PACKAGE}:id/quoted_text", package=PACKAGE, style="secondary"))
        if focus == TO_RID:  # the autocomplete list drops below the "To" field, over the rest of the form
            for i, c in enumerate(self.suggestions(f.get(TO_RID, ""))):
                y = top + 290 + i * 170
                views.append(View(LINEAR, (0, y, WIDTH, y + 170), desc=f"{c['name']}, {c['email']}",
                                  rid=SUGGESTION_RID, package=PACKAGE, clickable=True, focusable=True,
                                  on_tap=("pick", c["email"]), style="suggestion", children=[
                                      View(TEXT_VIEW, (MARGIN + 150, y + 15, WIDTH - MARGIN, y + 95), text=c["name"],
                                           package=PACKAGE),
                                      View(TEXT_VIEW, (MARGIN + 150, y + 95, WIDTH - MARGIN, y + 160),
                                           text=c["email"], package=PACKAGE, style="secondary")]))
        return views

    def _search(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + 24
        return [View(IMAGE_BUTTON, (0, top, 140, top + 140), desc="Navigate up", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=NavKey("back"), icon="back"),
                text_field((150, top + 10, WIDTH - MARGIN, top + 130), QUERY_RID, screen.fields.get(QUERY_RID, ""),
                           "Search in mail", screen.focus == QUERY_RID, PACKAGE)]

    def _results(self, screen: Screen) -> list[View]:
        list_top = CONTENT_TOP + 190
        found = self.search(screen.args["query"])
        rows = [self._row(m, list_top + i * ROW_H) for i, m in enumerate(found)]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, list_top + 300, WIDTH - MARGIN, list_top + 420), text="No results",
                         package=PACKAGE, style="hint")]
        return [self._search_bar(screen.args["query"], has_back=True),
                scroll_list(list_top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/thread_list_view")]

    # -- events --------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Lists, the drawer, email actions, compose and search."""
        match event:
            case ("open", mail_id):
                self.email(mail_id)["unread"] = False
                return self.phone.push(Screen(PACKAGE, "email", {"id": mail_id, "folder": self._folder_of(screen)}),
                                       slow=True)
            case ("drawer",):
                return self.phone.push(Screen(PACKAGE, "drawer", {"folder": screen.name}))
            case ("close",):
                return self.phone.pop()
            case ("folder", key):
                return self._go_folder(key)
            case ("search",):
                query = screen.args.get("query", "")
                return self.phone.push(Screen(PACKAGE, "search", fields={QUERY_RID: query}, focus=QUERY_RID))
            case ("archive" | "trash" | "unread" as action, mail_id):
                m = self.email(mail_id)
                if action == "unread":
                    m["unread"] = True
                else:
                    m["folder"] = "archive" if action == "archive" else "trash"
                return self.phone.pop()
            case ("compose", kind, ref):
                return self._compose_open(kind, ref)
            case ("pick", address):
                chosen = recipients(screen.fields.get(TO_RID, ""))[:-1] + [address]
                screen.fields[TO_RID] = ", ".join(chosen) + ", "
                return True
            case ("send",):
                return self._send(screen)
            case ("attach",):
                return False  # the sim's phone has no files to attach
        return False

    def _folder_of(self, screen: Screen) -> str | None:
        return screen.name if screen.name in FOLDERS else screen.args.get("folder")

    def _go_folder(self, key: str) -> bool:
        self.phone.pop()  # the drawer closes
        if self.phone.top.name == key:
            return True
        mine = self.phone.screens(PACKAGE)
        if key == "inbox" and len(mine) >= 2 and mine[-2].name == "inbox":
            return self.phone.pop()
        if self.phone.top.name == "inbox":  # BACK from another folder returns to the inbox, as in Gmail
            return self.phone.push(Screen(PACKAGE, key))
        return self.phone.replace(Screen(PACKAGE, key))

    def prefill(self, kind: str, ref: int | None) -> dict[str, str]:
        """The fields a compose screen opens with: "Re:"/"Fwd:" subjects, and the sender as a reply's recipient."""
        if ref is None:
            return {}
        m = self.email(ref)
        prefix = "Re: " if kind == "reply" else "Fwd: "
        fields = {SUBJECT_RID: m["subject"] if m["subject"].startswith(prefix) else prefix + m["subject"]}
        if kind == "reply":
            fields[TO_RID] = (m["email"] if m["kind"] == "received" else ", ".join(m["to"])) + ", "
        return fields

    def _compose_open(self, kind: str, ref: int | None) -> bool:
        return self.phone.push(Screen(PACKAGE, "compose", {"kind": kind, "ref": ref}, fields=self.prefill(kind, ref),
                                      focus=BODY_RID if kind == "reply" else TO_RID))

    def compose_to(self, address: str) -> bool:
        """Another app's "send email" intent: a new email to `address` opens over it, the subject focused (BACK
        returns to that app)."""  # noqa: D205, D209
        return self.phone.push(Screen(PACKAGE, "compose", {"kind": "new", "ref": None},
                                      fields={TO_RID: f"{address}, "}, focus=SUBJECT_RID))

    def _send(self, screen: Screen) -> bool:
        to = recipients(screen.fields.get(TO_RID, ""))
        bad = next((t for t in to if not _EMAIL_RE.match(t)), None)
        if not to or bad is not None:
            message = ("Add at least one recipient." if not to else
                       f'The address "{bad}" in the "To" field was not recognized. Please make sure that all '
                       "addresses are properly formed.")
            return self.phone.push(Screen(PACKAGE, "alert", {"title": "Invalid address" if to else "No recipients",
                                                             "message": message}))
        self.mail.insert(0, {"id": self.next_id, "sender": "Me", "email": USER_EMAIL, "to": to,
                             "subject": screen.fields.get(SUBJECT_RID, "").strip(),
                             "body": screen.fields.get(BODY_RID, "").strip(), "time": "Now", "unread": False,
                             "folder": "sent", "kind": screen.args["kind"], "ref": screen.args["ref"]})
        self.next_id += 1
        screen.fields.clear()  # sent: nothing left to save as a draft
        return self.phone.pop()

    def on_back(self, screen: Screen) -> bool:
        """Leaving a compose screen the user wrote in saves it as a draft (the screen still closes)."""
        if screen.name == "compose":
            start = self.prefill(screen.args["kind"], screen.args["ref"])
            draft = {"to": screen.fields.get(TO_RID, ""), "subject": screen.fields.get(SUBJECT_RID, ""),
                     "body": screen.fields.get(BODY_RID, "")}
            rids = {"to": TO_RID, "subject": SUBJECT_RID, "body": BODY_RID}
            if any(v.strip() != start.get(rids[k], "").strip() for k, v in draft.items()):
                self.drafts.append(draft)
        return False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the search field lists the results; elsewhere it only closes the keyboard."""
        if rid != QUERY_RID:
            return False
        query = " ".join(screen.fields.get(QUERY_RID, "").split())
        if not query:
            return False
        return self.phone.replace(Screen(PACKAGE, "results", {"query": query}), slow=True)
