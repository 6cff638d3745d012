"""World-suite questions answered in text that need two apps (issue 48): read who or what in one app, then the answer
in another. The email address of the person a meeting names (Calendar, Contacts), the number of whoever emailed about
a subject (Gmail, Contacts), how many emails the last texter sent (Messages, Gmail), the number of the person a Markor
note names for a role (Markor, Contacts), the address of the last missed caller (Phone, Contacts), and when the event
an email names starts (Gmail, Calendar).

`answer()` reads the truth from the state at the declaration, and gives None (no answer wins) once the agent changed
what the question is about. Each task puts a near miss beside the truth: a namesake in Contacts, a twin event a week
later, an older missed call, a namesake's emails. Experts read the first app through what its state records (an
opened event, a read email or conversation, Markor's last opened note, Phone's Recents tab), then answer from the
second app's screen (or, for a count or a time, from its state, as a person reading the screen would say it).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import contacts as P
from android_gym.sim.apps import dialer as D
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Params, WorldTemplate, nth, wait
from android_gym.tasks.world.calendar_expert import CAL, to_event
from android_gym.tasks.world.calendar_tasks import DAYS, STARTS, TITLES, iso, spec, the, untouched
from android_gym.tasks.world.cross_people_expert import (
    contact,
    contacts_untouched,
    count_matches,
    in_contacts,
    on_recents,
    time_matches,
)
from android_gym.tasks.world.messaging_expert import (
    SUBJECTS,
    Elements,
    State,
    conversation,
    email_from,
    names,
    namesake,
    person,
    to_email,
    to_thread,
)
from android_gym.tasks.world.notes_expert import markor_item
from android_gym.tasks.world.people_expert import to_card, to_phone_tab

PHONE_ROW, EMAIL_ROW = f"{P.PACKAGE}:id/phone_number", f"{P.PACKAGE}:id/email_address"
ROLES = ("plumber", "electrician", "dog sitter", "tutor", "mechanic", "babysitter", "landlord", "accountant")


class _ContactAnswer(WorldTemplate):
    """An answer read off the card of contact params["name"] (its `field`), while Contacts is as the task set it."""

    outcome = "answer"
    field = "email"
    split_key = "name"

    def answer(self, params: Params, state: State) -> str | None:
        """The contact's field, while nothing in Contacts changed."""
        found = contact(state, params["name"]) if contacts_untouched(state) else None
        return None if found is None else found[self.field] or None

    def card_answer(self, params: Params, elements: Elements, state: State) -> Action:
        """The contact's card, then answer with the field's row."""
        return to_card(params["name"], elements, state) or answer_with(
            find(elements, rid=EMAIL_ROW if self.field == "email" else PHONE_ROW))


# -- Calendar -> Contacts -------------------------------------------------------------------------------------------
class MeetingEmailAnswerTemplate(_ContactAnswer):
    """What is the email address of the person I meet on {day}? Their name is in the event; another meeting is a
    week later; a namesake is among the contacts."""  # noqa: D205, D209

    name, max_steps = "cross_meeting_email_answer", 14
    apps = (CAL, P.PACKAGE)
    phrasings = ("What is the email address of the person I have a meeting with on {day}?",
                 "Who am I meeting on {day}? Tell me their email address from my contacts",
                 "Find the email of the person from my {day} meeting")

    def grid(self) -> list[dict[str, Any]]:
        """The person met, a day, another person met a week later."""
        out = []
        for i in range(30):
            who, other = names(f"meet_email:{i}", 2)
            days = nth(DAYS, i + 4)
            out.append({"name": who, "other": other, "date": iso(days), "day": C.long_date(iso(days)),
                        "later": iso(days + 7), "start": nth(STARTS, i + 2), "phrasing": i})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both meetings; both people and the namesake in Contacts."""
        meet, later = f"Meeting with {params['name']}", f"Meeting with {params['other']}"
        return {CAL: {"absent": [meet, later], "events": [spec(meet, params["date"], params["start"]),
                                                          spec(later, params["later"], params["start"])]},
                **in_contacts(params["name"], params["other"], namesake(params["name"]))}

    def answer(self, params: Params, state: State) -> str | None:
        """The address on the card, while the calendar is unchanged too."""
        return super().answer(params, state) if untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the meeting, then the card; answer with its email row."""
        e = the(state, f"Meeting with {params['name']}", params["date"])
        if e is not None and e["id"] not in state_of(state, C.CalendarState)["opened"]:
            return to_event(e, elements, state) or wait()
        return self.card_answer(params, elements, state)


