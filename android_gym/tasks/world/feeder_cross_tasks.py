"""World-suite tasks that carry a Feeder article into another app (issue 48): a feed's latest article's title and
link into a new Markor note, its title texted to someone (Messages), an article's link emailed (Gmail), a to-do to
read the article saved from a feed (Tasks), and that article kept in a new Joplin note.

The goal names where the article is (a feed, the saved articles), never what must be written: the agent reads it in
Feeder. A twin article with a similar title sits in another feed or is not saved (the near miss); checks refuse a text,
note, email or task that names the twin, and any change to Feeder's feeds or saved flags (reading is allowed). They
follow `feeder_tasks`' conventions and use its expert steps (`feeder_expert`).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps import joplin_data as JD
from android_gym.sim.apps import markor, todo
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import fill, wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.feeder_expert import (
    AUTHORS,
    FEEDER,
    FEEDS,
    TITLES,
    article,
    feeder_state,
    feeds_untouched,
    find_article,
    title_of,
    to_article,
)
from android_gym.tasks.world.joplin_expert import joplin_state, note_spec, to_list
from android_gym.tasks.world.messaging_expert import (
    conversation,
    holds,
    mail_contacts,
    names,
    namesake,
    new_email,
    one_mail,
    person,
    send_text,
    texts_ok,
)
from android_gym.tasks.world.notes_expert import MARKOR, TASKS, find_tasks, markor_create, markor_write, only_touched
from android_gym.tasks.world.notes_expert import tasks_add as add_task

TODAY = "2026-06-10"
NOTES = ("to_read.md", "article.md", "reading_list.md", "news_link.md", "for_later.md", "saved_story.md",
         "link_for_later.md", "story.md")


def latest_grid(extra: str) -> list[dict[str, Any]]:
    """Every title twice: its feed, the twin's feed, and one `extra` value (a person or a note) per instance."""
    out = []
    for i, (t, w) in enumerate(TITLES):
        for k in range(2):
            feed = nth(FEEDS, i + 3 * k)
            out.append({"key": f"{t}/{k}", "title": t, "twin": w, "feed": feed, "feed_title": title_of(feed),
                        "other": nth(FEEDS, i + 3 * k + 1), "phrasing": i + k,
                        extra: names(f"feeder:{t}:{k}", 1)[0] if extra == "person" else nth(NOTES, i + k)})
    return out


def latest_articles(params: Params) -> dict[str, Any]:
    """Feeder's set-up: the article, newest of its feed; the twin later today in the next feed."""
    p = params
    return {"articles": [article(p["feed"], p["title"], nth(AUTHORS, len(p["title"])), TODAY, "07:30"),
                         article(p["other"], p["twin"], nth(AUTHORS, len(p["twin"]) + 1), TODAY, "08:45")]}


def kept(state: State) -> bool:
    """No feed and no saved flag changed in Feeder (articles may have been read)."""
    return feeds_untouched(state) and not feeder_state(state)["saved_changed"]


def read_first(title: str, showing: str, elements: Elements, state: State) -> Action | None:
    """Open the article `title` from the list `showing` until it has been opened this episode (None after)."""
    a = find_article(state, title)
    if a is None:
        return wait()
    return (to_article(title, showing, elements, state) or wait()) if a["id"] not in feeder_state(state)["opened"] \
        else None


