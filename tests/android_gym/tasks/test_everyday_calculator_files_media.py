"""The everyday lines of the calculator, files, photos and audio recorder sections (issue 49): each parses onto the
template and values it names, the expert solves it, doing nothing does not, and values the phone does not know are
refused with a reason that names them. The templates only these lines use keep the template contract; the sim
features they need work: the Calculator's advanced row (square root), Send in Photos to a contact."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from everyday_lines import parsed, parsed_task, play, section

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import calculator as C
from android_gym.sim.apps import files as F
from android_gym.sim.apps import gallery as G
from android_gym.sim.apps import recorder as R
from android_gym.sim.apps.gallery_media import describe
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.expert import tap
from android_gym.tasks.goals import Uncovered, parse_goal
from android_gym.tasks.world import (
    calculator_tasks,
    files_everyday_tasks,
    media_everyday_tasks,
    recorder_everyday_tasks,
)
from android_gym.tasks.world.recorder_tasks import RenameRecordTemplate
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode

LATEST = {"hour": 9, "minute": 5, "video_newer": True}
EXPECTED: dict[str, tuple[str, str, dict[str, Any]]] = {
    # calculator
    "What's 17 times 23?": ("calculator", "calculator_arithmetic_answer",
                            {"op": "×", "a": "17", "b": "23", "expression": "17×23"}),
    "Use the calculator to add 128 and 256": ("calculator", "calculator_arithmetic_answer",
                                              {"op": "+", "a": "128", "b": "256", "expression": "128+256"}),
    "Calculate 15% of 80": ("calculator", "calculator_arithmetic_answer",
                            {"op": "%", "a": "15", "b": "80", "expression": "80×15%"}),
    "Divide 1000 by 7": ("calculator", "calculator_arithmetic_answer",
                         {"op": "÷", "a": "1000", "b": "7", "expression": "1000÷7"}),
    "What is the square root of 144?": ("calculator", "calculator_arithmetic_answer",
                                        {"op": "√", "a": "144", "b": None, "expression": "√144"}),
    # files
    "Delete the file report_old.pdf": ("files", "files_delete", {"name": "report_old.pdf", "folder": "Download"}),
    "Move the photo from Downloads to Pictures": ("files", "files_move", {"src": "Download", "dest": "Pictures"}),
    "Rename notes.txt to meeting-notes.txt": ("files", "files_rename", {
        "name": "notes.txt", "new": "meeting-notes.txt", "folder": "Documents", "sole": True}),
    "Find the PDF I downloaded yesterday": ("files", "files_find_download", {"days": 1}),
    "Create a folder called Taxes 2026": ("files", "files_create_folder", {"new": "Taxes 2026", "where": None}),
    # photos, gallery and camera
    "Take a photo": ("camera", "take_photo", {"count": 1}),
    "Take a selfie": ("camera", "take_selfie", {"portrait": False}),
    "Record a video": ("camera", "record_video", {"facing": "back"}),
    "Open my most recent picture": ("photos", "show_latest_photo", LATEST),
    "Delete the last photo I took": ("photos", "delete_latest_photo", LATEST),
    "Share the latest photo with Jamie": ("photos", "share_latest_photo", {**LATEST, "person": "Jamie"}),
    # audio recorder
    "Record a voice memo": ("recorder", "recorder_record_clip", {"seconds": 1, "start": "m4a"}),
    "Start recording audio": ("recorder", "recorder_start", {"start": "m4a"}),
    "Rename my last recording to Interview": ("recorder", "recorder_rename",
                                              {"new": "Interview", "latest": True, "any_case": True}),
    "Delete the recording called test": ("recorder", "recorder_delete", {"name": "test", "twin": "test 2"}),
}
ANSWERS = {"What's 17 times 23?": "391", "Use the calculator to add 128 and 256": "384", "Calculate 15% of 80": "12",
           "Divide 1000 by 7": "142.8571429", "What is the square root of 144?": "12"}
LINES = [*section("calculator"), *section("files"), *section("photos, gallery and camera"), *section("audio recorder")]
EVERYDAY = (*calculator_tasks.EVERYDAY, *files_everyday_tasks.EVERYDAY, *media_everyday_tasks.EVERYDAY,
            *recorder_everyday_tasks.EVERYDAY)


def test_every_line_of_the_sections_is_expected() -> None:
    """The table above is the fixture's four sections, line for line."""
    assert sorted(EXPECTED) == sorted(LINES)


@pytest.mark.parametrize("line", LINES)
def test_line_parses_to_its_template_with_its_values(line: str) -> None:
    """Family, template and the values the line names (numbers, file names, folders, days, a person, a name)."""
    family, template, params = EXPECTED[line]
    match = parsed(line)
    assert (match.family, match.template.name) == (family, template), match
    assert {k: match.params.get(k) for k in params} == params, match.params


