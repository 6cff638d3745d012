"""AndroidWorld's clipboard tasks: `SystemCopyToClipboard`, `MarkorCreateNoteFromClipboard` and
`SimpleSmsSendClipboardContent`, on the sim phone's clipboard (`android_gym.sim.clipboard`).

AndroidWorld reads and sets the clipboard through the Clipper helper app (`am broadcast -a clipper.get` / `clipper.set`,
which the sim's ADB front answers too); here the templates set it as the phone's initial condition and read
`state["clipboard"]["text"]`. The user copies with a text field's toolbar (long press, Select all, Copy) and pastes
with its Paste.

- `SystemCopyToClipboard`: AndroidWorld sets the clipboard to a marker, then checks it fuzzy-matches one of some
  forty short texts (an address, an e-mail, an order number). Here the texts are a list of our own of the same kinds;
  the clipboard starts empty; the check wants the text exactly (outer spaces aside), in any app. The expert types
  it into Contacts' search field and copies it from there.
- `MarkorCreateNoteFromClipboard`: AndroidWorld clears Markor's notebook, puts ten random letters and digits on the
  clipboard, and checks that a note of the drawn name (an adjective and a noun with one affix, ".md" or ".txt", as
  `MarkorCreateNote` draws it) exists and holds the text. Here: the notebook as seeded (no note of that name), and
  the check wants that note at the root holding exactly the text, no other note touched. The expert creates the
  note, pastes, saves.
- `SimpleSmsSendClipboardContent`: AndroidWorld clears the SMS tables, puts a sentence on the clipboard and checks the
  sent table for a text to the number whose body fuzzy-matches the sentence. Here the Messages conversations are
  dropped as `sms.py` does, and the check is `sms.one_text`'s: exactly one text, to the number, the sentence's words,
  with Messages in front. The expert starts a conversation with the number, pastes, sends.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts as K
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.tasks.androidworld import sms
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.contacts import random_number
from android_gym.tasks.androidworld.markor import random_file_name, random_string
from android_gym.tasks.expert import fill
from android_gym.tasks.world.base import Elements, Params, State, into_app, press
from android_gym.tasks.world.clipboard_expert import clipboard, copy_all, paste_into
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, only_touched

SNIPPETS = (
    "48 Harbor Rd, Juneau, AK", "Bluebird Labs, Suite 410", "sam.porter@example.org", "Lena's Tailoring",
    "Call me at 555-2048", "Order No: K778201", "Reservation under: Omar", "Voucher code: SUMMER15",
    "Member ID: QRT552", "Invoice #60417", "Tracking #: 9Z314K7P", "Reference: txn-88c1",
    "1207 Cedar Way, Eugene, OR", "Northwind Ltd, Floor 7", "priya.nair@example.net", "Corner Bike Repair",
    "Text me at 555-7316", "Order No: M120944", "Reservation under: Lucia", "Promo code: FALL25",
    "Member ID: HJK908", "Invoice #71150", "Tracking #: 2B905X1M", "Reference: txn-41f0",
    "390 Birch Blvd, Tulsa, OK", "Orbit Media, Studio 2", "dev.team@example.com", "Golden Crust Pizza",
    "Ring me at 555-6602", "Order No: P305517", "Reservation under: Hana", "Gift code: JOY2026",
    "Member ID: WPL314", "Invoice #83025", "Tracking #: 7C218R4T", "Reference: txn-93ad",
    "75 Lakeview Dr, Duluth, MN", "Keystone Legal, Room 12", "ana.costa@example.io", "Sunrise Flower Market",
)
"""What `SystemCopyToClipboard` asks to copy (AndroidWorld picks from 36 such texts)."""


class SystemCopyToClipboard(AndroidWorldTemplate):
    """Copy {clipboard_content} to the clipboard: the clipboard holds exactly it."""

    name, split_key, max_steps = "SystemCopyToClipboard", "clipboard_content", 12
    goal_template = "Copy the following text to the clipboard: {clipboard_content}"
    apps = (K.PACKAGE,)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """One of the texts."""
        return {"clipboard_content": pick(rng, SNIPPETS)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """An empty clipboard (AndroidWorld writes a marker over whatever was there)."""
        return {"clipboard": {"text": ""}}

    def check(self, params: Params, state: State) -> bool:
        """The clipboard holds the text exactly (outer spaces aside)."""
        return clipboard(state).strip() == params["clipboard_content"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Type the text into Contacts' search field, then long-press it, Select all, Copy."""
        step = into_app("Contacts", K.PACKAGE, elements, state)
        if step is not None:
            return step
        if state["screen"]["name"] != "list":
            return press(elements, desc="Navigate up")
        return fill(elements, state, K.SEARCH_RID, params["clipboard_content"]) or copy_all(K.SEARCH_RID, elements,
                                                                                             state)


