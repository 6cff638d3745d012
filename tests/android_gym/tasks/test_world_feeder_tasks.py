"""Tests of the Feeder templates of the World suite (`feeder_tasks`, `feeder_cross_tasks`): per template what wins
and which near miss loses: the twin article, another feed or tag, a count off by one, an extra change, a wrong value.
The World contract test plays each expert under perturbations; these tests pin the checks and answers."""  # noqa: D205, D209

from __future__ import annotations

import datetime
from functools import cache
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import feeder_data as D
from android_gym.tasks.base import Task
from android_gym.tasks.expert import fill
from android_gym.tasks.world import feeder_cross_tasks as X
from android_gym.tasks.world import feeder_tasks as T
from android_gym.tasks.world.base import press
from android_gym.tasks.world.feeder_expert import (
    edit_feed,
    find_article,
    subscribe,
    to_article,
    to_showing,
    unsubscribe,
)
from android_gym.tasks.world.joplin_expert import to_list
from android_gym.tasks.world.messaging_expert import new_email, person, send_text
from android_gym.tasks.world.notes_expert import MARKOR, markor_create, markor_write, tasks_add
from android_gym.testing.rollout import drive, run_episode


@cache
def phone() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def start(template: Any, k: int = 0) -> tuple[Task, SimDevice]:
    """Train task `k` of `template` on a phone reset to its initial conditions."""
    task = template.tasks("train")[k]
    device = phone()
    device.reset(0, task.initial)
    return task, device


def says(text: str) -> Action:
    """Declare the task complete answering `text`."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


def play(device: SimDevice, step: Any, done: Any) -> dict:
    """Drive `device` with the expert step `step(elements, state)` until `done(state)`; the final state."""
    drive(device, step, done)
    return device.state()


def feeder(state: dict) -> dict:
    """Feeder's state."""
    return state["apps"][D.PACKAGE]


# -- answers ----------------------------------------------------------------------------------------------------------
def test_latest_author_accepts_the_name_with_or_without_by_and_refuses_the_twin_and_a_changed_feed():
    """The newest author of the feed wins ("By ..." too); the twin's author (newest of all) loses; not after an edit."""
    task, device = start(T.LatestAuthorTemplate())
    p, state = task.params, device.state()
    assert task.check(state, says(p["author"])) and task.check(state, says(f"by {p['author'].upper()}"))
    assert not task.check(state, says(p["twin_author"])) and not task.check(state, says(f"Written {p['author']}"))
    state = play(device, lambda e, s: edit_feed(p["feed"], "Renamed", D.CATALOGUE[p["feed"]]["tag"], e, s),
                 lambda s: feeder(s)["edited"])
    assert not task.check(state, says(p["author"]))


def test_unread_in_tag_counts_the_tags_feeds_and_no_answer_once_an_article_is_read():
    """The count of the tag's unread articles wins; one more, or All feeds' count, loses; reading one voids it."""
    task, device = start(T.UnreadInTagTemplate(), 7)
    p, state = task.params, device.state()
    tagged = {u for u, f in D.CATALOGUE.items() if f["tag"] == p["tag"]}
    count = sum(not a["read"] for a in feeder(state)["articles"] if a["feed"] in tagged)
    total = sum(not a["read"] for a in feeder(state)["articles"])
    assert task.check(state, says(str(count))) and task.check(state, says(f"{count} articles"))
    assert not task.check(state, says(str(count + 1))) and not task.check(state, says(str(total)))
    title = next(a["title"] for a in feeder(state)["articles"] if a["feed"] in tagged and not a["read"])
    state = play(device, lambda e, s: to_article(title, "all", e, s) or Action.key(ActionType.WAIT),
                 lambda s: feeder(s)["opened"])
    assert not task.check(state, says(str(count))) and not task.check(state, says(str(count - 1)))


