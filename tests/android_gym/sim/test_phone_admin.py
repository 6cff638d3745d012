"""The phone's outside faces (ADB front, emulator console and gRPC) reach it only through `PhoneAdmin` (issue 48):
no app named, no app object touched, no private call; and the intents they send are resolved by the apps' own
filters."""  # noqa: D205, D209

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from android_gym.sim.admin import PhoneAdmin
from android_gym.sim.app import ACTION_CALL, ACTION_DIAL, ACTION_VIEW, END_CALL, SMS_DELIVER, Intent
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import browser, calendar, clock, contacts, dialer, gallery, gmail, maps, messages
from android_gym.sim.phone import SimPhone

SIM = Path(__file__).resolve().parents[3] / "android_gym" / "sim"
FACES = sorted([*(SIM / "adb").glob("*.py"), *(SIM / "emulator").glob("*.py")])
ADMIN = {name for name in dir(PhoneAdmin) if not name.startswith("_")} | set(PhoneAdmin.__annotations__)


def _phone_uses(path: Path) -> list[tuple[int, str]]:
    """(line, attribute) of every `<...>phone.<attribute>` read in `path`."""
    uses = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute):
            base = node.value
            name = base.attr if isinstance(base, ast.Attribute) else base.id if isinstance(base, ast.Name) else ""
            if name == "phone":
                uses.append((node.lineno, node.attr))
    return uses


@pytest.mark.parametrize("path", FACES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_face_uses_only_what_phone_admin_offers_and_names_no_app(path: Path) -> None:
    outside = [f"{path.name}:{line} phone.{attr}" for line, attr in _phone_uses(path) if attr not in ADMIN]
    assert not outside, f"not in PhoneAdmin: {outside}"
    imports = [n.module for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.ImportFrom)]
    assert not [m for m in imports if m and m.startswith("android_gym.sim.apps")], f"{path.name} imports an app"


def test_the_faces_were_read() -> None:
    """The guard above reads real uses (a path or parse mistake would make it pass on nothing)."""
    uses = {attr for path in FACES for _, attr in _phone_uses(path)}
    assert {"send_intent", "packages", "activities", "set_system", "tap", "xml"} <= uses


def test_sim_phone_offers_everything_phone_admin_declares() -> None:
    phone = SimPhone()
    phone.reset(0)
    missing = [name for name in ADMIN if not hasattr(phone, name)]
    assert not missing


@pytest.mark.parametrize("data, package, screen", [
    ("https://www.wikipedia.org/wiki/Otter", browser.PACKAGE, None),
    ("content://com.android.calendar/time/0", calendar.PACKAGE, None),
    ("content://contacts/people/1", contacts.PACKAGE, None),
    ("content://com.android.contacts/contacts/1", contacts.PACKAGE, None),
    ("content://media/external/images/media/3", gallery.PACKAGE, None),
    ("mailto:ana@example.com", gmail.PACKAGE, None),
    ("geo:0,0?q=coffee", maps.PACKAGE, None),
    ("tel:5551234", dialer.PACKAGE, None),
])
def test_a_view_intent_opens_the_app_whose_filter_matches(data: str, package: str, screen: str | None) -> None:
    phone = SimPhone()
    phone.reset(0)
    assert phone.send_intent(Intent(ACTION_VIEW, data)) is True
    assert phone.foreground == package


def test_an_intent_nothing_handles_changes_nothing() -> None:
    phone = SimPhone()
    phone.reset(0)
    before = phone.activities()
    assert phone.send_intent(Intent(ACTION_VIEW, "spotify:track:1")) is None
    assert phone.send_intent(Intent("android.intent.action.SEND")) is None
    assert phone.activities() == before


def test_call_dial_and_end_call_go_to_the_phone_app() -> None:
    phone = SimPhone()
    phone.reset(0)
    assert phone.send_intent(Intent(ACTION_DIAL, "tel:5551234")) is True and not phone.in_call()
    assert phone.send_intent(Intent(ACTION_CALL, "tel:5551234")) is True and phone.in_call()
    assert phone.send_intent(Intent(ACTION_CALL, "tel:5559999")) is False  # a call is in progress
    assert phone.send_intent(Intent(END_CALL)) is not None and not phone.in_call()


def test_an_sms_is_delivered_to_the_sms_app_without_opening_it() -> None:
    phone = SimPhone()
    phone.reset(0)
    assert phone.send_intent(Intent(SMS_DELIVER, extras=(("number", "+15550100"), ("text", "On my way")))) is True
    assert phone.foreground == phone.launcher_package
    threads = state_of(phone.state(), messages.MessagesState)["threads"]
    assert threads[0]["number"] == "+15550100" and threads[0]["unread"]
    assert threads[0]["messages"][-1] == {"from_me": False, "text": "On my way"}


def test_scheduled_alarms_are_the_enabled_ones_by_time() -> None:
    phone = SimPhone()
    phone.reset(0, {clock.PACKAGE: {"alarms": [{"hour": 9, "minute": 0, "label": "Late"},
                                               {"hour": 6, "minute": 30, "label": "Early"},
                                               {"hour": 7, "minute": 0, "enabled": False}]}})
    assert [(a.package, a.hour, a.minute, a.label) for a in phone.scheduled_alarms()] == [
        (clock.PACKAGE, 6, 30, "Early"), (clock.PACKAGE, 9, 0, "Late")]
