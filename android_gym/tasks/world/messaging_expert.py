"""Helpers of the world suite's Messages and Gmail tasks: what tasks text and email, the task people (fixed by name,
with namesakes; one-word names without), word matching, the conversations, emails and contacts that `initial()`
seeds, the state lookups the checks share, and the expert steps that text someone, open a conversation, open,
compose, reply to and forward an email, search the mail and delete Gmail's promotions.

`messaging_tasks` holds the templates; their `initial`, `check` and `expert` methods call these.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts as C
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.sim.apps.people import FIRST_NAMES, is_full_name, namesakes
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, fill, find, swipe_up, tap, type_into, wait
from android_gym.tasks.world.base import Elements, State

Person = Mapping[str, str]

LAST_NAMES = ("Alvarez", "Bennett", "Costa", "Dubois", "Eriksen", "Fontaine", "Gupta", "Hoffman", "Ivanova",
              "Jensen", "Kowalski", "Lindqvist", "Moreau", "Novak", "Oliveira", "Petrov", "Quintero", "Ramos",
              "Sato", "Thompson", "Varga", "Weber")
"""Task people's last names: no seeded contact has one (`people.LAST_NAMES`), so no seed holds a task person."""
_AREAS = ("646", "718", "305", "404", "702")
_DOMAINS = ("gmail.com", "outlook.com", "proton.me", "yahoo.com", "fastmail.com")


# -- what tasks say and send ----------------------------------------------------------------------------------------
TEXTS = ("I'll be there in 10 minutes", "Can we move dinner to 8?", "Happy anniversary!", "Don't forget your keys",
         "The meeting is cancelled", "Call me when you land", "Thanks for the birthday gift",
         "Running late, start without me", "See you at the gym tomorrow", "Bring the charger please",
         "Good luck on your exam", "Let's watch the match on Sunday", "I picked up the groceries",
         "The package arrived today", "Dinner is ready", "Can you send me the address?", "Parking is on level 3",
         "Movie starts at 7:30", "I left the keys under the mat", "Tickets are booked for Friday",
         "Please feed the cat tonight", "Meet me at the north entrance", "The plumber comes at noon",
         "Congrats on the new job!")
"""What tasks ask to text."""
REPLIES = ("Yes, that works for me", "Sorry, I can't make it", "Sounds great, see you then", "I'll call you in an hour",
           "No problem at all", "Let me check my calendar", "Already on my way", "Can we do next week instead?",
           "Count me in", "I already booked it", "Not tonight, maybe tomorrow", "Sure, I'll bring dessert",
           "Just saw this, calling now", "Perfect, thanks!", "I'm at the front desk", "Leaving the office now",
           "Yes please, two tickets", "I'll send it after lunch")
ASKS = ("Are we still on for tonight?", "Can you pick me up at 6?", "Did you get my email?",
        "Want to join us for brunch on Sunday?", "What time does the game start?", "Can you lend me your ladder?",
        "Are you coming to the party?", "Could you send me the slides?", "Is the printer fixed yet?",
        "Do you want the extra concert ticket?", "Where should we meet?", "How was the interview?")
"""What task people text the user (the last message of their conversation)."""
SUBJECTS = (("Budget review for Q3", "Budget review for Q2"), ("Offsite agenda", "Offsite agenda draft"),
            ("Kitchen renovation quote", "Bathroom renovation quote"), ("Lease renewal", "Lease renewal reminder"),
            ("Book club pick for July", "Book club pick for August"), ("Team dinner on Friday", "Team lunch on Friday"),
            ("Volunteer schedule for Saturday", "Volunteer schedule for Sunday"),
            ("Wedding photographer options", "Wedding florist options"),
            ("Soccer practice carpool", "Swim practice carpool"), ("Conference travel plans", "Conference hotel plans"),
            ("Birthday party for Mia", "Birthday party for Leo"), ("Moving day checklist", "Moving day playlist"),
            ("Quarterly sales report", "Quarterly marketing report"),
            ("Garden club meeting notes", "Garden club meeting agenda"),
            ("Flight times for the reunion", "Hotel options for the reunion"),
            ("Invoice for the website redesign", "Quote for the website redesign"),
            ("Podcast interview questions", "Podcast interview schedule"),
            ("Apartment viewing on Tuesday", "Apartment viewing on Thursday"),
            ("Camping trip gear list", "Camping trip food list"), ("Science fair project ideas", "Science fair rules"))
"""Email subjects, each with a near-miss twin (a distractor email's subject)."""
BODIES = ("Sounds good, count me in.", "Thanks, I will review it tonight.", "Can we push this to next week?",
          "Please send me the final version.", "Looks great to me.", "Let's discuss it at the meeting.",
          "I can help with this on Monday.", "Approved, go ahead.", "I have a few questions, call me.",
          "Thanks for putting this together.")
