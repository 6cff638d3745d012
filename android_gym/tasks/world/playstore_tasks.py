"""World-suite tasks on the Play Store (issue 48): answer an app's developer, rating or download count from its page;
install, uninstall or update one app (its twin beside it), wishlist one; write an app's rating into a Markor note.

Every task names one of the store's own catalogue apps; its twin (`store_twin`: the next app of the same kind, with
another rating and download count) is the near miss: answering off its page, or installing, uninstalling or updating
it, loses. Answers are read off the listing (`playstore.app_info`) while nothing was installed or removed; a figure
matches with or without its unit ("4.3", "4.3 stars"). Splits hold out app names.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor, playstore
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.media_apps_expert import (
    STORE,
    declare,
    figure_matches,
    store_state,
    store_twin,
    to_listing,
)
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, markor_write, only_touched

APPS = playstore.CATALOGUE_APPS[::2]
"""The task apps: every other catalogue app (80), so that each has catalogue neighbours of its kind."""
NOTES = ("app_rating.md", "store_notes.md", "which_app.md", "app_research.md", "ratings.md", "to_install.md")


def stats(elements: Elements) -> list[str]:
    """The words of the listing's figures line ("4.3 stars   1M+ downloads   Rated for 3+"), [] when not shown."""
    line = find(elements, contains=" downloads ")
    return line.text.split() if line is not None else []


def developer_on(elements: Elements) -> str | None:
    """The developer's name on an open listing: the line under the app's title."""
    title = find(elements, rid=f"{STORE}:id/title")
    if title is None:
        return None
    below = [e for e in elements if e.bounds[1] == title.bounds[3] and e.text]
    return below[0].text if below else None


def untouched(state: State) -> bool:
    """Nothing installed, installing, removed, updated or wished for in the store (tasks start with none)."""
    s = store_state(state)
    return not (s["installed"] or s["installing"] or s["updating"] or s["updated"] or s["wishlist"])


class _StoreTemplate(WorldTemplate):
    """A task about catalogue app {app}, its twin {twin} in the store; split on the app."""

    split_key, apps = "app", (STORE,)

    def grid(self) -> list[dict[str, Any]]:
        """Every task app with its twin."""
        return [{"app": a, "twin": store_twin(a), "phrasing": i} for i, a in enumerate(APPS)]


class _ListingAnswer(_StoreTemplate):
    """What does the listing of {app} say about {field}? Answered from its page."""

    outcome, max_steps = "answer", 12
    field: str

    def answer(self, params: Params, state: State) -> str | None:
        """The listing's value, while the store is as the task set it up."""
        return playstore.app_info(params["app"])[self.field] if untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """A figure with or without its unit."""
        return figure_matches(given, truth)


class AppRatingTemplate(_ListingAnswer):
    """What is the rating of {app} in the Play Store? ("4.3", "4.3 stars")."""

    name, field = "playstore_app_rating", "rating"
    phrasings = ("What is the rating of {app} in the Play Store?", "How many stars does {app} have on Google Play?",
                 "Check the Play Store: how well rated is the app {app}?")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing; answer with the first figure."""
        return to_listing(params["app"], elements, state) or declare(next(iter(stats(elements)), None))


class AppDownloadsTemplate(_ListingAnswer):
    """How many downloads does {app} have? ("1M+")."""

    name, field = "playstore_app_downloads", "downloads"
    phrasings = ("How many downloads does {app} have in the Play Store?",
                 "Look up {app} on Google Play: how many times has it been downloaded?",
                 "What download count does the Play Store show for {app}?")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing; answer with the downloads figure."""
        words = stats(elements)
        return to_listing(params["app"], elements, state) or declare(words[2] if len(words) > 2 else None)


class AppDeveloperTemplate(_ListingAnswer):
    """Who is the developer of {app}? Answered with the name under its title (case and spacing aside)."""

    name, field = "playstore_app_developer", "developer"
    phrasings = ("Who is the developer of {app}?", "Which company makes the app {app}? Check the Play Store",
                 "Find out in the Play Store who publishes {app}")

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The name, case, spaces and punctuation aside ("Zen Labs", "zenlabs")."""
        return "".join(c for c in given.casefold() if c.isalnum()) == "".join(
            c for c in truth.casefold() if c.isalnum())

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing; answer with the developer line."""
        return to_listing(params["app"], elements, state) or declare(developer_on(elements))


