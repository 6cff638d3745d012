"""What a Photos picture may show: the printed lines of receipts and recipe cards, and the readable pictures seeded.

A picture's content is a list of lines (`MediaItem.content`): the viewer prints them on the picture, in the pixels
only (`View.printed`), as a photographed receipt carries its text in the image and not in the accessibility tree.
`receipt_lines` writes a receipt (merchant, date, items with prices, total) and `recipe_lines` a recipe card; tasks
draw a `Receipt` with `draw_receipt` and know its total and date from it. `seeded_prints` picks a few of the
episode's photos to be such pictures, from `stable_seed("gallery_prints", seed)` (never the episode RNG), so a fresh
phone holds receipts and a recipe card to read.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import numpy as np

from android_gym.sim.app import stable_seed

MERCHANTS = ("Green Leaf Market", "Corner Bakery", "Harbor Hardware", "Blue Door Cafe", "City Pharmacy",
             "Sunrise Grocers", "Maple Books", "Riverside Deli", "Pixel Electronics", "Fresh Fields")
"""Shops a receipt comes from."""
GOODS = (("Bananas", 120, 320), ("Oat milk", 250, 450), ("Sourdough loaf", 380, 650), ("Coffee beans", 900, 1600),
         ("Light bulbs", 450, 1200), ("Batteries AA", 500, 1100), ("Notebook", 250, 700), ("Pasta", 150, 400),
         ("Olive oil", 700, 1500), ("Cheddar", 400, 900), ("Toothpaste", 250, 600), ("Sandwich", 550, 1100),
         ("Latte", 350, 600), ("USB cable", 800, 2000), ("Paper towels", 500, 1000), ("Tomatoes", 200, 500))
"""Items a receipt lists, with their price range in cents."""
RECIPES = (("Lemon Pasta", "Pasta, lemon, parmesan", "Boil the pasta; toss with lemon and cheese."),
           ("Tomato Soup", "Tomatoes, onion, stock", "Simmer everything, then blend."),
           ("Pancakes", "Flour, milk, eggs", "Whisk, rest, fry in butter."),
           ("Greek Salad", "Cucumber, feta, olives", "Chop and dress with olive oil."))
"""Recipe cards a seeded picture may show: title, ingredients, directions."""


@dataclass(frozen=True)
class Receipt:
    """A shop receipt: where, when, and what was bought.

    Attributes:
        merchant: the shop's name, printed on top.
        date: the day of purchase, "YYYY-MM-DD".
        items: (name, price in cents) per line bought.
    """

    merchant: str
    date: str
    items: tuple[tuple[str, int], ...]

    @property
    def total_cents(self) -> int:
        """The sum of the items' prices, in cents."""
        return sum(cents for _, cents in self.items)


def money(cents: int) -> str:
    """An amount in dollars as a receipt prints it.

    >>> money(1064)
    '$10.64'
    """
    return f"${cents // 100}.{cents % 100:02d}"


def printed_date(date: str) -> str:
    """A "YYYY-MM-DD" day as a receipt prints it.

    >>> printed_date("2026-05-28")
    'May 28, 2026'
    """
    return f"{datetime.date.fromisoformat(date):%B} {int(date[8:])}, {date[:4]}"


def receipt_lines(receipt: Receipt) -> list[str]:
    """The lines of `receipt` top to bottom: merchant, date, one line per item, the total, a thank-you.

    >>> receipt_lines(Receipt("Corner Bakery", "2026-05-28", (("Latte", 450), ("Sandwich", 725))))
    ['Corner Bakery', 'Date: May 28, 2026', 'Latte  $4.50', 'Sandwich  $7.25', 'TOTAL  $11.75', 'Thank you!']
    """
    return [receipt.merchant, f"Date: {printed_date(receipt.date)}",
            *(f"{name}  {money(cents)}" for name, cents in receipt.items), f"TOTAL  {money(receipt.total_cents)}",
            "Thank you!"]


def draw_receipt(rng: np.random.Generator, merchant: str, date: str) -> Receipt:
    """A receipt from `merchant` on `date` of 2-4 distinct items, prices drawn in their ranges."""
    picks = rng.choice(len(GOODS), size=int(rng.integers(2, 5)), replace=False)
    return Receipt(merchant, date, tuple((GOODS[int(i)][0], int(rng.integers(GOODS[int(i)][1], GOODS[int(i)][2])))
                                         for i in picks))


def recipe_lines(title: str, ingredients: str, directions: str) -> list[str]:
    """A recipe card's lines.

    >>> recipe_lines("Pancakes", "Flour, milk", "Fry.")
    ['Recipe: Pancakes', 'Ingredients: Flour, milk', 'Directions: Fry.']
    """
    return [f"Recipe: {title}", f"Ingredients: {ingredients}", f"Directions: {directions}"]


def seeded_prints(seed: int, photos: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Which of the episode's photos are readable pictures, by name: two receipts (dated the day they were taken)
    and a recipe card, drawn from `stable_seed("gallery_prints", seed)`.

    Args:
        seed: the phone's seed.
        photos: (name, date "2026-06-09 14:05") of the episode's photos (not videos), in a fixed order.
    """  # noqa: D205
    rng = np.random.default_rng(stable_seed("gallery_prints", seed))
    if len(photos) < 3:
        return {}
    chosen = [photos[int(i)] for i in rng.choice(len(photos), size=3, replace=False)]
    merchants = rng.choice(len(MERCHANTS), size=2, replace=False)
    out = {name: receipt_lines(draw_receipt(rng, MERCHANTS[int(m)], date[:10]))
           for (name, date), m in zip(chosen[:2], merchants, strict=True)}
    out[chosen[2][0]] = recipe_lines(*RECIPES[int(rng.integers(len(RECIPES)))])
    return out
