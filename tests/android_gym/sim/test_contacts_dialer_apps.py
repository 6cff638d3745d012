"""Tests of the Contacts and Phone apps: screens, edits, calls, back behaviour, XML, pixels, seeding and the RNG."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, with_apps
from android_gym.sim.apps.contacts import (
    EMAIL_RID,
    FIRST_RID,
    LAST_RID,
    NO_NAME,
    PHONE_RID,
    ROW_RID,
    SEARCH_RID,
    STAR_RID,
    ContactsApp,
)
from android_gym.sim.apps.contacts import PACKAGE as CONTACTS
from android_gym.sim.apps.dialer import (
    CALL_BUTTON_RID,
    DIAL_RID,
    KEY_RIDS,
    KEYPAD_FAB_RID,
    DialerApp,
    call_log,
)
from android_gym.sim.apps.dialer import PACKAGE as DIALER
from android_gym.sim.apps.people import contacts_of, people
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.render.theme import LIGHT
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(ContactsApp, DialerApp)
ANA = {"name": "Ana Costa", "phone": "(650) 555-0147", "email": "ana@example.com"}


def make_phone(seed: int = 3, initial: dict | None = None) -> SimPhone:
    """A phone with both apps, no perturbations, reset with `seed` and `initial`."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the first element matching `criteria` (as `expert.find` takes them); fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def contacts_state(phone: SimPhone) -> dict:
    """The Contacts app's state."""
    return phone.state()["apps"][CONTACTS]


def dialer_state(phone: SimPhone) -> dict:
    """The Phone app's state."""
    return phone.state()["apps"][DIALER]


def open_card(phone: SimPhone, name: str) -> None:
    """Launch Contacts, search `name` and open the card."""
    phone.launch("Contacts")
    press(phone, rid=SEARCH_RID)
    phone.type_text(name)
    press(phone, rid=ROW_RID, text=name)
    assert contacts_state(phone)["shown"] == name


# -- Contacts ----------------------------------------------------------------------------------------------------------
def test_contacts_list_is_sorted_with_favourites_first_and_search_filters() -> None:
    """The list holds every contact by name, starred ones first; typing in the search field filters it."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [{**ANA, "starred": True}]}}})
    phone.launch("Contacts")
    names = [e.text for e in phone.elements() if e.rid == ROW_RID]
    everyone = sorted(p.name for p in people(3))
    assert names[0] == "Ana Costa" and names[1:] == everyone[:len(names) - 1]
    assert "Favourites" in labels(phone) and find(phone.elements(), desc="Create contact") is not None
    press(phone, rid=SEARCH_RID)
    phone.type_text("ana c")
    assert [e.text for e in phone.elements() if e.rid == ROW_RID] == ["Ana Costa"]
    phone.type_text("zzz")
    assert 'No results for "ana czzz"' in labels(phone) and contacts_state(phone)["query"] == "ana czzz"


def test_contacts_card_shows_details_and_star_toggles() -> None:
    """A card shows name, number, e-mail and the verbs; the star adds to and removes from favourites."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [ANA]}}})
    open_card(phone, "Ana Costa")
    assert {"Ana Costa", "(650) 555-0147", "ana@example.com", "Call", "Text", "Email"} <= set(labels(phone))
    press(phone, desc="Add to favourites")
    state = contacts_state(phone)
    assert state["changed"] == ["Ana Costa"] and find(phone.elements(), rid=STAR_RID).checked
    press(phone, desc="Remove from favourites")
    assert contacts_state(phone)["changed"] == []  # back as it started


def test_contacts_create_refuses_an_empty_name_and_saves_a_new_contact() -> None:
    """Save without a name shows a message and keeps the editor; a named contact is added and its card opens."""
    phone = make_phone()
    phone.launch("Contacts")
    press(phone, desc="Create contact")
    press(phone, rid=PHONE_RID)
    phone.type_text("6505550147")
    press(phone, text="Save")
    assert phone.top.name == "editor" and NO_NAME in labels(phone) and not contacts_state(phone)["added"]
    press(phone, rid=FIRST_RID)
    phone.type_text("Ana")
    phone.key("enter")  # ENTER moves to the next field
    assert phone.top.focus == LAST_RID
    phone.type_text("Costa")
    press(phone, text="Save")
    state = contacts_state(phone)
    assert state["added"] == [{"name": "Ana Costa", "phone": "(650) 555-0147", "email": "", "starred": False}]
    assert state["screen"] == "details" and state["shown"] == "Ana Costa"


