"""Tests of the Feeder app of the simulated phone: seeding, the drawer's counts, the reader and its flags, Copy
link, adding a feed by address, editing and deleting feeds, Mark all as read, BACK and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.app_state import state_problems
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import feeder as F
from android_gym.sim.apps import feeder_data as D
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

APPS = with_apps(F.FeederApp)
ORBIT, HERALD, SKY = D.SUBSCRIBED[0], D.SUBSCRIBED[4], "https://nightskynotes.org/feed"
TASK = [{"feed": ORBIT, "title": "Probe reaches the ice moon", "author": "Ada Byrne", "date": "2026-06-09",
         "time": "08:30"},
        {"feed": ORBIT, "title": "Older space story", "author": "Ben Vos", "date": "2026-06-02", "read": True,
         "saved": True}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with Feeder open on All feeds, no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    phone.launch("Feeder")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.name}"
    return phone.tap(*element.center)


def fd(phone: SimPhone) -> dict:
    """Feeder's state."""
    return phone.state()["apps"][F.PACKAGE]


def retype(phone: SimPhone, rid: str, text: str) -> None:
    """Focus field `rid`, delete what it holds and type `text`."""
    press(phone, rid=rid)
    while phone.top.fields.get(rid):
        phone.key("delete")
    phone.type_text(text)


def show(phone: SimPhone, rid: str, text: str) -> None:
    """Open the drawer and pick the tag or feed `text`."""
    press(phone, desc=F.DRAWER_DESC)
    press(phone, rid=rid, text=text)


def test_installed_seeded_per_episode_and_typed():
    """Feeder is in the catalogue; the articles depend on the seed alone; the state fits its schema."""
    assert F.FeederApp in DEFAULT_APPS
    a, b, c = fd(make_phone(3)), fd(make_phone(3)), fd(make_phone(4))
    assert a["articles"] == b["articles"] and a["articles"] != c["articles"]
    assert {f["url"] for f in a["feeds"]} == set(D.SUBSCRIBED)
    assert all("2026-06-03" <= x["date"] <= "2026-06-09" for x in a["articles"])
    assert state_problems(make_phone(3).state()) == []


def test_drawer_groups_feeds_by_tag_with_unread_counts():
    """The drawer lists each tag with its unread count, its feeds under it; picking a tag lists its articles."""
    phone = make_phone(initial={F.PACKAGE: {"articles": TASK}})
    state = fd(phone)
    science = sum(not x["read"] for x in state["articles"] if x["feed"] in (ORBIT, D.SUBSCRIBED[1]))
    press(phone, desc=F.DRAWER_DESC)
    assert find(phone.elements(), desc=f"Science, {science}") is not None
    press(phone, rid=F.TAG_RID, text="Science")
    assert fd(phone)["showing"] == "tag:Science"
    titles = [e.text for e in phone.elements() if e.rid == F.ROW_TITLE_RID]
    assert "Probe reaches the ice moon" in titles and "Ferry timetable changes next week" not in titles


def test_reader_marks_read_saves_and_copies_the_link():
    """Opening marks read; Save and Mark as unread flip the flags; Copy link puts the link on the clipboard."""
    phone = make_phone(initial={F.PACKAGE: {"articles": TASK}})
    show(phone, F.FEED_RID, "Orbit Weekly")
    press(phone, rid=F.ROW_TITLE_RID, text="Probe reaches the ice moon")
    state = fd(phone)
    art = next(x for x in state["articles"] if x["title"] == "Probe reaches the ice moon")
    assert art["read"] and state["open"] == art["id"] and state["read_changed"] == [art["id"]]
    assert find(phone.elements(), rid=F.AUTHOR_RID).text == "By Ada Byrne"
    assert find(phone.elements(), rid=F.DATE_RID).text == "Tuesday, June 9, 2026 8:30 AM"
    press(phone, desc="Save article")
    press(phone, desc="Copy link")
    link = "https://orbitweekly.com/2026/06/probe-reaches-the-ice-moon"
    assert phone.state()["clipboard"]["text"] == link and fd(phone)["copied"] == [link]
    press(phone, desc="Mark as unread")
    state = fd(phone)
    assert state["saved_changed"] == [art["id"]] and state["read_changed"] == []


