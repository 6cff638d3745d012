"""AndroidWorld's Joplin questions (information retrieval over net.cozic.joplin): `NotesRecipeIngredientCount`,
`NotesMeetingAttendeeCount`, `NotesIsTodo` and `NotesTodoItemCount`.

AndroidWorld empties Joplin's database, then inserts the task's notes (`tasks.textproto`: a recipe in "Recipes" whose
body lists "<quantity> <ingredient>"; a meeting in "Meeting Notes" whose body says how many attended; a note that is a
to-do or not, in a notebook; three to-dos in a notebook) and 100 random notes (a notebook of twelve, the task's own 30%
of the time, a title and body of that notebook's list, a to-do half the time, done half of those) that do not meet all
of the task's exclusion conditions, shuffled. It compares the final answer: a quantity or "True"/"False" within
difflib's 0.9 (case ignored), a count as a number. Here the notes go into the sim's Joplin (`clear`: the seeded world
goes first); the random notes are drawn from `joplin_data.POOL` (our own notes in the same twelve notebooks) with a
seed each instance draws, and the task notes' titles, bodies and values are lists of our own of the same kinds. A
quantity must match exactly, case and spacing aside (the goal asks for the recipe's exact format; difflib would pass
"2 cup" for "2 cups"); "True"/"False" as AndroidWorld matches them. The answer is read from Joplin's state (None once a
note was changed). No date is involved, so nothing is rebased. The expert opens the note through Search, or the
notebook from the sidebar, reads the screen and answers.
"""  # noqa: D205, D209

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps.joplin_data import FOLDERS, POOL
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, fuzzy_match, pick
from android_gym.tasks.expert import find, swipe_up
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.joplin_expert import JOP, joplin_state, note_spec, to_list, to_note

NOISE, OWN_FOLDER = 100, 0.3
"""Random notes per task, and how often one goes into a notebook of the task's notes."""
CATEGORIES = tuple(f for f in FOLDERS if f not in ("Tasks", "Meeting Notes"))
"""The notebooks `NotesIsTodo` and `NotesTodoItemCount` draw (ten of the twelve)."""
RECIPES = ("Banana Oat Pancakes", "Mushroom Risotto", "Carrot Cake", "Chicken Fajitas", "Veggie Lasagna", "Beef Chili",
           "Pesto Pasta", "Tuna Nicoise", "Fish Tacos", "Berry Smoothie Bowl")
QUANTITIES = ("1 cup", "2 cups", "1/2 cup", "1/3 cup", "3/4 cup", "1 tablespoon", "3 tablespoons", "1/2 teaspoon",
              "1 teaspoon", "2 teaspoons")
INGREDIENTS = ("flaxseed meal", "oat bran", "cacao nibs", "sunflower seeds", "pumpkin seeds", "psyllium husk",
               "nutritional yeast", "coconut flour", "brown rice flour", "carob powder", "sorghum flour",
               "dried cranberries", "poppy seeds", "amaranth")
RECIPE_BODIES = (
    "Ingredients:\n- 2 cups spelt flour\n- {quantity} {ingredient}\n- 1 teaspoon baking soda\n- 1 cup buttermilk\n\n"
    "Steps:\n1. Heat the oven to 180°C.\n2. Whisk the dry ingredients, then fold in the buttermilk.\n"
    "3. Bake for 30 minutes.\n",
    "Ingredients:\n- {quantity} {ingredient}\n- 1 cup arborio rice\n- 3 cups warm stock\n- 2 tablespoons butter\n\n"
    "Steps:\n1. Toast the rice in the butter.\n2. Add the stock a ladle at a time, stirring.\n"
    "3. Stir the rest in at the end and rest for 2 minutes.\n",
    "Ingredients:\n- 1 pound ground beef\n- 1 can kidney beans\n- 1/2 cup chopped onion\n- {quantity} {ingredient}\n"
    "- 2 teaspoons cumin\n\nSteps:\n1. Brown the beef with the onion.\n2. Add the beans and spices.\n"
    "3. Simmer for 40 minutes.\n",
    "Ingredients:\n- 3 eggs\n- 1 cup grated carrot\n- 3/4 cup light brown sugar\n- 1/2 cup vegetable oil\n"
    "- {quantity} {ingredient}\n\nSteps:\n1. Beat the eggs with the sugar and oil.\n2. Stir in the carrot and the "
    "rest.\n3. Bake in a lined tin for 45 minutes.\n",
    "Ingredients:\n- 8 ounces pasta\n- 1/2 cup basil pesto\n- {quantity} {ingredient}\n- 1/4 cup pine nuts\n\n"
    "Steps:\n1. Cook the pasta.\n2. Toss with the pesto and the rest.\n3. Serve warm.\n",
    "Ingredients:\n- 1 cup frozen berries\n- 1 banana\n- 1/2 cup almond milk\n- {quantity} {ingredient}\n\n"
    "Steps:\n1. Blend until thick.\n2. Top with sliced fruit.\n",
)
MEETINGS = ("Weekly Ops Standup", "Q3 Planning Session", "Hiring Committee", "Design Sprint Kickoff",
            "Partner Check-in", "Annual Budget Review", "Support Escalation Review", "Marketing Sync",
            "Board Prep Meeting", "Security Review", "Launch Retrospective", "Data Team Sync",
            "Customer Advisory Panel", "Quarterly Town Hall", "Onboarding Process Review", "Roadmap Review")
