"""World-suite tasks on the phone's clipboard (issue 48): say what is on it, find whose number it holds, text it to
someone, carry a Markor note into a text by copy and paste; and a recurring Calendar event. Their expert steps are in
`clipboard_expert`.

The clipboard is the phone's (`android_gym.sim.clipboard`): tasks set it as an initial condition (`{"clipboard":
{"text": ...}}`) and read it as `state["clipboard"]["text"]`. Near misses sit beside each target: a namesake with
another number or conversation, a second note with a similar name, the same event a week later. Checks ask for the
exact text (outer spaces aside), so a retyped text with a slip loses where a paste wins. Splits hold out the
clipboard's texts, the notes' names, or the events' titles.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import contacts as K
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.tasks.expert import obstacle
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, find, into_app, nth, press
from android_gym.tasks.world.calendar_tasks import CalendarTemplate, added_one, event_grid, later
from android_gym.tasks.world.clipboard_expert import clipboard, copy_all, create_repeating, paste_into
from android_gym.tasks.world.messaging_expert import conversation, names, person, same_number, to_thread, twins
from android_gym.tasks.world.notes_expert import MARKOR, markor_item

CODES = ("Booking ref QX7-204", "Locker code 4817", "Wi-Fi password: maple-river-88", "Gate B12, boarding 7:40",
         "Parcel 1Z 884 6T2 907", "Seat 14C, coach 3", "Voucher SPRING-2291", "Table 6 at Rosa's",
         "Room 512, east wing", "Ticket #55-0193", "Claim no. HX-77120", "Promo code BIKE15", "Pickup PIN 3306",
         "Account ID: 884-201-X", "Flight LX 318", "Platform 9, car 4", "Unit 3B, buzzer 12", "Order QP-40917")
"""What the clipboard holds in `clipboard_read`: references and codes of everyday errands."""
MESSAGES = ("Meet at the north entrance at 6", "Here's the address: 41 Quarry Lane, Unit 2",
            "The door code is 7731, come on up", "Dinner is at Lupa, booked for 8:15",
            "Don't forget the tickets, row F seats 9 and 10", "The plumber comes Thursday between 10 and 12",
            "Train leaves at 17:42 from platform 3", "Parking is free after 6 on Elm Street",
            "New Wi-Fi password: orchid-lamp-52", "Bring the blue folder and two pens",
            "Practice moved to Saturday 9 AM", "Pick up the cake at Crumbs before 4")
"""What the clipboard holds in `clipboard_text_contact`, and what notes say in `clipboard_note_to_text`."""
NOTES = ("door_code", "wifi_guest", "dinner_plan", "train_times", "parking_info", "tickets_row", "plumber_visit",
         "cake_pickup", "folder_list", "practice_move")
"""The stems of the notes `clipboard_note_to_text` copies from (each beside "<stem>_old.md")."""
RULES = ("daily", "weekly", "monthly", "yearly")
"""The repeat rules of `calendar_repeating_event`, as the goal says them."""
STALE = "Reminder: renew the parking permit"
"""What the clipboard holds before a task that copies onto it (so a task is not solved at reset)."""


class ClipboardReadTemplate(WorldTemplate):
    """What is on the clipboard? Answered with its text, pasted somewhere to read it."""

    name, max_steps, split_key = "clipboard_read", 9, "text"
    outcome, apps = "answer", (K.PACKAGE,)
    phrasings = ("What text is on my clipboard? Answer with it exactly", "Tell me what I last copied",
                 "Paste what is on the clipboard somewhere and tell me what it says")

    def grid(self) -> list[dict[str, Any]]:
        """Every code once, phrasings rotating."""
        return [{"text": code, "phrasing": i} for i, code in enumerate(CODES)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The code on the clipboard."""
        return {"clipboard": {"text": params["text"]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The code, while the clipboard still holds it (an agent that copied over it has lost what was asked)."""
        return params["text"] if clipboard(state) == params["text"] else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Contacts' search field: paste into it, answer with what it shows."""
        step = into_app("Contacts", K.PACKAGE, elements, state)
        if step is not None:
            return step
        if state["screen"]["name"] != "list":
            return press(elements, desc="Navigate up")
        if state["screen"]["fields"].get(K.SEARCH_RID, "") != clipboard(state):
            return paste_into(K.SEARCH_RID, elements, state)
        return answer_with(find(elements, rid=K.SEARCH_RID))


class ClipboardWhoseNumberTemplate(WorldTemplate):
    """Whose number is on the clipboard? Answered with the contact's name; a namesake has another number."""

    name, max_steps, split_key = "clipboard_whose_number", 9, "name"
    outcome, apps = "answer", (K.PACKAGE,)
    phrasings = ("I copied a phone number. Whose contact is it?",
                 "Which of my contacts has the number on my clipboard?",
                 "Look up the number I just copied in Contacts and tell me whose it is")

    def grid(self) -> list[dict[str, Any]]:
        """Sixteen people, the number copied in one of three formats."""
        out = []
        for i, name in enumerate(names("clipboard-number", 16)):
            d = M.digits(person(name)["number"])
            copied = nth((person(name)["number"], f"{d[:3]}-{d[3:6]}-{d[6:]}", d), i)
            out.append({"name": name, "number": copied, "phrasing": i})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The person and their namesake among the contacts, the number on the clipboard."""
        people = [{"name": n, "phone": person(n)["number"]} for n in (params["name"], *twins(params["name"]))]
        return {"clipboard": {"text": params["number"]}, K.PACKAGE: {"contacts": {"add": people}}}

    def answer(self, params: Params, state: State) -> str | None:
        """The one contact with the clipboard's number, while Contacts is as set up."""
        c = state_of(state, K.ContactsState)
        if c["added"] or c["removed"] or c["changed"]:
            return None
        found = [p["name"] for p in c["contacts"] if same_number(p["phone"], clipboard(state))]
        return found[0] if len(found) == 1 else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Paste the number into Contacts' search; answer with the one row left."""
        step = into_app("Contacts", K.PACKAGE, elements, state)
        if step is not None:
            return step
        if state["screen"]["name"] != "list":
            return press(elements, desc="Navigate up")
        if state["screen"]["fields"].get(K.SEARCH_RID, "") != clipboard(state):
            return paste_into(K.SEARCH_RID, elements, state)
        return answer_with(find(elements, rid=K.ROW_RID))


def one_text(state: State, name: str, text: str) -> bool:
    """Exactly one text sent this episode: to `name`'s number, saying `text` exactly (outer spaces aside)."""
    sent = state_of(state, M.MessagesState)["sent"]
    return (len(sent) == 1 and same_number(sent[0]["number"], person(name)["number"])
            and sent[0]["text"].strip() == text)


def paste_and_send(name: str, elements: Elements, state: State) -> Action:
    """The next step to text `name` the clipboard: their conversation, paste into the compose field, Send SMS."""
    step = obstacle(elements, state) or to_thread(person(name), elements, state)
    if step is not None:
        return step
    if state["screen"]["fields"].get(M.COMPOSE_RID, "") != clipboard(state):
        return paste_into(M.COMPOSE_RID, elements, state)
    return press(elements, desc="Send SMS")


def messages_with(name: str, existing: bool) -> dict[str, Any]:
    """Messages' start: `name` among the contacts (with an old conversation when `existing`), a namesake's chat."""
    p = person(name)
    threads = [conversation(person(t), ("See you at the match", "Sure thing"), False) for t in twins(name)]
    threads += [conversation(p, ("Are we still on for Friday?", "Yes!"), False)] if existing else []
    return {"threads": threads, "contacts": [{"name": p["name"], "number": p["number"]}]}


class ClipboardTextTemplate(WorldTemplate):
    """Text {name} what is on the clipboard: exactly one text to them, the clipboard's text exactly."""

    name, max_steps, split_key = "clipboard_text_contact", 12, "text"
    apps = (M.PACKAGE,)
    phrasings = ("Text {name} what is on my clipboard", "Paste the text I copied into a message to {name} and send it",
                 "Send {name} an SMS with the clipboard's contents")

    def grid(self) -> list[dict[str, Any]]:
        """Every message to two people (an old conversation with the first, none with the second)."""
        return [{"text": text, "name": who, "existing": k == 0, "phrasing": i + k}
                for i, text in enumerate(MESSAGES) for k, who in enumerate(names(f"clip-text:{text}", 2))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The text on the clipboard; the person among the contacts, a namesake's conversation."""
        return {"clipboard": {"text": params["text"]}, M.PACKAGE: messages_with(params["name"], params["existing"])}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, the clipboard's text exactly."""
        return one_text(state, params["name"], params["text"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open (or start) the conversation, paste, send."""
        return paste_and_send(params["name"], elements, state)


class ClipboardNoteToTextTemplate(WorldTemplate):
    """Copy note {note}'s text in Markor and text it to {name}: the clipboard holds it, one text says it exactly,
    no note changed; "<stem>_old.md" beside it says something else."""  # noqa: D205, D209

    name, max_steps, split_key = "clipboard_note_to_text", 23, "note"
    apps = (MARKOR, M.PACKAGE)
    phrasings = ("Copy the text of my Markor note {note} and send it to {name} by SMS",
                 "In Markor, copy everything in {note}, then paste it into a text to {name}",
                 "Use copy and paste to text {name} the contents of the note {note}")

    def grid(self) -> list[dict[str, Any]]:
        """Every note, twice (different people, texts and old versions)."""
        out = []
        for i, stem in enumerate(NOTES):
            for k in range(2):
                who = names(f"clip-note:{stem}:{k}", 1)[0]
                out.append({"note": f"{stem}.md", "text": nth(MESSAGES, i + 3 * k), "old": nth(MESSAGES, i + 3 * k + 1),
                            "name": who, "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note and its old version in Markor, the person in Messages, something stale on the clipboard."""
        stem = params["note"].removesuffix(".md")
        files = {params["note"]: params["text"], f"{stem}_old.md": params["old"]}
        return {"clipboard": {"text": STALE}, MARKOR: {"absent": list(files), "files": files},
                M.PACKAGE: messages_with(params["name"], False)}

    def check(self, params: Params, state: State) -> bool:
        """The note's text on the clipboard and in exactly one text to the person; no note edited."""
        edits = state_of(state, markor.MarkorState)["edits"]
        return clipboard(state) == params["text"] and one_text(state, params["name"], params["text"]) and not edits

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, Edit, copy all of it; then the conversation, paste, send."""
        if clipboard(state) == params["text"]:
            return paste_and_send(params["name"], elements, state)
        opened = state_of(state, markor.MarkorState)["open"]
        if state["foreground"] != MARKOR or state.get("dialog") or opened is None or opened["path"] != params["note"]:
            return markor_item(params["note"], elements, state)
        if opened["mode"] == "view":
            return press(elements, desc="Edit")
        return copy_all(markor.EDITOR_RID, elements, state)


class RepeatingEventTemplate(CalendarTemplate):
    """Create event {title} on {day} from {at} to {until}, repeating {rule}; the same title sits a week later."""

    name, max_steps = "calendar_repeating_event", 30
    phrasings = ('Create a {rule} event "{title}" in Calendar, starting {day} from {at} to {until}',
                 "Add {title} to my calendar on {day}, {at} - {until}, and make it repeat {rule}",
                 'Schedule "{title}" for {day} at {at} until {until}, recurring {rule}')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with its end and a rule."""
        return [{**p, "until": C.clock(later(p["start"], p["length"])), "rule": nth(RULES, p["phrasing"] + i)}
                for i, p in enumerate(event_grid(2, offset=2))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the twin (a one-off event)."""
        return {C.PACKAGE: {"absent": [params["title"]], "events": self.twins(params)}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one event added: the title, day, start, end and rule (no place or notes asked, any allowed)."""
        return added_one(state, {**self.target(params), "repeat": params["rule"]}, extras=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """FAB, the title, the rule, the date and times, Save."""
        t = self.target(params)
        return create_repeating({"title": t["title"], "date": t["date"], "start": t["start"], "end": t["end"],
                                 "repeat": params["rule"]}, elements, state)


TEMPLATES = (ClipboardReadTemplate(), ClipboardWhoseNumberTemplate(), ClipboardTextTemplate(),
             ClipboardNoteToTextTemplate(), RepeatingEventTemplate())