def test_contacts_edit_renames_and_renumbers_and_refuses_a_clash() -> None:
    """Edit contact pre-fills the fields; saving another contact's name is refused, a change is saved."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [ANA]}}})
    other = people(3)[0].name
    open_card(phone, "Ana Costa")
    press(phone, desc="Edit contact")
    assert phone.top.fields == {FIRST_RID: "Ana", LAST_RID: "Costa", PHONE_RID: "(650) 555-0147",
                                EMAIL_RID: "ana@example.com"}
    phone.top.fields.update({FIRST_RID: other.split()[0], LAST_RID: other.split()[1]})
    press(phone, text="Save")
    assert f"{other} is already in your contacts" in labels(phone)
    phone.top.fields.update({FIRST_RID: "Ana", LAST_RID: "Costa", PHONE_RID: "650 555 0199"})
    press(phone, text="Save")
    state = contacts_state(phone)
    assert state["changed"] == ["Ana Costa"] and state["shown"] == "Ana Costa"
    assert "(650) 555-0199" in labels(phone)


def test_contacts_delete_asks_first_and_back_cancels() -> None:
    """More options > Delete opens the app's dialog; Cancel and BACK keep the contact, Delete removes it."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [ANA]}}})
    open_card(phone, "Ana Costa")
    press(phone, desc="More options")
    press(phone, text="Delete")
    assert phone.top.name == "confirm" and "Delete this contact?" in labels(phone)
    press(phone, text="Cancel")
    assert phone.top.name == "details"
    press(phone, desc="More options")
    phone.key("back")
    assert phone.top.name == "details"
    press(phone, desc="More options")
    press(phone, text="Delete")
    press(phone, text="Delete", rid="android:id/button1")
    state = contacts_state(phone)
    assert state["removed"] == ["Ana Costa"] and state["screen"] == "list"
    assert "Ana Costa" not in [p.name for p in contacts_of(phone)]


def test_contacts_back_closes_keyboard_then_asks_to_discard_changes() -> None:
    """BACK in a changed editor: first the keyboard, then "Discard changes?" (BACK keeps editing), Discard leaves."""
    phone = make_phone()
    phone.launch("Contacts")
    press(phone, desc="Create contact")
    phone.key("back")
    assert phone.top.name == "list"  # nothing typed: no question
    press(phone, desc="Create contact")
    press(phone, rid=FIRST_RID)
    phone.type_text("Ana")
    phone.key("back")
    assert phone.top.focus is None and phone.top.name == "editor"
    phone.key("back")
    assert "Discard changes?" in labels(phone)
    phone.key("back")
    assert "Discard changes?" not in labels(phone) and phone.top.name == "editor"
    press(phone, desc="Navigate up")
    press(phone, text="Discard")
    assert phone.top.name == "list" and not contacts_state(phone)["added"]