ATTENDEES = tuple(str(n) for n in range(5, 101, 5))
MEETING_BODIES = (
    "Summary:\n- Reviewed open tickets\n- Agreed on owners for each\n- {count} people attended\n",
    "Minutes:\n- Walked through last quarter's numbers\n- Set targets for the next one\n- {count} attendees joined\n",
    "Notes:\n- Demoed the prototype\n- Collected questions for the FAQ\n- {count} participants took part\n",
    "Recap:\n- Compared vendor offers\n- Shortlisted two\n- {count} colleagues were there\n",
    "Agenda covered:\n- Hiring pipeline\n- Office move dates\n- {count} people were present\n",
    "Outcomes:\n- Picked the launch date\n- Split the checklist between teams\n- {count} attendees took part\n",
)
COUNT_LINE = re.compile(r"(\d+) (people|attendees|participants|colleagues)\b")
TODO_TITLES = ("Shopping Run", "Plan the Week", "Call the Dentist", "Team Offsite Ideas", "Reading List",
               "Car Service", "Birthday Party", "Study Plan", "Home Repairs", "Vacation Ideas")
TODO_BODIES = ("Pick up bread, apples and coffee on the way home.", "Block mornings for focused work.",
               "Ask about the cleaning appointment next month.", "A day at the lake, or a cooking class?",
               "Three novels and one history book before summer.", "Book the yearly inspection and an oil change.",
               "Order balloons and confirm the guest list.", "Revise two chapters a day until the exam.",
               "Fix the squeaky door and repaint the fence.", "Compare flights to Porto and Split.")


def noise_notes(seed: int, folders: list[str], excluded: Any) -> list[dict[str, Any]]:
    """`NOISE` random notes as AndroidWorld draws them, from `random.Random(seed)`: a notebook (one of `folders` 30%
    of the time), a note of its list, a to-do half the time, done half of those; a note `excluded` holds of is drawn
    again."""  # noqa: D205, D209
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < NOISE:
        folder = pick(rng, folders) if rng.random() < OWN_FOLDER else pick(rng, FOLDERS)
        todo = rng.random() < 0.5
        done = todo and rng.random() < 0.5
        title, body = pick(rng, POOL[folder])
        note = note_spec(title, folder, body, todo, done)
        if not excluded(note):
            out.append(note)
    return out


def number_match(given: str, truth: str) -> bool:
    """AndroidWorld's number match: the answer read as a number equals the truth.

    >>> [number_match(a, "25") for a in ("25", " 25.0", "twenty-five", "25 people")]
    [True, True, False, False]
    """
    try:
        return float(given.strip()) == float(truth)
    except ValueError:
        return False


