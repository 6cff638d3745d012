"""Photos templates that only the everyday instructions use (issue 49), outside the World suite, whose tasks stay
fixed: open the newest photo, share it with a contact (`latest` gives their parameters). The goal parser maps
everyday lines onto these (`EVERYDAY`) and onto the suite's own camera and newest-photo templates.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import gallery, gallery_media
from android_gym.sim.apps.people import CONTACTS_PACKAGE as CONTACTS
from android_gym.sim.apps.people import namesakes
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import fill, obstacle, wait
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.media_expert import (
    PHOTOS,
    SHEET_ROW,
    Elements,
    State,
    changed_only,
    in_viewer,
    open_photo,
    photos_state,
    press,
)
from android_gym.tasks.world.messaging_expert import names, person
from android_gym.tasks.world.photos_tasks import DeleteLatestTemplate


class ShowLatestTemplate(DeleteLatestTemplate):
    """Open my most recent picture: today's newest photo open in the viewer (a newer video is no picture)."""

    name, max_steps = "show_latest_photo", 6
    phrasings = ("Open my most recent picture", "Show me the last photo I took", "Open my latest photo")

    def check(self, params: Params, state: State) -> bool:
        """Photos in front with the newest photo open, and nothing changed."""
        return (state.get("foreground") == PHOTOS and changed_only(state, [])
                and photos_state(state)["open"] == gallery_media.file_name(self.date(params), "photo"))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Find the newest photo at the top of the grid and open it."""
        return obstacle(elements, state) or open_photo(self.date(params), elements, state) or wait()


class ShareLatestTemplate(DeleteLatestTemplate):
    """Share the latest photo with {person}: sent in Photos to that contact (put on the phone, the only one of that
    first name), once, and nothing else changed."""  # noqa: D205, D209

    name, max_steps = "share_latest_photo", 13
    apps = (PHOTOS,)
    phrasings = ("Share the latest photo with {person}", "Send {person} the last photo I took",
                 "Send my most recent photo to {person} in Google Photos")

    def grid(self) -> list[dict[str, Any]]:
        """The newest-photo instances, each with a task person."""
        return [{**p, "person": names(f"share:{p['hour']}:{p['minute']}:{p['video_newer']}", 1)[0]}
                for p in super().grid()]

    def goal(self, params: Params) -> str:
        """The instruction with the person's name."""
        return self.phrasings[params["phrasing"]].format(person=params["person"])

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Today's photos, the person in Contacts, no other contact of their first name."""
        add = {"name": params["person"], "phone": person(params["person"])["number"]}
        return {**super().initial(params),
                CONTACTS: {"contacts": {"add": [add], "remove": namesakes(params["person"].split()[0])}}}

    def check(self, params: Params, state: State) -> bool:
        """One send: the newest photo, in Photos, to the person; no item changed."""
        newest = gallery_media.file_name(self.date(params), "photo")
        return (photos_state(state)["shared"] == [{"item": newest, "target": "Photos", "to": params["person"]}]
                and changed_only(state, []))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the newest photo, Share, Send in Photos, search the person, choose them, Send."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        sending = photos_state(state)["sending"] if state["foreground"] == PHOTOS else None
        if sending is not None:
            if sending["to"] == params["person"]:
                return press(elements, text="Send", rid=f"{PHOTOS}:id/send_button")
            # the name typed first: its row then tops the list, clear of the keyboard
            return (fill(elements, state, gallery.SEND_RID, params["person"])
                    or press(elements, desc=params["person"], rid=gallery.PERSON_RID))
        step = open_photo(self.date(params), elements, state)
        if step is not None:
            return step
        if photos_state(state)["sheet"] == "share":
            return press(elements, text="Send in Photos", rid=SHEET_ROW)
        return in_viewer(elements, state, text="Share")


def latest(video_newer: bool = True) -> dict[str, Any]:
    """The parameters of the newest-photo templates (`DeleteLatestTemplate` and the two above, which add "person")
    for a line that names no time: the newest photo at 9:05 today, a video five minutes newer when `video_newer`."""  # noqa: D205, D209
    return {"hour": 9, "minute": 5, "video_newer": video_newer, "phrasing": 0}


EVERYDAY: tuple[TaskTemplate, ...] = (ShowLatestTemplate(), ShareLatestTemplate())
"""Templates the goal parser maps everyday lines onto (issue 49), with the suite's own camera and newest-photo
templates; not in the World suite, whose tasks stay fixed."""