def test_contacts_call_opens_the_dialer_and_ending_returns_to_the_card() -> None:
    """Call on a card starts a call in Phone; End call logs it and returns to the card; Text opens Messages."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [ANA]}}})
    open_card(phone, "Ana Costa")
    press(phone, text="Call")
    assert phone.foreground == DIALER and "Calling Ana Costa" in labels(phone)
    phone.tick()
    phone.tick()
    assert "00:02" in labels(phone)
    press(phone, desc="End call")
    d = dialer_state(phone)
    assert d["calls"] == [{"name": "Ana Costa", "number": "(650) 555-0147", "ended": True, "duration_s": 2}]
    assert d["log"][0] == {"name": "Ana Costa", "number": "(650) 555-0147", "kind": "outgoing", "when": "Just now",
                           "ago_min": 0}
    assert phone.foreground == CONTACTS and contacts_state(phone)["shown"] == "Ana Costa"
    press(phone, text="Text")  # Messages opens the conversation over the card, its compose field focused
    assert phone.foreground == "com.google.android.apps.messaging" and phone.keyboard_up
    phone.key("back")  # the keyboard
    phone.key("back")  # the conversation
    assert contacts_state(phone)["shown"] == "Ana Costa"


def test_contacts_apply_replaces_removes_and_refuses_unknown_keys() -> None:
    """`apply` adds (replacing a same-name contact), removes, and raises on unknown keys or fields."""
    first = people(3)[0]
    phone = make_phone(initial={CONTACTS: {"contacts": {"remove": [first.name], "add": [
        {"name": people(3)[1].name, "phone": "2025550100"}]}}})
    state = contacts_state(phone)
    names = [c["name"] for c in state["contacts"]]
    assert first.name not in names and names == sorted(names) and len(names) == len(people(3)) - 1
    assert state["contacts"][0]["phone"] == "(202) 555-0100" and not state["added"] and not state["removed"]
    for bad in ({"people": []}, {"contacts": {"edit": []}}, {"contacts": {"add": [{"name": "X"}]}},
                {"contacts": {"add": [{"name": "X", "phone": "1", "note": ""}]}}):
        with pytest.raises(ConfigError):
            make_phone(initial={CONTACTS: bad})


# -- Phone -------------------------------------------------------------------------------------------------------------
def test_dialer_keypad_builds_a_number_and_dials_it() -> None:
    """Digits append, backspace deletes, the dial button calls the formatted number; BACK hangs up."""
    phone = make_phone()
    phone.launch("Phone")
    assert phone.top.name == "favourites" and "No favourites yet" in labels(phone)
    press(phone, rid=KEYPAD_FAB_RID)
    for key in "65055501479":
        press(phone, rid=KEY_RIDS[key])
    press(phone, desc="backspace")
    assert dialer_state(phone)["digits"] == "6505550147" and "(650) 555-0147" in labels(phone)
    press(phone, rid=DIAL_RID)
    assert dialer_state(phone)["active"]["number"] == "(650) 555-0147"
    assert "Calling (650) 555-0147" in labels(phone)
    phone.key("back")
    d = dialer_state(phone)
    assert d["active"] is None and d["calls"][0]["ended"] and d["log"][0]["kind"] == "outgoing"
    assert phone.top.name == "keypad" and d["digits"] == ""


def test_dialer_recents_lists_calls_newest_first_with_kinds() -> None:
    """Recents shows the log newest first, with kind, time and a call button per row; names follow Contacts."""
    calls = [{"number": "(650) 555-0147", "kind": "missed", "ago_min": 5}]
    phone = make_phone(initial={DIALER: {"calls": calls}})
    phone.launch("Phone")
    press(phone, text="Recents")
    log = dialer_state(phone)["log"]
    assert [c["ago_min"] for c in log] == sorted(c["ago_min"] for c in log) and log[0]["name"] is None
    assert {"missed", "incoming", "outgoing"} >= {c["kind"] for c in log}
    assert "Missed call · 5 min ago" in labels(phone) and "Missed call, (650) 555-0147, 5 min ago" in labels(phone)
    press(phone, desc="Missed call, (650) 555-0147, 5 min ago")
    assert phone.top.name == "call_details" and dialer_state(phone)["details"] == "(650) 555-0147"
    press(phone, text="Create new contact")
    assert phone.foreground == CONTACTS and phone.top.fields[PHONE_RID] == "(650) 555-0147"
    phone.top.fields.update({FIRST_RID: "Ana", LAST_RID: "Costa"})
    press(phone, text="Save")
    phone.key("back")  # from the new card back to Phone's call details, which now names the caller
    assert phone.foreground == DIALER and "Ana Costa" in labels(phone) and "View contact" in labels(phone)
    phone.key("back")
    assert dialer_state(phone)["log"][0]["name"] == "Ana Costa"
    press(phone, rid=CALL_BUTTON_RID, desc="Call Ana Costa")
    assert dialer_state(phone)["active"]["name"] == "Ana Costa"


def test_dialer_favourites_and_contacts_tabs_follow_contacts() -> None:
    """Favourites lists starred contacts (a tap calls); the Contacts tab opens a contact's card in Contacts."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [{**ANA, "starred": True}]}}})
    phone.launch("Phone")
    press(phone, text="Ana Costa")
    assert dialer_state(phone)["active"]["number"] == ANA["phone"]
    phone.key("back")
    press(phone, text="Contacts")
    assert [e.text for e in phone.elements() if e.text == "Ana Costa"]
    press(phone, text="Ana Costa")
    assert phone.foreground == CONTACTS and contacts_state(phone)["shown"] == "Ana Costa"
    phone.key("back")
    assert phone.foreground == DIALER and dialer_state(phone)["tab"] == "Contacts"