def test_adding_a_feed_by_address_unknown_and_followed_refused():
    """An unknown address and a followed one are refused; a known one is added with the tag typed."""
    phone = make_phone()
    press(phone, desc=F.MENU_DESC)
    press(phone, text="Add feed")
    phone.type_text("https://example.com/nothing")
    press(phone, text="Search")
    assert find(phone.elements(), rid=F.ERROR_RID).text == F.NOT_FOUND and not fd(phone)["added"]
    retype(phone, F.URL_RID, HERALD)
    phone.key("enter")
    assert find(phone.elements(), rid=F.ERROR_RID).text == F.ALREADY
    retype(phone, F.URL_RID, SKY)
    press(phone, text="Search")
    press(phone, rid=F.RESULT_RID, text="Night Sky Notes")
    press(phone, rid=F.TAG_FIELD_RID)
    phone.type_text("Science")
    press(phone, text="OK")
    state = fd(phone)
    assert state["added"] == [SKY] and state["showing"] == f"feed:{SKY}" and not state["edited"]
    assert {"url": SKY, "title": "Night Sky Notes", "tag": "Science"} == {
        k: v for k, v in next(f for f in state["feeds"] if f["url"] == SKY).items() if k != "unread"}
    assert any(x["feed"] == SKY for x in state["articles"])


def test_edit_and_delete_a_feed_and_mark_all_read():
    """Edit feed saves a title and tag; Mark all as read reads the feed's articles only; Delete feed removes it."""
    phone = make_phone()
    show(phone, F.FEED_RID, "Harbor City Herald")
    press(phone, desc=F.MARK_ALL_DESC)
    state = fd(phone)
    assert all(x["read"] for x in state["articles"] if x["feed"] == HERALD)
    assert all(state["articles"][k]["feed"] == HERALD for k in range(len(state["articles"]))
               if state["articles"][k]["id"] in state["read_changed"])
    press(phone, desc=F.MENU_DESC)
    press(phone, text="Edit feed")
    retype(phone, F.TAG_FIELD_RID, "Local")
    press(phone, text="OK")
    assert fd(phone)["edited"] == [{"url": HERALD, "title": "Harbor City Herald", "tag": "Local"}]
    press(phone, desc=F.MENU_DESC)
    press(phone, text="Delete feed")
    press(phone, text="Delete")
    state = fd(phone)
    assert state["removed"] == [HERALD] and state["showing"] == "all"
    assert not any(x["feed"] == HERALD for x in state["articles"])


def test_back_from_a_feed_goes_to_all_feeds():
    """BACK on a feed's list shows All feeds before it leaves the app."""
    phone = make_phone()
    show(phone, F.TAG_RID, "Tech")
    assert fd(phone)["showing"] == "tag:Tech"
    phone.key("back")
    assert fd(phone)["showing"] == "all" and phone.foreground == F.PACKAGE


def test_initial_conditions():
    """Feeds subscribed, absent and retagged; seeded articles unsaved; unknown addresses and orphan articles refused."""
    phone = make_phone(initial={F.PACKAGE: {"absent": [HERALD], "seeded_saved": False, "articles": TASK,
                                            "feeds": [{"url": SKY, "tag": "Space"}, {"url": ORBIT, "tag": "Space"}]}})
    state = fd(phone)
    assert HERALD not in {f["url"] for f in state["feeds"]} and not state["added"]
    assert {f["url"]: f["tag"] for f in state["feeds"]}[ORBIT] == "Space"
    assert [x["title"] for x in state["articles"] if x["saved"]] == ["Older space story"]
    with pytest.raises(ConfigError):
        make_phone(initial={F.PACKAGE: {"feeds": [{"url": "https://nope.org/rss"}]}})
    with pytest.raises(ConfigError):
        make_phone(initial={F.PACKAGE: {"absent": [ORBIT], "articles": TASK}})
