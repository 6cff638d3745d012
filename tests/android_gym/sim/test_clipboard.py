"""Tests of the phone's clipboard and the text toolbar of its fields: copy, cut, paste and select all through long
presses and taps as a user makes them, typing over a selection, BACK and stray taps, the XML, the state and the
clipboard as an initial condition."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.adb.target import SimTarget
from android_gym.sim.apps import messages as M
from android_gym.sim.clipboard import MENU_RID
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find

CONVERSATION = "Hiro Patel"
"""A conversation seed 1 starts with (its compose field is the field these tests type into)."""


def compose(clip: str = "", seed: int = 1) -> SimPhone:
    """Messages open on a conversation, the compose field empty, the clipboard holding `clip`."""
    phone = SimPhone()
    phone.reset(seed, {"clipboard": {"text": clip}} if clip else None)
    phone.launch(M.PACKAGE)
    press(phone, text=CONVERSATION)
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def hold(phone: SimPhone, rid: str) -> bool:
    """Long-press field `rid`."""
    element = find(phone.elements(), rid=rid)
    assert element is not None
    return phone.long_press(*element.center)


def menu(phone: SimPhone) -> list[str]:
    """The text toolbar's buttons, left to right."""
    return [e.text for e in phone.elements() if e.rid == MENU_RID]


def field(phone: SimPhone) -> str:
    """The compose field's text."""
    return phone.top.fields.get(M.COMPOSE_RID, "")


def test_copy_a_word_then_select_all_and_paste_into_another_app() -> None:
    """A long press selects the last word; Select all widens it; Copy fills the clipboard; Paste elsewhere writes."""
    phone = compose()
    press(phone, rid=M.COMPOSE_RID)
    phone.type_text("Invoice #98765")
    assert hold(phone, M.COMPOSE_RID)
    assert phone.state()["clipboard"] == {"text": "", "selection": {"field": M.COMPOSE_RID, "text": "#98765"}}
    assert menu(phone) == ["Cut", "Copy", "Select all"]  # nothing to paste yet
    press(phone, text="Select all")
    assert menu(phone) == ["Cut", "Copy"]
    press(phone, text="Copy")
    assert phone.state()["clipboard"] == {"text": "Invoice #98765", "selection": None} and menu(phone) == []
    assert field(phone) == "Invoice #98765"  # copying leaves the field alone
    phone.launch("net.gsantner.markor")
    phone.launch(M.PACKAGE)
    press(phone, text=CONVERSATION)
    hold(phone, M.COMPOSE_RID)
    assert menu(phone) == ["Paste"]  # an empty field: only Paste
    press(phone, text="Paste")
    assert field(phone) == "Invoice #98765" and phone.state()["clipboard"]["text"] == "Invoice #98765"


def test_cut_empties_the_selection_and_paste_replaces_one() -> None:
    """Cut takes the selection out onto the clipboard; Paste over a selected word puts the clipboard in its place."""
    phone = compose(clip="friend")
    press(phone, rid=M.COMPOSE_RID)
    phone.type_text("hello there")
    hold(phone, M.COMPOSE_RID)
    assert menu(phone) == ["Cut", "Copy", "Paste", "Select all"]
    press(phone, text="Paste")
    assert field(phone) == "hello friend"
    hold(phone, M.COMPOSE_RID)
    press(phone, text="Cut")
    assert field(phone) == "hello " and phone.state()["clipboard"]["text"] == "friend"


def test_typing_and_delete_replace_the_selection() -> None:
    """A key typed over a selection replaces it; the delete key removes it whole."""
    phone = compose()
    press(phone, rid=M.COMPOSE_RID)
    phone.type_text("see you soon")
    hold(phone, M.COMPOSE_RID)
    press(phone, desc="Delete")  # the keyboard stays up under the toolbar
    assert field(phone) == "see you "
    hold(phone, M.COMPOSE_RID)
    press(phone, text="Select all")
    phone.type_text("bye")
    assert field(phone) == "bye"


def test_back_and_a_stray_tap_close_the_toolbar_and_keep_the_text() -> None:
    """BACK closes the toolbar first (the keyboard stays); a tap elsewhere closes it too; the field keeps its text."""
    phone = compose(clip="x")
    press(phone, rid=M.COMPOSE_RID)
    phone.type_text("abc")
    hold(phone, M.COMPOSE_RID)
    assert phone.key("back") and menu(phone) == [] and phone.keyboard_up
    hold(phone, M.COMPOSE_RID)
    assert press(phone, text=CONVERSATION) and menu(phone) == []  # the toolbar (the title takes no tap itself)
    assert field(phone) == "abc" and phone.state()["clipboard"] == {"text": "x", "selection": None}


def test_nothing_to_offer_shows_no_toolbar_and_the_xml_lists_the_buttons() -> None:
    """An empty field and an empty clipboard: a long press only focuses; the toolbar's buttons appear in the dump."""
    phone = compose()
    assert hold(phone, M.COMPOSE_RID) and menu(phone) == [] and phone.keyboard_up
    phone = compose(clip="x")
    hold(phone, M.COMPOSE_RID)
    assert f'text="Paste" resource-id="{MENU_RID}"' in phone.xml()


def test_a_bad_clipboard_initial_condition_names_the_field() -> None:
    """A non-str text or an unknown key is refused, naming it."""
    with pytest.raises(ConfigError, match="clipboard.text"):
        SimPhone().reset(0, {"clipboard": {"text": 5}})
    with pytest.raises(ConfigError, match="owner"):
        SimPhone().reset(0, {"clipboard": {"owner": "me"}})


def test_the_adb_front_answers_clippers_broadcasts() -> None:
    """`am broadcast -a clipper.set -e text ...` sets the clipboard; `clipper.get` reads it back as AndroidWorld
    parses it (result=-1 and the text in data="...")."""  # noqa: D205, D209
    target = SimTarget("emulator-5554", perturbations="none")
    target.run("am broadcast -a clipper.set -e text 'Order No: A123456'")
    assert target.phone.state()["clipboard"]["text"] == "Order No: A123456"
    out = target.run("am broadcast -a clipper.get").out.decode()
    assert 'Broadcast completed: result=-1, data="Order No: A123456"' in out