def test_saved_on_day_is_the_saved_article_of_that_day_only():
    """The saved article of the day wins (any case); the saved twin of another day and the unsaved one lose."""
    task, device = start(T.SavedOnDayTemplate())
    p, state = task.params, device.state()
    assert task.check(state, says(p["title"])) and task.check(state, says(p["title"].lower()))
    assert not task.check(state, says(p["twin"])) and not task.check(state, says(p["other"]))
    assert {a["title"] for a in feeder(state)["articles"] if a["saved"]} == {p["title"], p["twin"]}


def test_article_feed_is_the_feed_of_the_article_not_of_its_twin():
    """The article's feed title wins; the twin's feed loses."""
    task, device = start(T.ArticleFeedTemplate())
    p, state = task.params, device.state()
    assert task.check(state, says(D.CATALOGUE[p["feed"]]["title"]))
    assert not task.check(state, says(D.CATALOGUE[p["other"]]["title"]))


def test_article_day_accepts_the_usual_writings_of_the_day_and_refuses_the_twins():
    """The day wins as the reader writes it, as a weekday, "June 8" or ISO; the twin's day and a near day lose."""
    task, device = start(T.ArticleDayTemplate())
    p, state = task.params, device.state()
    day = datetime.date.fromisoformat(p["day"])
    for given in (f"{day:%A}, {day:%B} {day.day}, {day.year} 10:15 AM", f"{day:%A}", f"{day:%B} {day.day}",
                  p["day"], f"{day.day} {day:%b}"):
        assert task.check(state, says(given)), given
    twin = datetime.date.fromisoformat(p["twin_day"])
    near = day + datetime.timedelta(days=1) if day + datetime.timedelta(days=1) != twin else day - \
        datetime.timedelta(days=1)
    for given in (f"{twin:%A}", f"{twin:%B} {twin.day}", f"{near:%B} {near.day}", f"{day:%B}", "last week"):
        assert not task.check(state, says(given)), given


def test_saved_count_counts_the_saved_articles_only():
    """The number of saved articles wins; one more (an unsaved one counted) loses; not once a flag changed."""
    task, device = start(T.SavedCountTemplate(), 5)
    p, state = task.params, device.state()
    assert sum(a["saved"] for a in feeder(state)["articles"]) == p["saved"]
    assert task.check(state, says(str(p["saved"]))) and not task.check(state, says(str(p["saved"] + 1)))
    title = next(a["title"] for a in feeder(state)["articles"] if not a["saved"] and a["date"] == T.TODAY)
    state = play(device, lambda e, s: to_article(title, "all", e, s) or press(e, desc="Save article"),
                 lambda s: feeder(s)["saved_changed"])
    assert not task.check(state, says(str(p["saved"]))) and not task.check(state, says(str(p["saved"] + 1)))


# -- edits ------------------------------------------------------------------------------------------------------------
def test_subscribe_wants_the_address_and_the_tag():
    """The expert wins; subscribing under another tag, or another address, loses."""
    template = T.SubscribeTemplate()
    task, device = start(template)
    assert run_episode(task, 0, device=device).success
    p = task.params
    _, device = start(template)
    state = play(device, lambda e, s: subscribe(p["url"], "Elsewhere", e, s), lambda s: feeder(s)["added"])
    assert not task.check(state, None)
    other = next(u for u in T.UNSUBSCRIBED if u != p["url"])
    _, device = start(template)
    state = play(device, lambda e, s: subscribe(other, p["tag"], e, s), lambda s: feeder(s)["added"])
    assert not task.check(state, None)


def test_unsubscribe_wants_that_feed_alone():
    """Deleting the feed wins; deleting the next feed loses, and so does deleting both."""
    template = T.UnsubscribeTemplate()
    task, device = start(template)
    p = task.params
    other = T.FEEDS[(T.FEEDS.index(p["feed"]) + 1) % len(T.FEEDS)]
    state = play(device, lambda e, s: unsubscribe(p["feed"], e, s), lambda s: feeder(s)["removed"])
    assert task.check(state, None)
    state = play(device, lambda e, s: unsubscribe(other, e, s), lambda s: len(feeder(s)["removed"]) == 2)
    assert not task.check(state, None)
    _, device = start(template)
    state = play(device, lambda e, s: unsubscribe(other, e, s), lambda s: feeder(s)["removed"])
    assert not task.check(state, None)


