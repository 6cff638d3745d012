"""Messages and Gmail tasks of the world suite: texting, replying, deleting and reading conversations; sending,
replying to, forwarding, archiving and reading emails; and tasks that carry a detail from one app to the other.

Every task names people with fixed names from its parameters (a first name from `people.FIRST_NAMES`, a last name
that no seeded contact has), added by `initial()` next to a namesake (same first name) or a twin subject where a near
miss matters, so no task depends on the seeded draw. Splits use `split_of` on each template's key parameter (the typed
text, the email subject, or a person). Checks read the apps' `state()` only; experts read the UI elements and state.
The people, what they text and email, word matching and expert steps live in `messaging_expert`. The templates that
take their values from everyday goals (issue 49) and are not drawn by the suite live in `messaging_everyday_tasks`.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.sim.apps.people import FIRST_NAMES
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, find, tap, wait
from android_gym.tasks.world.base import Params, WorldTemplate
from android_gym.tasks.world.messaging_expert import (
    ASKS,
    BODIES,
    LAST_NAMES,
    REPLIES,
    SUBJECTS,
    TEXTS,
    Elements,
    State,
    conversation,
    email_from,
    find_mail,
    holds,
    mail_contacts,
    names,
    namesake,
    new_email,
    off_phone,
    one_mail,
    person,
    respond,
    same_number,
    send_text,
    texts_ok,
    to_email,
    to_thread,
    twins,
    words,
)


# -- templates: Messages --------------------------------------------------------------------------------------------
class _Template(WorldTemplate):
    """Shared shape: suite "world", `variants` instances per key of `keys`, goals in params["phrasing"]."""

    suite = "world"
    phrasings: tuple[str, ...] = ()
    keys: Sequence[str] = ()
    """The values of the key parameter: the split goes by them."""
    variants = 3

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """The parameters of one instance (without "phrasing")."""
        raise NotImplementedError

    split_key = "key"

    def grid(self) -> list[dict[str, Any]]:
        """`variants` instances per key (its "key" parameter), phrasings cycling."""
        return [{**self.make(k, v), "key": k, "phrasing": (i + v) % len(self.phrasings)}
                for i, k in enumerate(self.keys) for v in range(self.variants)]

    def split_value(self, params: Params) -> object:
        """The key, in the template's own hash space."""
        return f"{self.name}:{params['key']}"

    def goal(self, params: Params) -> str:
        """The instruction, in the params' phrasing."""
        return self.phrasings[params["phrasing"]].format(**params)


