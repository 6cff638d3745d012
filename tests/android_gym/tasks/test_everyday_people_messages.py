"""The everyday lines about people, calls, messages and email (issue 49), as parsed, played and refused.

Each line parses onto the template that checks it, with the line's values; its expert solves it and doing nothing
does not; what the phone lacks is refused with a reason that names it.
"""

from __future__ import annotations

from typing import Any

import pytest
from everyday_lines import parsed, parsed_task, play, section

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps.people import people
from android_gym.tasks.goals import GoalMatch, ParsedGoals, Uncovered, parse_goal
from android_gym.testing.rollout import run_episode

SECTIONS = ("contacts and people", "calls", "messages", "email")
EXPECTED: dict[str, tuple[str, str, dict[str, Any]]] = {
    # contacts and people
    "Add a contact named Priya Shah with the number 555 0134":
        ("add_contact", "add_contact", {"name": "Priya Shah", "number": "555-0134"}),
    "Save Tom's number, it's 650-555-0199": ("add_contact", "add_contact", {"name": "Tom", "number": "(650) 555-0199"}),
    "Create a new contact for Dr. Alvarez at 212 555 0148":
        ("add_contact", "add_contact", {"name": "Dr. Alvarez", "number": "(212) 555-0148"}),
    "Delete the contact Jamie Lee": ("delete_contact", "delete_contact", {"name": "Jamie Lee"}),
    "Change Maria Gomez's phone number to 555-0177":
        ("edit_contact", "edit_contact_number", {"name": "Maria Gomez", "new": "555-0177"}),
    "What is Ben Carter's phone number?": ("contact_answer", "contact_number_answer", {"name": "Ben Carter"}),
    "Add maria@example.com as Maria's email address":
        ("edit_contact", "add_contact_email", {"name": "Maria", "email": "maria@example.com"}),
    # calls
    "Call mom": ("call", "call_contact", {"name": "Mom"}),
    "Dial 555-0123": ("call", "dial_number", {"number": "555-0123"}),
    "Call Ben Carter": ("call", "call_contact", {"name": "Ben Carter"}),
    "Call the last number that called me": ("call", "call_back_missed", {"caller": "any"}),
    # messages
    "Text Jamie that I'm running 10 minutes late":
        ("text", "send_text", {"name": "Jamie", "text": "I'm running 10 minutes late"}),
    "Send a message to Ben saying see you at 8": ("text", "send_text", {"name": "Ben", "text": "See you at 8"}),
    "Reply to the last message with OK thanks": ("text", "reply_text", {"text": "Ok thanks", "latest": True}),
    "Tell Priya I'll bring the cake": ("text", "send_text", {"name": "Priya", "text": "I'll bring the cake"}),
    "Forward the last text from Maria to Tom": ("text", "forward_text", {"name": "Maria", "to": "Tom"}),
    'Send "happy birthday!" to mom': ("text", "send_text", {"name": "Mom", "text": "Happy birthday"}),
    "Delete my conversation with Tom": ("text", "delete_conversation", {"name": "Tom"}),
    # email
    "Check my email": ("email", "open_app", {"app": "Gmail"}),
    "Email Sam the agenda for tomorrow": ("email", "email_about", {"to": "Sam", "about": "agenda for tomorrow"}),
    "Delete all the promotions emails": ("email", "delete_promotions", {"count": 3}),
    "Search my inbox for the flight confirmation": ("email", "search_mail", {"terms": "flight confirmation"}),
}
"""Every line of the four sections that parses: its family, template and the parameters the line names."""
UNCOVERED = {"Reply to the latest email from my boss": "who your boss is"}
"""Lines the phone cannot do, with the words their reason must hold."""
LINES = [line for title in SECTIONS for line in section(title)]
COVERED = [line for line in LINES if line not in UNCOVERED]
SEEDS_WITH_A_BEN = [s for s in range(40) if any(p.first == "Ben" for p in people(s))][:4]
"""Episodes whose seeded contacts hold a Ben (the line's "Ben" must still mean one person)."""



def test_every_line_of_the_sections_is_expected() -> None:
    """The tables name every line of the four sections (a new fixture line needs its expectation)."""
    assert sorted(LINES) == sorted([*EXPECTED, *UNCOVERED])


@pytest.mark.parametrize("line", COVERED)
def test_line_parses_to_its_template_with_its_values(line: str) -> None:
    """The family, the template and the values the line names."""
    family, template, params = EXPECTED[line]
    match = parsed(line)
    assert (match.family, match.template.name) == (family, template)
    assert {k: match.params.get(k) for k in params} == params


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("line", COVERED)
def test_expert_solves_the_parsed_line(line: str, seed: int) -> None:
    """The template's expert solves the task the line parses into."""
    assert play(line, seed).success


@pytest.mark.parametrize("line", COVERED)
def test_doing_nothing_does_not_solve_the_line(line: str) -> None:
    """Waiting out the budget leaves the check false (the start state is not a solution)."""
    episode = run_episode(parsed_task(line), 0, policy=lambda elements, state: Action.key(ActionType.WAIT))
    assert not episode.success