PROMOTIONS = (("ShopMart", "deals@shopmart.example.com", "48-hour flash sale: 40% off", "Prices drop today only."),
              ("FitLife Gym", "offers@fitlife.example.com", "Join now, first month free", "No joining fee in June."),
              ("TravelNow", "news@travelnow.example.com", "Summer getaways from $199", "Book by Sunday and save."),
              ("PizzaHub", "promo@pizzahub.example.com", "Two pizzas for the price of one", "Use code TWOFOR1."))
"""Promotional mail (Gmail's Promotions category)."""


# -- people, text and state ----------------------------------------------------------------------------------------
def person(name: str) -> dict[str, str]:
    """A task person: {"name", "number", "email"}, fixed by the name (the address is not guessable from it).

    A name may be one word ("Tom", "Mom") or a full name; the address joins its words with full stops.
    """
    rng = np.random.default_rng(stable_seed("world-person", name))
    local = ".".join(w.strip(".") for w in name.lower().split())
    number = f"({_AREAS[int(rng.integers(len(_AREAS)))]}) 555-{int(rng.integers(1000, 10000)):04d}"
    email = f"{local}{int(rng.integers(10, 100))}@{_DOMAINS[int(rng.integers(len(_DOMAINS)))]}"
    return {"name": name, "number": number, "email": email}


def names(key: str, count: int) -> list[str]:
    """`count` task people's names for parameter `key`, with distinct first names."""
    rng = np.random.default_rng(stable_seed("world-names", key))
    firsts = rng.choice(len(FIRST_NAMES), size=count, replace=False)
    return [f"{FIRST_NAMES[int(f)]} {LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]}" for f in firsts]


def namesake(name: str) -> str:
    """Another task person with the same first name (the near miss for `name`)."""
    first, last = name.split()
    others = [n for n in LAST_NAMES if n != last]
    return f"{first} {others[stable_seed('world-namesake', name) % len(others)]}"


def twins(name: str) -> list[str]:
    """The near misses a task puts beside `name`: its `namesake` for a full name; none for one name ("Tom"), which
    must mean one person (`off_phone` takes the seeded people of that first name away)."""  # noqa: D205, D209
    return [namesake(name)] if is_full_name(name) else []


def off_phone(initial: dict[str, dict[str, Any]], *names: str) -> dict[str, dict[str, Any]]:
    """`initial` with the seeded contacts and conversations of `names`' first names removed (`people.namesakes`),
    where a name is one first name a seed draws ("Ben"); unchanged otherwise."""  # noqa: D205, D209
    gone = [n for name in names for n in namesakes(name)]
    if not gone:
        return initial
    out = {**initial, M.PACKAGE: {**initial.get(M.PACKAGE, {}), "remove": gone}}
    contacts = out.get(C.PACKAGE, {}).get("contacts", {})
    out[C.PACKAGE] = {"contacts": {**contacts, "remove": [*contacts.get("remove", []), *gone]}}
    return out


def words(text: str) -> list[str]:
    """The words of `text`, lower-cased, without punctuation (addresses stay whole).

    >>> words("Can we move dinner to 8?") == words("can we move  dinner to 8")
    True
    """
    tokens = re.findall(r"[a-z0-9@._-]+", text.lower().replace("'", "").replace("\u2019", ""))
    return [t for t in (t.strip("._-") for t in tokens) if t]


def holds(text: str, part: str) -> bool:
    """Whether `text` holds the words of `part`, whole and in order.

    >>> holds("Her address: ann.lee@x.org.", "ann.lee@x.org"), holds("already", "ready")
    (True, False)
    """
    return f" {' '.join(words(part))} " in f" {' '.join(words(text))} "


LITTLE_WORDS = frozenset({"a", "an", "the", "for", "of", "to", "on", "in", "at", "my", "your", "about", "and", "with"})


def names_topic(text: str, topic: str) -> bool:
    """Whether `text` names `topic`: each word of it but the little ones begins a word of `text`.

    >>> names_topic("Tomorrow's agenda", "agenda for tomorrow"), names_topic("Agenda", "the agenda for tomorrow")
    (True, False)
    """
    said = words(text)
    return all(any(w.startswith(k) for w in said) for k in words(topic) if k not in LITTLE_WORDS)


def conversation(p: Person, lines: Sequence[str], unread: bool) -> dict[str, Any]:
    """A conversation with `p` whose `lines` alternate between them and the user, ending with theirs."""
    n = len(lines)
    return {"name": p["name"], "number": p["number"], "unread": unread,
            "messages": [{"from_me": (n - 1 - i) % 2 == 1, "text": t} for i, t in enumerate(lines)]}


def email_from(p: Person, subject: str, unread: bool = True) -> dict[str, Any]:
    """An email from `p` about `subject` (unread unless `unread` is False), with a body that names it."""
    return {"sender": p["name"], "email": p["email"], "subject": subject, "unread": unread,
            "body": f"Hi, sharing the details about {subject.lower()}. Let me know what you think before Friday."}