class SendTextTemplate(_Template):
    """Send a text to {name} saying {text}: one SMS to that number with those words (an old chat or a new one)."""

    name, max_steps, variants = "send_text", 14, 4
    apps = (M.PACKAGE,)
    phrasings = ('Send a text to {name} saying "{text}"', "Text {name}: {text}",
                 'Send {name} a message that says "{text}"', 'Message {name} "{text}"')
    keys = TEXTS

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """A person per variant; even variants already have a conversation with them."""
        return {"text": key, "name": names(f"{key}:{variant}", 1)[0], "existing": variant % 2 == 0}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The person among the contacts (with an old conversation or not), a namesake's conversation (`twins`)."""
        p = person(params["name"])
        threads = [conversation(person(t), ("Thanks again for yesterday", "Anytime!"), False) for t in twins(p["name"])]
        threads += [conversation(p, ("Got home safe?", "Yes, thanks"), False)] if params.get("existing") else []
        return off_phone({M.PACKAGE: {"threads": threads, "contacts": [{"name": p["name"], "number": p["number"]}]}},
                         p["name"])

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text: to the person's number, with the asked words."""
        return texts_ok(state, [(params["name"], params["text"])])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open (or start) the conversation, type, send."""
        return send_text(person(params["name"]), params["text"], elements, state)


class TextTwoTemplate(_Template):
    """Text {name} and {other}: {text}: one SMS to each (an old chat with {name}, none yet with {other})."""

    name, max_steps = "text_two_people", 22
    apps = (M.PACKAGE,)
    phrasings = ('Send "{text}" to both {name} and {other}', "Text {name} and {other}: {text}",
                 'Tell {name} and {other} by text: "{text}"')
    keys = TEXTS

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """Two people."""
        name, other = names(f"two:{key}:{variant}", 2)
        return {"text": key, "name": name, "other": other}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A conversation with {name}; {other} among the contacts, with a namesake's conversation."""
        p, o = person(params["name"]), person(params["other"])
        return {M.PACKAGE: {"threads": [conversation(p, ("Talk later?",), False),
                                        conversation(person(namesake(o["name"])), ("Hi", "Hello!"), False)],
                            "contacts": [{"name": o["name"], "number": o["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly two texts, one to each, with the asked words."""
        return texts_ok(state, [(params["name"], params["text"]), (params["other"], params["text"])])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Text {name}, then {other} through a new conversation."""
        sent = state_of(state, M.MessagesState)["sent"]
        p, o = person(params["name"]), person(params["other"])
        first = any(same_number(s["number"], p["number"]) for s in sent)
        return send_text(o if first else p, params["text"], elements, state)


class ReplyTextTemplate(SendTextTemplate):
    """Reply to the latest message from {name} with {text}: one SMS into that conversation (checked as a send)."""

    name, max_steps, variants = "reply_text", 11, 3
    apps = (M.PACKAGE,)
    phrasings = ('Reply to the latest message from {name} with "{text}"', "Answer {name}'s last text: {text}",
                 'Respond to {name}\'s message saying "{text}"')
    keys = REPLIES

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """A person and what they asked."""
        return {"text": key, "name": names(f"{key}:{variant}", 1)[0],
                "ask": ASKS[stable_seed("reply_text", key, variant) % len(ASKS)]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Their unread question, and a namesake's unread message. With the optional parameter "latest" (the goal
        says "the last message", no name), the question arrives after set-up: it is the newest text on the phone."""  # noqa: D205, D209
        p, twin = person(params["name"]), person(namesake(params["name"]))
        if not params.get("latest"):
            return {M.PACKAGE: {"threads": [conversation(p, ("Hey!", "Hi, what's up?", params["ask"]), True),
                                            conversation(twin, ("Are you around this weekend?",), True)]}}
        return {M.PACKAGE: {"threads": [conversation(p, ("Hey!", "Hi, what's up?"), False),
                                        conversation(twin, ("Are you around this weekend?",), True)],
                            "incoming": [{"name": p["name"], "number": p["number"], "text": params["ask"]}]}}


class DeleteConversationTemplate(_Template):
    """Delete my conversation with {name}: that conversation, and only it, is deleted (the app asks first)."""

    name, max_steps = "delete_conversation", 11
    apps = (M.PACKAGE,)
    phrasings = ("Delete my conversation with {name}", "Delete the text thread with {name} in Messages",
                 "Remove my chat with {name} from Messages")
    keys = [f"{f} {LAST_NAMES[i % len(LAST_NAMES)]}" for i, f in enumerate(FIRST_NAMES)]

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """The person (the key's first name, a last name per variant)."""
        return {"name": key if variant == 0 else f"{key.split()[0]} {LAST_NAMES[(variant * 7) % len(LAST_NAMES)]}"}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Their conversation and a namesake's (`twins`)."""
        p = person(params["name"])
        return off_phone({M.PACKAGE: {"threads": [conversation(p, ("See you Monday", "Sounds good"), False),
                                                  *(conversation(person(t), ("Did you get the tickets?",), False)
                                                    for t in twins(p["name"]))]}}, p["name"])

    def check(self, params: Params, state: State) -> bool:
        """Exactly one conversation deleted: the person's."""
        deleted = state_of(state, M.MessagesState)["deleted"]
        return len(deleted) == 1 and same_number(deleted[0]["number"], person(params["name"])["number"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open it, More options, Delete, confirm Delete."""
        ms, p = state_of(state, M.MessagesState), person(params["name"])
        if (state["foreground"] == M.PACKAGE and ms["screen"] in ("menu", "confirm") and not state.get("dialog")
                and same_number(ms["thread"], p["number"])):
            label = find(elements, text="Delete", clickable=True)
            return tap(label) if label is not None else back()
        more = find(elements, desc="More options")
        return to_thread(p, elements, state) or (tap(more) if more is not None else wait())


class MarkAllReadTemplate(_Template):
    """Mark all my conversations as read: no conversation is left unread, none is deleted."""

    name, max_steps, variants = "mark_all_read", 8, 1
    apps = (M.PACKAGE,)
    phrasings = ("Mark all my text conversations as read", "Mark every message in Messages as read",
                 "Clear the unread badges in my messages")
    keys = [str(i) for i in range(50)]

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """Two or three unread senders."""
        return {"senders": names(f"mark:{key}", 2 + stable_seed("mark_all_read", key) % 2)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Their unread conversations."""
        return {M.PACKAGE: {"threads": [conversation(person(n), (ASKS[i],), True)
                                        for i, n in enumerate(params["senders"])]}}

    def check(self, params: Params, state: State) -> bool:
        """No unread conversation and nothing deleted."""
        ms = state_of(state, M.MessagesState)
        return bool(ms["threads"]) and not ms["deleted"] and not any(t["unread"] for t in ms["threads"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Mark all as read."""
        step = into_app("Messages", M.PACKAGE, elements, state)
        if step is not None:
            return step
        screen = state_of(state, M.MessagesState)["screen"]
        item = {"menu": find(elements, text="Mark all as read"),
                "home": find(elements, desc="More options")}.get(screen)
        return tap(item) if item is not None else back()  # a conversation, or its own menu


class LastTextTemplate(_Template):
    """What did {name} text me last? (information retrieval: their conversation is open on screen)."""

    name, max_steps, variants = "read_last_text", 7, 1
    apps = (M.PACKAGE,)
    phrasings = ("What did {name} text me last?", "Show me the last message from {name}",
                 "Open my conversation with {name} and read the latest text")
    keys = [f"{f} {last}" for f in FIRST_NAMES[::3] for last in LAST_NAMES[:4]]

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """The person and their last text."""
        return {"name": key, "text": ASKS[stable_seed("last_text", key) % len(ASKS)]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Their conversation (unread) and a namesake's."""
        p, twin = person(params["name"]), person(namesake(params["name"]))
        return {M.PACKAGE: {"threads": [conversation(p, ("Hi!", "Hey, how are you?", params["text"]), True),
                                        conversation(twin, ("Good morning", "Morning!", "Lunch today?"), True)]}}

    def check(self, params: Params, state: State) -> bool:
        """Messages in front on the person's conversation."""
        ms = state_of(state, M.MessagesState)
        return (state["foreground"] == M.PACKAGE and ms["screen"] == "thread"
                and same_number(ms["thread"], person(params["name"])["number"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the conversation."""
        return to_thread(person(params["name"]), elements, state) or wait()


# -- templates: Gmail -----------------------------------------------------------------------------------------------
class MailTemplate(_Template):
    """Keyed by subject: the target email is from {sender} about {subject}; the sender's namesake sent one about the
    same subject and the sender one about the twin subject. {to} (and a namesake) are in Gmail's contacts."""  # noqa: D205, D209
    keys = [s for s, _ in SUBJECTS]

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """The sender, the twin subject, a recipient and a body."""
        sender, to = names(f"{self.name}:{key}:{variant}", 2)
        return {"subject": key, "twin": dict(SUBJECTS)[key], "sender": sender, "to": to,
                "body": BODIES[(stable_seed(self.name, key) + variant) % len(BODIES)]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The target email and the two distractors; the recipient and a namesake as contacts."""
        s, twin = person(params["sender"]), person(namesake(params["sender"]))
        emails = [email_from(s, params["subject"]), email_from(twin, params["subject"]),
                  email_from(s, params["twin"], False)]
        return {G.PACKAGE: {"emails": emails, "contacts": mail_contacts(params["to"], namesake(params["to"]))}}

    def target(self, params: Params, state: State) -> G.Email | None:
        """The target email as it is now."""
        return find_mail(state, params["sender"], params["subject"])


class SendEmailTemplate(MailTemplate):
    """Send an email to {who} with subject {subject} and body {body}: one new email, to exactly those addresses."""

    name, max_steps = "send_email", 20
    apps = (G.PACKAGE,)
    phrasings = ('Send an email to {who} with subject "{subject}" and body "{body}"',
                 'Email {who} about "{subject}": "{body}"',
                 "Write an email to {who}. Subject: {subject}. Message: {body}")

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """One recipient, or two on odd variants ({who} names them)."""
        params = super().make(key, variant)
        taken = {params["to"].split()[0], params["sender"].split()[0]}
        also = next(n for n in names(f"also:{key}:{variant}", 3) if n.split()[0] not in taken) if variant % 2 else ""
        return {**params, "also": also, "who": f"{params['to']} and {also}" if also else params["to"]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The mail templates' inbox; the second recipient among the contacts too."""
        out = super().initial(params)
        out[G.PACKAGE]["contacts"] += mail_contacts(params["also"]) if params["also"] else []
        return out

    def check(self, params: Params, state: State) -> bool:
        """Exactly one email sent: new, to the people's addresses, with the subject's and body's words."""
        m = one_mail(state, "new", [person(n)["email"] for n in (params["to"], params["also"]) if n])
        return m is not None and words(m["subject"]) == words(params["subject"]) and \
            words(m["body"]) == words(params["body"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Compose, pick the people from the suggestions, subject, body, Send."""
        to = [person(n) for n in (params["to"], params["also"]) if n]
        return new_email(to, params["subject"], params["body"], elements, state)


class ReplyEmailTemplate(MailTemplate):
    """Reply to {sender}'s email about {subject} with {body}: one reply to that email, to its sender."""

    name, max_steps = "reply_email", 12
    apps = (G.PACKAGE,)
    phrasings = ('Reply to {sender}\'s email about "{subject}" with "{body}"',
                 'Answer the email from {sender} about {subject}: "{body}"',
                 'Respond to the "{subject}" email from {sender} saying "{body}"')

    def check(self, params: Params, state: State) -> bool:
        """Exactly one email sent: a reply to the target, to its sender, with the body's words."""
        target = self.target(params, state)
        m = target and one_mail(state, "reply", [target["email"]], target["id"])
        return bool(m) and words(m["body"]) == words(params["body"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open it, Reply, write, Send."""
        return respond("reply", params["sender"], params["subject"], None, params["body"], elements, state)


class ForwardEmailTemplate(MailTemplate):
    """Forward {sender}'s email about {subject} to {to}: one forward of that email, to that address."""

    name, max_steps = "forward_email", 14
    apps = (G.PACKAGE,)
    phrasings = ('Forward the "{subject}" email from {sender} to {to}',
                 "Send {sender}'s email about {subject} on to {to}",
                 "Forward {to} the email {sender} sent about {subject}")

    def check(self, params: Params, state: State) -> bool:
        """Exactly one email sent: a forward of the target to the person's address."""
        target = self.target(params, state)
        return bool(target and one_mail(state, "forward", [person(params["to"])["email"]], target["id"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open it, Forward, pick the person, Send."""
        return respond("forward", params["sender"], params["subject"], [person(params["to"])], "", elements, state)


class ArchiveEmailTemplate(MailTemplate):
    """Archive the email from {sender} about {subject}: it, and only it, leaves the inbox for the archive."""

    name, max_steps = "archive_email", 9
    apps = (G.PACKAGE,)
    phrasings = ('Archive the email from {sender} about "{subject}"', "Archive {sender}'s {subject} email",
                 'Move the "{subject}" email from {sender} out of my inbox into the archive')

    def check(self, params: Params, state: State) -> bool:
        """Only the target is archived; nothing is deleted."""
        g = state_of(state, G.GmailState)
        archived = g["archived"]
        return (len(archived) == 1 and not g["deleted"]
                and (archived[0]["sender"], archived[0]["subject"]) == (params["sender"], params["subject"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open it, Archive."""
        archive = find(elements, desc="Archive")
        return to_email(params["sender"], params["subject"], elements, state) or (
            tap(archive) if archive is not None else wait())


class ReadEmailTemplate(MailTemplate):
    """What does the email from {sender} about {subject} say? (information retrieval: that email is open)."""

    name, max_steps = "read_email", 8
    apps = (G.PACKAGE,)
    phrasings = ('What does the email from {sender} about "{subject}" say?', "Open {sender}'s email about {subject}",
                 'Show me the "{subject}" email {sender} sent me')

    def check(self, params: Params, state: State) -> bool:
        """Gmail in front on the target email, loaded."""
        target, g = self.target(params, state), state_of(state, G.GmailState)
        return (target is not None and state["foreground"] == G.PACKAGE and g["screen"] == "email"
                and g["open"] == target["id"] and not state["screen"]["loading"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open it."""
        return to_email(params["sender"], params["subject"], elements, state) or wait()


# -- templates: both apps -------------------------------------------------------------------------------------------
class TextEmailAddressTemplate(_Template):
    """Text {name} the email address of {other}: it is in {other}'s email in Gmail; one SMS to {name} holds it."""

    name, max_steps = "text_email_address", 16
    apps = (M.PACKAGE, G.PACKAGE,)
    phrasings = ("Text {name} the email address of {other}", "Send {other}'s email address to {name} by text",
                 "{name} needs {other}'s email address. Text it to them")
    keys = [f"{f} {LAST_NAMES[(i * 5) % len(LAST_NAMES)]}" for i, f in enumerate(FIRST_NAMES)]

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """Who gets the text."""
        name = next(n for n in names(f"addr:{key}:{variant}", 2) if n.split()[0] != key.split()[0])
        return {"other": key, "name": name}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """An unread email from {other} (and one from a namesake); a conversation with {name}."""
        o, p = person(params["other"]), person(params["name"])
        subject = SUBJECTS[stable_seed(o["name"]) % len(SUBJECTS)][0]
        return {G.PACKAGE: {"emails": [email_from(o, subject), email_from(person(namesake(o["name"])), "Quick favor")]},
                M.PACKAGE: {"threads": [conversation(p, ("Do you have the contact info?",), False)]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to {name}, holding {other}'s address."""
        return texts_ok(state, [(params["name"], person(params["other"])["email"])], contains=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the email in Gmail (it is unread until opened), then text the address."""
        o = person(params["other"])
        mail = next((m for m in state_of(state, G.GmailState)["inbox"] if m["email"] == o["email"]), None)
        if mail is not None and mail["unread"]:
            return to_email(o["name"], mail["subject"], elements, state) or wait()
        return send_text(person(params["name"]), o["email"], elements, state)


class EmailLastTextTemplate(_Template):
    """Email {to} what {name} texted me last: one new email to {to} whose body holds that text."""

    name, max_steps = "email_last_text", 18
    apps = (M.PACKAGE, G.PACKAGE,)
    phrasings = ("Email {to} what {name} texted me last", "Forward {name}'s latest text to {to} by email",
                 "Send {to} an email with the last message {name} sent me")
    keys = ASKS

    def make(self, key: str, variant: int) -> dict[str, Any]:
        """The texter and the recipient."""
        name, to = names(f"email_last_text:{key}:{variant}", 2)
        return {"text": key, "name": name, "to": to}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """{name}'s unread text (and a namesake's); {to} (and a namesake) among Gmail's contacts."""
        p, twin = person(params["name"]), person(namesake(params["name"]))
        return {M.PACKAGE: {"threads": [conversation(p, ("Hello", "Hi!", params["text"]), True),
                                        conversation(twin, ("Call me later",), True)]},
                G.PACKAGE: {"contacts": mail_contacts(params["to"], namesake(params["to"]))}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one email sent: new, to {to}, its body holding the text's words."""
        m = one_mail(state, "new", [person(params["to"])["email"]])
        return m is not None and holds(m["body"], params["text"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the text in Messages (it is unread until opened), then email it."""
        p = person(params["name"])
        thread = next((t for t in state_of(state, M.MessagesState)["threads"]
                       if same_number(t["number"], p["number"])), None)
        if thread is not None and thread["unread"]:
            return to_thread(p, elements, state) or wait()
        return new_email([person(params["to"])], None, params["text"], elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    SendTextTemplate(), TextTwoTemplate(), ReplyTextTemplate(), DeleteConversationTemplate(), MarkAllReadTemplate(),
    LastTextTemplate(), SendEmailTemplate(), ReplyEmailTemplate(), ForwardEmailTemplate(), ArchiveEmailTemplate(),
    ReadEmailTemplate(), TextEmailAddressTemplate(), EmailLastTextTemplate(),
)
"""The Messages and Gmail templates of the world suite."""