class _NotesQuestion(AndroidWorldTemplate):
    """Shared: Joplin emptied and filled with the task's notes and the random ones, shuffled."""

    apps, outcome = (JOP,), "answer"

    def targets(self, params: Params) -> list[dict[str, Any]]:
        """The task's own notes."""
        raise NotImplementedError

    def excluded(self, params: Params, note: Mapping[str, Any]) -> bool:
        """Whether a random note meets all of AndroidWorld's exclusion conditions (then it is drawn again)."""
        raise NotImplementedError

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's notes and `NOISE` random ones, in a shuffled order."""
        targets = self.targets(params)
        notes = targets + noise_notes(params["noise"], [n["folder"] for n in targets],
                                      lambda n: self.excluded(params, n))
        random.Random(params["noise"] + 1).shuffle(notes)
        return {JOP: {"clear": True, "notes": notes}}

    def target(self, params: Params, state: State) -> J.NoteState | None:
        """The note the question is about, None once any note was changed."""
        j = joplin_state(state)
        if j["edits"]:
            return None
        return next((n for n in j["notes"] if n["title"] == params["title"]), None)


class NotesRecipeIngredientCount(_NotesQuestion):
    """How much {ingredient} does recipe {title} take: its line in the recipe's body."""

    name, split_key, max_steps = "NotesRecipeIngredientCount", "title", 10
    goal_template = ("What quantity of {ingredient} do I need for the recipe '{title}' in the Joplin app? Express "
                     "your answer in the format <amount> <unit> where both the amount and unit exactly match the "
                     "format in the recipe.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A title, a quantity, an ingredient and a body, each drawn alone; a seed for the random notes."""
        return {"title": pick(rng, RECIPES), "ingredient_quantity": pick(rng, QUANTITIES),
                "ingredient": pick(rng, INGREDIENTS), "body": rng.randrange(len(RECIPE_BODIES)),
                "noise": rng.randrange(2**31)}

    def targets(self, params: Params) -> list[dict[str, Any]]:
        """The recipe, in Recipes."""
        body = RECIPE_BODIES[params["body"]].format(quantity=params["ingredient_quantity"],
                                                    ingredient=params["ingredient"])
        return [note_spec(params["title"], "Recipes", body)]

    def excluded(self, params: Params, note: Mapping[str, Any]) -> bool:
        """A title holding the recipe's (case ignored)."""
        return params["title"].lower() in note["title"].lower()

    def answer(self, params: Params, state: State) -> str | None:
        """The quantity before the ingredient on the recipe's line."""
        note = self.target(params, state)
        if note is None:
            return None
        line = next((x for x in note["body"].split("\n") if x.endswith(f" {params['ingredient']}")), None)
        return None if line is None else line.removeprefix("- ")[:-len(params["ingredient"]) - 1]

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same amount and unit, case and spacing aside.

        >>> t = NotesRecipeIngredientCount()
        >>> [t.answer_matches({}, a, "2 cups") for a in ("2 cups", " 2  Cups ", "2 cup", "2", "1/2 cups")]
        [True, True, False, False, False]
        """
        return " ".join(given.lower().split()) == " ".join(truth.lower().split())

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the recipe, open it, answer with the amount on the ingredient's line."""
        step = to_note(params["title"], elements, state)
        if step is not None:
            return step
        line = next((e for e in elements if e.rid == J.BODY_RID and e.text.endswith(f" {params['ingredient']}")),
                    None)
        if line is None:
            return swipe_up()
        amount = line.text.removeprefix("- ")[:-len(params["ingredient"]) - 1]
        return Action(ActionType.STATUS_TASK_COMPLETE, text=amount)


class NotesMeetingAttendeeCount(_NotesQuestion):
    """How many attended meeting {title}: the count its body gives."""

    name, split_key, max_steps = "NotesMeetingAttendeeCount", "title", 10
    goal_template = ("How many attendees were present in the meeting titled '{title}' in the Joplin app? Express "
                     "your answer as just a single number.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A title, a count and a body, each drawn alone; a seed for the random notes."""
        return {"title": pick(rng, MEETINGS), "attendee_count": pick(rng, ATTENDEES),
                "body": rng.randrange(len(MEETING_BODIES)), "noise": rng.randrange(2**31)}

    def targets(self, params: Params) -> list[dict[str, Any]]:
        """The meeting, in Meeting Notes."""
        body = MEETING_BODIES[params["body"]].format(count=params["attendee_count"])
        return [note_spec(params["title"], "Meeting Notes", body)]

    def excluded(self, params: Params, note: Mapping[str, Any]) -> bool:
        """A title holding the meeting's (case ignored)."""
        return params["title"].lower() in note["title"].lower()

    def answer(self, params: Params, state: State) -> str | None:
        """The count the meeting's body gives."""
        note = self.target(params, state)
        found = COUNT_LINE.search(note["body"]) if note is not None else None
        return found.group(1) if found else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's number match (`number_match`)."""
        return number_match(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the meeting, open it, answer with the count on its attendance line."""
        step = to_note(params["title"], elements, state)
        if step is not None:
            return step
        found = next((m for e in elements if e.rid == J.BODY_RID and (m := COUNT_LINE.search(e.text))), None)
        return swipe_up() if found is None else Action(ActionType.STATUS_TASK_COMPLETE, text=found.group(1))


class NotesIsTodo(_NotesQuestion):
    """Is note {title} a to-do: "True" or "False" (no random note has its title)."""

    name, split_key, max_steps = "NotesIsTodo", "title", 10
    goal_template = ("Is the note titled '{title}' in the Joplin app marked as a todo item? Respond with either "
                     "'True' if it is a todo or 'False' if not.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A title, whether it is a to-do, a body and a notebook, each drawn alone; a seed for the random notes."""
        return {"title": pick(rng, TODO_TITLES), "is_todo": pick(rng, ("True", "False")),
                "body": pick(rng, TODO_BODIES), "folder": pick(rng, CATEGORIES), "noise": rng.randrange(2**31)}

    def targets(self, params: Params) -> list[dict[str, Any]]:
        """The note, open when a to-do."""
        return [note_spec(params["title"], params["folder"], params["body"], params["is_todo"] == "True")]

    def excluded(self, params: Params, note: Mapping[str, Any]) -> bool:
        """The same title (case ignored)."""
        return note["title"].lower() == params["title"].lower()

    def answer(self, params: Params, state: State) -> str | None:
        """"True" when the note is a to-do, else "False"."""
        note = self.target(params, state)
        return None if note is None else str(note["is_todo"])

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's fuzzy match, which here means the word, case ignored."""
        return fuzzy_match(given.strip(), truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the note, open it: a to-do shows its Done box."""
        step = to_note(params["title"], elements, state)
        if step is not None:
            return step
        return Action(ActionType.STATUS_TASK_COMPLETE, text=str(find(elements, rid=J.DONE_RID) is not None))


class NotesTodoItemCount(_NotesQuestion):
    """How many to-dos does notebook {folder} hold: its three (no random note in it is a to-do)."""

    name, split_key, max_steps = "NotesTodoItemCount", "folder", 9
    goal_template = ("How many to-dos do I have in the '{folder}' folder in the Joplin app? Express your answer as "
                     "just a single number.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A notebook; three titles and three bodies drawn without replacement; a seed for the random notes."""
        return {"folder": pick(rng, CATEGORIES), "titles": tuple(rng.sample(TODO_TITLES, 3)),
                "bodies": tuple(rng.sample(TODO_BODIES, 3)), "noise": rng.randrange(2**31)}

    def targets(self, params: Params) -> list[dict[str, Any]]:
        """Three open to-dos in the notebook."""
        return [note_spec(t, params["folder"], b, True) for t, b in zip(params["titles"], params["bodies"],
                                                                        strict=True)]

    def excluded(self, params: Params, note: Mapping[str, Any]) -> bool:
        """A to-do in the notebook."""
        return note["is_todo"] and note["folder"] == params["folder"]

    def answer(self, params: Params, state: State) -> str | None:
        """The notebook's to-dos (done or not), counted while no note was changed."""
        j = joplin_state(state)
        return None if j["edits"] else str(sum(n["is_todo"] for n in j["notes"] if n["folder"] == params["folder"]))

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """AndroidWorld's number match (`number_match`)."""
        return number_match(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The notebook from the sidebar: its open to-dos head the list; count their boxes."""
        step = to_list(params["folder"], elements, state)
        if step is not None:
            return step
        boxes = [e for e in elements if e.rid == J.ROW_CHECK_RID]
        return Action(ActionType.STATUS_TASK_COMPLETE, text=str(len(boxes)))


TEMPLATES = (NotesRecipeIngredientCount(), NotesMeetingAttendeeCount(), NotesIsTodo(), NotesTodoItemCount())
