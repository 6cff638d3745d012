"""The Clock tasks' shared steps (issue 17, issue 49): reading the alarm cards and the edit log, and the expert's
moves (a tab, a card's control found by walking the card's elements and scrolled into view, the time picker, the
Label dialog).

Split from `clock_tasks` so that the templates (the World suite's and the everyday lines') share one set of steps.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import clock as C
from android_gym.sim.layout import HEIGHT
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import fill, find, swipe_up, tap
from android_gym.tasks.world.base import Elements, State, leave, press
from android_gym.ui import UIElement

CLOCK = C.PACKAGE


def when(card: Mapping[str, Any]) -> str:
    """An alarm's time as its card shows it."""
    return C.format_time(card["hour"], card["minute"])


def cards(state: State) -> list[dict[str, Any]]:
    """The Clock's alarm cards ({"id", "hour", "minute", "enabled", "label", "days"}) in list order."""
    return state_of(state, C.ClockState)["alarm_cards"]


def labelled(state: State, label: str) -> list[dict[str, Any]]:
    """The alarm cards labelled `label` (case and outer spaces ignored)."""
    return [a for a in cards(state) if a["label"].strip().casefold() == label.strip().casefold()]


def only_edited(state: State, ids: set[int]) -> bool:
    """Whether every alarm edit of the episode concerns the alarms `ids`."""
    return all(e["id"] in ids for e in state_of(state, C.ClockState)["alarm_edits"])


def added(state: State) -> list[dict[str, Any]]:
    """The alarm cards added this episode, in the order they were added."""
    by_id = {a["id"]: a for a in cards(state)}
    return [by_id[e["id"]] for e in state_of(state, C.ClockState)["alarm_edits"]
            if e["op"] == "add" and e["id"] in by_id]


# -- expert steps -----------------------------------------------------------------------------------------------------
def to_tab(tab: str, elements: Elements, state: State) -> Action | None:
    """The next step to the Clock showing `tab` (None once there, nothing over it)."""
    step = into_app("Clock", CLOCK, elements, state)
    if step is not None:
        return step
    name = state["screen"]["name"]
    if name in ("picker", "label", "cities"):
        return leave(elements)
    return None if name == tab.lower() else press(elements, text=tab, clickable=True)


def _groups(elements: Elements) -> list[list[UIElement]]:
    """The alarm cards on screen as element groups, each from its label row to the next card's (a card whose label
    row is scrolled off the top is left out)."""  # noqa: D205, D209
    groups: list[list[UIElement]] = []
    for e in elements:
        if e.rid == C.LABEL_RID:
            groups.append([e])
        elif groups:
            groups[-1].append(e)
    return groups


def reach_card(time: str, pick: Callable[[list[UIElement]], UIElement | None], elements: Elements, state: State,
               act: Callable[[UIElement], Action] = tap) -> Action:
    """`act` on the element `pick` finds in the card of the alarm at `time` (a card's time text), scrolling the list
    towards it while it is off screen or under the Add alarm button."""  # noqa: D205, D209
    order = [when(a) for a in cards(state)]
    fab = find(elements, desc="Add alarm")
    seen = []
    for group in _groups(elements):
        shown = find(group, rid=C.TIME_RID)
        if shown is None or shown.text not in order:
            continue
        if shown.text != time:
            seen.append(order.index(shown.text))
            continue
        target = pick(group)
        if target is not None and (fab is None or not _inside(target.center, fab.bounds)):
            return act(target)
        return swipe_up() if group[0].center[1] > HEIGHT // 3 else swipe_down()
    if time in order and seen and order.index(time) < min(seen):
        return swipe_down()
    return swipe_up() if seen or state["screen"]["scroll"] == 0 else swipe_down()


def _inside(point: tuple[int, int], bounds: tuple[int, int, int, int]) -> bool:
    return bounds[0] <= point[0] < bounds[2] and bounds[1] <= point[1] < bounds[3]


def pick_time(hour: int, minute: int, elements: Elements, draft: Mapping[str, Any]) -> Action:
    """On the time picker: the hour on the dial, the minutes (a multiple of 5), AM/PM, then OK."""
    hour12, pm = (hour - 1) % 12 + 1, hour >= 12
    if draft["hour"] != hour12:
        rid, mode, text = C.HOURS_RID, "hour", str(hour12)
    elif draft["minute"] != minute:
        rid, mode, text = C.MINUTES_RID, "minute", f"{minute:02d}"
    else:
        return press(elements, text="PM" if pm else "AM") if draft["pm"] != pm else press(elements, text="OK")
    return press(elements, rid=rid) if draft["mode"] != mode else press(elements, rid=C.FACE_RID, text=text)


def on_screen(screen: str, state: State) -> bool:
    """Whether the Clock is in front on `screen` with nothing over it."""
    return state["foreground"] == CLOCK and not state.get("dialog") and state["screen"]["name"] == screen


def add_alarm(hour: int, minute: int, elements: Elements, state: State) -> Action:
    """Add an alarm at `hour`:`minute` (24-hour): the Alarm tab, Add alarm, the picker."""
    if on_screen("picker", state) and state["screen"]["args"]["edit"] is None:
        return pick_time(hour, minute, elements, state["screen"]["args"])
    return to_tab("Alarm", elements, state) or press(elements, desc="Add alarm")


def label_dialog(label: str, elements: Elements, state: State) -> Action:
    """In the Label dialog: make the field say `label`, then OK."""
    return fill(elements, state, C.LABEL_INPUT_RID, label) or press(elements, text="OK")


def edit_card(card: Mapping[str, Any], label: str, days: Sequence[str], elements: Elements,
              state: State) -> Action | None:
    """The next step to give alarm `card` the `label` and the repeat `days` (None once it has them)."""
    if card["label"] == label and set(card["days"]) == set(days):
        return None
    if on_screen("label", state):
        return label_dialog(label, elements, state)
    step = to_tab("Alarm", elements, state)
    if step is not None:
        return step
    if card["label"] != label:
        return reach_card(when(card), lambda g: find(g, rid=C.LABEL_RID), elements, state)
    day = next(d for d in C.DAYS if (d in days) != (d in card["days"]))
    return reach_card(when(card), lambda g: find(g, desc=day), elements, state)


def card_by_id(state: State, alarm_id: int) -> dict[str, Any] | None:
    """The alarm card of id `alarm_id` (ids of the alarms set at reset count from 0), or None once deleted."""
    return next((a for a in cards(state) if a["id"] == alarm_id), None)


def earliest_on(state: State) -> str | None:
    """The time of the earliest enabled alarm (time of day), as its card shows it; None without one."""
    on = [a for a in cards(state) if a["enabled"]]
    return when(min(on, key=lambda a: (a["hour"], a["minute"]))) if on else None
