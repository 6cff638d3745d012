"""The typed seam of the messaging apps (issue 48): Messages, Gmail, Phone and Contacts declare their state's schema
and their initial conditions' model; a wrong initial key or value fails naming the field, and rich set-ups fit."""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

import pytest

from android_gym.errors import ConfigError, UnknownNameError
from android_gym.sim.app_state import state_of, state_problems
from android_gym.sim.apps import contacts as C
from android_gym.sim.apps import dialer as D
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.sim.phone import SimPhone

ANN = {"name": "Ann Weber", "number": "(646) 555-4321"}
MAIL = {"sender": "Bob Novak", "email": "bob.novak7@proton.me", "subject": "Lease renewal", "body": "See attached.",
        "unread": True}
RICH: dict[str, dict[str, Any]] = {
    M.PACKAGE: {"remove": ["Tom Brown"], "contacts": [{"name": "Cy Ito", "number": "(305) 555-0101"}],
                "threads": [{**ANN, "unread": True, "messages": [{"from_me": True, "text": "Hi"},
                                                                  {"from_me": False, "text": "Lunch?"}]}],
                "incoming": [{"name": "Dee Lee", "number": "(404) 555-0199", "text": "Running late"}]},
    G.PACKAGE: {"emails": [MAIL], "promotions": [{**MAIL, "sender": "ShopMart", "email": "deals@shop.example.com"}],
                "contacts": [{"name": "Cy Ito", "email": "cy@example.com"}]},
    D.PACKAGE: {"calls": [{"number": "6505550147", "kind": "missed", "ago_min": 5},
                          {"number": "(303) 555-0188", "kind": "incoming", "ago_min": 2}], "tab": "Recents"},
    C.PACKAGE: {"contacts": {"remove": ["Nobody Here"], "add": [
        {"name": "Ana Costa", "phone": "6505550147", "starred": True},
        {"name": "Cy Ito", "phone": "(305) 555-0101", "email": "cy@example.com"}]}},
}
"""Initial conditions using every key of the four apps' models."""


@pytest.mark.parametrize("package, initial, message", [
    (M.PACKAGE, {"thread": []}, r"unknown config key `Messages\.thread`; did you mean `Messages\.threads`\?"),
    (G.PACKAGE, {"promotion": []}, r"unknown config key `Gmail\.promotion`; did you mean `Gmail\.promotions`\?"),
    (D.PACKAGE, {"call": []}, r"unknown config key `Phone\.call`; did you mean `Phone\.calls`\?"),
    (C.PACKAGE, {"contacts": {"ad": []}},
     r"unknown config key `Contacts\.contacts\.ad`; did you mean `Contacts\.contacts\.add`\?"),
])
def test_an_unknown_initial_key_is_refused_with_the_closest_one(package: str, initial: dict, message: str) -> None:
    with pytest.raises(UnknownNameError, match=message):
        SimPhone().reset(0, {package: initial})


@pytest.mark.parametrize("package, initial, message", [
    (M.PACKAGE, {"threads": [{**ANN, "unread": True, "messages": []}]},
     r"`Messages\.threads\.0\.messages` must be at least one message, got \(\)"),
    (M.PACKAGE, {"incoming": [{**ANN, "text": 7}]}, r"`Messages\.incoming\.0\.text` must be a valid string, got 7"),
    (G.PACKAGE, {"emails": [{**MAIL, "unread": "yes"}]}, r"`Gmail\.emails\.0\.unread` must be a valid boolean"),
    (G.PACKAGE, {"contacts": [{"name": "Cy Ito"}]}, r"`Gmail\.contacts\.0\.email` is required"),
    (D.PACKAGE, {"calls": [{"number": "1", "kind": "dropped", "ago_min": 3}]},
     r"`Phone\.calls\.0\.kind` must be 'incoming', 'outgoing' or 'missed'"),
    (D.PACKAGE, {"calls": [{"number": "1", "kind": "missed", "ago_min": 0}]},
     r"`Phone\.calls\.0\.ago_min` must be greater than or equal to 1, got 0"),
    (D.PACKAGE, {"tab": "Voicemail"}, r"`Phone\.tab` must be 'Favourites', 'Recents' or 'Contacts'"),
    (C.PACKAGE, {"contacts": {"add": [{"name": "Cy Ito"}]}}, r"`Contacts\.contacts\.add\.0\.phone` is required"),
    (C.PACKAGE, {"contacts": {"add": [{"name": "Cy Ito", "phone": "1", "starred": 1}]}},
     r"`Contacts\.contacts\.add\.0\.starred` must be a valid boolean"),
])
def test_a_bad_initial_value_is_refused_naming_the_field(package: str, initial: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SimPhone().reset(0, {package: initial})


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_the_four_apps_fit_their_schemas_after_a_rich_set_up_and_a_busy_moment(seed: int) -> None:
    phone = SimPhone()
    phone.reset(seed, RICH)
    assert state_problems(phone.state()) == []
    messages = phone.apps[M.PACKAGE]
    assert isinstance(messages, M.MessagesApp)
    messages.receive("(646) 555-4321", "Are you there?")
    phone.launch("Phone")
    dialer = phone.apps[D.PACKAGE]
    assert isinstance(dialer, D.DialerApp) and dialer.place_call("(650) 555-0147")
    state = phone.state()
    assert state_problems(state) == []
    ms, g = state_of(state, M.MessagesState), state_of(state, G.GmailState)
    d, c = state_of(state, D.DialerState), state_of(state, C.ContactsState)
    assert ms["threads"][0]["name"] == "Ann Weber" and ms["threads"][0]["unread"]
    assert any(t["name"] == "Dee Lee" for t in ms["threads"]) and ms["screen"] is None
    assert {m["subject"] for m in g["inbox"]} >= {"Lease renewal"} and len(g["promotions"]) == 1
    assert d["tab"] == "Recents" and d["screen"] == "call" and d["active"] is not None
    assert d["active"]["name"] == "Ana Costa" and d["log"][0]["kind"] == "incoming"
    assert [a["name"] for a in c["added"]] == [] and any(p["name"] == "Ana Costa" and p["starred"]
                                                         for p in c["contacts"])


@pytest.mark.parametrize("package, key", [(M.PACKAGE, "sent"), (G.PACKAGE, "drafts"), (D.PACKAGE, "calls"),
                                          (C.PACKAGE, "changed")])
def test_a_misspelt_state_key_does_not_fit(package: str, key: str) -> None:
    phone = SimPhone()
    phone.reset(1, RICH)
    state = phone.state()
    mine = dict(state["apps"][package])
    mine[key + "s"] = mine.pop(key)
    problems = state_problems({**state, "apps": {**state["apps"], package: mine}})
    assert f"{package}: `{key}s` is not a key of {type(phone.apps[package]).state_schema.__name__}" in problems
    assert any(p.startswith(f"{package}: `{key}` is missing") for p in problems)