class MarkorCreateNoteFromClipboard(AndroidWorldTemplate):
    """Create note {file_name} at Markor's root holding the clipboard's text, pasted: exactly that note, that text."""

    name, split_key, max_steps = "MarkorCreateNoteFromClipboard", "file_name", 14
    goal_template = ("Create a note in Markor named {file_name}. Perform a paste operation in the note and save the "
                     "note.")
    apps = (MARKOR,)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A random name with ".md" or ".txt", and ten random letters and digits."""
        return {"file_name": random_file_name(rng) + pick(rng, (".md", ".txt")), "file_content": random_string(rng, 10)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The text on the clipboard; no note of that name."""
        return {"clipboard": {"text": params["file_content"]}, MARKOR: {"absent": [params["file_name"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note at the root holds exactly the text (outer blank space aside); no other note touched."""
        m = state_of(state, markor.MarkorState)
        return (m["files"].get(params["file_name"], "").strip() == params["file_content"]
                and only_touched(m["edits"], {params["file_name"]}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Create the note (FAB, its name, OK), paste into the editor, Save."""
        opened = state_of(state, markor.MarkorState)["open"]
        if state["foreground"] != MARKOR or state.get("dialog") or opened is None or opened["path"] != params[
                "file_name"]:
            return markor_create("", params["file_name"], "Markdown", elements, state)
        if state["screen"]["fields"].get(markor.EDITOR_RID, "") != params["file_content"]:
            return paste_into(markor.EDITOR_RID, elements, state)
        return press(elements, desc="Save")


class SimpleSmsSendClipboardContent(AndroidWorldTemplate):
    """Text the clipboard's sentence to {number}: exactly one text, to the number, the sentence."""

    name, split_key, max_steps = "SimpleSmsSendClipboardContent", "number", 14
    goal_template = "Send a message to {number} with the clipboard content in Simple SMS Messenger"
    apps = (M.PACKAGE,)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A number and a sentence (the one on the clipboard)."""
        return {"number": random_number(rng), "message": pick(rng, sms.MESSAGES)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No conversations (as AndroidWorld clears the tables); the sentence on the clipboard."""
        return {"clipboard": {"text": params["message"]}, M.PACKAGE: {"remove": list(sms.SEEDED_NAMES)}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, the sentence to the number, Messages in front."""
        return sms.one_text(state, params["number"], params["message"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Start a conversation with the number, paste into the compose field, Send SMS."""
        ms = state_of(state, M.MessagesState)
        here = ms["screen"] == "thread" and ms["thread"] is not None
        if (state["foreground"] == M.PACKAGE and not state.get("dialog") and here
                and sms.national(ms["thread"]) == sms.national(params["number"])):
            if state["screen"]["fields"].get(M.COMPOSE_RID, "") != clipboard(state):
                return paste_into(M.COMPOSE_RID, elements, state)
            return press(elements, desc="Send SMS")
        return sms.text_number(params["number"], params["message"], elements, state)


TEMPLATES = (SystemCopyToClipboard(), MarkorCreateNoteFromClipboard(), SimpleSmsSendClipboardContent())
