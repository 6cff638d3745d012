"""AndroidWorld's `SimpleCalendarAddRepeatingEvent` ("In Simple Calendar Pro, create a recurring calendar event titled
'{event_title}' starting on {year}-{month}-{day} at {hour}h. The event recurs {repeat_rule}, forever, and lasts for
{duration_mins} minutes each occurrence. The event description should be '{event_description}'.").

AndroidWorld draws the event as for `SimpleCalendarAddOneEvent` (a day of October 2023 from today on, a whole hour,
15-60 minutes, a generated title and description), then "daily" or "weekly" (Simple Calendar Pro's repeat interval
of a day or a week, a weekly one on the start's weekday), among 0-20 noise events; its check is the addition's
(exactly one row more, start, end, title and description matching, every other row as it was) with the repeat
interval and rule compared too. Here the dates are rebased as `calendar_events.py` does, and Calendar's editor
offers "Every day" and "Every week on <its weekday>" (its "repeat" rule, kept forever). The check: exactly one event
added, with that day, start and end, the title (case and spacing aside), the description exactly, no location, and
the rule; nothing edited or deleted.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.tasks.androidworld.base import pick
from android_gym.tasks.androidworld.calendar_events import AddOneEvent
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.calendar_tasks import added_one
from android_gym.tasks.world.clipboard_expert import create_repeating


class SimpleCalendarAddRepeatingEvent(AddOneEvent):
    """Create {event_title} on its day at {hour}h, {duration_mins} minutes, with its description, repeating
    {repeat_rule}: exactly it added, with the rule; nothing else changed."""  # noqa: D205, D209

    name, max_steps = "SimpleCalendarAddRepeatingEvent", 30
    goal_template = ("In Simple Calendar Pro, create a recurring calendar event titled '{event_title}' starting on "
                     "{year}-{month}-{day} at {hour}h. The event recurs {repeat_rule}, forever, and lasts for "
                     "{duration_mins} minutes each occurrence. The event description should be '{event_description}'.")

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """`SimpleCalendarAddOneEvent`'s draw, then "daily" or "weekly"."""
        params = super().draw(rng)
        rule = pick(rng, ("daily", "weekly"))
        return {**params, "repeat_rule": rule, "event": {**params["event"], "repeat": rule}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one event added, as the target with its rule; nothing edited or deleted."""
        return added_one(state, params["event"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The rule, then title, description, day, start and end, Save."""
        t = params["event"]
        want = {k: t[k] for k in ("title", "description", "date", "start", "end")}
        return create_repeating({**want, "repeat": t.get("repeat", "")}, elements, state)


TEMPLATES = (SimpleCalendarAddRepeatingEvent(),)