# -- Gmail -> Contacts ----------------------------------------------------------------------------------------------
class SenderPhoneAnswerTemplate(_ContactAnswer):
    """What is the number of whoever emailed me about {subject}? A namesake emailed about its twin subject."""

    name, max_steps, field = "cross_sender_phone_answer", 14, "phone"
    split_key = "subject"
    apps = (G.PACKAGE, P.PACKAGE)
    phrasings = ('What is the phone number of the person who emailed me about "{subject}"?',
                 "Someone sent me an email about {subject}. What's their number?",
                 'Look up who wrote the "{subject}" email and tell me their phone number')

    def grid(self) -> list[dict[str, Any]]:
        """Every subject three times, with another sender."""
        return [{"subject": a, "twin": b, "name": names(f"sender_phone:{a}:{k}", 1)[0], "phrasing": i + k}
                for i, (a, b) in enumerate(SUBJECTS) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The unread email and the namesake's about the twin subject; both in Contacts."""
        p, twin = person(params["name"]), person(namesake(params["name"]))
        return {G.PACKAGE: {"emails": [email_from(p, params["subject"]), email_from(twin, params["twin"])]},
                **in_contacts(p["name"], twin["name"])}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the email (unread until then), then the sender's card; answer with its number."""
        mail = next((m for m in state_of(state, G.GmailState)["inbox"] if m["subject"] == params["subject"]), None)
        if mail is not None and mail["unread"]:
            return to_email(params["name"], params["subject"], elements, state) or wait()
        return self.card_answer(params, elements, state)


# -- Markor -> Contacts ---------------------------------------------------------------------------------------------
class NoteRoleNumberAnswerTemplate(_ContactAnswer):
    """My Markor note "Household" names my {role}: what is their number? The note names another for another role."""

    name, max_steps, field = "cross_note_role_number_answer", 16, "phone"
    apps = (markor.PACKAGE, P.PACKAGE)
    phrasings = ("My Markor note Household says who my {role} is. What is their phone number?",
                 "Check the Household note in Markor for my {role}, then tell me their number from my contacts",
                 "What's the phone number of the {role} listed in my Household note?")
    path = "Household.md"

    def grid(self) -> list[dict[str, Any]]:
        """Every role with several people, and another role's person."""
        out = []
        for i in range(32):
            who, other = names(f"role:{i}", 2)
            out.append({"name": who, "other": other, "role": nth(ROLES, i), "other_role": nth(ROLES, i + 3),
                        "phrasing": i})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note (the role's line second), both people and the namesake in Contacts."""
        text = f"# Household\n{params['other_role'].capitalize()}: {params['other']}\n" \
               f"{params['role'].capitalize()}: {params['name']}\nBins go out on Tuesday"
        return {markor.PACKAGE: {"files": {self.path: text}},
                **in_contacts(params["name"], params["other"], namesake(params["name"]))}

    def answer(self, params: Params, state: State) -> str | None:
        """The number on the card, while no note was edited."""
        return None if state_of(state, markor.MarkorState)["edits"] else super().answer(params, state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then the card; answer with its number."""
        if state_of(state, markor.MarkorState)["last_opened"] != self.path:
            return markor_item(self.path, elements, state)
        return self.card_answer(params, elements, state)


# -- Phone -> Contacts ----------------------------------------------------------------------------------------------
class MissedCallerEmailAnswerTemplate(_ContactAnswer):
    """What is the email address of my last missed caller? An older missed call is from someone else."""

    name, max_steps = "cross_missed_caller_email_answer", 14
    apps = (D.PACKAGE, P.PACKAGE)
    phrasings = ("What is the email address of the person whose call I missed last?",
                 "Someone just tried to call me. Find their email address in my contacts",
                 "Tell me the email of my most recent missed caller")

    def grid(self) -> list[dict[str, Any]]:
        """The caller and an older missed caller."""
        return [{"name": a, "older": b, "phrasing": i} for i in range(30) for a, b in [names(f"missed_email:{i}", 2)]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The older caller's missed call, the task's, a newer answered one; both and a namesake in Contacts."""
        p, o = person(params["name"]), person(params["older"])
        calls = [{"number": o["number"], "kind": "missed", "ago_min": 50},
                 {"number": p["number"], "kind": "missed", "ago_min": 12},
                 {"number": o["number"], "kind": "incoming", "ago_min": 4}]
        return {D.PACKAGE: {"calls": calls}, **in_contacts(params["name"], params["older"], namesake(params["name"]))}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone's Recents, then the caller's card; answer with its email row."""
        if not on_recents(state):
            return to_phone_tab("Recents", elements, state) or wait()
        return self.card_answer(params, elements, state)


# -- Messages -> Gmail ----------------------------------------------------------------------------------------------
class TexterEmailCountAnswerTemplate(WorldTemplate):
    """How many emails has the person who texted me last sent me? A namesake texted earlier and emailed too."""

    name, max_steps, split_key = "cross_texter_email_count_answer", 11, "name"
    outcome, apps = "answer", (M.PACKAGE, G.PACKAGE)
    phrasings = ("How many emails have I received from the person who texted me most recently?",
                 "Whoever sent me the latest text: how many emails from them are in my Gmail?",
                 "Count the emails I got from the last person who messaged me")

    def grid(self) -> list[dict[str, Any]]:
        """The texter and how many emails they sent (1-4)."""
        return [{"name": names(f"texter_count:{i}", 1)[0], "count": 1 + i % 4, "phrasing": i} for i in range(32)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The namesake's older conversation and two emails; the texter's new text and their emails."""
        p, twin = person(params["name"]), person(namesake(params["name"]))
        subjects = [pair[0] for pair in SUBJECTS]
        mine = [email_from(p, nth(subjects, params["phrasing"] + k), k % 2 == 0) for k in range(params["count"])]
        theirs = [email_from(twin, nth(subjects, params["phrasing"] + 10 + k)) for k in range(2)]
        return {M.PACKAGE: {"threads": [conversation(twin, ("See you soon",), False)],
                            "incoming": [{"name": p["name"], "number": p["number"], "text": "Did you see my emails?"}]},
                G.PACKAGE: {"emails": [*mine, *theirs]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The received emails from the newest conversation's sender's address (any box)."""
        threads = state_of(state, M.MessagesState)["threads"]
        if not threads or M.digits(threads[0]["number"]) != M.digits(person(params["name"])["number"]):
            return None
        g = state_of(state, G.GmailState)
        address = person(params["name"])["email"]
        return str(sum(m["email"] == address for box in ("inbox", "archived", "deleted") for m in g[box]))

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count as digits or a word, alone or before a noun."""
        return count_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the newest conversation, then look at Gmail's inbox and count."""
        p = person(params["name"])
        thread = next((t for t in state_of(state, M.MessagesState)["threads"] if t["number"] == p["number"]), None)
        if thread is not None and thread["unread"]:
            return to_thread(p, elements, state) or wait()
        step = into_app("Gmail", G.PACKAGE, elements, state)
        if step is not None:
            return step
        return Action(ActionType.STATUS_TASK_COMPLETE, text=self.answer(params, state) or "")


# -- Gmail -> Calendar ----------------------------------------------------------------------------------------------
class EmailedEventTimeAnswerTemplate(WorldTemplate):
    """What time does the event {name} emailed me about start? The same title a week later starts at another time."""

    name, max_steps = "cross_emailed_event_time_answer", 14
    outcome, apps = "answer", (G.PACKAGE, CAL)
    phrasings = ("{name} emailed me about an event. What time does it start according to my calendar?",
                 "When does the event in {name}'s email begin? Check my calendar",
                 "Read {name}'s email and tell me the start time of the event it mentions")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice: a day, a start, the twin's start, the sender."""
        out = []
        for i, title in enumerate(TITLES):
            for k in range(2):
                days = nth(DAYS, i + 2 * k + 1)
                out.append({"title": title, "date": iso(days), "day": C.long_date(iso(days)),
                            "start": nth(STARTS, i + 3 * k), "twin": nth(STARTS, i + 3 * k + 5), "other": iso(days + 7),
                            "name": names(f"emailed_event:{title}:{k}", 1)[0], "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event and its twin; the unread email naming the event and its day."""
        mail = {**email_from(person(params["name"]), params["title"]),
                "body": f"Are you coming to the {params['title'].lower()} on {params['day']}? Hope to see you."}
        return {CAL: {"absent": [params["title"]], "events": [spec(params["title"], params["date"], params["start"]),
                                                              spec(params["title"], params["other"], params["twin"])]},
                G.PACKAGE: {"emails": [mail]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The event's start ("HH:MM"), while the calendar is unchanged."""
        e = the(state, params["title"], params["date"])
        return e["start"] if e is not None and untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The time with or without AM/PM, in 12 or 24 hours."""
        return time_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the email, open the event it names; answer with its start as Calendar shows it."""
        mail = next((m for m in state_of(state, G.GmailState)["inbox"] if m["subject"] == params["title"]), None)
        if mail is not None and mail["unread"]:
            return to_email(params["name"], params["title"], elements, state) or wait()
        e = the(state, params["title"], params["date"])
        step = to_event(e, elements, state) if e is not None else wait()
        return step or Action(ActionType.STATUS_TASK_COMPLETE, text=C.clock(e["start"]) if e else "")


TEMPLATES: tuple[TaskTemplate, ...] = (
    MeetingEmailAnswerTemplate(), SenderPhoneAnswerTemplate(), NoteRoleNumberAnswerTemplate(),
    MissedCallerEmailAnswerTemplate(), TexterEmailCountAnswerTemplate(), EmailedEventTimeAnswerTemplate(),
)
"""The cross-app questions of the World suite."""
