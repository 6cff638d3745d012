"""World-suite tasks over Joplin: count a notebook's open to-dos and name a checklist's unticked item (answers), add a
to-do to a notebook, move a note, tick a to-do done, and carry a Wi-Fi password from a Joplin note into Markor.

Every task puts its notes on the phone under fixed titles in notebooks of its own (`initial`), beside the seeded ones
(whose notebooks and titles are others), with a twin of a similar title where a task names one note (the near miss).
Checks read Joplin's state and its change log, so touching the twin, or anything else, fails. Splits hold out titles
(`split_of`). Experts read the UI elements, open notes through Search and get past pop-ups (`into_app`).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps import markor
from android_gym.sim.apps.joplin_data import checklist
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import fill, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.joplin_expert import (
    JOP,
    find_note,
    joplin_state,
    note_spec,
    only_edits,
    to_list,
    to_note,
)
from android_gym.tasks.world.notes_expert import markor_create, markor_write, only_touched

NOTEBOOKS = ("Garden Club", "House Move", "Wedding Prep", "Book Club", "Side Hustle", "Volunteering", "Car Care",
             "Language Course")
"""Task notebooks: none is a seeded one (`joplin_data.FOLDERS`)."""
TWINS = (("Order the cake", "Order the cupcakes"), ("Book the venue", "Book the caterer"),
         ("Renew car insurance", "Renew home insurance"), ("Return the drill", "Return the ladder"),
         ("Email the landlord", "Email the letting agent"), ("Buy seed trays", "Buy seed potatoes"),
         ("Print the flyers", "Print the posters"), ("Call the plumber", "Call the electrician"),
         ("Pick up the keys", "Pick up the parcel"), ("Send the invitations", "Send the thank-you cards"),
         ("Back up the laptop", "Back up the phone"), ("Cancel the gym plan", "Cancel the magazine plan"),
         ("Water the seedlings", "Water the hanging baskets"), ("Pay the deposit", "Pay the final invoice"),
         ("Check tyre pressure", "Check the oil level"), ("Practise irregular verbs", "Practise the dialogues"))
"""Task note titles, each with a twin (the near miss)."""
CHECKLISTS = (("Camping Gear", ("tent", "sleeping bag", "headlamp", "camp stove")),
              ("Party Supplies", ("balloons", "paper plates", "candles", "napkins")),
              ("Moving Boxes", ("kitchen", "books", "bathroom", "garage")),
              ("Beach Bag", ("sunscreen", "towel", "water bottle", "hat")),
              ("School Supplies", ("notebooks", "pencils", "calculator", "backpack")),
              ("Baby Shower", ("gift wrap", "card", "cupcakes", "games")),
              ("Bike Repair", ("inner tube", "tyre levers", "chain oil", "pump")),
              ("Picnic Basket", ("sandwiches", "grapes", "blanket", "lemonade")))
"""Checklist notes: title and items; the twin is "<title> (old)" with another item left open."""
NETWORKS = ("Cabin", "Office Guest", "Studio", "Library", "Cafe", "Hotel", "Gym", "Parents'")
WORDS = ("maple", "harbor", "violet", "copper", "meadow", "falcon", "cedar", "pebble")


def _twins(variants: int) -> list[dict[str, Any]]:
    """Every twin pair `variants` times, with a notebook and another notebook (the move target) rotating."""
    return [{"title": t, "twin": w, "folder": nth(NOTEBOOKS, i + k), "other": nth(NOTEBOOKS, i + k + 3),
             "phrasing": i + k} for i, (t, w) in enumerate(TWINS) for k in range(variants)]


class OpenTodoCountTemplate(WorldTemplate):
    """How many open to-dos does notebook {folder} hold? Done to-dos and plain notes sit beside them."""

    name, max_steps, split_key = "joplin_open_todo_count", 10, "key"
    outcome, apps = "answer", (JOP,)
    phrasings = ('How many open to-dos are in my Joplin notebook "{folder}"?',
                 "In Joplin, how many to-dos in the {folder} notebook are not done yet?",
                 "Count the unfinished to-dos in the {folder} notebook of Joplin")

    def grid(self) -> list[dict[str, Any]]:
        """Every notebook with 1-5 open to-dos, 1-2 done ones and 1-2 notes (titles drawn from the twins)."""
        out = []
        for i, folder in enumerate(NOTEBOOKS):
            for k in range(5):
                out.append({"folder": folder, "key": f"{folder}:{k}", "open": 1 + (i + k) % 5, "done": 1 + k % 2,
                            "plain": 1 + (i + 2 * k) % 2, "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The notebook's notes: open to-dos, done to-dos, plain notes (a done to-do is the near miss)."""
        titles = [t for pair in TWINS[params["phrasing"] % 8:] for t in pair]
        n_open, n_done = params["open"], params["done"]
        notes = [note_spec(t, params["folder"], todo=True) for t in titles[:n_open]]
        notes += [note_spec(t, params["folder"], todo=True, done=True) for t in titles[n_open:n_open + n_done]]
        notes += [note_spec(t, params["folder"], body="Notes for later.")
                  for t in titles[n_open + n_done:n_open + n_done + params["plain"]]]
        return {JOP: {"notes": notes}}

    def answer(self, params: Params, state: State) -> str | None:
        """The notebook's open to-dos, counted while nothing changed."""
        j = joplin_state(state)
        if j["edits"]:
            return None
        return str(sum(n["is_todo"] and not n["todo_completed"] for n in j["notes"] if n["folder"] == params["folder"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The notebook's list (every row fits one screen): count the unticked boxes."""
        step = to_list(params["folder"], elements, state)
        if step is not None:
            return step
        boxes = [e for e in elements if e.rid == J.ROW_CHECK_RID and not e.checked]
        return Action(ActionType.STATUS_TASK_COMPLETE, text=str(len(boxes)))


class UntickedItemTemplate(WorldTemplate):
    """Which item of checklist note {title} is not ticked? Its twin "{title} (old)" has another one open."""

    name, max_steps, split_key = "joplin_unticked_item", 11, "title"
    outcome, apps = "answer", (JOP,)
    phrasings = ('Which item of the checklist in my Joplin note "{title}" is still unticked?',
                 "In Joplin, what is left to tick on the {title} checklist?",
                 "Look at my {title} note in Joplin: which checklist item is not done yet?")

    def grid(self) -> list[dict[str, Any]]:
        """Every checklist with each item left open once."""
        return [{"title": t, "left": k, "folder": nth(NOTEBOOKS, i), "phrasing": i + k}
                for i, (t, items) in enumerate(CHECKLISTS) for k in range(len(items))]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note with one item open, and its twin with the next one open."""
        items = dict(CHECKLISTS)[params["title"]]

        def body(left: int) -> str:
            return "\n".join(f"- [{' ' if k == left else 'x'}] {item}" for k, item in enumerate(items))

        return {JOP: {"notes": [note_spec(f"{params['title']} (old)", params["folder"], body((params["left"] + 1) % 4)),
                                note_spec(params["title"], params["folder"], body(params["left"]))]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The note's one unticked item, while nothing changed."""
        note = find_note(state, params["title"])
        if note is None or joplin_state(state)["edits"]:
            return None
        left = [text for text, ticked in checklist(note["body"]) if not ticked]
        return left[0] if len(left) == 1 else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the note, open it, answer with its unchecked item."""
        step = to_note(params["title"], elements, state)
        if step is not None:
            return step
        return answer_with(next((e for e in elements if e.rid == J.ITEM_RID and not e.checked), None))


class NewTodoTemplate(WorldTemplate):
    """Add a to-do {title} to notebook {folder} (its twin is a to-do there already)."""

    name, max_steps, split_key = "joplin_new_todo", 14, "title"
    apps = (JOP,)
    phrasings = ('In Joplin, add a to-do "{title}" to the {folder} notebook',
                 'Create a new to-do called "{title}" in my Joplin notebook {folder}',
                 "Put {title} on my to-dos in the {folder} notebook of Joplin")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice."""
        return _twins(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The notebook with the twin to-do in it, and the other notebook."""
        return {JOP: {"notes": [note_spec(params["twin"], params["folder"], todo=True),
                                note_spec("Ideas to sort", params["other"], "Sort these later.")]}}

    def check(self, params: Params, state: State) -> bool:
        """One change: the to-do created, open, in that notebook, titled exactly."""
        note = find_note(state, params["title"])
        return (only_edits(state, [(params["title"], "created")]) and note is not None and note["is_todo"]
                and not note["todo_completed"] and note["folder"] == params["folder"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The notebook, Add, New to-do, the title, Save."""
        if find_note(state, params["title"]) is not None:
            return wait()
        screen = state["screen"]
        if state["foreground"] == JOP and screen["name"] == "edit" and not state.get("dialog"):
            return fill(elements, state, J.TITLE_INPUT_RID, params["title"]) or press(elements, desc="Save")
        if (state["foreground"] == JOP and screen["name"] == "notes" and screen["args"]["fab"]
                and screen["args"]["folder"] == params["folder"] and not state.get("dialog")):
            return press(elements, text="New to-do")
        return to_list(params["folder"], elements, state) or press(elements, desc=J.FAB_DESC)


class MoveNoteTemplate(WorldTemplate):
    """Move note {title} to notebook {other}; its twin stays where both were."""

    name, max_steps, split_key = "joplin_move_note", 12, "title"
    apps = (JOP,)
    phrasings = ('Move my Joplin note "{title}" to the {other} notebook',
                 "In Joplin, put the note {title} into the notebook {other}",
                 'The note "{title}" belongs in {other}: move it there in Joplin')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice."""
        return _twins(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note and its twin in {folder}; {other} with a note of its own."""
        return {JOP: {"notes": [note_spec("Ideas to sort", params["other"], "Sort these later."),
                                note_spec(params["twin"], params["folder"], "Ask first."),
                                note_spec(params["title"], params["folder"], "Do this week.")]}}

    def check(self, params: Params, state: State) -> bool:
        """One change: the note moved to {other}."""
        note = find_note(state, params["title"])
        return (only_edits(state, [(params["title"], "moved")]) and note is not None
                and note["folder"] == params["other"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the note, open it, its notebook, the target."""
        note = find_note(state, params["title"])
        if note is not None and note["folder"] == params["other"]:
            return wait()
        if state["foreground"] == JOP and state["screen"]["name"] == "move" and not state.get("dialog"):
            return press(elements, text=params["other"], clickable=True)
        return to_note(params["title"], elements, state) or press(elements, rid=J.NOTEBOOK_RID)


class CompleteTodoTemplate(WorldTemplate):
    """Tick to-do {title} done; its twin, open too, stays open."""

    name, max_steps, split_key = "joplin_complete_todo", 10, "title"
    apps = (JOP,)
    phrasings = ('Mark the to-do "{title}" as done in Joplin', "In Joplin, tick off my to-do {title}",
                 "I finished {title}: check it off in Joplin")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice."""
        return _twins(2)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The to-do and its twin, both open."""
        return {JOP: {"notes": [note_spec(params["twin"], params["folder"], todo=True),
                                note_spec(params["title"], params["folder"], todo=True)]}}

    def check(self, params: Params, state: State) -> bool:
        """One change: the to-do completed."""
        note = find_note(state, params["title"])
        return only_edits(state, [(params["title"], "completed")]) and note is not None and note["todo_completed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the to-do, open it, tick Done."""
        note = find_note(state, params["title"])
        if note is not None and note["todo_completed"]:
            return wait()
        return to_note(params["title"], elements, state) or press(elements, rid=J.DONE_RID)


class PasswordToMarkorTemplate(WorldTemplate):
    """Copy the Wi-Fi password of Joplin note "{network} Wi-Fi" into a new Markor note {file}."""

    name, max_steps, split_key = "joplin_password_to_markor", 22, "title"
    apps = (JOP, markor.PACKAGE)
    phrasings = ('Copy the password from my Joplin note "{title}" into a new Markor note called {file}',
                 "Look up the {title} password in Joplin and save it alone in a Markor note {file}",
                 "Create a Markor note {file} that holds the password written in Joplin's {title} note")

    def grid(self) -> list[dict[str, Any]]:
        """Every network thrice, with a password and a file name."""
        out = []
        for i, network in enumerate(NETWORKS):
            for k in range(3):
                word = nth(WORDS, i + 3 * k)
                out.append({"title": f"{network} Wi-Fi", "password": f"{word}-{1000 + (97 * i + 31 * k) % 9000}",
                            "file": f"{nth(('wifi', 'password', 'network'), k)}_{i}{k}.md", "phrasing": i + k,
                            "network": network})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note, its twin "<title> (old)" with another password, no such Markor file."""
        old = params["password"].split("-")[0] + "-0000"
        return {JOP: {"notes": [note_spec(f"{params['title']} (old)", "Home Network",
                                          f"Network: {params['network']}\nPassword: {old}"),
                                note_spec(params["title"], "Home Network",
                                          f"Network: {params['network']}\nPassword: {params['password']}")]},
                markor.PACKAGE: {"absent": [params["file"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The Markor note holds the password alone; no other Markor note edited; Joplin unchanged."""
        m = state_of(state, markor.MarkorState)
        return (m["files"].get(params["file"], "").strip() == params["password"]
                and only_touched(m["edits"], {params["file"]}) and only_edits(state, []))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the Joplin note (the password shows), then create the Markor note and type it."""
        note = find_note(state, params["title"])
        if note is None or joplin_state(state)["last_opened"] != note["id"]:
            return to_note(params["title"], elements, state) or wait()
        password = note["body"].split("Password: ")[-1].strip()
        if params["file"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["file"], password, elements, state)
        return markor_create("", params["file"], "Markdown", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    OpenTodoCountTemplate(), UntickedItemTemplate(), NewTodoTemplate(), MoveNoteTemplate(), CompleteTodoTemplate(),
    PasswordToMarkorTemplate(),
)
"""The Joplin templates of the world suite."""
