"""Everyday phrasings of the Messages and Gmail tasks (issue 49), mapped onto the World suite's templates.

"Text Jamie that I'm running 10 minutes late", "Reply to the last message with OK thanks", "Delete all the promotions
emails": the people are read by `people`'s name reader (a person named by one first name is the only one of that
name on the phone), what to say is the line's own words. The words arrive lower case and without apostrophes, as
`text.words` leaves them; the checks compare words the same way ("I'm" is "im"), so the expert's sentence case is
only for the eye.

    >>> MESSAGE.read("im running 10 minutes late"), QUOTED.read("happy birthday")
    ("I'm running 10 minutes late", 'Happy birthday')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from android_gym.sim.app import stable_seed
from android_gym.tasks.goals.everyday.people import CONTACT, OWNER, SURNAMES
from android_gym.tasks.goals.rule import Rule, Slots, gap, rule
from android_gym.tasks.goals.slots import FreeText, UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.world.messaging_everyday_tasks import (
    DeletePromotionsTemplate,
    EmailAboutTemplate,
    ForwardTextTemplate,
    SearchMailTemplate,
)
from android_gym.tasks.world.messaging_expert import ASKS, names
from android_gym.tasks.world.messaging_tasks import DeleteConversationTemplate, ReplyTextTemplate, SendTextTemplate

_CONTRACTIONS = {"i": "I", "im": "I'm", "ive": "I've", "id": "I'd", "dont": "don't", "cant": "can't",
                 "wont": "won't", "thats": "that's", "its": "it's", "youre": "you're", "lets": "let's"}


@dataclass(frozen=True)
class Message:
    """What to text: any words, in sentence case with common contractions restored ("im" -> "I'm"; "ill" -> "I'll"
    as the first word). `refuse_start` names first words that make the text a thing rather than words to send
    ("the photo", "my location")."""  # noqa: D205, D209

    refuse_start: tuple[str, ...] = ()
    refuse: tuple[str, ...] = ()

    def read(self, text: str) -> str:
        """The message as the expert types it."""
        parts = words(text)
        if not parts:
            raise UnknownValue("an empty message")
        if parts[0] in self.refuse_start or any(w in self.refuse for w in parts):
            raise UnknownValue(f"{text!r} names something to send, not the words of a message")
        out = [_CONTRACTIONS.get(w, w) for w in parts]
        if parts[0] == "ill":
            out[0] = "I'll"
        return " ".join(out)[:1].upper() + " ".join(out)[1:]

    def vocabulary(self) -> set[str]:
        """Free text brings no words."""
        return set()


MESSAGE = Message()
QUOTED = Message(refuse_start=("a", "an", "the", "my", "your", "this", "that", "these", "those", "some", "it", "them",
                               "him", "her", "me", "us", "all"),
                 refuse=("photo", "picture", "pic", "file", "email", "location", "link", "video", "document"))
"""A text named without "saying" ("Send 'happy birthday!' to mom"): the quotes are gone, so a thing is refused."""
_READERS = {"name": CONTACT, "owner": OWNER, "to": CONTACT, "text": MESSAGE, "quoted": QUOTED,
            "about": FreeText("email topic"), "terms": FreeText("search in mail")}


def _text(slots: Slots) -> dict[str, Any]:
    """A text to someone; a one-word name followed by a last name in the text is the person's full name ("Tell Ben
    Carter I'm late": the phrasing's shortest name is "Ben")."""  # noqa: D205, D209
    name, text = slots.get("name") or slots["owner"], slots.get("text") or slots["quoted"]
    first, _, rest = text.partition(" ")
    if " " not in name and first.lower() in SURNAMES and rest and "name" in slots:
        name, text = f"{name} {first.title()}", rest[:1].upper() + rest[1:]
    return {"name": name, "text": text, "existing": False, "phrasing": 0}


def _latest(slots: Slots) -> dict[str, Any]:
    """A reply to the newest text on the phone, from a task person chosen by the reply."""
    return {"text": slots["text"], "name": names(f"latest:{slots['text']}", 1)[0],
            "ask": ASKS[stable_seed("latest", slots["text"]) % len(ASKS)], "latest": True, "phrasing": 0}


def _forward(slots: Slots) -> dict[str, Any]:
    name = slots.get("name") or slots["owner"]
    if name == slots["to"]:
        raise UnknownValue(f"forwarding {name}'s text to {name} themselves")
    return {"name": name, "to": slots["to"], "text": ASKS[stable_seed("forward", name, slots["to"]) % len(ASKS)]}


RULES: tuple[Rule, ...] = (
    rule("text", SendTextTemplate(), (
        "(text|sms) {name} [that|saying] {text}",
        "(send|write) [a] (message|text|sms) to {name} (saying|that says|that) {text}",
        "(send|write) {name} a (message|text) (saying|that says|that) {text}",
        "(tell|message) {name} [that] {text}",
        "let {name} know [that] {text}",
        "(send|text) {quoted} to {name}",
    ), _text, readers=_READERS),
    rule("text", ReplyTextTemplate(), (
        "(reply|respond) to the (last|latest|most recent|newest) (message|text) (with|saying) {text}",
        "answer the (last|latest|most recent) (message|text) with {text}",
    ), _latest, readers=_READERS),
    rule("text", ForwardTextTemplate(), (
        "forward the (last|latest|most recent) (text|message) from {name} to {to}",
        "forward {owner} (last|latest) (text|message) to {to}",
    ), _forward, readers=_READERS),
    rule("text", DeleteConversationTemplate(), (
        "(delete|remove) [my|the] (conversation|chat|thread|texts|messages|text thread) with {name}",
    ), lambda s: {"name": s["name"], "phrasing": 0}, readers=_READERS),
    rule("email", EmailAboutTemplate(), (  # the line names the topic, not the content: the check wants the topic
        "email {to} [the] {about}",
        "(send|write) {to} an email about {about}",
        "(send|write) an email to {to} about {about}",
    ), lambda s: {"to": s["to"], "about": s["about"]}, readers=_READERS),
    rule("email", SearchMailTemplate(), (
        "search (my inbox|my email|my emails|my mail|gmail|my gmail) for [the|my|a] {terms}",
        "(find|look for) [the|my] {terms} (email|in my inbox|in my email)",
    ), lambda s: {"terms": s["terms"]}, readers=_READERS),
    rule("email", DeletePromotionsTemplate(), (
        "(delete|remove|clear) [all] [of] [the|my] (promotions|promotional|promotion) (emails|email|mail|mails)",
        "(clear|empty) [my|the] promotions [tab|folder|category]",
    ), lambda s: {"count": 3}),
    gap("email", "the simulated phone does not know who your boss is (no contact or sender is marked as one)", (
        "reply to the (latest|last|most recent|newest) (email|mail) from my (boss|manager)",
        "(reply|respond) to my (boss|manager) [s] (latest|last) email",
    )),
)
"""Messages and Gmail: text, reply, forward and delete conversations; email about a topic, search, clear promotions."""
