"""World-suite tasks over readable pictures in Photos (issue 48): a receipt's total and its printed date answered,
a receipt logged in Pro Expense, and a picture saved as a copy to a folder of the phone's storage.

Every task puts two receipt photos on one June day (`pictures_expert.receipts_initial`): the one the goal names by
day and time, and a twin two hours away from another shop, of another total, bought on another day (the near miss).
A receipt's text is in the viewer's pixels only, so an agent opens the photo and reads the screenshot; experts open
it too (`read_picture`), then act on what the state says it shows. Answers are read from Photos' state while Photos
changed nothing; the Pro Expense task wants exactly one expense added, the copy task exactly one copy. Splits are on
the day and time (`key`).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import files
from android_gym.sim.apps.gallery_prints import printed_date
from android_gym.tasks.base import TaskTemplate, normalise_answer
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth
from android_gym.tasks.world.expenses_expert import EXP, add_step, expense
from android_gym.tasks.world.media_expert import PHOTOS, open_photo, photos_state
from android_gym.tasks.world.pictures_expert import (
    copy_step,
    grid,
    photo_name,
    read_picture,
    receipt_of,
    receipts_initial,
    total_text,
    untouched,
)

DATE_FORMATS = ("%B %d, %Y", "%B %d %Y", "%b %d, %Y", "%b %d %Y", "%d %B %Y", "%Y-%m-%d", "%m/%d/%Y")
"""The ways an answer may write a date (the receipt prints "May 28, 2026")."""


def answer_now(text: str) -> Action:
    """Declare the task complete with `text` as the answer."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


def as_date(text: str) -> datetime.date | None:
    """The day `text` writes in one of `DATE_FORMATS` (outer spaces and a final period aside), else None.

    >>> as_date("May 28, 2026"), as_date("2026-05-28") == as_date("05/28/2026"), as_date("May 2026")
    (datetime.date(2026, 5, 28), True, None)
    """
    text = text.strip().rstrip(".")
    for form in DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None


class _ReceiptTemplate(WorldTemplate):
    """The receipt photographed on {when} and its twin; split on the day and time."""

    split_key = "key"
    apps: tuple[str, ...] = (PHOTOS,)

    def grid(self) -> list[dict[str, Any]]:
        """`pictures_expert.grid` for this template's name."""
        return grid(self.name)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The two receipt photos in Photos."""
        return {PHOTOS: receipts_initial(params)}


class ReceiptTotalTemplate(_ReceiptTemplate):
    """What is the total of the receipt photographed on {when}? Answered as it prints it ("$16.41")."""

    name, max_steps, outcome = "photos_receipt_total", 11, "answer"
    phrasings = ("What is the total on the receipt I photographed on {when}?",
                 "Look at my photo from {when} in Photos: how much was the receipt's total?",
                 "How much did I pay in total on the receipt in my {when} photo?")

    def answer(self, params: Params, state: State) -> str | None:
        """The receipt's total as printed, while Photos changed nothing."""
        return total_text(receipt_of(params)) if untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the photo, then answer with the total it shows."""
        return read_picture(params, elements, state) or answer_now(total_text(receipt_of(params)))


class ReceiptDateTemplate(_ReceiptTemplate):
    """Which date does the receipt photographed on {when} print? Any usual way of writing that day matches."""

    name, max_steps, outcome = "photos_receipt_date", 11, "answer"
    phrasings = ("What purchase date is printed on the receipt I photographed on {when}?",
                 "Check the receipt in my photo from {when}: on which date was it issued?",
                 "My {when} photo is of a receipt. What date does the receipt show?")

    def answer(self, params: Params, state: State) -> str | None:
        """The printed date ("May 28, 2026"), while Photos changed nothing."""
        return printed_date(receipt_of(params).date) if untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same day, however written (`DATE_FORMATS`), or the same words."""
        day = as_date(given)
        return day == as_date(truth) if day is not None else normalise_answer(given) == normalise_answer(truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the photo, then answer with the date it prints."""
        return read_picture(params, elements, state) or answer_now(printed_date(receipt_of(params).date))


class ReceiptToExpenseTemplate(_ReceiptTemplate):
    """Log the receipt photographed on {when} in Pro Expense: named after the shop, its total, category {category}."""

    name, max_steps = "photos_receipt_to_expense", 25
    apps = (PHOTOS, EXP)
    phrasings = ("Add the receipt I photographed on {when} to Pro Expense as a {category} expense named after the "
                 "shop, for the receipt's total",
                 "Log my {when} receipt photo in Pro Expense: the shop's name as the expense name, the total as the "
                 "amount, category {category}",
                 "In Pro Expense, record the expense from the receipt in my photo of {when} (name: the shop, amount: "
                 "its total, category: {category})")

    def grid(self) -> list[dict[str, Any]]:
        """The receipts' grid, each with a category."""
        return [{**p, "category": nth(X.CATEGORIES, p["day"] + p["hour"])} for p in super().grid()]

    def want(self, params: Params) -> dict[str, Any]:
        """The expense asked for (dated today, the form's default)."""
        receipt = receipt_of(params)
        return expense(params["merchant"], receipt.total_cents, params["category"], 0)

    def check(self, params: Params, state: State) -> bool:
        """Exactly one expense added: the shop's name (case and spacing aside), the total, the category; any date and
        note (the goal names neither); nothing else in Pro Expense removed or changed, nothing in Photos."""  # noqa: D205, D209
        e, want = state_of(state, X.ExpensesState), self.want(params)
        if len(e["added"]) != 1 or e["removed"] or e["changed"] or not untouched(state):
            return False
        got = e["added"][0]
        return (" ".join(got["name"].split()).casefold() == want["name"].casefold()
                and (got["amount"], got["category"]) == (want["amount"], want["category"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the photo to read it, then add the expense."""
        if state_of(state, X.ExpensesState)["added"]:
            return wait()
        return read_picture(params, elements, state) or add_step(self.want(params), elements, state)


class CopyPictureTemplate(_ReceiptTemplate):
    """Save a copy of the photo taken on {when} to the {folder} folder; its twin is not copied."""

    name, max_steps = "photos_copy_to_folder", 14
    phrasings = ("In Photos, save a copy of the photo I took on {when} to the {folder} folder",
                 "Copy my {when} photo into {folder} from the Photos app",
                 "Put a copy of the receipt photo from {when} in the {folder} folder (use Photos)")

    def check(self, params: Params, state: State) -> bool:
        """Exactly one copy, of that photo, into the folder under its name; the file is in the Files app's storage;
        nothing else in Photos changed."""  # noqa: D205, D209
        name = photo_name(params)
        path = f"{params['folder']}/{name}"
        p = photos_state(state)
        stored = {f["path"] for f in state_of(state, files.FilesState)["files"]}
        return p["copies"] == [{"item": name, "path": path}] and path in stored and not p["changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the photo; More options, Copy to folder, the folder, Copy here."""
        if photos_state(state)["copies"]:
            return wait()
        screen = state["screen"]
        if state["foreground"] == PHOTOS and screen["name"] == "copy" and screen["args"]["item"] == photo_name(params):
            return copy_step(params["folder"], elements, state)
        return open_photo(params["date"], elements, state) or copy_step(params["folder"], elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (ReceiptTotalTemplate(), ReceiptDateTemplate(), ReceiptToExpenseTemplate(),
                                       CopyPictureTemplate())
"""The readable-picture templates of the World suite."""
