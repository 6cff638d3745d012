"""Tests of the Messages and Gmail apps: seeded data, screens, state transitions, back behaviour, XML and pixels."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.tasks.goals import GoalMatch, ParsedGoals, parse_goal
from android_gym.testing.rollout import run_episode
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(M.MessagesApp, G.GmailApp)
ANN = {"name": "Ann Weber", "number": "(646) 555-4321"}
BOB = {"name": "Bob Novak", "email": "bob.novak7@proton.me"}


def make_phone(seed: int = 3, initial: dict | None = None) -> SimPhone:
    """A reset phone with both apps and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> None:
    """Tap the first element matching `criteria` (as `expert.find` takes them); fail if there is none or it is inert."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    assert phone.tap(*element.center), criteria


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def messages(phone: SimPhone) -> dict:
    """Messages' state."""
    return phone.state()["apps"][M.PACKAGE]


def gmail(phone: SimPhone) -> dict:
    """Gmail's state."""
    return phone.state()["apps"][G.PACKAGE]


# -- both apps ---------------------------------------------------------------------------------------------------------
def test_seeded_data_is_the_same_for_a_seed_and_differs_across_seeds() -> None:
    """Conversations and the inbox are a function of the seed."""
    a, b, c = make_phone(7), make_phone(7), make_phone(8)
    for app in (messages, gmail):
        assert app(a) == app(b)
        assert app(a) != app(c)
    assert 4 <= len(messages(a)["threads"]) <= 6 and 8 <= len(gmail(a)["inbox"]) <= 11


def test_the_episode_rng_is_untouched() -> None:
    """Reset, building screens and reading state draw nothing from the episode RNG."""
    mine = make_phone(5, {M.PACKAGE: {"threads": [{**ANN, "messages": [{"from_me": False, "text": "Hi"}],
                                                    "unread": True}]}, G.PACKAGE: {"contacts": [BOB]}})
    for name in ("Messages", "Gmail"):
        mine.launch(name)
        mine.elements(), mine.xml(), mine.state()
    plain = SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(5)
    # the generator's whole state: a bounded integer draw uses half a word and keeps the rest buffered, so one
    # extra draw can leave the next random() equal
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


@pytest.mark.parametrize(("package", "settings"), [
    (M.PACKAGE, {"archived": []}), (M.PACKAGE, {"threads": [{"name": "X", "number": "1"}]}),
    (G.PACKAGE, {"labels": []}), (G.PACKAGE, {"emails": [{"sender": "X"}]})])
def test_apply_refuses_unknown_or_incomplete_settings(package: str, settings: dict) -> None:
    """Unknown keys and incomplete items are refused (the phone reports a ConfigError)."""
    with pytest.raises(ConfigError):
        make_phone(initial={package: settings})


def test_both_apps_open_by_label_and_alias() -> None:
    """"sms" and "email" are aliases; Gmail opens on its inbox (the "check my email" goal's screen)."""
    phone = make_phone()
    assert phone.find_app("sms").package == M.PACKAGE and phone.find_app("email").package == G.PACKAGE
    phone.launch("email")
    assert gmail(phone)["screen"] == "inbox" and gmail(phone)["folder"] == "inbox"


def test_check_my_email_goal_opens_the_inbox() -> None:
    """The goal family "email" is solved with Gmail in front, on the inbox."""
    match = parse_goal("check my email")
    assert isinstance(match, GoalMatch) and match.family == "email"
    task = ParsedGoals(match.template, "file:test", [{"goal": match.line, "params": match.params}]).tasks("train")[0]
    device = SimDevice("default", apps=APPS)
    assert run_episode(task, seed=3, device=device).success
    assert device.state()["apps"][G.PACKAGE]["screen"] == "inbox"


def test_xml_lists_what_the_screens_show() -> None:
    """The uiautomator dump parses and names the conversations and emails on screen."""
    phone = make_phone()
    phone.launch("Messages")
    shown = {e.label for e in parse_uiautomator_xml(phone.xml())}
    assert {t["name"] for t in messages(phone)["threads"][:5]} <= shown and "Start chat" in shown
    phone.launch("Gmail")
    shown = {e.label for e in parse_uiautomator_xml(phone.xml())}
    assert {m["subject"] for m in gmail(phone)["inbox"][:5]} <= shown and "Search in mail" in shown


