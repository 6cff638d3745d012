"""Tests of Markor's modification times and "Sort by" (android_gym/sim/apps/markor_times.py): seeded times before
the clock, rows showing the time, a save stamping 9:41 today, the Date order newest first through the dialog, times
set as initial conditions and refused when malformed or for a path not there."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.apps import markor, with_apps
from android_gym.sim.apps.markor import MarkorApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

NOTES = {"a.md": "A", "b.md": "B", "c.txt": "C"}
TIMES = {"a.md": "2026-06-09 23:05", "b.md": "2026-06-10 08:15", "c.txt": "2026-06-09 23:50"}


def make_phone(initial: dict | None = None, seed: int = 0) -> SimPhone:
    """Markor open on only `NOTES` (with `initial`'s times), no perturbations."""
    seeded = markor.notebook(seed)
    phone = SimPhone(PerturbationConfig.preset("none"), apps=with_apps(MarkorApp))
    phone.reset(seed, {markor.PACKAGE: {"absent": sorted(seeded[0] | set(seeded[1])), "files": NOTES,
                                        **(initial or {})}})
    phone.launch("Markor")
    return phone


def titles(phone: SimPhone) -> list[str]:
    """The browser's row titles, top to bottom."""
    return [e.text for e in phone.elements() if e.rid == markor.TITLE_RID]


def mk(phone: SimPhone) -> dict:
    """Markor's state."""
    return phone.state()["apps"][markor.PACKAGE]


def test_seeded_times_fall_before_the_clock_and_match_the_day():
    """Every seeded item's time is on its modified day, and today's are before 9:41."""
    for seed in range(4):
        phone = SimPhone(PerturbationConfig.preset("none"), apps=with_apps(MarkorApp))
        phone.reset(seed)
        state = mk(phone)
        assert state["modified_at"].keys() == state["modified"].keys() and state["sort"] == "Name"
        for path, stamp in state["modified_at"].items():
            assert stamp[:10] == state["modified"][path] and stamp <= "2026-06-10 09:41"


def test_rows_show_times_and_sort_by_date_lists_the_newest_first():
    """Rows read "Jun 9, 2026, 23:05 · 1 B"; Sort by, Date: b (today 08:15), c (23:50), a (23:05); Name again."""
    phone = make_phone({"times": TIMES})
    assert titles(phone) == ["a.md", "b.md", "c.txt"]
    assert find(phone.elements(), text="Jun 9, 2026, 23:05 \u00b7 1 B") is not None
    phone.tap(*find(phone.elements(), desc="Sort by").center)
    assert mk(phone)["screen"] == "sort" and find(phone.elements(), text="Name").checked
    phone.tap(*find(phone.elements(), text="Date").center)
    assert mk(phone)["sort"] == "Date" and titles(phone) == ["b.md", "c.txt", "a.md"]
    phone.tap(*find(phone.elements(), desc="Sort by").center)
    phone.tap(*find(phone.elements(), text="Name").center)
    assert titles(phone) == ["a.md", "b.md", "c.txt"]


def test_a_save_stamps_the_clock_and_a_rename_keeps_the_time():
    """Editing a.md and leaving stamps it 09:41 today (newest by date); renaming c.txt keeps its time."""
    phone = make_phone({"times": TIMES})
    phone.tap(*find(phone.elements(), text="a.md").center)
    phone.tap(*find(phone.elements(), rid=markor.EDITOR_RID).center)
    phone.type_text("!")
    phone.key("back")
    phone.key("back")
    assert mk(phone)["modified_at"]["a.md"] == "2026-06-10 09:41"
    phone.tap(*find(phone.elements(), desc="More options for c.txt").center)
    phone.tap(*find(phone.elements(), text="Rename").center)
    phone.tap(*find(phone.elements(), desc="Clear text").center)
    phone.type_text("d.txt")
    phone.tap(*find(phone.elements(), text="OK").center)
    assert mk(phone)["modified_at"]["d.txt"] == "2026-06-09 23:50"


@pytest.mark.parametrize("times", [{"a.md": "2026-06-09"}, {"a.md": "yesterday 10:00"}, {"zz.md": "2026-06-09 10:00"}])
def test_bad_times_are_refused_naming_the_field(times: dict):
    """A time without the minute, a time in words, a path not in the notebook: refused, `times` named."""
    with pytest.raises(ConfigError, match="times"):
        make_phone({"times": times})
