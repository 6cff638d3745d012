"""World-suite tasks over the Phone app alone: call back the newest missed call, dial a number on the keypad.

The people and calls they put on the phone come from `people_expert` (its `cast` and task numbers), as the Contacts
templates' do (`people_tasks`, whose `TEMPLATES` lists these two with its own). Checks read the calls placed only
(`people_expert.only_calls_to`). Splits hash the variant or the number with `split_of`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import contacts, dialer
from android_gym.sim.apps.contacts import digits
from android_gym.tasks.apps import into_app
from android_gym.tasks.expert import back, find, obstacle, tap, wait
from android_gym.tasks.world.base import Params, WorldTemplate
from android_gym.tasks.world.people_expert import (
    NAMES,
    Elements,
    State,
    cast,
    first_missed,
    only_calls_to,
    task_number,
    to_phone_tab,
)


class CallBackMissedTemplate(WorldTemplate):
    """Call back the most recent missed call (with the optional parameter "caller": "any", the newest incoming or
    missed call): a call to that number only (a contact's or an unknown number)."""  # noqa: D205, D209

    name, suite, max_steps = "call_back_missed", "world", 8
    apps = (dialer.PACKAGE,)
    phrasings = ("Call back the most recent missed call", "Return my last missed call",
                 "I just missed a call. Call them back.")
    VARIANTS = 120

    def grid(self) -> list[dict[str, Any]]:
        """Every variant (the caller, a contact or not, and the calls around it vary by variant)."""
        return [{"variant": v, "phrasing": v % len(self.phrasings)} for v in range(self.VARIANTS)]

    def split_value(self, params: Params) -> object:
        """The variant."""
        return f"call_back_missed:{params['variant']}"

    def goal(self, params: Params) -> str:
        """The instruction."""
        return self.phrasings[params["phrasing"]]

    def _calls(self, params: Params) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(the people, the calls): the target's missed call under 0-2 newer answered or outgoing calls and over an
        older missed one; the target is a contact in odd variants (with a same-first-name near miss)."""  # noqa: D205, D209
        v = params["variant"]
        name = NAMES[stable_seed("call_back_missed", v) % len(NAMES)]
        target, same_first, other = cast(self.name, name)
        rng = np.random.default_rng(stable_seed("call_back_missed:calls", v))
        newer = [{"number": n, "kind": k, "ago_min": 2 + 3 * i}
                 for i, (n, k) in enumerate([(same_first["phone"], "incoming"), (other["phone"], "outgoing")]
                                            [:int(rng.integers(3))])]
        calls = [*newer, {"number": target["phone"], "kind": "missed", "ago_min": 9},
                 {"number": other["phone"] if v % 2 else same_first["phone"], "kind": "missed", "ago_min": 17}]
        people = [target, same_first] if v % 2 else [same_first]
        return people, calls

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The calls in Phone's log, the people in Contacts."""
        people, calls = self._calls(params)
        return {contacts.PACKAGE: {"contacts": {"add": people}}, dialer.PACKAGE: {"calls": calls}}

    @staticmethod
    def kinds(params: Params) -> tuple[str, ...]:
        """The kinds of call the goal calls back."""
        return ("incoming", "missed") if params.get("caller") == "any" else ("missed",)

    def check(self, params: Params, state: State) -> bool:
        """Every call placed went to the newest missed call's number (or the newest caller's, `kinds`)."""
        _, calls = self._calls(params)
        return only_calls_to(state, next(c["number"] for c in calls if c["kind"] in self.kinds(params)))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone > Recents > the call button of the first row marked missed (or of a caller, `kinds`)."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        if state["foreground"] == dialer.PACKAGE and state["screen"]["name"] == "call":
            return wait()
        step = to_phone_tab("Recents", elements, state)
        if step is not None:
            return step
        row = first_missed(elements, self.kinds(params))
        if row is None:
            return wait()
        who = row.desc.split(", ")[1]
        button = find(elements, rid=dialer.CALL_BUTTON_RID, desc=f"Call {who}")
        return tap(button) if button is not None else wait()


class DialNumberTemplate(WorldTemplate):
    """Dial {number} on the keypad and call it: a call to that number and no other."""

    name, suite, max_steps = "dial_number", "world", 23
    apps = (dialer.PACKAGE,)
    phrasings = ("Dial {number} and call it", "Call {number}", "Make a phone call to {dashed}",
                 "Use the dial pad to call {plain}")
    COUNT = 300

    split_key = "number"

    def grid(self) -> list[dict[str, Any]]:
        """`COUNT` distinct task numbers."""
        rng = np.random.default_rng(stable_seed("dial_number"))
        numbers: list[str] = []
        while len(numbers) < self.COUNT:
            n = task_number(rng)
            if n not in numbers:
                numbers.append(n)
        return [{"number": n, "phrasing": i % len(self.phrasings)} for i, n in enumerate(numbers)]

    def goal(self, params: Params) -> str:
        """The instruction, with the number written as the phrasing writes it."""
        d = digits(params["number"])
        return self.phrasings[params["phrasing"]].format(number=params["number"], dashed=f"{d[:3]}-{d[3:6]}-{d[6:]}",
                                                         plain=d)

    def check(self, params: Params, state: State) -> bool:
        """Every call placed went to the number."""
        return only_calls_to(state, params["number"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone > key pad > the digits one by one (backspace over a wrong one) > dial."""
        step = obstacle(elements, state) or into_app("Phone", dialer.PACKAGE, elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        if screen["name"] == "keypad":
            typed, want = screen["args"]["digits"], digits(params["number"])
            if typed == want:
                target = find(elements, rid=dialer.DIAL_RID)
            elif want.startswith(typed):
                target = find(elements, rid=dialer.KEY_RIDS[want[len(typed)]])
            else:
                target = find(elements, rid=dialer.DELETE_RID)
            return tap(target) if target is not None else wait()
        if screen["name"] == "call":
            return wait()
        if screen["name"] in ("favourites", "recents", "contacts"):
            pad = find(elements, rid=dialer.KEYPAD_FAB_RID)
            return tap(pad) if pad is not None else wait()
        return back()