def test_retitle_keeps_the_tag_and_wants_the_exact_title():
    """The new title wins; a title with a typo, or the right title with the tag changed too, loses."""
    template = T.RetitleFeedTemplate()
    task, device = start(template)
    p, tag = task.params, D.CATALOGUE[task.params["feed"]]["tag"]
    state = play(device, lambda e, s: edit_feed(p["feed"], p["new"], tag, e, s), lambda s: feeder(s)["edited"])
    assert task.check(state, None)
    for title, new_tag in ((p["new"] + "s", tag), (p["new"], "Other")):
        _, device = start(template)
        state = play(device, lambda e, s, title=title, new_tag=new_tag: edit_feed(p["feed"], title, new_tag, e, s),
                     lambda s: feeder(s)["edited"])
        assert not task.check(state, None), (title, new_tag)


def test_retag_wants_the_tag_on_that_feed_with_its_title_kept():
    """The tag wins (any case); the tag on the next feed, or the title changed too, loses."""
    template = T.RetagFeedTemplate()
    task, device = start(template)
    p = task.params
    state = play(device, lambda e, s: edit_feed(p["feed"], p["feed_title"], p["tag"].upper(), e, s),
                 lambda s: feeder(s)["edited"])
    assert task.check(state, None)
    other = T.FEEDS[(T.FEEDS.index(p["feed"]) + 1) % len(T.FEEDS)]
    for url, title in ((other, D.CATALOGUE[other]["title"]), (p["feed"], "Mine")):
        _, device = start(template)
        state = play(device, lambda e, s, url=url, title=title: edit_feed(url, title, p["tag"], e, s),
                     lambda s: feeder(s)["edited"])
        assert not task.check(state, None), url


def test_mark_feed_read_wants_every_article_of_the_feed_and_no_other():
    """Mark all as read on the feed wins; on All feeds it loses (other feeds read too); one article alone loses."""
    template = T.MarkFeedReadTemplate()
    task, device = start(template)
    assert run_episode(task, 0, device=device).success
    p = task.params
    _, device = start(template)
    state = play(device, lambda e, s: to_showing("all", e, s) or press(e, desc="Mark all as read"),
                 lambda s: all(a["read"] for a in feeder(s)["articles"]))
    assert not task.check(state, None)
    _, device = start(template)
    title = T.nth(T.TITLES, p["phrasing"])[0]
    state = play(device, lambda e, s: to_article(title, f"feed:{p['feed']}", e, s) or Action.key(ActionType.WAIT),
                 lambda s: feeder(s)["opened"])
    assert not task.check(state, None)


def test_save_article_wants_that_article_saved_not_its_twin():
    """Saving the article wins; saving the twin loses, and so does saving both."""
    template = T.SaveArticleTemplate()
    task, device = start(template)
    assert run_episode(task, 0, device=device).success
    p = task.params
    def save(title: str) -> Any:
        return lambda e, s: to_article(title, f"feed:{p['feed']}", e, s) or press(e, desc="Save article")

    state = play(device, save(p["twin"]), lambda s: find_article(s, p["twin"])["saved"])
    assert not task.check(state, None)
    _, device = start(template)
    state = play(device, save(p["twin"]), lambda s: find_article(s, p["twin"])["saved"])
    assert not task.check(state, None)