def test_what_the_lines_leave_unsaid_is_of_the_kind_they_name() -> None:
    """"The photo" is a picture, "the PDF" a PDF; the newest record of "my last recording" is today's."""
    assert F.ext_of(parsed("Move the photo from Downloads to Pictures").params["name"]) in F.KINDS["Images"]
    assert F.ext_of(parsed("Find the PDF I downloaded yesterday").params["name"]) == "pdf"
    task = parsed_task("Rename my last recording to Interview")
    records = task.initial[R.PACKAGE]["records"]
    assert records[0]["name"] == task.params["params"]["name"] and records[0]["date"] == str(R.DATE)


@pytest.mark.parametrize("line", list(ANSWERS))
def test_a_calculator_line_is_answered_with_the_display_s_value(line: str) -> None:
    """The truth is the numbers' own arithmetic, written as the display writes it; the keypad agrees."""
    match = parsed(line)
    assert match.template.outcome == "answer"
    assert match.template.answer(match.params, {}) == ANSWERS[line]
    assert C.evaluate(match.params["expression"]) == ANSWERS[line]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("line", LINES)
def test_expert_solves_the_parsed_line(line: str, seed: int) -> None:
    """The template's expert solves the task the line parses into, under the default perturbations."""
    episode = play(line, seed)
    assert episode.success, f"{line!r} seed {seed}: failed in {episode.steps} steps"



@pytest.mark.parametrize("line", LINES)
def test_doing_nothing_does_not_solve_the_line(line: str) -> None:
    """Waiting out the budget (and, for a question, answering nothing sensible) never wins."""
    task = parsed_task(line)
    waited = run_episode(task, seed=0, policy=lambda elements, state: Action.key(ActionType.WAIT))
    assert not waited.success
    guess = run_episode(task, seed=0, policy=lambda elements, state: Action(ActionType.STATUS_TASK_COMPLETE,
                                                                            text="done"))
    assert not guess.success


@pytest.mark.parametrize(("line", "named"), [
    ("What's 17 times banana?", "banana"),
    ("Divide 5 by 0", "zero"),
    ("Delete the file report_old.xyz", ".xyz"),
    ("Move the photo from Downloads to Narnia", "narnia"),
    ("Move the photo from Downloads to Downloads", "same folder"),
    ("Rename notes.txt to notes.pdf", "extension"),
    ("Find the PDF I downloaded tomorrow", "june 11"),
    ("Share the latest photo with Zorblax", "zorblax"),
])
def test_values_the_phone_does_not_know_are_refused_by_name(line: str, named: str) -> None:
    """An unknown number, folder, kind of file, day or person, or an impossible operation: Uncovered, by name."""
    match = parse_goal(line)
    assert isinstance(match, Uncovered), match
    assert named in match.reason.lower(), match.reason


@cache
def _device(level: str) -> SimDevice:
    return SimDevice(level)


@pytest.mark.parametrize("template", EVERYDAY, ids=lambda t: t.name)
def test_the_templates_only_everyday_lines_use_keep_the_contract(template: TaskTemplate) -> None:
    """Splits and phrasings, the expert under perturbations, no win at reset, the budget and the apps."""
    checks.check_splits_and_goals(template)
    checks.check_expert_solves(template, _device("default"))
    checks.check_reset_guard(template, _device("none"))
    checks.check_budget_and_apps(template, _device("none"))


def _won(task: Task, seed: int = 0) -> tuple[SimDevice, dict[str, Any]]:
    """A phone on which the expert just solved `task`, and its state."""
    phone = SimDevice("none")
    episode = run_episode(task, seed=seed, device=phone)
    assert episode.success
    return phone, phone.state()


def _with(state: dict[str, Any], package: str, **changes: Any) -> dict[str, Any]:
    """`state` with app `package`'s part changed."""
    return {**state, "apps": {**state["apps"], package: {**state["apps"][package], **changes}}}


def test_the_near_misses_of_the_files_lines_fail() -> None:
    """Trashing the copy, moving the PDF beside the photo, opening another day's download: no win."""
    _, state = _won(parsed_task("Delete the file report_old.pdf"))
    fs = state["apps"][F.PACKAGE]
    copy = {"path": "Download/report_old_copy.pdf", "name": "report_old_copy.pdf", "size_kb": 1, "date": "2026-06-10"}
    assert not parsed_task("Delete the file report_old.pdf").check(_with(state, F.PACKAGE, trash=[copy], edits=[
        {"op": "trash", "path": copy["path"]}], files=[f for f in fs["files"] if f["path"] != copy["path"]]))
    move = parsed_task("Move the photo from Downloads to Pictures")
    _, state = _won(move)
    pdf = move.params["params"]["name"].rpartition(".")[0] + ".pdf"
    edits = [*state["apps"][F.PACKAGE]["edits"], {"op": "move", "path": f"Download/{pdf}", "to": f"Pictures/{pdf}"}]
    assert not move.check(_with(state, F.PACKAGE, edits=edits))
    find = parsed_task("Find the PDF I downloaded yesterday")
    _, state = _won(find)
    older = files_everyday_tasks.FindDownloadTemplate()._near(find.params["params"])[0]
    assert not find.check(_with(state, F.PACKAGE, opened=older))


