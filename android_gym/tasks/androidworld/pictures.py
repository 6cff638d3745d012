"""AndroidWorld's tasks over pictures in Simple Gallery Pro, on the sim's Photos app (readable pictures,
`gallery_prints`; Copy to folder, `gallery_copy`): `SaveCopyOfReceiptTaskEval`, `MarkorTranscribeReceipt`,
`ExpenseAddMultipleFromGallery` and `RecipeAddMultipleRecipesFromImage`.

AndroidWorld writes its pictures into the gallery's folder (DCIM) as images whose pixels hold the text; here they are
Photos items of the same file names whose content the viewer prints in the pixels only (the accessibility tree
gives the image a content-desc, as a real phone does), all taken today before the phone's 9:41 (today's seeded
photos make room). Photos stands in for Simple Gallery Pro: the goals name Simple Gallery, the app the agent opens is
Photos (its file names are in an item's Details).

- `SaveCopyOfReceiptTaskEval`: a receipt `receipt_<random name>.jpg` (AndroidWorld's `generate_random_file_name`,
  here `markor.random_file_name`) in DCIM. AndroidWorld checks that a file of that name is in Download. Here: the
  Files app's storage holds Download/<name> and Photos logged exactly that one copy, of that picture, to Download.
- `MarkorTranscribeReceipt`: receipt.png lists 1-5 transactions ("<date>, <item>, $<price>") under a company's name
  and slogan and the header "Date, Item, Amount"; dates fall in the 287 days before today (AndroidWorld's 2023 span
  rebased, `markor.SPAN_DAYS`), items and companies are ours. AndroidWorld fuzzy-matches receipt.md's whole text
  against the header and transactions (90% alike). Here receipt.md at Markor's root must hold exactly those lines
  (blank lines, case and the spaces around each comma aside: a typo loses) and no other note is touched.
- `ExpenseAddMultipleFromGallery`: `expenses.ExpenseAddMultiple`'s draw, its three targets written as text blocks
  (wrapped at 60 characters, as AndroidWorld's) into expenses.jpg, the ten noise rows into old_expenses_0..9.jpg;
  Pro Expense holds the noise. The check is `ExpenseAddMultiple`'s: exactly the targets added.
- `RecipeAddMultipleRecipesFromImage`: `recipes_add.RecipeAddMultipleRecipes`' draw, its three targets as text
  blocks wrapped at 60 characters in recipes.jpg; Broccoli holds the ten noise recipes. The check is
  `RecipeAddMultipleRecipes`': exactly the targets added.

Experts open the picture first (`pictures_expert.read_picture`: Photos' `last_opened`) and only then act.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import random
import textwrap
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files, markor
from android_gym.sim.apps.gallery_media import TODAY_DAY, stamp
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.expenses import ExpenseAddMultiple, rows_text
from android_gym.tasks.androidworld.markor import SPAN_DAYS, random_file_name
from android_gym.tasks.androidworld.recipes_add import RecipeAddMultipleRecipes, as_text
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.expenses_expert import EXP
from android_gym.tasks.world.media_expert import PHOTOS, photos_state
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, markor_write, only_touched
from android_gym.tasks.world.pictures_expert import copy_step, open_item, read_picture

COMPANIES = ("Bright Byte Store", "Circuit Corner Ltd.", "Nova Devices LLC", "Gizmo Garage Co.")
SLOGANS = ("Gadgets for every desk", "Plug in, power up", "Smart tools, fair prices", "Tech you can trust")
GOODS = (("Phone charger", 8, 25), ("Laptop stand", 20, 60), ("HDMI cable", 6, 18), ("Wireless earbuds", 30, 120),
         ("Memory card", 10, 40), ("Desk lamp", 15, 50))
"""Our receipt generator's companies, slogans and goods with their price range in dollars (AndroidWorld's has four
companies, four slogans and six goods of the same kind)."""
HEADER = "Date, Item, Amount"
WRAP = 60
"""AndroidWorld wraps the text it draws into gallery pictures at this many characters."""
TAKEN = stamp(TODAY_DAY, 8, 30)
"""When the task's picture was taken: today, before the phone's 9:41."""


def wrapped(text: str) -> list[str]:
    r"""`text`'s lines wrapped at `WRAP` characters, as a picture prints them (blank lines kept).

    >>> wrapped("a b\n\n" + "word " * 15)
    ['a b', '', 'word word word word word word word word word word word word', 'word word word']
    """
    return [part for line in text.split("\n") for part in (textwrap.wrap(line, WRAP) or [""])]


def picture(name: str, lines: list[str], date: str = TAKEN) -> dict[str, Any]:
    """A Photos item (`ItemSpec`) named `name`, taken at `date`, showing `lines`."""
    return {"name": name, "kind": "photo", "date": date, "content": lines}


def transactions(rng: random.Random, n: int) -> list[str]:
    """`n` receipt lines "<date>, <item>, $<price>": a day of the 287 before today, one of our goods, a price in its
    range (cents as AndroidWorld's float uniform draw rounds them)."""  # noqa: D205, D209
    out = []
    for _ in range(n):
        day = markor.DATE - datetime.timedelta(days=rng.randint(1, SPAN_DAYS))
        item, low, high = pick(rng, GOODS)
        out.append(f"{day}, {item}, ${rng.uniform(low, high):.2f}")
    return out


def csv_rows(text: str) -> list[list[str]]:
    r"""`text`'s non-blank lines split on commas, each field stripped and case-folded.

    >>> csv_rows("Date,Item, Amount\n\n 2026-01-02 , Memory card,$10.00 ")
    [['date', 'item', 'amount'], ['2026-01-02', 'memory card', '$10.00']]
    """
    return [[field.strip().casefold() for field in line.split(",")] for line in text.split("\n") if line.strip()]


class SaveCopyOfReceiptTaskEval(AndroidWorldTemplate):
    """Copy receipt {file_name} (in DCIM) to Download under the same name, from the gallery."""

    name, split_key = "SaveCopyOfReceiptTaskEval", "file_name"
    goal_template = "In Simple Gallery Pro, copy {file_name} in DCIM and save a copy with the same name in Download"
    apps, max_steps = (PHOTOS,), 12  # the expert takes 6 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A receipt_<random name>.jpg holding one transaction."""
        company, slogan = pick(rng, COMPANIES), pick(rng, SLOGANS)
        lines = [company, slogan, HEADER, *transactions(rng, 1), "Thank you for your purchase!"]
        return {"file_name": f"receipt_{random_file_name(rng)}.jpg", "lines": lines}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The receipt in Photos and in DCIM; no such file in Download."""
        name = params["file_name"]
        return {PHOTOS: {"items": [picture(name, params["lines"])]},
                files.PACKAGE: {"absent": [f"Download/{name}"], "files": [{"path": f"DCIM/{name}", "size_kb": 120}]}}

    def check(self, params: Params, state: State) -> bool:
        """Download holds a file of that name, Photos' one copy (of that picture, to Download) made it."""
        name = params["file_name"]
        stored = {f["path"] for f in state_of(state, files.FilesState)["files"]}
        return (f"Download/{name}" in stored
                and photos_state(state)["copies"] == [{"item": name, "path": f"Download/{name}"}])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the receipt; More options, Copy to folder, Download, Copy here."""
        if photos_state(state)["copies"]:
            return wait()
        screen = state["screen"]
        if state["foreground"] == PHOTOS and screen["name"] == "copy":
            return copy_step("Download", elements, state)
        return open_item(params["file_name"], TAKEN, elements, state) or copy_step("Download", elements, state)


class MarkorTranscribeReceipt(AndroidWorldTemplate):
    """Write receipt.png's header and transactions into Markor's receipt.md as CSV lines."""

    name, split_key = "MarkorTranscribeReceipt", "text"
    goal_template = ("Create a file in Markor, called receipt.md with the transactions from the receipt.png. Use "
                     'Simple Gallery to view the receipt. Please enter transactions in csv format including the header '
                     '"Date, Item, Amount".')
    apps, max_steps = (PHOTOS, MARKOR), 17  # the expert takes 10 steps
    FILE = "receipt.md"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A company and slogan, 1-5 transactions; the text wanted: the header and the transactions."""
        company, slogan = pick(rng, COMPANIES), pick(rng, SLOGANS)
        rows = transactions(rng, rng.randint(1, 5))
        lines = [company, slogan, HEADER, *rows, "Thank you for your purchase!",
                 f"Visit us at: www.{company.split()[0].lower()}.example"]
        return {"lines": lines, "text": "\n".join([HEADER, *rows])}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """receipt.png in Photos; no receipt.md in Markor."""
        return {PHOTOS: {"items": [picture("receipt.png", params["lines"])]}, MARKOR: {"absent": [self.FILE]}}

    def check(self, params: Params, state: State) -> bool:
        """receipt.md at the root holds exactly the header and transactions (`csv_rows`); no other note touched."""
        m = state_of(state, markor.MarkorState)
        return (self.FILE in m["files"] and csv_rows(m["files"][self.FILE]) == csv_rows(params["text"])
                and only_touched(m["edits"], {self.FILE}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """View receipt.png, then create receipt.md and type the lines."""
        step = read_picture(params, elements, state, "receipt.png", TAKEN)
        if step is not None:
            return step
        if self.FILE in state_of(state, markor.MarkorState)["files"]:
            return markor_write(self.FILE, params["text"], elements, state)
        return markor_create("", self.FILE, "Markdown", elements, state)


class ExpenseAddMultipleFromGallery(ExpenseAddMultiple):
    """Add the three expenses written in expenses.jpg (ten older pictures list others) to Pro Expense."""

    name = "ExpenseAddMultipleFromGallery"
    goal_template = "Add the expenses from expenses.jpg in Simple Gallery Pro to pro expense."
    apps = (PHOTOS, EXP)
    max_steps = 55  # the expert takes 31-35 steps
    PICTURE = "expenses.jpg"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Pro Expense holds the noise; Photos expenses.jpg (the targets) and old_expenses_0..9.jpg (the noise)."""
        old = wrapped(rows_text(params["noise"], "text_block"))
        items = [picture(self.PICTURE, wrapped(rows_text(params["targets"], "text_block")), stamp(TODAY_DAY, 8, 0)),
                 *(picture(f"old_expenses_{i}.jpg", old, stamp(TODAY_DAY, 8, 5 + 5 * i)) for i in range(10))]
        return {**super().initial(params), PHOTOS: {"items": items}}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """View expenses.jpg, then add the expenses."""
        return (read_picture(params, elements, state, self.PICTURE, stamp(TODAY_DAY, 8, 0))
                or super().expert(params, elements, state))


class RecipeAddMultipleRecipesFromImage(RecipeAddMultipleRecipes):
    """Add the three recipes written in recipes.jpg to Broccoli, which holds ten others."""

    name = "RecipeAddMultipleRecipesFromImage"
    goal_template = "Add the recipes from recipes.jpg in Simple Gallery Pro to the Broccoli recipe app."
    apps = (PHOTOS, RecipeAddMultipleRecipes.apps[0])
    max_steps = 70  # the expert takes 44 steps
    PICTURE = "recipes.jpg"

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Broccoli's noise; recipes.jpg in Photos with the targets as text blocks."""
        lines = wrapped(as_text(params["targets"], "text_block"))
        return {**super().initial(params), PHOTOS: {"items": [picture(self.PICTURE, lines)]}}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """View recipes.jpg, then add the recipes."""
        return read_picture(params, elements, state, self.PICTURE, TAKEN) or super().expert(params, elements, state)


TEMPLATES = (SaveCopyOfReceiptTaskEval(), MarkorTranscribeReceipt(), ExpenseAddMultipleFromGallery(),
             RecipeAddMultipleRecipesFromImage())
"""AndroidWorld's picture tasks on the suite (Simple Gallery Pro's, then Markor's, Pro Expense's, Broccoli's)."""
