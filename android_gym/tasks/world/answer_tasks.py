"""World-suite questions answered in text (the "answer" outcome): a contact's number or e-mail address, who sent an
email, who the last missed call was from.

The agent wins by declaring the task complete with the answer (STATUS_TASK_COMPLETE with text, AndroidWorld's
`answer`), and the answer is checked against the device state, never against the parameters alone: `answer()` reads
the contact, the email or the call log as the phone holds them now, and gives None (no answer can win) when the agent
changed what it was asked about (edited the contact, deleted the email). Each task puts a near miss beside the truth
(a namesake's number, a twin subject's sender, an older missed call), so an answer read off the wrong row fails.
Experts walk to the screen that shows the answer and answer with the text of the element that shows it.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts, dialer
from android_gym.sim.apps import gmail as G
from android_gym.tasks.expert import find, obstacle, wait
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.messaging_expert import Elements, State, email_from, namesake, person, to_email
from android_gym.tasks.world.messaging_tasks import MailTemplate
from android_gym.tasks.world.people_expert import first_missed, to_card, to_phone_tab
from android_gym.tasks.world.people_tasks import PersonTemplate
from android_gym.tasks.world.phone_tasks import CallBackMissedTemplate
from android_gym.ui import UIElement


def answer_with(element: UIElement | None) -> Action:
    """Declare the task complete, answering with `element`'s text (wait while it is not on screen)."""
    if element is None or not element.text.strip():
        return wait()
    return Action(ActionType.STATUS_TASK_COMPLETE, text=element.text.strip())


# -- Contacts ----------------------------------------------------------------------------------------------------------
class _ContactFieldAnswer(PersonTemplate):
    """{name}'s {field} as Contacts holds it; a namesake of each half of the name is a contact too."""

    outcome, apps = "answer", (contacts.PACKAGE,)
    field: str
    rid: str

    def answer(self, params: Params, state: State) -> str | None:
        """The target's field, while Contacts is as the task set it up (nothing added, removed or changed)."""
        c = state_of(state, contacts.ContactsState)
        if c["added"] or c["removed"] or c["changed"]:
            return None
        found = next((p for p in c["contacts"] if p["name"] == params["name"]), None)
        return None if found is None else found[self.field] or None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the contact, open the card, answer with the field's row."""
        step = obstacle(elements, state) or to_card(params["name"], elements, state)
        return step or answer_with(find(elements, rid=self.rid))


class ContactNumberAnswerTemplate(_ContactFieldAnswer):
    """What is {name}'s phone number? Answered with the number on their card."""

    name, max_steps, field = "contact_number_answer", 10, "phone"
    rid = f"{contacts.PACKAGE}:id/phone_number"
    phrasings = ("What is {name}'s phone number?", "Tell me {name}'s number", "Which number do I have for {name}?",
                 "Look up {name}'s phone number and tell me what it is")


class ContactEmailAnswerTemplate(_ContactFieldAnswer):
    """What is {name}'s e-mail address? Answered with the address on their card."""

    name, max_steps, field = "contact_email_answer", 10, "email"
    rid = f"{contacts.PACKAGE}:id/email_address"
    phrasings = ("What is {name}'s email address?", "Tell me the email address I have for {name}",
                 "Which email address is saved for {name}?")


# -- Gmail -------------------------------------------------------------------------------------------------------------
class EmailSenderAnswerTemplate(MailTemplate):
    """Who sent the email about {subject}? The sender's namesake sent the twin subject's email (the near miss)."""

    name, max_steps = "email_sender_answer", 9
    outcome, apps = "answer", (G.PACKAGE,)
    phrasings = ('Who sent me the email about "{subject}"?', "Who emailed me about {subject}?",
                 'Tell me who wrote the "{subject}" email')

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The target email, and one from the sender's namesake about the twin subject."""
        emails = [email_from(person(params["sender"]), params["subject"]),
                  email_from(person(namesake(params["sender"])), params["twin"], False)]
        return {G.PACKAGE: {"emails": emails}}

    def answer(self, params: Params, state: State) -> str | None:
        """The sender of the one received email about the subject (None when there is none, or several)."""
        g = state_of(state, G.GmailState)
        about = [m for box in ("inbox", "archived", "deleted") for m in g[box]
                 if m["subject"] == params["subject"]]
        return about[0]["sender"] if len(about) == 1 else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the email, answer with its sender's name."""
        step = obstacle(elements, state) or to_email(params["sender"], params["subject"], elements, state)
        return step or answer_with(find(elements, rid=f"{G.PACKAGE}:id/sender_name"))


# -- Phone -------------------------------------------------------------------------------------------------------------
class MissedCallerAnswerTemplate(CallBackMissedTemplate):
    """Who was the last missed call from? Answered with the name (a contact) or the number Recents shows."""

    name, max_steps = "missed_caller_answer", 8
    outcome, apps = "answer", (dialer.PACKAGE,)
    phrasings = ("Who was my last missed call from?", "Whose call did I just miss?",
                 "Tell me who the most recent missed call was from")

    def answer(self, params: Params, state: State) -> str | None:
        """The newest missed call of Phone's log: its contact's name, else its number."""
        missed = next((c for c in state_of(state, dialer.DialerState)["log"] if c["kind"] == "missed"), None)
        return None if missed is None else missed["name"] or missed["number"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone > Recents > answer with the first missed row's caller."""
        step = obstacle(elements, state) or to_phone_tab("Recents", elements, state)
        if step is not None:
            return step
        row = first_missed(elements)
        caller = None if row is None else find(elements, rid=f"{dialer.PACKAGE}:id/primary_text",
                                               text=row.desc.split(", ")[1])
        return answer_with(caller)


TEMPLATES = (ContactNumberAnswerTemplate(), ContactEmailAnswerTemplate(), EmailSenderAnswerTemplate(),
             MissedCallerAnswerTemplate())