class LatestToNoteTemplate(WorldTemplate):
    """Save the title and link of {feed_title}'s latest article in a new Markor note {note}."""

    name, max_steps, split_key = "feeder_latest_to_note", 22, "key"
    apps = (FEEDER, MARKOR)
    phrasings = ("Put the title and link of the latest {feed_title} article from Feeder in a new Markor note called "
                 "{note}", "Create a Markor note {note} with the newest {feed_title} story's title and its link",
                 "Save the most recent article of {feed_title} for later: its title and link in a note {note} in "
                 "Markor")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a note name."""
        return latest_grid("note")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article and its twin; no note of that name."""
        return {FEEDER: latest_articles(params), MARKOR: {"absent": [params["note"]]}}

    def check(self, params: Params, state: State) -> bool:
        """The note (in the root) holds the article's title and link, not the twin's; no other note edited; Feeder's
        feeds and saved flags kept."""  # noqa: D205, D209
        a, twin = find_article(state, params["title"]), find_article(state, params["twin"])
        text = state_of(state, markor.MarkorState)["files"].get(params["note"], "")
        return (a is not None and twin is not None and holds(text, a["title"]) and holds(text, a["link"])
                and not holds(text, twin["title"]) and not holds(text, twin["link"])
                and only_touched(state_of(state, markor.MarkorState)["edits"], {params["note"]}) and kept(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the article in its feed, then create the note and type the title and link."""
        step = read_first(params["title"], f"feed:{params['feed']}", elements, state)
        if step is not None:
            return step
        a = find_article(state, params["title"])
        if params["note"] in state_of(state, markor.MarkorState)["files"]:
            return markor_write(params["note"], f"{a['title']}\n{a['link']}", elements, state)
        return markor_create("", params["note"], "Markdown", elements, state)


class LatestToTextTemplate(WorldTemplate):
    """Text {person} the title of {feed_title}'s latest article."""

    name, max_steps, split_key = "feeder_latest_to_text", 19, "key"
    apps = (FEEDER, M.PACKAGE)
    phrasings = ("Text {person} the title of the latest {feed_title} article in Feeder",
                 "Send {person} a message with the headline of the newest {feed_title} story",
                 "{person} asked what {feed_title} posted last: look it up in Feeder and text them the title")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a person."""
        return latest_grid("person")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article and its twin; a conversation with the person."""
        p = person(params["person"])
        return {FEEDER: latest_articles(params),
                M.PACKAGE: {"threads": [conversation(p, ("Seen anything good to read?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the title (not the twin's); Feeder's feeds and saved flags kept."""
        sent = state_of(state, M.MessagesState)["sent"]
        return (texts_ok(state, [(params["person"], params["title"])], contains=True)
                and not any(holds(s["text"], params["twin"]) for s in sent) and kept(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the feed's latest article, then text its title."""
        step = read_first(params["title"], f"feed:{params['feed']}", elements, state)
        a = find_article(state, params["title"])
        return step or send_text(person(params["person"]), a["title"], elements, state)


class LinkToEmailTemplate(WorldTemplate):
    """Email {to} the link of the Feeder article {title}."""

    name, max_steps, split_key = "feeder_link_to_email", 22, "key"
    apps = (FEEDER, G.PACKAGE)
    phrasings = ('Email {to} the link to the article "{title}" from Feeder',
                 "Send {to} an email with the address of the {title} story in my news reader",
                 'Find "{title}" in Feeder and email its link to {to}')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a person; the twin in another feed."""
        out = latest_grid("person")
        return [{**{k: v for k, v in p.items() if k != "person"}, "to": p["person"]} for p in out]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article and its twin; the person and a namesake among Gmail's contacts."""
        return {FEEDER: latest_articles(params),
                G.PACKAGE: {"contacts": mail_contacts(params["to"], namesake(params["to"]))}}

    def check(self, params: Params, state: State) -> bool:
        """The only email sent: new, to {to}, holding the article's link (not the twin's); Feeder kept."""
        a, twin = find_article(state, params["title"]), find_article(state, params["twin"])
        m = one_mail(state, "new", [person(params["to"])["email"]])
        said = f"{m['subject']} {m['body']}" if m is not None else ""
        return (m is not None and a is not None and twin is not None and holds(said, a["link"])
                and not holds(said, twin["link"]) and kept(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the article from All feeds, then email its link with its title as the subject."""
        step = read_first(params["title"], "all", elements, state)
        a = find_article(state, params["title"])
        return step or new_email([person(params["to"])], a["title"], a["link"], elements, state)


class SavedToTaskTemplate(WorldTemplate):
    """Add "Read <title>" to Tasks list {list} for the article saved from {feed_title}."""

    name, max_steps, split_key = "feeder_saved_to_task", 23, "key"
    apps = (FEEDER, TASKS)
    phrasings = ('I saved an article from {feed_title} in Feeder: add a task "Read <its title>" to my {list} list',
                 "Make a to-do in Tasks' {list} list to read the {feed_title} article I saved, titled Read followed "
                 "by the article's title",
                 'Add the saved {feed_title} story to my {list} list in Tasks as "Read <title>"')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a list."""
        return [{**p, "list": nth(todo.LISTS, p["phrasing"] + int(p["key"][-1]))}
                for p in latest_grid("note")]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's articles saved: the feed's, and the twin in the next feed; an unsaved one in the feed."""
        p = params
        return {FEEDER: {"seeded_saved": False, "articles": [
            article(p["feed"], p["title"], nth(AUTHORS, 2), "2026-06-08", "10:00", read=True, saved=True),
            article(p["other"], p["twin"], nth(AUTHORS, 3), "2026-06-09", "10:00", saved=True),
            article(p["feed"], nth(TITLES, len(p["title"]))[1] + " (update)", nth(AUTHORS, 4), TODAY, "06:00")]},
                TASKS: {"absent": [f"Read {p['title']}", f"Read {p['twin']}"]}}

    def check(self, params: Params, state: State) -> bool:
        """One open task "Read <title>" in the list (case and outer spaces aside), no other task edited; Feeder kept."""
        t, want = state_of(state, todo.TasksState), f"Read {params['title']}"
        found = find_tasks(t["lists"], params["list"], want)
        return (len(found) == 1 and not found[0]["completed"] and kept(state)
                and all(e["title"].strip().casefold() == want.casefold() for e in t["edits"]) and len(t["edits"]) >= 1)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Find the feed's saved article in Saved articles, then add the task."""
        step = read_first(params["title"], "saved", elements, state)
        return step or add_task(params["list"], f"Read {params['title']}", None, "none", elements, state)


class SavedToJoplinTemplate(WorldTemplate):
    """Keep the article saved from {feed_title} in a new Joplin note in notebook {folder}: titled as the article, its
    link in the body."""  # noqa: D205, D209

    name, max_steps, split_key = "feeder_saved_to_joplin", 26, "key"
    apps = (FEEDER, J.PACKAGE)
    phrasings = ("Make a Joplin note in my {folder} notebook for the article I saved from {feed_title}: the article's "
                 "title as the note's title and its link as the body",
                 "Copy the {feed_title} article I saved in Feeder into a new note in Joplin's {folder} notebook, "
                 "titled like the article, with its link",
                 "In Joplin's {folder} notebook, add a note with the title and link of my saved {feed_title} story")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with a notebook."""
        return [{**p, "folder": nth(JD.FOLDERS, p["phrasing"] + int(p["key"][-1]))} for p in latest_grid("note")]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's articles saved: the feed's, and the twin in the next feed; the notebook with a note."""
        p = params
        return {FEEDER: {"seeded_saved": False, "articles": [
            article(p["feed"], p["title"], nth(AUTHORS, 5), "2026-06-05", "16:00", saved=True),
            article(p["other"], p["twin"], nth(AUTHORS, 6), "2026-06-09", "16:00", saved=True)]},
                J.PACKAGE: {"notes": [note_spec("Reading ideas", p["folder"], "Articles to read later.")]}}

    def check(self, params: Params, state: State) -> bool:
        """One change in Joplin: a note created in the notebook, titled as the article (case and outer spaces aside),
        its body holding the article's link; Feeder's feeds and saved flags kept."""  # noqa: D205, D209
        a = find_article(state, params["title"])
        edits = joplin_state(state)["edits"]
        if a is None or len(edits) != 1 or edits[0]["action"] != "created" or not kept(state):
            return False
        note = next((n for n in joplin_state(state)["notes"] if n["id"] == edits[0]["id"]), None)
        return (note is not None and note["title"].strip().casefold() == a["title"].casefold()
                and note["folder"] == params["folder"] and not note["is_todo"] and holds(note["body"], a["link"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Read the saved article, then the notebook, Add, New note, the title and the link, Save."""
        step = read_first(params["title"], "saved", elements, state)
        if step is not None:
            return step
        a = find_article(state, params["title"])
        if joplin_state(state)["edits"]:
            return wait()
        screen = state["screen"]
        if state["foreground"] == J.PACKAGE and screen["name"] == "edit" and not state.get("dialog"):
            return (fill(elements, state, J.TITLE_INPUT_RID, a["title"])
                    or fill(elements, state, J.BODY_INPUT_RID, a["link"]) or press(elements, desc="Save"))
        if (state["foreground"] == J.PACKAGE and screen["name"] == "notes" and screen["args"]["fab"]
                and screen["args"]["folder"] == params["folder"] and not state.get("dialog")):
            return press(elements, text="New note")
        return to_list(params["folder"], elements, state) or press(elements, desc=J.FAB_DESC)


TEMPLATES: tuple[TaskTemplate, ...] = (
    LatestToNoteTemplate(), LatestToTextTemplate(), LinkToEmailTemplate(), SavedToTaskTemplate(),
    SavedToJoplinTemplate(),
)
"""The Feeder templates of the world suite that carry an article into another app."""
