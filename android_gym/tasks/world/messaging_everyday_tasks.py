"""Messages and Gmail templates that only the everyday instructions use (issue 49), outside the World suite: forward a
text, email someone about a topic, search the inbox, delete the promotions emails. Their parameters come from a parsed
goal line (`goals.everyday.messages`), so they have no values of their own and the suite never draws them.

The people, what they text and email, word matching and expert steps live in `messaging_expert`, as for the suite's
templates in `messaging_tasks`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.messaging_expert import (
    PROMOTIONS,
    Elements,
    State,
    conversation,
    delete_promotions,
    mail_contacts,
    names_topic,
    new_email,
    off_phone,
    one_mail,
    person,
    same_number,
    search_mail,
    send_text,
    texts_ok,
    to_thread,
    twins,
    words,
)


class _GoalTemplate(TaskTemplate):
    """A task whose parameters a parsed goal gives (`goals.everyday`): no values of its own, never drawn."""

    suite = "world"

    def values(self, split: str) -> list[dict[str, Any]]:
        """None: the parameters come from a goal line."""
        return []


class ForwardTextTemplate(_GoalTemplate):
    """Forward {name}'s last text to {to}: one SMS, to {to}, holding the words of that text (typed or forwarded)."""

    name, max_steps = "forward_text", 16
    apps = (M.PACKAGE,)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """{name}'s unread conversation ending with the text; {to} a contact; namesakes (`twins`, `off_phone`)."""
        p, to = person(params["name"]), person(params["to"])
        threads = [conversation(p, ("Are you home?", "Yes, why?", params["text"]), True),
                   *(conversation(person(t), ("See you soon",), False) for t in twins(p["name"]))]
        return off_phone({M.PACKAGE: {"threads": threads, "contacts": [{"name": to["name"], "number": to["number"]}]}},
                         p["name"], to["name"])

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text: to {to}, holding the forwarded text's words."""
        return texts_ok(state, [(params["to"], params["text"])], contains=True)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read {name}'s text (their conversation is unread until opened), then text it to {to}."""
        p = person(params["name"])
        thread = next((t for t in state_of(state, M.MessagesState)["threads"]
                       if same_number(t["number"], p["number"])), None)
        if thread is not None and thread["unread"]:
            return to_thread(p, elements, state) or wait()
        return send_text(person(params["to"]), params["text"], elements, state)


class EmailAboutTemplate(_GoalTemplate):
    """Email {to} {about}: one new email, to {to} only, whose subject and body name {about} (`names_topic`)."""

    name, max_steps = "email_about", 18
    apps = (G.PACKAGE,)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """{to} (and a namesake, `twins`) among Gmail's contacts."""
        return off_phone({G.PACKAGE: {"contacts": mail_contacts(params["to"], *twins(params["to"]))}}, params["to"])

    def check(self, params: Params, state: State) -> bool:
        """Exactly one email sent: new, to {to}, its subject and body naming {about}."""
        m = one_mail(state, "new", [person(params["to"])["email"]])
        return m is not None and names_topic(f"{m['subject']} {m['body']}", params["about"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Compose, pick {to}, the subject {about}, Send."""
        about = params["about"]
        return new_email([person(params["to"])], about[:1].upper() + about[1:], "", elements, state)


class SearchMailTemplate(_GoalTemplate):
    """Search my inbox for {terms}: Gmail's search results in front, for a query that finds the email about them."""

    name, max_steps = "search_mail", 10
    apps = (G.PACKAGE,)

    def email(self, params: Params) -> dict[str, Any]:
        """The email the search is for: its subject and body name {terms}."""
        return {"sender": "Bookings", "email": "no-reply@bookings.example.com", "subject": f"Your {params['terms']}",
                "body": f"Here is your {params['terms']}. Keep this email for your records.", "unread": True}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The email among the seeded inbox."""
        return {G.PACKAGE: {"emails": [self.email(params)]}}

    def check(self, params: Params, state: State) -> bool:
        """Gmail in front on search results whose query shares a word with {terms} and finds the email."""
        g = state_of(state, G.GmailState)
        query, subject = g["query"] or "", self.email(params)["subject"]
        target = next((m for m in g["inbox"] if m["subject"] == subject), None)
        return (state["foreground"] == G.PACKAGE and g["screen"] == "results" and target is not None
                and bool(set(words(query)) & set(words(params["terms"]))) and G.matches(target, query))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The search bar, the terms, ENTER."""
        return search_mail(params["terms"], elements, state) or wait()


class DeletePromotionsTemplate(_GoalTemplate):
    """Delete all the promotions emails: every email of Gmail's Promotions in the trash, no other email moved."""

    name, max_steps = "delete_promotions", 22
    apps = (G.PACKAGE,)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """`PROMOTIONS` ({"count"} of them, 3 by default) in the Promotions category."""
        mail = [{"sender": s, "email": e, "subject": t, "body": b, "unread": True}
                for s, e, t, b in PROMOTIONS[:params.get("count", 3)]]
        return {G.PACKAGE: {"promotions": mail}}

    def check(self, params: Params, state: State) -> bool:
        """The promotions, and only they, are in the trash; nothing archived."""
        g = state_of(state, G.GmailState)
        deleted = sorted(m["id"] for m in g["deleted"])
        return bool(deleted) and deleted == g["promotions"] and not g["archived"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Drawer > Promotions > each email > Delete."""
        return delete_promotions(elements, state)