def mail_contacts(*people: str) -> list[dict[str, str]]:
    """Gmail contacts ({"name", "email"}) of the task people named `people`."""
    return [{"name": p["name"], "email": p["email"]} for p in map(person, people)]


def same_number(a: str | None, b: str) -> bool:
    """Whether phone number `a` (None: no number) has the digits of `b`."""
    return a is not None and M.digits(a) == M.digits(b)


def find_mail(state: State, sender: str, subject: str) -> G.Email | None:
    """The received email from `sender` about `subject`, in whatever box it is now."""
    g = state_of(state, G.GmailState)
    return next((m for box in ("inbox", "archived", "deleted") for m in g[box]
                 if m["sender"] == sender and m["subject"] == subject), None)


def texts_ok(state: State, wanted: Sequence[tuple[str, str]], contains: bool = False) -> bool:
    """Exactly the texts `wanted` ((person name, text) pairs, any order) were sent: each to that person's number,
    saying that text (or holding it, `contains`)."""  # noqa: D205, D209
    sent = state_of(state, M.MessagesState)["sent"]
    left = list(sent)
    for name, text in wanted:
        hit = next((s for s in left if same_number(s["number"], person(name)["number"]) and (
            holds(s["text"], text) if contains else words(s["text"]) == words(text))), None)
        if hit is None:
            return False
        left.remove(hit)
    return not left


def one_mail(state: State, kind: str, to: Sequence[str], ref: int | None = None) -> G.Email | None:
    """The only email sent, when it is of `kind`, to exactly the addresses `to` and (replies, forwards) about `ref`."""
    sent = state_of(state, G.GmailState)["sent"]
    if len(sent) != 1:
        return None
    m = sent[0]
    ok = (m["kind"] == kind and sorted(a.lower() for a in m["to"]) == sorted(a.lower() for a in to)
          and (ref is None or m["ref"] == ref))
    return m if ok else None


# -- expert steps ---------------------------------------------------------------------------------------------------
def read_unread_thread(p: Person, elements: Elements, state: State) -> Action | None:
    """The next step to read `p`'s conversation while it is unread (what they texted); None once it is read."""
    thread = next(t for t in state_of(state, M.MessagesState)["threads"] if t["number"] == p["number"])
    return (to_thread(p, elements, state) or wait()) if thread["unread"] else None


def to_thread(p: Person, elements: Elements, state: State) -> Action | None:
    """The next step to `p`'s conversation open in Messages (through "Start chat" if there is none); None there."""
    step = into_app("Messages", M.PACKAGE, elements, state)
    if step is not None:
        return step
    ms = state_of(state, M.MessagesState)
    if ms["screen"] == "thread" and same_number(ms["thread"], p["number"]):
        return None
    if ms["screen"] == "home":
        if any(same_number(t["number"], p["number"]) for t in ms["threads"]):
            row = find(elements, rid=M.NAME_RID, text=p["name"])
            return tap(row) if row is not None else swipe_up()
        start = find(elements, desc="Start chat")
        return tap(start) if start is not None else wait()
    if ms["screen"] == "new":
        step = fill(elements, state, M.TO_RID, p["name"], missing=wait())
        row = find(elements, rid=M.CONTACT_RID, contains=p["number"])
        return step or (tap(row) if row is not None else wait())
    return back()  # another conversation, a menu or a dialog


def send_text(p: Person, text: str, elements: Elements, state: State) -> Action:
    """The next step to text `p`: their conversation, the compose field, Send SMS."""
    step = to_thread(p, elements, state) or fill(elements, state, M.COMPOSE_RID, text, missing=wait())
    if step is not None:
        return step
    send = find(elements, desc="Send SMS")
    return tap(send) if send is not None and send.enabled else wait()


def to_email(sender: str, subject: str, elements: Elements, state: State) -> Action | None:
    """The next step to the email from `sender` about `subject` open in Gmail (scrolling the inbox); None there."""
    step = into_app("Gmail", G.PACKAGE, elements, state)
    if step is not None:
        return step
    g = state_of(state, G.GmailState)
    target = find_mail(state, sender, subject)
    if target is not None and g["screen"] == "email" and g["open"] == target["id"]:
        return None
    if g["screen"] == "inbox":
        row = find(elements, rid=G.ROW_RID, contains=f"{sender}, {subject},")
        return tap(row) if row is not None else toward_mail(target, g["inbox"], elements)
    return back()


