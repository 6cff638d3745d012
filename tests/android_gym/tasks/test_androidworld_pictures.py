"""AndroidWorld's picture tasks on Photos (`androidworld/pictures.py`): per template what wins and which near miss
loses, written so that a looser or a stricter check fails them."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import gallery
from android_gym.sim.apps import recipes as R
from android_gym.sim.apps.gallery_media import library
from android_gym.tasks.androidworld import pictures as P
from android_gym.tasks.androidworld.expenses import add_noted, folded
from android_gym.tasks.androidworld.recipes_add import add_step as add_recipe
from android_gym.tasks.androidworld.recipes_add import matches
from android_gym.tasks.base import Task
from android_gym.tasks.expert import wait
from android_gym.tasks.world.notes_expert import markor_create, markor_write
from android_gym.tasks.world.pictures_expert import copy_step, open_item, read_picture
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]


def first(template: Any) -> Task:
    """The template's first train task."""
    return template.tasks("train")[0]


def play(task: Task, policy: Policy | None = None) -> tuple[bool, dict]:
    """Play `task` with `policy` (default: the expert) on an unperturbed phone: whether it won, and the apps' state."""
    device = SimDevice("none")
    won = run_episode(task, seed=3, policy=policy, device=device).success
    return won, device.state()["apps"]


def test_the_pictures_hold_the_text_androidworld_draws_into_them() -> None:
    """expenses.jpg lists the targets as text blocks, recipes.jpg the recipes, receipt.png the transactions."""
    task = first(P.ExpenseAddMultipleFromGallery())
    items = {it["name"]: it["content"] for it in task.initial[gallery.PACKAGE]["items"]}
    assert sorted(items) == sorted(["expenses.jpg", *(f"old_expenses_{i}.jpg" for i in range(10))])
    assert items["expenses.jpg"][0] == f"Expense: {task.params['targets'][0]['name']}"
    assert all(len(line) <= P.WRAP for lines in items.values() for line in lines)
    recipes = first(P.RecipeAddMultipleRecipesFromImage())
    (card,) = recipes.initial[gallery.PACKAGE]["items"]
    assert card["name"] == "recipes.jpg" and card["content"][0] == f"Recipe: {recipes.params['targets'][0]['title']}"
    receipt = first(P.MarkorTranscribeReceipt())
    assert "\n".join(receipt.initial[gallery.PACKAGE]["items"][0]["content"]).count(receipt.params["text"]) == 1


# -- SaveCopyOfReceiptTaskEval -----------------------------------------------------------------------------------------
def copying(task: Task, folder: str, name: str | None = None, date: str = P.TAKEN) -> Policy:
    """Open picture `name` (default: the receipt) and copy it to `folder`."""
    def policy(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        photos = state["apps"][gallery.PACKAGE]
        if photos["copies"]:
            return wait()
        if state["screen"]["name"] == "copy":
            return copy_step(folder, elements, state)
        return open_item(name or task.params["file_name"], date, elements, state) or copy_step(folder, elements, state)
    return policy


def test_save_copy_wins_in_download_and_loses_elsewhere_or_for_another_picture() -> None:
    """The copy in Download wins (the file is in Files' Download); in DCIM, or of another photo, it loses."""
    task = first(P.SaveCopyOfReceiptTaskEval())
    won, apps = play(task)
    assert won and f"Download/{task.params['file_name']}" in {f["path"] for f in apps[P.files.PACKAGE]["files"]}
    won, apps = play(task, copying(task, "DCIM"))
    assert not won and apps[gallery.PACKAGE]["copies"]
    other = next(it for it in library(3)[0] if it["date"] < "2026-06-10" and it["kind"] == "photo"
                 and not it["trashed"])  # a seeded photo of the episode (seed 3)
    won, apps = play(task, copying(task, "Download", other["name"], other["date"]))
    assert not won and apps[gallery.PACKAGE]["copies"][0]["item"] == other["name"]


# -- MarkorTranscribeReceipt -------------------------------------------------------------------------------------------
def transcribing(task: Task, text: str) -> Policy:
    """View receipt.png, then write `text` into a new receipt.md."""
    def policy(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        step = read_picture(task.params, elements, state, "receipt.png", P.TAKEN)
        if step is not None:
            return step
        if "receipt.md" in state["apps"][P.MARKOR]["files"]:
            return markor_write("receipt.md", text, elements, state)
        return markor_create("", "receipt.md", "Markdown", elements, state)
    return policy


@pytest.mark.parametrize(("change", "wins"), [("spacing", True), ("no header", False), ("typo", False),
                                              ("company line", False)])
def test_transcribed_receipt_wins_as_csv_and_loses_a_line_or_a_digit(change: str, wins: bool) -> None:
    """Spacing around commas and case may differ; a missing header, a mistyped price or an extra line loses."""
    task = first(P.MarkorTranscribeReceipt())
    lines = task.params["text"].split("\n")
    text = {"spacing": "\n".join(line.replace(", ", ",").upper() for line in lines),
            "no header": "\n".join(lines[1:]),
            "typo": "\n".join([*lines[:-1], lines[-1][:-1] + ("1" if lines[-1][-1] != "1" else "2")]),
            "company line": "\n".join([task.params["lines"][0], *lines])}[change]
    won, apps = play(task, transcribing(task, text))
    assert won is wins and "receipt.md" in apps[P.MARKOR]["files"]


# -- ExpenseAddMultipleFromGallery and RecipeAddMultipleRecipesFromImage -----------------------------------------------
def test_expenses_from_the_picture_win_and_an_old_pictures_row_loses() -> None:
    """The expert (the three targets, after viewing expenses.jpg) wins; two targets and a noise row lose."""
    task = first(P.ExpenseAddMultipleFromGallery())
    won, apps = play(task)
    assert won and apps[gallery.PACKAGE]["last_opened"] == "expenses.jpg"
    rows = [*task.params["targets"][:2], task.params["noise"][0]]

    def policy(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        added = [folded(x) for x in state["apps"][P.EXP]["added"]]
        todo = [r for r in rows if folded(r) not in added]
        step = read_picture(task.params, elements, state, "expenses.jpg", P.stamp(P.TODAY_DAY, 8, 0))
        return step or (add_noted({**todo[0], "date": X.iso(0)}, elements, state) if todo else wait())
    won, apps = play(task, policy)
    assert not won and len(apps[P.EXP]["added"]) == 3


def test_recipes_from_the_picture_win_and_one_short_loses() -> None:
    """The expert (three recipes, after viewing recipes.jpg) wins; the first two alone lose."""
    task = first(P.RecipeAddMultipleRecipesFromImage())
    assert play(task)[0]
    rows = task.params["targets"][:2]

    def policy(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        listed = state["apps"][R.PACKAGE]["recipes"]
        todo = [r for r in rows if not any(matches(r, got) for got in listed)]
        step = read_picture(task.params, elements, state, "recipes.jpg", P.TAKEN)
        return step or (add_recipe(todo[0], elements, state) if todo else wait())
    won, apps = play(task, policy)
    assert not won and sum(any(matches(r, got) for got in apps[R.PACKAGE]["recipes"]) for r in rows) == 2