def test_the_newest_picture_is_a_photo_not_the_newer_video() -> None:
    """Opening the video five minutes newer than the newest photo does not win "Open my most recent picture"."""
    task = parsed_task("Open my most recent picture")
    _, state = _won(task)
    video = next(it["name"] for it in state["apps"][G.PACKAGE]["items"] if it["kind"] == "video")
    assert state["apps"][G.PACKAGE]["items"][0]["name"] == video
    assert not task.check(_with(state, G.PACKAGE, open=video))


def test_a_parsed_new_record_name_matches_in_any_case_the_suites_own_exactly() -> None:
    """"Interview" typed as "interview" wins the parsed line; the World task's own params still want the exact name."""
    task = parsed_task("Rename my last recording to Interview")
    _, state = _won(task)
    rec = state["apps"][R.PACKAGE]
    lower = [{**r, "name": r["name"].lower()} for r in rec["records"]]
    renamed = [{**e, "to": e["to"].lower()} for e in rec["renamed"]]
    assert task.check(_with(state, R.PACKAGE, records=lower, renamed=renamed))
    exact = {k: v for k, v in task.params["params"].items() if k not in ("latest", "any_case")}
    assert not RenameRecordTemplate().check(exact, _with(state, R.PACKAGE, records=lower, renamed=renamed))


def _press(phone: SimDevice, **criteria: Any) -> None:
    element = next(e for e in phone.ui_elements() if all(getattr(e, k) == v for k, v in criteria.items()))
    phone.perform(tap(element))
    phone.tick()


def test_the_calculators_advanced_row_takes_square_roots() -> None:
    """More functions shows √, x², xʸ and π above the keypad; √144 = 12 lands in the history; Hide folds it."""
    phone = SimDevice("none")
    phone.reset(0)
    phone.perform(Action(ActionType.OPEN_APP, text="Calculator"))
    phone.tick()
    assert not any(e.text == "√" for e in phone.ui_elements())
    _press(phone, desc="More functions")
    assert {"√", "x²", "xʸ", "π"} <= {e.text for e in phone.ui_elements()}
    for key in ("√", "1", "4", "4", "="):
        _press(phone, text=key)
    calc = phone.state()["apps"][C.PACKAGE]
    assert (calc["expression"], calc["result"], calc["advanced"]) == ("√144", "12", True)
    assert calc["history"][-1] == {"expression": "√144", "result": "12"}
    _press(phone, desc="Hide functions")
    assert not phone.state()["apps"][C.PACKAGE]["advanced"]


def test_send_in_photos_shares_with_the_contact_chosen() -> None:
    """Share > Send in Photos lists the contacts, the search narrows them, a row chooses one, Send shares once."""
    task = parsed_task("Share the latest photo with Jamie")
    phone = SimDevice("none")
    phone.reset(0, task.initial)
    phone.perform(Action(ActionType.OPEN_APP, text="Photos"))
    phone.tick()
    newest = next(it for it in phone.state()["apps"][G.PACKAGE]["items"] if it["kind"] == "photo")
    _press(phone, desc=describe(newest), rid=G.IMAGE_RID)
    _press(phone, text="Share")
    _press(phone, text="Send in Photos")
    people = [e.desc for e in phone.ui_elements() if e.rid == G.PERSON_RID]
    assert "Jamie" in people and len(people) > 5
    phone.perform(Action.type("jam"))
    phone.tick()
    narrowed = [e.desc for e in phone.ui_elements() if e.rid == G.PERSON_RID]
    assert "Jamie" in narrowed and all("jam" in name.lower() for name in narrowed) and len(narrowed) < len(people)
    _press(phone, desc="Jamie", rid=G.PERSON_RID)
    assert phone.state()["apps"][G.PACKAGE]["sending"] == {"item": newest["name"], "to": "Jamie"}
    _press(phone, text="Send", rid=f"{G.PACKAGE}:id/send_button")
    photos = phone.state()["apps"][G.PACKAGE]
    assert photos["shared"] == [{"item": newest["name"], "target": "Photos", "to": "Jamie"}]
    assert photos["screen"] == "photo" and photos["sending"] is None
    assert task.check(phone.state())
