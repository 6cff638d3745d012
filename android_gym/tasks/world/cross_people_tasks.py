"""World-suite tasks that carry a detail about people or plans from one app into another (issue 48): an event's place
emailed, a Markor list emailed, a texted number saved as a contact, an alarm before tomorrow's first event, today's
birthday person called, the last missed caller texted, a texted place put on an event, an emailed request added to
Tasks, unread emails turned into Joplin to-dos, a contact's number written into a note, the number of the person an
event names emailed on (three apps), and a door code from a Joplin note texted.

Every task seeds what it reads (`initial`) beside a near miss: a namesake, a twin event a week later, an older text or
call, a read email among unread ones. Checks read the apps' state and ask for the one change the goal names (the only
text or email sent, the only contact added, the only alarm added, the only edit), with the read app left as it was.
Experts read the source first through what its state records (Calendar's opened events, a conversation or email no
longer unread, Markor's last opened note, the contact card in front), then write in the target app.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import clock as K
from android_gym.sim.apps import contacts as P
from android_gym.sim.apps import dialer as D
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world.base import Params, WorldTemplate, nth, wait
from android_gym.tasks.world.calendar_expert import CAL, change, to_event
from android_gym.tasks.world.calendar_tasks import DAYS, PLACES, STARTS, TITLES, bare, iso, spec, the, untouched
from android_gym.tasks.world.clock_expert import add_alarm, added, only_edited
from android_gym.tasks.world.cross_people_expert import (
    ASKS,
    CODE_PLACES,
    FOLDERS,
    LISTS,
    MEMO_NOTES,
    TEXTS,
    call_from_card,
    contacts_untouched,
    in_contacts,
    look_up,
    looked_up,
    mail_body,
    new_contact,
    on_recents,
    says_number,
)
from android_gym.tasks.world.joplin_expert import find_note, only_edits, to_note
from android_gym.tasks.world.joplin_tasks import NewTodoTemplate
from android_gym.tasks.world.messaging_expert import (
    Elements,
    State,
    conversation,
    email_from,
    holds,
    mail_contacts,
    names,
    namesake,
    new_email,
    one_mail,
    person,
    send_text,
    texts_ok,
    to_email,
    to_thread,
)
from android_gym.tasks.world.notes_expert import find_tasks, markor_item, markor_write, only_touched, tasks_add
from android_gym.tasks.world.people_expert import numbers, only_calls_to, to_card, to_phone_tab


# -- Calendar -> Gmail ----------------------------------------------------------------------------------------------
class EventPlaceToEmailTemplate(WorldTemplate):
    """Email {to} where {title} on {day} takes place; the same title a week later is elsewhere (the near miss)."""

    name, max_steps = "cross_event_place_to_email", 23
    apps = (CAL, G.PACKAGE)
    phrasings = ("Email {to} the location of my {title} on {day}",
                 "Look up where {title} on {day} is in my calendar and send the place to {to} by email",
                 "{to} asked where the {title} on {day} will be. Email them the place")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice: a day, a start, a place, its twin's place, a recipient."""
        out = []
        for i, title in enumerate(TITLES):
            for k in range(2):
                days = nth(DAYS, i + 3 * k)
                out.append({"title": title, "date": iso(days), "day": C.long_date(iso(days)),
                            "start": nth(STARTS, i + k), "place": nth(PLACES, i + k), "twin": nth(PLACES, i + k + 3),
                            "other": iso(days + 7), "to": names(f"place:{title}:{k}", 1)[0], "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event with its place, its twin elsewhere; {to} and a namesake among Gmail's contacts."""
        return {CAL: {"absent": [params["title"]],
                      "events": [spec(params["title"], params["date"], params["start"], location=params["place"]),
                                 spec(params["title"], params["other"], params["start"], location=params["twin"])]},
                G.PACKAGE: {"contacts": mail_contacts(params["to"], namesake(params["to"]))}}

    def check(self, params: Params, state: State) -> bool:
        """The only email sent: new, to {to}, naming the place (not the twin's); the calendar unchanged."""
        m = one_mail(state, "new", [person(params["to"])["email"]])
        said = f"{m['subject']} {m['body']}" if m is not None else ""
        return m is not None and holds(said, params["place"]) and not holds(said, params["twin"]) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the event in Calendar, then email the place."""
        e = the(state, params["title"], params["date"])
        if e is not None and e["id"] not in state_of(state, C.CalendarState)["opened"]:
            return to_event(e, elements, state) or wait()
        return new_email([person(params["to"])], params["title"], params["place"], elements, state)


# -- Markor -> Gmail ------------------------------------------------------------------------------------------------
class NoteListToEmailTemplate(WorldTemplate):
    """Email {to} the list in Markor note {note}; its older twin note differs in one item."""

    name, max_steps, split_key = "cross_note_list_to_email", 22, "note"
    apps = (markor.PACKAGE, G.PACKAGE)
    phrasings = ('Email the list in my Markor note "{note}" to {to}', "Send {to} an email with everything on my "
                 "{note} list from Markor", 'Read the note "{note}" in Markor and email its items to {to}')

    def grid(self) -> list[dict[str, Any]]:
        """Every list note three times, with another recipient."""
        return [{"note": note, "items": list(items), "to": names(f"list:{note}:{k}", 1)[0], "phrasing": i + k}
                for i, (note, items) in enumerate(LISTS.items()) for k in range(3)]

    @staticmethod
    def path(params: Params) -> str:
        """The note's file."""
        return f"{params['note']}.md"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note and its twin (the last item swapped); {to} and a namesake among Gmail's contacts."""
        items = params["items"]
        twin = [*items[:-1], "something else"]
        return {markor.PACKAGE: {"files": {self.path(params): "\n".join(f"- {i}" for i in items),
                                           f"{params['note']} (old).md": "\n".join(f"- {i}" for i in twin)}},
                G.PACKAGE: {"contacts": mail_contacts(params["to"], namesake(params["to"]))}}

    def check(self, params: Params, state: State) -> bool:
        """The only email sent: new, to {to}, its body naming every item; no note edited."""
        m = one_mail(state, "new", [person(params["to"])["email"]])
        return (m is not None and all(holds(m["body"], item) for item in params["items"])
                and not state_of(state, markor.MarkorState)["edits"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then email its items, one after another."""
        if state_of(state, markor.MarkorState)["last_opened"] != self.path(params):
            return markor_item(self.path(params), elements, state)
        return new_email([person(params["to"])], params["note"], ", ".join(params["items"]), elements, state)


# -- Messages -> Contacts -------------------------------------------------------------------------------------------
class TextedNumberToContactTemplate(WorldTemplate):
    """Save the number {name} texted me last as a new contact {new}; an older text of theirs gives an old number."""

    name, max_steps, split_key = "cross_text_number_to_contact", 22, "new"
    apps = (M.PACKAGE, P.PACKAGE)
    phrasings = ("Add the phone number from the last text {name} sent me as a new contact named {new}",
                 "{name} texted me {first}'s new number. Save it as a contact called {new}",
                 "Create a contact {new} with the number in {name}'s latest message")

    def grid(self) -> list[dict[str, Any]]:
        """People to save (a name no seeded contact has), with who texts their number."""
        out = []
        for i in range(24):
            new, texter = names(f"save_texted:{i}", 2)
            number, old = numbers("cross_text_number", new, 2)
            out.append({"new": new, "first": new.split()[0], "name": texter, "number": number, "old": old,
                        "phrasing": i})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """{name}'s unread conversation: the old number, then the new one last."""
        first = params["first"]
        lines = (f"{first}'s old number was {params['old']}", "Thanks, do you have the new one?",
                 f"Yes, {first}'s new number is {params['number']}")
        return {M.PACKAGE: {"threads": [conversation(person(params["name"]), lines, True)]}}

    def check(self, params: Params, state: State) -> bool:
        """One contact added: {new} with the new number; nothing removed or changed."""
        c = state_of(state, P.ContactsState)
        new = c["added"]
        return (len(new) == 1 and not c["removed"] and not c["changed"] and P.same_name(new[0]["name"], params["new"])
                and P.digits(new[0]["phone"]) == P.digits(params["number"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the conversation (it is unread until opened), then create the contact."""
        p = person(params["name"])
        thread = next((t for t in state_of(state, M.MessagesState)["threads"] if t["number"] == p["number"]), None)
        if thread is not None and thread["unread"]:
            return to_thread(p, elements, state) or wait()
        return new_contact(params["new"], params["number"], elements, state)


# -- Calendar -> Clock ----------------------------------------------------------------------------------------------
class AlarmBeforeFirstEventTemplate(WorldTemplate):
    """Set an alarm {lead} minutes before tomorrow's first event (early, before every seeded one; a later one too)."""

    name, max_steps = "cross_alarm_before_first_event", 17
    apps = (CAL, K.PACKAGE)
    phrasings = ("Set an alarm {lead} minutes before my first event tomorrow",
                 "I need to be up {lead} minutes before tomorrow's first appointment. Set an alarm for that",
                 "Check my calendar for tomorrow's earliest event and add an alarm {lead} minutes before it starts")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice: an early start, a lead, the alarm's time, and a later event of another title."""
        out = []
        for i, title in enumerate(TITLES):
            for k in range(2):
                start = f"07:{nth((0, 15, 30, 45), i + k):02d}"
                lead = nth((15, 30, 45, 60), i + 2 * k)
                at = C.minutes(start) - lead
                out.append({"title": title, "start": start, "lead": lead, "hour": at // 60, "minute": at % 60,
                            "later": nth(TITLES, i + 7 + k), "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Tomorrow's first event and a later one; seeded alarms kept off the alarm's time."""
        tomorrow = iso(1)
        return {CAL: {"absent": [params["title"], params["later"]],
                      "events": [spec(params["title"], tomorrow, params["start"]),
                                 spec(params["later"], tomorrow, "11:45")]},
                K.PACKAGE: {"seeded": 3, "free": [[params["hour"], params["minute"]]]}}

    def check(self, params: Params, state: State) -> bool:
        """One alarm added, on, {lead} minutes before the first timed event tomorrow; no other alarm touched; the
        calendar unchanged."""  # noqa: D205, D209
        timed = [e for e in state_of(state, C.CalendarState)["events"] if e["date"] == iso(1) and not e["all_day"]]
        if not timed or not untouched(state):
            return False
        at = min(C.minutes(e["start"]) for e in timed) - params["lead"]
        new = added(state)
        return (len(new) == 1 and new[0]["enabled"] and (new[0]["hour"], new[0]["minute"]) == divmod(at, 60)
                and only_edited(state, {new[0]["id"]}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the first event in Calendar, then add the alarm in Clock."""
        e = the(state, params["title"], iso(1))
        if e is not None and e["id"] not in state_of(state, C.CalendarState)["opened"]:
            return to_event(e, elements, state) or wait()
        return wait() if added(state) else add_alarm(params["hour"], params["minute"], elements, state)


# -- Calendar -> Contacts -> Phone ------------------------------------------------------------------------------------
class CallBirthdayContactTemplate(WorldTemplate):
    """Call the contact whose birthday the calendar shows today; another's birthday is tomorrow."""

    name, max_steps, split_key = "cross_call_birthday_contact", 18, "name"
    apps = (CAL, P.PACKAGE, D.PACKAGE)
    phrasings = ("Call the contact whose birthday is today",
                 "My calendar says it's someone's birthday today. Give them a call",
                 "Check today's birthday in my calendar and phone that person")

    def grid(self) -> list[dict[str, Any]]:
        """Birthday people, with tomorrow's."""
        return [{"name": a, "other": b, "phrasing": i}
                for i, (a, b) in enumerate(names(f"birthday:{i}", 2) for i in range(30))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """All-day birthdays today and tomorrow (no seeded birthday); both people and a namesake in Contacts."""
        today = {**spec(f"{params['name']}'s birthday", iso(0), "09:00"), "all_day": True}
        tomorrow = {**spec(f"{params['other']}'s birthday", iso(1), "09:00"), "all_day": True}
        return {CAL: {"absent": ["Mom's birthday", today["title"], tomorrow["title"]], "events": [today, tomorrow]},
                **in_contacts(params["name"], params["other"], namesake(params["name"]))}

    def check(self, params: Params, state: State) -> bool:
        """Every call placed went to the birthday person's number (at least one); the calendar unchanged."""
        return only_calls_to(state, person(params["name"])["number"]) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open today's birthday in Calendar, then the person's card in Contacts, then Call."""
        e = the(state, f"{params['name']}'s birthday", iso(0))
        if e is not None and e["id"] not in state_of(state, C.CalendarState)["opened"]:
            return to_event(e, elements, state) or wait()
        return to_card(params["name"], elements, state) or call_from_card(elements)


# -- Phone -> Messages ----------------------------------------------------------------------------------------------
class TextMissedCallerTemplate(WorldTemplate):
    """Text the last missed caller {text}; an older missed call came from someone else."""

    name, max_steps, split_key = "cross_text_missed_caller", 18, "text"
    apps = (D.PACKAGE, M.PACKAGE)
    phrasings = ('Text whoever I last missed a call from: "{text}"',
                 'Send "{text}" by SMS to the person behind my most recent missed call',
                 "Check my missed calls and text the latest caller: {text}")

    def grid(self) -> list[dict[str, Any]]:
        """Every text three times, with two callers."""
        return [{"text": text, "name": a, "older": b, "phrasing": i + k}
                for i, text in enumerate(TEXTS) for k in range(3)
                for a, b in [names(f"missed:{text}:{k}", 2)]]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both callers in Contacts; their missed calls (the task's newer) after an answered one; old threads."""
        p, o = person(params["name"]), person(params["older"])
        calls = [{"number": o["number"], "kind": "missed", "ago_min": 40},
                 {"number": p["number"], "kind": "missed", "ago_min": 9},
                 {"number": o["number"], "kind": "incoming", "ago_min": 3}]
        return {**in_contacts(params["name"], params["older"]), D.PACKAGE: {"calls": calls},
                M.PACKAGE: {"threads": [conversation(o, ("Call me?",), False)]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text: to the missed caller, saying {text}."""
        return texts_ok(state, [(params["name"], params["text"])])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone's Recents, then text the caller."""
        if not on_recents(state):
            return to_phone_tab("Recents", elements, state) or wait()
        return send_text(person(params["name"]), params["text"], elements, state)


# -- Messages -> Calendar -------------------------------------------------------------------------------------------
class TextedPlaceToEventTemplate(WorldTemplate):
    """Put the place {name} texted on event {title} on {day}; its twin a week later keeps no place."""

    name, max_steps = "cross_texted_place_to_event", 20
    apps = (M.PACKAGE, CAL)
    phrasings = ("{name} texted me where the {title} on {day} is. Add that place to the event",
                 "Set the location of my {title} on {day} to the place {name} sent me by text",
                 "Read {name}'s last message and put the place it names on my {title} event on {day}")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a place and who texts it."""
        out = []
        for i, title in enumerate(TITLES):
            for k in range(2):
                days = nth(DAYS, i + 5 * k + 2)
                out.append({"title": title, "date": iso(days), "day": C.long_date(iso(days)),
                            "start": nth(STARTS, 2 * i + k), "place": nth(PLACES, i + 2 * k), "other": iso(days + 7),
                            "name": names(f"texted_place:{title}:{k}", 1)[0], "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The event and its twin, without places; {name}'s unread conversation naming the place."""
        lines = (f"Where should we do the {params['title'].lower()}?", f"Let's meet at {params['place']}")
        return {CAL: {"absent": [params["title"]],
                      "events": [spec(params["title"], params["date"], params["start"]),
                                 spec(params["title"], params["other"], params["start"])]},
                M.PACKAGE: {"threads": [conversation(person(params["name"]), lines, True)]}}

    def check(self, params: Params, state: State) -> bool:
        """One event edited, the task's: only its place set (case aside); nothing added or deleted; no text sent."""
        c = state_of(state, C.CalendarState)
        e = the(state, params["title"], params["date"])
        if e is None or c["added"] or c["deleted"] or c["edited"] != [e["id"]] or state_of(
                state, M.MessagesState)["sent"]:
            return False
        want = bare(spec(params["title"], params["date"], params["start"], location=params["place"].casefold()))
        return {**bare(e), "location": e["location"].strip().casefold()} == want

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the conversation, then edit the event's location."""
        p = person(params["name"])
        thread = next((t for t in state_of(state, M.MessagesState)["threads"] if t["number"] == p["number"]), None)
        if thread is not None and thread["unread"]:
            return to_thread(p, elements, state) or wait()
        e = the(state, params["title"], params["date"])
        if e is None or e["location"] == params["place"]:
            return wait()
        return change(e, {"location": params["place"]}, elements, state)


# -- Gmail -> Tasks -------------------------------------------------------------------------------------------------
class EmailRequestToTaskTemplate(WorldTemplate):
    """Add {name}'s emailed request as a task in list {list} (no date, no priority); a namesake asks something else."""

    name, max_steps, split_key = "cross_email_request_to_task", 20, "ask"
    apps = (G.PACKAGE, todo.PACKAGE)
    phrasings = ("Add what {name} asked me to do by email as a task in my {list} list",
                 "{name} emailed me a request. Put it on my {list} list in Tasks, titled with the email's subject",
                 "Turn {name}'s email into a task in the {list} list of Tasks")

    def grid(self) -> list[dict[str, Any]]:
        """Every request three times: who asks, the namesake's other request, a list."""
        return [{"ask": ask, "name": names(f"ask:{ask}:{k}", 1)[0], "twin": nth(ASKS, i + 5),
                 "list": nth(todo.LISTS, i + k), "phrasing": i + k}
                for i, ask in enumerate(ASKS) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """{name}'s unread email, its namesake's about another request; neither title in Tasks."""
        p, twin = person(params["name"]), person(namesake(params["name"]))
        mails = [{**email_from(p, params["ask"]), "body": mail_body(params["ask"])},
                 {**email_from(twin, params["twin"]), "body": mail_body(params["twin"])}]
        return {G.PACKAGE: {"emails": mails}, todo.PACKAGE: {"absent": [params["ask"], params["twin"]]}}

    def check(self, params: Params, state: State) -> bool:
        """One open task titled as the request in {list}, undated, without priority; no other task edited."""
        t = state_of(state, todo.TasksState)
        want = {"title": params["ask"], "due": None, "priority": "none", "completed": False}
        found = [{**x, "title": x["title"].strip()} for x in find_tasks(t["lists"], params["list"], params["ask"])]
        return ([{**x, "title": x["title"].casefold()} for x in found] == [{**want, "title": want["title"].casefold()}]
                and all(e["title"].strip().casefold() == params["ask"].casefold() for e in t["edits"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the email, then add the task."""
        mail = next((m for m in state_of(state, G.GmailState)["inbox"] if m["subject"] == params["ask"]), None)
        if mail is not None and mail["unread"]:
            return to_email(params["name"], params["ask"], elements, state) or wait()
        return tasks_add(params["list"], params["ask"], None, "none", elements, state)


# -- Gmail -> Joplin ------------------------------------------------------------------------------------------------
class UnreadEmailsToTodosTemplate(WorldTemplate):
    """A Joplin to-do in notebook {folder} per unread email from {name}, titled by its subject; their read email
    and a namesake's unread one get none."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_unread_emails_to_todos", 32, "key"
    apps = (G.PACKAGE, J.PACKAGE)
    phrasings = ("Make a Joplin to-do in my {folder} notebook for each unread email from {name}, titled with its "
                 "subject", "For every unread email {name} sent me, add a to-do with the email's subject to the "
                 "{folder} notebook in Joplin", "Turn {name}'s unread emails into to-dos in Joplin's {folder} "
                 "notebook, one per email, named after the subject")

    def grid(self) -> list[dict[str, Any]]:
        """Two unread subjects, a read one, a namesake's; a notebook."""
        return [{"key": f"{i}", "name": names(f"todos:{i}", 1)[0], "subjects": [nth(ASKS, i), nth(ASKS, i + 3)],
                 "read": nth(ASKS, i + 6), "twin": nth(ASKS, i + 9), "folder": nth(FOLDERS, i), "phrasing": i}
                for i in range(24)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The four emails; the notebook with an unrelated note."""
        p = person(params["name"])
        mails = [email_from(p, s) for s in params["subjects"]] + [email_from(p, params["read"], False),
                                                                   email_from(person(namesake(p["name"])),
                                                                              params["twin"])]
        note = {"title": "Ideas to sort", "body": "Sort these later.", "folder": params["folder"]}
        return {G.PACKAGE: {"emails": mails}, J.PACKAGE: {"notes": [note]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly the two to-dos created (any order), open, in {folder}; nothing else changed in Joplin."""
        subjects = params["subjects"]
        if not any(only_edits(state, [(a, "created"), (b, "created")]) for a, b in (subjects, subjects[::-1])):
            return False
        notes = [find_note(state, s) for s in subjects]
        return all(n is not None and n["is_todo"] and not n["todo_completed"] and n["folder"] == params["folder"]
                   for n in notes)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open each unread email of {name} (reading its subject), then add each to-do."""
        inbox = state_of(state, G.GmailState)["inbox"]
        for s in params["subjects"]:
            if any(m["subject"] == s and m["unread"] for m in inbox):
                return to_email(params["name"], s, elements, state) or wait()
        s = next((s for s in params["subjects"] if find_note(state, s) is None), None)
        if s is None:
            return wait()
        return NewTodoTemplate().expert({"title": s, "folder": params["folder"]}, elements, state)


# -- Contacts -> Markor ---------------------------------------------------------------------------------------------
class ContactNumberToNoteTemplate(WorldTemplate):
    """Add {name}'s number at the end of Markor note {note}; a namesake has another number."""

    name, max_steps, split_key = "cross_contact_number_to_note", 18, "name"
    apps = (P.PACKAGE, markor.PACKAGE)
    phrasings = ('Add {name}\'s phone number to the end of my Markor note "{note}"',
                 "Look up {name} in my contacts and append their number to the note {note} in Markor",
                 'Write {name}\'s number on a new line at the bottom of "{note}" in Markor')

    def grid(self) -> list[dict[str, Any]]:
        """People with a memo note."""
        return [{"name": n, "note": nth(MEMO_NOTES, i), "phrasing": i}
                for i in range(30) for n in names(f"memo:{i}", 1)]

    @staticmethod
    def path(params: Params) -> str:
        """The note's file."""
        return f"{params['note']}.md"

    @staticmethod
    def text(params: Params) -> str:
        """The note as it starts."""
        return f"{params['note']}\nPlumber: (202) 555-0147"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The person and a namesake in Contacts; the note."""
        return {**in_contacts(params["name"], namesake(params["name"])),
                markor.PACKAGE: {"files": {self.path(params): self.text(params)}}}

    def check(self, params: Params, state: State) -> bool:
        """Only the note edited: its old text kept at the start, then {name}'s number (not the namesake's)."""
        mk = state_of(state, markor.MarkorState)
        text, start = mk["files"].get(self.path(params)), self.text(params)
        if text is None or not text.startswith(start) or not only_touched(mk["edits"], {self.path(params)}):
            return False
        return contacts_untouched(state) and says_number(text[len(start):], person(params["name"])["number"],
                                                         [person(namesake(params["name"]))["number"]])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The card in Contacts, then the note's editor: a new line with the number, Save."""
        if not looked_up(state, params["name"]):
            return look_up(params["name"], elements, state) or wait()
        want = f"{self.text(params)}\n{params['name']}: {person(params['name'])['number']}"
        if state_of(state, markor.MarkorState)["files"].get(self.path(params)) == want:
            return wait()
        return markor_write(self.path(params), want, elements, state)


# -- Calendar -> Contacts -> Gmail ------------------------------------------------------------------------------------
class MeetingNumberToEmailTemplate(WorldTemplate):
    """Email {to} the phone number of the person I meet on {day} (their name in the event's title)."""

    name, max_steps, split_key = "cross_meeting_number_to_email", 31, "name"
    apps = (CAL, P.PACKAGE, G.PACKAGE)
    phrasings = ("Email {to} the phone number of the person I'm meeting on {day}",
                 "Who do I meet on {day}? Find their number in my contacts and email it to {to}",
                 "{to} needs the number of the person from my meeting on {day}: send it by email")

    def grid(self) -> list[dict[str, Any]]:
        """The person met, a day, who met a week later, the recipient."""
        out = []
        for i in range(30):
            who, other, to = names(f"meet_number:{i}", 3)
            days = nth(DAYS, i)
            out.append({"name": who, "other": other, "to": to, "date": iso(days), "day": C.long_date(iso(days)),
                        "later": iso(days + 7), "start": nth(STARTS, i), "phrasing": i})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The meeting and a later one; both people and a namesake in Contacts; {to} among Gmail's contacts."""
        meet, later = f"Meeting with {params['name']}", f"Meeting with {params['other']}"
        return {CAL: {"absent": [meet, later], "events": [spec(meet, params["date"], params["start"]),
                                                          spec(later, params["later"], params["start"])]},
                **in_contacts(params["name"], params["other"], namesake(params["name"]), emails=False),
                G.PACKAGE: {"contacts": mail_contacts(params["to"])}}

    def check(self, params: Params, state: State) -> bool:
        """The only email sent: new, to {to}, with the person's number (no other's); Calendar and Contacts as set."""
        m = one_mail(state, "new", [person(params["to"])["email"]])
        others = [person(n)["number"] for n in (params["other"], namesake(params["name"]))]
        return (m is not None and says_number(f"{m['subject']} {m['body']}", person(params["name"])["number"], others)
                and untouched(state) and contacts_untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the meeting, then the person's card, then email the number."""
        e = the(state, f"Meeting with {params['name']}", params["date"])
        if e is not None and e["id"] not in state_of(state, C.CalendarState)["opened"]:
            return to_event(e, elements, state) or wait()
        if not looked_up(state, params["name"]):
            return look_up(params["name"], elements, state) or wait()
        p = person(params["name"])
        return new_email([person(params["to"])], f"{p['name']}'s number", p["number"], elements, state)


# -- Joplin -> Messages ---------------------------------------------------------------------------------------------
class JoplinCodeToTextTemplate(WorldTemplate):
    """Text {name} the door code kept in Joplin note {title}; the note "{title} (old)" holds the previous code."""

    name, max_steps = "cross_joplin_code_to_text", 20
    apps = (J.PACKAGE, M.PACKAGE)
    phrasings = ('Text {name} the door code from my Joplin note "{title}"',
                 "{name} needs the code for the door: it is in the Joplin note {title}. Send it to them by SMS",
                 'Look up the code in "{title}" in Joplin and message it to {name}')

    def grid(self) -> list[dict[str, Any]]:
        """Every place three times: a code, the old code, who gets it."""
        return [{"title": f"{place} door code", "code": f"{4000 + (97 * i + 31 * k) % 6000}",
                 "old": f"{1000 + (53 * i + 17 * k) % 3000}", "name": names(f"code:{place}:{k}", 1)[0],
                 "phrasing": i + k}
                for i, place in enumerate(CODE_PLACES) for k in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note, its old twin, in notebook Home; a conversation with {name}."""
        notes = [{"title": f"{params['title']} (old)", "body": f"Code until May: {params['old']}", "folder": "Home"},
                 {"title": params["title"], "body": f"The code is {params['code']}, then press #.", "folder": "Home"}]
        p = person(params["name"])
        return {J.PACKAGE: {"notes": notes},
                M.PACKAGE: {"threads": [conversation(p, ("What's the code again?",), False)]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to {name}, holding the code (not the old one); no note changed."""
        sent = state_of(state, M.MessagesState)["sent"]
        return (texts_ok(state, [(params["name"], params["code"])], contains=True)
                and not holds(sent[0]["text"], params["old"]) and only_edits(state, []))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note in Joplin, then text the code."""
        note = find_note(state, params["title"])
        if note is not None and state_of(state, J.JoplinState)["last_opened"] != note["id"]:
            return to_note(params["title"], elements, state) or wait()
        return send_text(person(params["name"]), params["code"], elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    EventPlaceToEmailTemplate(), NoteListToEmailTemplate(), TextedNumberToContactTemplate(),
    AlarmBeforeFirstEventTemplate(), CallBirthdayContactTemplate(), TextMissedCallerTemplate(),
    TextedPlaceToEventTemplate(), EmailRequestToTaskTemplate(), UnreadEmailsToTodosTemplate(),
    ContactNumberToNoteTemplate(), MeetingNumberToEmailTemplate(), JoplinCodeToTextTemplate(),
)
"""The cross-app people and planning templates of the World suite, won by the state."""