@pytest.mark.parametrize(("line", "reason"), [
    *UNCOVERED.items(),
    ("Call Zebulon", "zebulon"),
    ("Text Xyzzy that I'm late", "xyzzy"),
    ("Dial 12 34", "not a phone number"),
    ("Add maria at example as Maria's email address", "not an e-mail address"),
    ("Send the photo to Jamie", "something to send"),
    ("Forward the last text from Tom to Tom", "themselves"),
])
def test_what_the_phone_lacks_is_refused_by_name(line: str, reason: str) -> None:
    """An unknown contact, a malformed number or address, a thing to send: uncovered, the reason naming it."""
    result = parse_goal(line)
    assert isinstance(result, Uncovered), result
    assert reason in result.reason.lower()


def test_a_one_name_person_is_the_only_one_of_that_name() -> None:
    """"Ben" means one contact: the seeded contacts called Ben are taken off the phone, the task's Ben is on it."""
    match = parse_goal("Send a message to Ben saying see you at 8")
    assert isinstance(match, GoalMatch)
    initial = match.template.initial(match.params)
    assert "Ben Lee" in initial["com.google.android.contacts"]["contacts"]["remove"]
    assert "Ben Lee" in initial["com.google.android.apps.messaging"]["remove"]


def test_the_last_caller_is_not_the_last_missed_call() -> None:
    """"The last number that called me" is the newest incoming or missed call: calling back the newest missed call
    (an older one in the line's call log) does not solve it."""  # noqa: D205, D209
    caller = parsed_task("Call the last number that called me")
    missed = parse_goal("Call back my last missed call")
    assert isinstance(missed, GoalMatch) and missed.params["variant"] == caller.params["params"]["variant"]
    (missed_task,) = ParsedGoals(missed.template, "everyday", [{"goal": missed.line, "params": missed.params}]).tasks(
        "train")
    assert run_episode(missed_task, 0).success
    assert not run_episode(caller, 0, policy=missed_task.expert_action).success


def test_promotions_are_their_own_category_in_gmail() -> None:
    """The task's promotions are listed under Promotions and left out of the Primary inbox; search still finds them."""
    device = SimDevice()
    device.reset(0, parsed_task("Delete all the promotions emails").initial)
    gmail = device.phone.find_app("Gmail")
    promotions = {m["id"] for m in gmail.listed("promotions")}
    assert len(promotions) == 3 and promotions == set(device.state()["apps"][gmail.package]["promotions"])
    assert not promotions & {m["id"] for m in gmail.listed("inbox")}
    assert {m["id"] for m in gmail.search("flash sale")} <= promotions


def test_a_search_must_be_for_the_lines_words() -> None:
    """Results for a word every email holds ("your") are not a search for the flight confirmation."""
    task = parsed_task("Search my inbox for the flight confirmation")
    other = parsed_task("Search my inbox for your")
    assert run_episode(task, 0).success
    assert not run_episode(task, 0, policy=other.expert_action).success


@pytest.mark.parametrize("seed", SEEDS_WITH_A_BEN)
def test_the_last_message_is_the_newest_on_the_phone_and_ben_is_one_person(seed: int) -> None:
    """"The last message" arrived last (the top conversation, unread); after "Ben"'s set-up one contact is a Ben."""
    device = SimDevice()
    latest = parsed("Reply to the last message with OK thanks")
    device.reset(seed, latest.template.initial(latest.params))
    top = device.state()["apps"]["com.google.android.apps.messaging"]["threads"][0]
    assert top["name"] == latest.params["name"] and top["unread"]
    assert top["messages"][-1] == {"from_me": False, "text": latest.params["ask"]}
    ben = parsed("Send a message to Ben saying see you at 8")
    device.reset(seed, ben.template.initial(ben.params))
    apps = device.state()["apps"]
    people = [c["name"] for c in apps["com.google.android.contacts"]["contacts"]]
    people += [t["name"] for t in apps["com.google.android.apps.messaging"]["threads"]]
    assert not [n for n in people if n.split()[0] == "Ben"]
    assert [c["name"] for c in device.phone.find_app("Messages").matches("Ben")] == ["Ben"]


@pytest.mark.parametrize(("line", "name"), [
    ("Add a contact named Hiroshi Tanaka with the number 555 0199", "Hiroshi Tanaka"),
    ("Save Oluwaseun to my contacts with the number 555 0123", "Oluwaseun"),
])
def test_a_new_contact_may_have_any_name_the_line_marks(line: str, name: str) -> None:
    """A contact the line adds is named by the line, known name or not ("named X", "save X to my contacts"); the
    task adds exactly it."""  # noqa: D205, D209
    assert parsed(line).params["name"] == name
    assert play(line, 0).success


@pytest.mark.parametrize("line", ["Add a contact named me with the number 555 0123",
                                  "Call Zebediah Quux"])
def test_pronouns_and_unknown_people_to_call_are_refused(line: str) -> None:
    """A pronoun is never a new contact's name, and a person to call must be one the phone can hold (closed set)."""
    result = parse_goal(line)
    assert isinstance(result, Uncovered) and "knows no contact" in result.reason