# -- across apps ------------------------------------------------------------------------------------------------------
def test_latest_to_note_wants_title_and_link_of_the_feeds_latest():
    """The expert wins; a note with the twin's title and link, or with the title alone, loses."""
    template = X.LatestToNoteTemplate()
    task, device = start(template)
    assert run_episode(task, 0, device=device).success
    p = task.params
    for twin_first, link in ((True, True), (False, False)):
        _, device = start(template)
        title = p["twin"] if twin_first else p["title"]
        shown = "feed:" + (p["other"] if twin_first else p["feed"])

        def write(e: Any, s: dict, title: str = title, shown: str = shown, link: bool = link) -> Action:
            a = find_article(s, title)
            if a["id"] not in feeder(s)["opened"]:
                return to_article(title, shown, e, s) or Action.key(ActionType.WAIT)
            if p["note"] in s["apps"][MARKOR]["files"]:
                return markor_write(p["note"], a["title"] + ("\n" + a["link"] if link else ""), e, s)
            return markor_create("", p["note"], "Markdown", e, s)

        state = play(device, write, lambda s: s["apps"][MARKOR]["files"].get(p["note"]) and any(
            ed["path"] == p["note"] and ed["op"] != "create" for ed in s["apps"][MARKOR]["edits"]))
        assert not task.check(state, None), (twin_first, link)


def test_latest_to_text_and_link_to_email_refuse_the_twin():
    """The experts win; a text of the twin's title and an email of the twin's link lose."""
    text = X.LatestToTextTemplate()
    task, device = start(text)
    assert run_episode(task, 0, device=device).success
    p = task.params
    _, device = start(text)
    state = play(device, lambda e, s: send_text(person(p["person"]), p["twin"], e, s),
                 lambda s: s["apps"][X.M.PACKAGE]["sent"])
    assert not task.check(state, None)
    mail = X.LinkToEmailTemplate()
    task, device = start(mail)
    assert run_episode(task, 0, device=device).success
    q = task.params
    _, device = start(mail)
    twin = find_article(device.state(), q["twin"])
    state = play(device, lambda e, s: new_email([person(q["to"])], q["title"], twin["link"], e, s),
                 lambda s: s["apps"][X.G.PACKAGE]["sent"])
    assert not task.check(state, None)


def test_saved_to_task_wants_read_and_the_saved_title_in_that_list():
    """The expert wins; the saved twin's title, or the right title in another list, loses."""
    template = X.SavedToTaskTemplate()
    task, device = start(template)
    assert run_episode(task, 0, device=device).success
    p = task.params
    other = next(name for name in X.todo.LISTS if name != p["list"])
    for title, where in ((f"Read {p['twin']}", p["list"]), (f"Read {p['title']}", other)):
        _, device = start(template)
        state = play(device, lambda e, s, where=where, title=title: tasks_add(where, title, None, "none", e, s),
                     lambda s: s["apps"][X.TASKS]["edits"])
        assert not task.check(state, None), (title, where)


def test_saved_to_joplin_wants_the_saved_articles_title_and_link_in_that_notebook():
    """The expert wins; the note with the twin's link, or in another notebook, loses."""
    template = X.SavedToJoplinTemplate()
    task, device = start(template)
    assert run_episode(task, 0, device=device).success
    p = task.params
    twin = find_article(device.state(), p["twin"])
    assert twin is not None
    right = find_article(device.state(), p["title"])
    other = next(f for f in device.state()["apps"][X.J.PACKAGE]["folders"] if f != p["folder"])
    for link, folder in ((twin["link"], p["folder"]), (right["link"], other)):
        _, device = start(template)

        def write(e: Any, s: dict, link: str = link, folder: str = folder) -> Action:
            screen = s["screen"]
            if s["foreground"] == X.J.PACKAGE and screen["name"] == "edit":
                return (fill(e, s, X.J.TITLE_INPUT_RID, p["title"]) or fill(e, s, X.J.BODY_INPUT_RID, link)
                        or press(e, desc="Save"))
            if s["foreground"] == X.J.PACKAGE and screen["name"] == "notes" and screen["args"]["fab"]:
                return press(e, text="New note")
            return to_list(folder, e, s) or press(e, desc=X.J.FAB_DESC)

        state = play(device, write, lambda s: s["apps"][X.J.PACKAGE]["edits"])
        assert not task.check(state, None), folder
