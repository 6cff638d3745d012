"""AndroidWorld's Simple SMS Messenger tasks: `SimpleSmsSend`, `SimpleSmsReply`, `SimpleSmsReplyMostRecent`,
`SimpleSmsResend` and `SimpleSmsSendReceivedAddress`.

AndroidWorld clears the SMS tables, then texts the phone from the emulator (random "+1" ten-digit numbers, sentences
from a list), adds contacts where the goal names people, and reads the sent-SMS table afterwards: a text to the goal's
number whose body is within 0.9 of the goal's message (difflib's ratio, case ignored), with the SMS app in front;
`SimpleSmsResend` instead wants exactly one more sent text, equal to the one sent before. Here the sim's Messages app
stands in for Simple SMS Messenger: its seeded conversations are dropped (`remove`, every name a seed can draw) as
AndroidWorld clears the tables, the incoming texts arrive in AndroidWorld's order (`incoming`), the goal's contacts
are ones the "To" field finds, and the sentences (`MESSAGES`) and addresses (`ADDRESSES`) are lists of our own of
the same kinds. The check is stricter than AndroidWorld's where it may be: exactly one text sent this episode, to the
number (its national digits: a typed "+1" is optional, as Simple SMS adds it), whose words are the message's and
whose difflib ratio is at least 0.9; Messages in front except for `SimpleSmsResend`, whose AndroidWorld check does not
ask for it. The experts are the World Messages experts' steps (`messaging_expert.send_text`), typing a bare number
into "To" where the goal names no contact.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import people as P
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, fuzzy_match, pick
from android_gym.tasks.androidworld.contacts import random_number
from android_gym.tasks.expert import enter, fill, wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.messaging_expert import send_text, words
from android_gym.tasks.world.people_expert import NAMES

MESSAGES = (
    "Remember to take the bins out on Tuesday night.", "Your haircut is booked for 4 PM on Friday.",
    "Coffee with Priya at 10 AM at the corner cafe.", "The car is due for its service next Thursday.",
    "Swimming lessons start again on Monday.", "Team lunch moved to Wednesday.",
    "Shopping list: eggs and rice and tomatoes.", "Insurance renewal is due on the 12th.",
    "Please return the drill by the weekend.", "Call the landlord about the heating.",
    "Weekend plans: picnic at the lake.", "Film night on Saturday, bring popcorn.",
    "The parcel is waiting at the post office.", "Dinner reservation confirmed for 8 PM!",
    "Piano practice every Monday at 5 PM.", "Good morning, sunshine!", "Knowledge is power.",
    "All that glitters is not gold.", "Practice makes perfect.", "Time flies when you're having fun.",
    "Every cloud has a silver lining.", "Fortune favours the bold.", "Slow and steady wins the race.",
    "Rome wasn't built in a day.", "Two heads are better than one.", "Look before you leap.",
    "Honesty is the best policy.", "An apple a day keeps the doctor away.", "Still waters run deep.",
    "Laughter is the best medicine.",
)
"""What is texted: everyday reminders and sayings (AndroidWorld draws from a list of 40 such sentences)."""
ADDRESSES = ("48 Harbor Rd, Juneau, AK, 99801", "310 Pine Ave, Mobile, AL, 36602", "77 W Mesa Dr, Tucson AZ 85701",
             "902 N River St, Fayetteville, AR, 72701", "1520 Aspen Way Boulder, CO, 80302",
             "64 Chestnut St, New Haven, CT, 06511", "2210 Willow Ln, Newark, DE, 19711",
             "519 Magnolia Blvd, Savannah, GA, 31401")
"""Street addresses, one picked per instance (AndroidWorld picks from 8 US addresses)."""
GLITCH = "Sorry, my phone acted up. What did you just send me?"
"""The reply asking to repeat the last text (`SimpleSmsResend`)."""
SEEDED_NAMES = tuple(f"{first} {last}" for first in P.FIRST_NAMES for last in P.LAST_NAMES)
"""Every name a seed may give a conversation: `remove` drops them all, as AndroidWorld clears the SMS tables."""


def national(number: str) -> str:
    """A number's digits without the "1" country code (Simple SMS adds "+1" to a number typed without it).

    >>> national("+1 (555) 010-2030"), national("5550102030")
    ('5550102030', '5550102030')
    """
    d = M.digits(number)
    return d[1:] if len(d) == 11 and d.startswith("1") else d


def same_body(sent: str, wanted: str) -> bool:
    """Whether a sent body says `wanted`: the same words, and AndroidWorld's `fuzzy_match`.

    >>> same_body("Winter is coming", "Winter is coming."), same_body("Winter is coming soon.", "Winter is coming.")
    (True, False)
    """
    return words(sent) == words(wanted) and fuzzy_match(sent, wanted)


def one_text(state: State, number: str, message: str, in_front: bool = True) -> bool:
    """Exactly one text sent this episode, to `number`, saying `message`; Messages in front unless not `in_front`."""
    sent = state_of(state, M.MessagesState)["sent"]
    ok = len(sent) == 1 and national(sent[0]["number"]) == national(number) and same_body(sent[0]["text"], message)
    return ok and (not in_front or state.get("foreground") == M.PACKAGE)


def text_number(number: str, message: str, elements: Elements, state: State) -> Action:
    """The next step to text `message` to `number`: its conversation (by the name the list shows), or "To" with the
    number typed and ENTER."""  # noqa: D205, D209
    ms = state_of(state, M.MessagesState)
    if ms["screen"] == "new" and state.get("foreground") == M.PACKAGE:
        return fill(elements, state, M.TO_RID, number, missing=wait()) or enter()
    name = next((t["name"] for t in ms["threads"] if national(t["number"]) == national(number)), number)
    return send_text({"name": name, "number": number}, message, elements, state)


def incoming(number: str, text: str) -> dict[str, str]:
    """A text from an unknown `number` (its conversation is named by the number, as the app names it)."""
    return {"name": number, "number": number, "text": text}


class _SmsTemplate(AndroidWorldTemplate):
    """Shared: Messages only, no seeded conversations, `texts` arriving, one text of "message" to "number"."""

    apps = (M.PACKAGE,)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No conversation but the texts of `params["texts"]`, arriving in order."""
        return {M.PACKAGE: {"remove": list(SEEDED_NAMES), "incoming": list(params.get("texts", ()))}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, the message to the number, Messages in front."""
        return one_text(state, params["number"], params["message"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Text the message to the number."""
        return text_number(params["number"], params["message"], elements, state)


class SimpleSmsSend(_SmsTemplate):
    """Text {message} to {number}, a number with no conversation yet."""

    name, split_key, max_steps = "SimpleSmsSend", "number", 14
    goal_template = "Send a text message using Simple SMS Messenger to {number} with message: {message}"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A number and a message."""
        return {"number": random_number(rng), "message": pick(rng, MESSAGES)}


class SimpleSmsReply(_SmsTemplate):
    """Reply {message} to {number}, which texted among 1-5 other numbers."""

    name, split_key, max_steps = "SimpleSmsReply", "number", 11
    goal_template = "Reply to {number} with message: {message} in Simple SMS Messenger"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The number, the message, and the texts as AndroidWorld sends them: 1-5 from random numbers, the number's
        own before one of them by a coin flip each time, else last."""  # noqa: D205, D209
        number, message = random_number(rng), pick(rng, MESSAGES)
        texts, theirs = [], False
        for _ in range(rng.randint(1, 5)):
            if not theirs and rng.random() < 0.5:
                texts.append(incoming(number, pick(rng, MESSAGES)))
                theirs = True
            texts.append(incoming(random_number(rng), pick(rng, MESSAGES)))
        if not theirs:
            texts.append(incoming(number, pick(rng, MESSAGES)))
        return {"number": number, "message": message, "texts": texts}


class SimpleSmsReplyMostRecent(_SmsTemplate):
    """Reply {message} to whoever texted last, after 0-5 texts from other numbers."""

    name, split_key, max_steps = "SimpleSmsReplyMostRecent", "message", 11
    goal_template = "Reply to the most recent text message using Simple SMS Messenger with message: {message}"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The message; 0-5 texts of other messages from random numbers, then one from the number (the most
        recent)."""  # noqa: D205, D209
        number, message = random_number(rng), pick(rng, MESSAGES)
        others = [m for m in MESSAGES if m != message]
        texts = [incoming(random_number(rng), pick(rng, others)) for _ in range(rng.randint(0, 5))]
        return {"number": number, "message": message, "texts": [*texts, incoming(number, pick(rng, others))]}


class SimpleSmsResend(_SmsTemplate):
    """Resend to {name} the text sent them just before (their reply asks for it): that text again, once."""

    name, split_key, max_steps = "SimpleSmsResend", "name", 11
    goal_template = "Resend the message I just sent to {name} in Simple SMS Messenger"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A contact's name and number, and the message sent them."""
        return {"name": pick(rng, NAMES), "number": random_number(rng), "message": pick(rng, MESSAGES)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The contact's conversation alone: the message sent, then their reply asking for it again."""
        thread = {"name": params["name"], "number": params["number"], "unread": True,
                  "messages": [{"from_me": True, "text": params["message"]}, {"from_me": False, "text": GLITCH}]}
        return {M.PACKAGE: {"remove": list(SEEDED_NAMES), "threads": [thread],
                            "contacts": [{"name": params["name"], "number": params["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one more text: the earlier one again, to the contact (in any app, as AndroidWorld's check)."""
        return one_text(state, params["number"], params["message"], in_front=False)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open their conversation and send the message again."""
        return send_text({"name": params["name"], "number": params["number"]}, params["message"], elements, state)


class SimpleSmsSendReceivedAddress(_SmsTemplate):
    """Text {name1} the address {name2} just texted: one text of that address to {name1}'s number."""

    name, split_key, max_steps = "SimpleSmsSendReceivedAddress", "name1", 14
    goal_template = "Text the address of the event to {name1} that {name2} just sent me in Simple SMS Messenger"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Two contacts (distinct names), {name1}'s number, the address, and {name2}'s number it comes from."""
        name1 = pick(rng, NAMES)
        name2 = pick(rng, [n for n in NAMES if n != name1])
        return {"name1": name1, "number": random_number(rng), "name2": name2, "message": pick(rng, ADDRESSES),
                "number2": random_number(rng)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both among the contacts; {name2}'s text with the address arrives."""
        people = [{"name": params["name1"], "number": params["number"]},
                  {"name": params["name2"], "number": params["number2"]}]
        text = {"name": params["name2"], "number": params["number2"], "text": params["message"]}
        return {M.PACKAGE: {"remove": list(SEEDED_NAMES), "contacts": people, "incoming": [text]}}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Start a conversation with {name1} and send the address."""
        return send_text({"name": params["name1"], "number": params["number"]}, params["message"], elements, state)


TEMPLATES = (SimpleSmsSend(), SimpleSmsReply(), SimpleSmsReplyMostRecent(), SimpleSmsResend(),
             SimpleSmsSendReceivedAddress())