def toward_mail(target: G.Email | None, inbox: Sequence[G.Email], elements: Elements) -> Action:
    """A swipe towards `target`'s row: back up when it lies above the rows shown (the inbox keeps its scroll when
    an email lower down was read last), down otherwise."""  # noqa: D205, D209
    shown = {e.label for e in elements if e.rid == G.ROW_RID}
    rows = [i for i, m in enumerate(inbox) if any(f"{m['sender']}, {m['subject']}," in text for text in shown)]
    above = target in inbox and rows and inbox.index(target) < min(rows)
    return swipe_down() if above else swipe_up()


def compose_step(to: Sequence[Person] | None, subject: str | None, body: str, elements: Elements,
                 state: State) -> Action:
    """On Gmail's compose screen: pick each of `to` by name from the suggestions, write `subject` and `body`, then
    Send (`to` or `subject` None: keep what the form was opened with)."""  # noqa: D205, D209
    text = state["screen"]["fields"].get(G.TO_RID, "")
    want = [p["email"] for p in to or ()]
    if to is not None and G.recipients(text) != want:
        done = [t.strip() for t in text.split(",")[:-1]]
        if done != want[:len(done)] or len(done) >= len(want):
            return fill(elements, state, G.TO_RID, "", missing=wait()) or wait()  # a wrong address: clear the field
        p = to[len(done)]
        step = fill(elements, state, G.TO_RID, "".join(f"{a}, " for a in done) + p["name"], missing=wait())
        if step is not None:
            return step
        pick = find(elements, rid=G.SUGGESTION_RID, contains=p["email"])  # listed while the field has focus
        pick = pick or (find(elements, rid=G.TO_RID) if state["screen"]["focus"] != G.TO_RID else None)
        return tap(pick) if pick is not None else wait()
    step = (fill(elements, state, G.SUBJECT_RID, subject, missing=wait()) if subject is not None else None) or \
        fill(elements, state, G.BODY_RID, body, missing=wait())
    send = find(elements, desc="Send")
    return step or (tap(send) if send is not None else wait())


def new_email(to: Sequence[Person], subject: str | None, body: str, elements: Elements, state: State) -> Action:
    """The next step to send a new email from Gmail's inbox (Compose, then `compose_step`)."""
    step = into_app("Gmail", G.PACKAGE, elements, state)
    if step is not None:
        return step
    g = state_of(state, G.GmailState)
    if g["screen"] == "compose" and state["screen"]["args"]["kind"] == "new":
        return compose_step(to, subject, body, elements, state)
    button = find(elements, text="OK") if g["screen"] == "alert" else find(elements, desc="Compose")
    return tap(button) if button is not None and g["screen"] in ("alert", "inbox") else back()


def respond(kind: str, sender: str, subject: str, to: Sequence[Person] | None, body: str, elements: Elements,
            state: State) -> Action:
    """The next step to reply to or forward (`kind`) the email from `sender` about `subject`."""
    step = into_app("Gmail", G.PACKAGE, elements, state)
    if step is not None:
        return step
    g, target, args = state_of(state, G.GmailState), find_mail(state, sender, subject), state["screen"]["args"]
    if g["screen"] == "compose" and target is not None and (args["kind"], args["ref"]) == (kind, target["id"]):
        return compose_step(to, None, body, elements, state)
    ok = find(elements, text="OK") if g["screen"] == "alert" else None
    step = tap(ok) if ok is not None else to_email(sender, subject, elements, state)
    button = find(elements, text="Forward") if kind == "forward" else find(elements, desc="Reply")
    return step or (tap(button) if button is not None else wait())


def search_mail(terms: str, elements: Elements, state: State) -> Action | None:
    """The next step to Gmail's search results for `terms` in front (search bar, type, ENTER); None there."""
    step = into_app("Gmail", G.PACKAGE, elements, state)
    if step is not None:
        return step
    g = state_of(state, G.GmailState)
    if g["screen"] == "results" and g["query"] == terms:
        return None
    if g["screen"] == "search":
        return type_into(elements, state, G.QUERY_RID, terms)
    bar = find(elements, rid=G.SEARCH_BAR_RID) if g["screen"] in (*G.FOLDERS, "results") else None
    return tap(bar) if bar is not None else back()


def delete_promotions(elements: Elements, state: State) -> Action:
    """The next step to delete every email of Gmail's Promotions (drawer > Promotions > open one > Delete)."""
    step = into_app("Gmail", G.PACKAGE, elements, state)
    if step is not None:
        return step
    g = state_of(state, G.GmailState)
    left = {m["id"] for m in g["inbox"] if m["id"] in g["promotions"]}
    if g["screen"] == "email":
        delete = find(elements, desc="Delete") if g["open"] in left else None
        return tap(delete) if delete is not None else (wait() if g["open"] in left else back())
    if not left:
        return wait()
    target = {"promotions": find(elements, rid=G.ROW_RID), "drawer": find(elements, text="Promotions"),
              "inbox": find(elements, desc="Open navigation drawer")}.get(g["screen"])
    return tap(target) if target is not None else back()