class InstallAppTemplate(_StoreTemplate):
    """Install {app}: it alone installed at the end (its twin not)."""

    name, max_steps = "playstore_install", 14
    phrasings = ("Install {app} from the Play Store", "Get the app {app} on my phone",
                 "Download {app} from Google Play")

    def check(self, params: Params, state: State) -> bool:
        """Installed: exactly the app; nothing installing, nothing else."""
        s = store_state(state)
        return s["installed"] == [params["app"]] and not s["installing"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing, Install, wait for the install."""
        s = store_state(state)
        if params["app"] in s["installed"] + s["installing"]:
            return wait()
        return to_listing(params["app"], elements, state) or press(elements, desc=f"Install {params['app']}")


class UninstallAppTemplate(_StoreTemplate):
    """Uninstall {app} (installed with its twin): the twin stays."""

    name, max_steps = "playstore_uninstall", 14
    phrasings = ("Uninstall {app}", "Remove the app {app} from my phone using the Play Store",
                 "I no longer need {app}: uninstall it")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The app and its twin installed."""
        return {STORE: {"installed": [params["app"], params["twin"]]}}

    def check(self, params: Params, state: State) -> bool:
        """Installed: just the twin; nothing installing."""
        s = store_state(state)
        return s["installed"] == [params["twin"]] and not s["installing"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing, Uninstall, confirm."""
        if params["app"] not in store_state(state)["installed"]:
            return wait()
        if state["foreground"] == STORE and state["screen"]["name"] == "uninstall":
            return press(elements, text="Uninstall", clickable=True)
        return to_listing(params["app"], elements, state) or press(elements, desc=f"Uninstall {params['app']}")


class UpdateAppTemplate(_StoreTemplate):
    """Update {app} only: it and its twin have updates; the twin's stays pending (no Update all)."""

    name, max_steps = "playstore_update_one", 14
    phrasings = ("Update {app}, but only that app",
                 "Install the pending update of {app} (leave other apps as they are)",
                 "Just update {app} in the Play Store, nothing else")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The app and its twin installed, each with an update available."""
        both = [params["app"], params["twin"]]
        return {STORE: {"installed": both, "updates": both}}

    def check(self, params: Params, state: State) -> bool:
        """Updated: the app; the twin's update still available; both installed."""
        s = store_state(state)
        return (s["updated"] == [params["app"]] and s["updates"] == [params["twin"]] and not s["updating"]
                and s["installed"] == sorted([params["app"], params["twin"]]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing, Update, wait for the update."""
        if params["app"] not in store_state(state)["updates"]:
            return wait()
        return to_listing(params["app"], elements, state) or press(elements, desc=f"Update {params['app']}")


class WishlistTemplate(_StoreTemplate):
    """Add {app} to the wishlist: it alone there, nothing installed."""

    name, max_steps = "playstore_wishlist", 12
    phrasings = ("Add {app} to my Play Store wishlist", "Put the app {app} on my wishlist in Google Play",
                 "I might get {app} later: wishlist it in the Play Store")

    def check(self, params: Params, state: State) -> bool:
        """Wishlist: exactly the app; nothing installed or installing."""
        s = store_state(state)
        return s["wishlist"] == [params["app"]] and not s["installed"] and not s["installing"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its listing, Add to wishlist."""
        if store_state(state)["wishlist"]:
            return wait()
        return to_listing(params["app"], elements, state) or press(elements, desc="Add to wishlist")


class RatingToNoteTemplate(_StoreTemplate):
    """Write {app}'s Play Store rating in a new Markor note {note}: the note holds just the figure."""

    name, max_steps = "playstore_rating_to_note", 22
    apps = (STORE, MARKOR)
    phrasings = ('Look up the rating of {app} in the Play Store and write it in a new Markor note named "{note}"',
                 "Create a note {note} in Markor holding the Play Store rating of {app}",
                 "Save {app}'s star rating from Google Play into a Markor note called {note}")

    def grid(self) -> list[dict[str, Any]]:
        """Every task app with a note name."""
        return [{**p, "note": nth(NOTES, p["phrasing"])} for p in super().grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No note of that name."""
        return {MARKOR: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The new note holds the rating (a unit allowed); no other note touched; the store unchanged."""
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"])
        return (text is not None and figure_matches(text, playstore.app_info(params["app"])["rating"])
                and only_touched(m["edits"], {params["note"]}) and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The app's listing (read the rating), then create the note and type it."""
        m = state_of(state, markor.MarkorState)
        if params["note"] in m["files"]:
            return markor_write(params["note"], playstore.app_info(params["app"])["rating"], elements, state)
        if params["app"] not in store_state(state)["viewed"]:
            return to_listing(params["app"], elements, state) or wait()
        if state["foreground"] == STORE and state["screen"]["name"] == "details" and not stats(elements):
            return wait()  # the listing still loads: the rating is read once it shows
        return markor_create("", params["note"], "Markdown", elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    AppRatingTemplate(), AppDownloadsTemplate(), AppDeveloperTemplate(), InstallAppTemplate(),
    UninstallAppTemplate(), UpdateAppTemplate(), RatingToNoteTemplate(), WishlistTemplate(),
)
"""The Play Store templates of the World suite."""