def test_pixels_are_drawn_where_the_views_are() -> None:
    """A conversation row, a bubble and an inbox row are not blank in the screenshot."""
    device = SimDevice("none", apps=APPS)
    device.reset(3)

    def painted(**criteria: str) -> bool:
        e = find(device.ui_elements(), **criteria)
        x0, y0, x1, y1 = (v // 2 for v in e.bounds)
        return float(device.screenshot(540)[y0:y1, x0:x1].std()) > 5

    device.phone.launch("Messages")
    assert painted(rid=M.NAME_RID) and painted(desc="Start chat")
    device.phone.tap(*find(device.ui_elements(), rid=M.ROW_RID).center)
    assert painted(rid=M.MESSAGE_RID) and painted(rid=M.COMPOSE_RID)
    device.phone.launch("Gmail")
    assert painted(rid=G.ROW_RID) and painted(desc="Compose")


# -- Messages ----------------------------------------------------------------------------------------------------------
def test_list_shows_threads_newest_first_with_unread_marks() -> None:
    """Rows follow the state's order; unread rows carry a badge and a bold name."""
    phone = make_phone(initial={M.PACKAGE: {"threads": [{**ANN, "unread": True, "messages": [
        {"from_me": True, "text": "Hello?"}, {"from_me": False, "text": "Hi there"}]}]}})
    phone.launch("Messages")
    rows = [e for e in phone.elements() if e.rid == M.ROW_RID]
    threads = messages(phone)["threads"]
    assert [r.desc.split(",")[0] for r in rows] == [t["name"] for t in threads][:len(rows)]
    ann = next(r for r in rows if r.desc.startswith("Ann Weber"))
    assert ann.desc == f"Ann Weber, Hi there, {ann.desc.split(', ')[2]}, 1 unread"
    name = phone.tree().find(lambda v: v.rid == M.NAME_RID and v.text == "Ann Weber")
    assert name.style == "title"


def test_a_thread_opens_read_and_sending_appends_and_moves_it_to_the_top() -> None:
    """Opening marks the thread read; Send SMS appends the message and records it; BACK returns to the list."""
    phone = make_phone(initial={M.PACKAGE: {"threads": [{**ANN, "unread": True, "messages": [
        {"from_me": False, "text": "One"}, {"from_me": True, "text": "Two"}, {"from_me": False, "text": "Three"}]}]}})
    phone.launch("Messages")
    press(phone, rid=M.NAME_RID, text="Ann Weber")
    state = messages(phone)
    assert state["screen"] == "thread" and state["thread"] == ANN["number"]
    assert not next(t for t in state["threads"] if t["name"] == "Ann Weber")["unread"]
    bubbles = [e for e in phone.elements() if e.rid == M.MESSAGE_RID]
    assert [b.desc for b in bubbles] == ["Ann Weber said: One", "You said: Two", "Ann Weber said: Three"]
    assert not find(phone.elements(), desc="Send SMS").enabled  # nothing typed yet
    press(phone, rid=M.COMPOSE_RID)
    phone.type_text("Four")
    assert find(phone.elements(), desc="Send SMS").bounds[3] <= 2268 - 760  # the bar sits above the keyboard
    press(phone, desc="Send SMS")
    state = messages(phone)
    assert state["sent"] == [{"name": "Ann Weber", "number": ANN["number"], "text": "Four"}]
    assert state["threads"][0]["name"] == "Ann Weber" and state["threads"][0]["messages"][-1] == {
        "from_me": True, "text": "Four"}
    assert phone.top.fields[M.COMPOSE_RID] == ""
    phone.key("back")  # closes the keyboard first
    phone.key("back")
    assert messages(phone)["screen"] == "home"


def test_a_new_conversation_finds_contacts_by_name_or_number() -> None:
    """"Start chat" lists contacts; typing filters by name or digits; a pick opens the thread, BACK the list."""
    phone = make_phone(initial={M.PACKAGE: {"contacts": [ANN]}})
    phone.launch("Messages")
    press(phone, desc="Start chat")
    assert phone.top.focus == M.TO_RID and phone.keyboard_up
    phone.type_text("ann w")
    assert [e.desc for e in phone.elements() if e.rid == M.CONTACT_RID] == ["Ann Weber, (646) 555-4321"]
    phone.top.fields[M.TO_RID] = ""
    phone.type_text("555-4321")
    press(phone, rid=M.CONTACT_RID)
    assert messages(phone)["screen"] == "thread" and "Start a conversation with Ann Weber" in labels(phone)
    press(phone, rid=M.COMPOSE_RID)
    phone.type_text("Hi Ann")
    press(phone, desc="Send SMS")
    assert messages(phone)["threads"][0]["name"] == "Ann Weber"
    phone.key("back")
    phone.key("back")
    assert messages(phone)["screen"] == "home"


def test_enter_with_a_typed_number_opens_a_chat_with_it() -> None:
    """A number nobody has starts a conversation with the bare number."""
    phone = make_phone()
    phone.launch("Messages")
    press(phone, desc="Start chat")
    phone.type_text("2125550000")
    phone.key("enter")
    assert messages(phone)["screen"] == "thread" and messages(phone)["thread"] == "2125550000"


def test_delete_asks_first_and_removes_only_that_thread() -> None:
    """More options > Delete shows the app's dialog; Cancel and BACK keep the thread, Delete removes it."""
    phone = make_phone(initial={M.PACKAGE: {"threads": [{**ANN, "unread": False, "messages": [
        {"from_me": False, "text": "Bye"}]}]}})
    before = len(messages(phone)["threads"])
    phone.launch("Messages")
    press(phone, rid=M.NAME_RID, text="Ann Weber")
    press(phone, desc="More options")
    assert "Mark as unread" in labels(phone)
    press(phone, text="Delete")
    assert messages(phone)["screen"] == "confirm" and "Delete this conversation?" in labels(phone)
    press(phone, text="Cancel")
    assert messages(phone)["screen"] == "thread" and len(messages(phone)["threads"]) == before
    press(phone, desc="More options")
    press(phone, text="Delete")
    phone.key("back")
    assert messages(phone)["screen"] == "thread"
    press(phone, desc="More options")
    press(phone, text="Delete")
    press(phone, text="Delete", cls="android.widget.Button")
    state = messages(phone)
    assert state["screen"] == "home" and state["deleted"] == [{"name": "Ann Weber", "number": ANN["number"]}]
    assert len(state["threads"]) == before - 1 and "Ann Weber" not in labels(phone)


def test_mark_all_as_read_and_mark_as_unread() -> None:
    """The list's menu clears every unread mark; a thread's menu marks it unread again and returns to the list."""
    phone = make_phone(initial={M.PACKAGE: {"threads": [{**ANN, "unread": True, "messages": [
        {"from_me": False, "text": "Ping"}]}]}})
    phone.launch("Messages")
    press(phone, desc="More options")
    assert messages(phone)["screen"] == "menu"
    press(phone, text="Mark all as read")
    assert not any(t["unread"] for t in messages(phone)["threads"]) and messages(phone)["screen"] == "home"
    press(phone, rid=M.NAME_RID, text="Ann Weber")
    press(phone, desc="More options")
    press(phone, text="Mark as unread")
    state = messages(phone)
    assert state["screen"] == "home" and next(t for t in state["threads"] if t["name"] == "Ann Weber")["unread"]


def test_a_menu_closes_on_back_and_on_the_scrim() -> None:
    """The overflow menu is dismissed by BACK or a tap outside it."""
    phone = make_phone()
    phone.launch("Messages")
    press(phone, desc="More options")
    phone.key("back")
    assert messages(phone)["screen"] == "home"
    press(phone, desc="More options")
    assert phone.tap(100, 2000)
    assert messages(phone)["screen"] == "home"


# -- Gmail -------------------------------------------------------------------------------------------------------------
def test_opening_an_email_shows_it_and_marks_it_read() -> None:
    """Subject, sender, address and body are on the email's page; it is read; BACK returns to the inbox."""
    mail = {"sender": "Bob Novak", "email": BOB["email"], "subject": "Lease renewal", "body": "Sign by Friday.",
            "unread": True}
    phone = make_phone(initial={G.PACKAGE: {"emails": [mail]}})
    phone.launch("Gmail")
    row = next(e for e in phone.elements() if e.rid == G.ROW_RID and "Lease renewal" in e.desc)
    assert row.desc.startswith("Unread, Bob Novak, Lease renewal, Sign by Friday.")
    phone.tap(*row.center)
    shown = labels(phone)
    assert {"Lease renewal", "Bob Novak", BOB["email"], "Sign by Friday.", "Reply", "Forward", "Archive"} <= set(shown)
    email = next(m for m in gmail(phone)["inbox"] if m["subject"] == "Lease renewal")
    assert gmail(phone)["open"] == email["id"] and not email["unread"]
    phone.key("back")
    assert gmail(phone)["screen"] == "inbox"


@pytest.mark.parametrize(("button", "box"), [("Archive", "archived"), ("Delete", "deleted")])
def test_archive_and_delete_move_the_email_and_return_to_the_list(button: str, box: str) -> None:
    """The toolbar's Archive/Delete take the open email out of the inbox, into All mail or Trash."""
    phone = make_phone()
    phone.launch("Gmail")
    first = gmail(phone)["inbox"][0]
    press(phone, rid=G.ROW_RID)
    press(phone, desc=button)
    state = gmail(phone)
    assert state["screen"] == "inbox" and [m["id"] for m in state[box]] == [first["id"]]
    assert first["id"] not in [m["id"] for m in state["inbox"]]
    press(phone, desc="Open navigation drawer")
    press(phone, text="All mail" if box == "archived" else "Trash")
    listed = [e.desc for e in phone.elements() if e.rid == G.ROW_RID]
    assert any(first["subject"] in d for d in listed)


def test_compose_suggests_people_and_sends_to_the_picked_address() -> None:
    """Typing a name lists matching people; a pick writes the address; Send files the mail under Sent."""
    phone = make_phone(initial={G.PACKAGE: {"contacts": [BOB]}})
    phone.launch("Gmail")
    press(phone, desc="Compose")
    assert phone.top.focus == G.TO_RID
    phone.type_text("bob no")
    press(phone, rid=G.SUGGESTION_RID, contains=BOB["email"])
    assert phone.top.fields[G.TO_RID] == f"{BOB['email']}, "
    assert not [e for e in phone.elements() if e.rid == G.SUGGESTION_RID]  # the address is complete
    press(phone, rid=G.SUBJECT_RID)
    phone.type_text("Hello")
    press(phone, rid=G.BODY_RID)
    phone.type_text("How are you?")
    press(phone, desc="Send")
    state = gmail(phone)
    assert state["screen"] == "inbox" and state["drafts"] == []
    assert [(m["to"], m["subject"], m["body"], m["kind"]) for m in state["sent"]] == [
        ([BOB["email"]], "Hello", "How are you?", "new")]
    press(phone, desc="Open navigation drawer")
    press(phone, text="Sent")
    assert gmail(phone)["folder"] == "sent" and any("Hello" in e.desc for e in phone.elements())
    phone.key("back")
    assert gmail(phone)["screen"] == "inbox"


def test_a_bad_address_is_refused_and_leaving_saves_a_draft() -> None:
    """Send with a name instead of an address shows the app's dialog; BACK out of compose keeps a draft."""
    phone = make_phone()
    phone.launch("Gmail")
    press(phone, desc="Compose")
    phone.type_text("bob")
    press(phone, desc="Send")
    assert gmail(phone)["screen"] == "alert" and "Invalid address" in labels(phone)
    press(phone, text="OK")
    assert gmail(phone)["screen"] == "compose" and gmail(phone)["sent"] == []
    phone.key("back")
    phone.key("back")
    assert gmail(phone)["screen"] == "inbox" and gmail(phone)["drafts"] == [{"to": "bob", "subject": "", "body": ""}]


def test_reply_and_forward_prefill_the_form() -> None:
    """Reply fills To and "Re:"; Forward fills "Fwd:" and quotes the email; sends record kind and reference."""
    phone = make_phone()
    phone.launch("Gmail")
    first = gmail(phone)["inbox"][0]
    press(phone, rid=G.ROW_RID)
    press(phone, desc="Reply")
    assert phone.top.fields == {G.TO_RID: f"{first['email']}, ", G.SUBJECT_RID: f"Re: {first['subject']}"}
    assert phone.top.focus == G.BODY_RID
    phone.type_text("Thanks")
    press(phone, desc="Send")
    press(phone, text="Forward")
    assert phone.top.fields == {G.SUBJECT_RID: f"Fwd: {first['subject']}"}
    assert any(first["body"] in label for label in labels(phone))
    phone.type_text(BOB["email"])
    press(phone, desc="Send")
    sent = gmail(phone)["sent"]
    assert [(m["kind"], m["ref"], m["to"]) for m in sent] == [("forward", first["id"], [BOB["email"]]),
                                                             ("reply", first["id"], [first["email"]])]
    assert gmail(phone)["drafts"] == []


def test_search_lists_matching_mail_and_back_returns_to_the_inbox() -> None:
    """ENTER in the search field lists the emails holding every word; BACK goes back to the inbox."""
    phone = make_phone()
    phone.launch("Gmail")
    target = gmail(phone)["inbox"][-1]
    press(phone, rid=G.SEARCH_BAR_RID)
    assert gmail(phone)["screen"] == "search" and phone.keyboard_up
    phone.type_text(target["subject"].lower())
    phone.key("enter")
    state = gmail(phone)
    assert state["screen"] == "results" and state["query"] == target["subject"].lower()
    rows = [e.desc for e in phone.elements() if e.rid == G.ROW_RID]
    assert rows and all(target["subject"] in d for d in rows)
    phone.key("back")
    assert gmail(phone)["screen"] == "inbox"


def test_the_drawer_closes_on_back_and_keeps_the_inbox_below_other_folders() -> None:
    """BACK closes the drawer; from Trash, Inbox in the drawer returns to the inbox below."""
    phone = make_phone()
    phone.launch("Gmail")
    press(phone, desc="Open navigation drawer")
    assert gmail(phone)["screen"] == "drawer"
    phone.key("back")
    press(phone, desc="Open navigation drawer")
    press(phone, text="Trash")
    assert "Nothing in Trash" in labels(phone)
    press(phone, desc="Open navigation drawer")
    press(phone, text="Inbox")
    assert [s.name for s in phone.screens(G.PACKAGE)] == ["inbox"]


def test_emails_from_apply_are_spread_through_the_inbox() -> None:
    """Task emails land at seed-dependent places, not always at the top."""
    mail = {"sender": "Bob Novak", "email": BOB["email"], "subject": "Lease renewal", "body": "B", "unread": True}
    places = set()
    for seed in range(12):
        inbox = gmail(make_phone(seed, {G.PACKAGE: {"emails": [mail]}}))["inbox"]
        places.add(next(i for i, m in enumerate(inbox) if m["subject"] == "Lease renewal"))
    assert len(places) >= 4 and np.mean(sorted(places)) > 1


def test_other_apps_can_start_a_message_or_an_email() -> None:
    """`compose_to` (the intent Contacts and Phone send) opens a conversation or a new email over the calling app;
    BACK returns to it."""  # noqa: D205, D209
    phone = make_phone(initial={M.PACKAGE: {"contacts": [ANN]}})
    phone.launch("Settings")
    assert phone.find_app("Messages").compose_to("6465554321")
    state = messages(phone)
    assert state["screen"] == "thread" and phone.top.args == {"number": ANN["number"], "name": "Ann Weber"}
    assert phone.top.focus == M.COMPOSE_RID
    phone.key("back")
    phone.key("back")
    assert phone.foreground == "com.android.settings"
    assert phone.find_app("Gmail").compose_to(BOB["email"])
    assert gmail(phone)["screen"] == "compose" and phone.top.fields[G.TO_RID] == f"{BOB['email']}, "
    phone.type_text("Hi")
    press(phone, desc="Send")
    assert gmail(phone)["sent"][0]["to"] == [BOB["email"]] and phone.foreground == "com.android.settings"