def test_dialer_call_left_by_home_ends_at_the_next_tick() -> None:
    """HOME during a call: the call ends (and is logged) when the step ends."""
    phone = make_phone()
    phone.launch("Phone")
    press(phone, text="Recents")
    press(phone, rid=CALL_BUTTON_RID)
    phone.key("home")
    phone.tick()
    d = dialer_state(phone)
    assert d["active"] is None and d["calls"][0]["ended"] and d["log"][0]["ago_min"] == 0


def test_dialer_apply_refuses_unknown_keys_and_bad_calls() -> None:
    """Unknown keys, unknown kinds and calls in the future are refused."""
    for bad in ({"log": []}, {"calls": [{"number": "1", "kind": "dropped", "ago_min": 3}]},
                {"calls": [{"number": "1", "kind": "missed", "ago_min": 0}]}, {"tab": "Voicemail"}):
        with pytest.raises(ConfigError):
            make_phone(initial={DIALER: bad})


# -- both apps: data, RNG, XML, pixels ---------------------------------------------------------------------------------
def test_initial_data_is_seeded_per_episode() -> None:
    """The same seed gives the same contacts and call log; another seed gives others."""
    a, b, c = make_phone(11), make_phone(11), make_phone(12)
    assert contacts_state(a)["contacts"] == contacts_state(b)["contacts"] != contacts_state(c)["contacts"]
    assert dialer_state(a)["log"] == dialer_state(b)["log"] != dialer_state(c)["log"]
    assert call_log(11) != call_log(12) and 10 <= len(call_log(11)) <= 14


def test_apps_leave_the_episode_rng_alone() -> None:
    """Resetting, building and reading both apps draws nothing from the episode RNG."""
    mine, stock = make_phone(7), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    stock.reset(7)
    for name in ("Contacts", "Phone"):
        mine.launch(name)
        mine.tree()
        mine.state()
    press(mine, text="Recents")
    mine.state()
    # the generator's whole state: a bounded integer draw uses half a word and keeps the rest buffered, so one
    # extra draw can leave the next random() equal
    assert mine.rng.bit_generator.state == stock.rng.bit_generator.state
    assert mine.rng.random() == stock.rng.random()


def test_xml_lists_what_the_screens_show() -> None:
    """The uiautomator XML of the list, a card and the keypad parses and holds their labels."""
    phone = make_phone(initial={CONTACTS: {"contacts": {"add": [ANA]}}})
    phone.launch("Contacts")
    shown = {e.label for e in parse_uiautomator_xml(phone.xml())}
    assert "Ana Costa" in shown and "Create contact" in shown and "Search contacts" in shown
    open_card(phone, "Ana Costa")
    assert {"Ana Costa", "(650) 555-0147", "More options"} <= {e.label for e in parse_uiautomator_xml(phone.xml())}
    phone.launch("Phone")
    press(phone, rid=KEYPAD_FAB_RID)
    keys = [e for e in parse_uiautomator_xml(phone.xml()) if e.rid in KEY_RIDS.values()]
    assert sorted(e.text for e in keys) == sorted(KEY_RIDS)


@pytest.mark.parametrize("app", ["Contacts", "Phone"])
def test_screens_are_drawn_where_views_are(app: str) -> None:
    """A screenshot is not blank where the first row (or the keypad button) is, and differs from the launcher."""
    device = SimDevice("none", apps=APPS)
    device.reset(3)
    home = device.screenshot(270).copy()
    device.phone.launch(app)
    target = find(device.ui_elements(), rid=ROW_RID) if app == "Contacts" else find(device.ui_elements(),
                                                                                   rid=KEYPAD_FAB_RID)
    shot = device.screenshot(270)
    s = 270 / device.phone.width
    x0, y0, x1, y1 = (round(v * s) for v in target.bounds)
    assert (shot[y0:y1, x0:x1] != np.array(LIGHT.bg)).any() and not np.array_equal(shot, home)
