"""World-suite tasks over Simple Draw Pro: draw in a colour and save under a name in a folder, answer how many images
Pictures holds and how many strokes a drawing has, and text someone the name of the latest drawing (Messages).

Each task puts its images on the phone (`initial`, the seeded ones removed), next to a near miss: the drawing's twin
of the same name in another format, a decoy image in Download among the Pictures ones, a drawing of a similar name
with another stroke count, an older drawing. Checks read the app's state and its log of saves ("saved"), so a save
elsewhere, or any save in an answer task, fails. Splits hold out file names (`split_of`), or the counts' keys.
Experts read the UI elements, get past pop-ups (`into_app`) and retry dropped taps by acting on the same screen again.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import draw as D
from android_gym.sim.apps import draw_state as DS
from android_gym.sim.apps import messages as M
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, home, wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth
from android_gym.tasks.world.draw_expert import (
    DRAW,
    INKS,
    STEMS,
    brush,
    days_ago,
    draw_state,
    drawings,
    file_at,
    open_drawing,
    save_drawing,
    stroke,
    to_files,
    untouched,
)
from android_gym.tasks.world.messaging_expert import conversation, names, person, send_text, texts_ok


def named_grid() -> list[dict[str, Any]]:
    """Every task name in every format: the file, its twin (another format), an ink, a phrasing."""
    out = []
    for i, stem in enumerate(STEMS):
        for k, fmt in enumerate(DS.FORMATS):
            twin = f"{stem}.{DS.FORMATS[(k + 1 + i % 2) % 3]}"
            out.append({"file": f"{stem}.{fmt}", "twin": twin, "ink": nth(INKS, 3 * i + k), "phrasing": i + k})
    return out


class SaveNamedTemplate(WorldTemplate):
    """Draw in {ink} and save the drawing as Pictures/{file}; its twin {twin} is there already."""

    name, max_steps, split_key = "draw_save_named", 20, "file"
    apps = (DRAW,)
    phrasings = ('In Simple Draw Pro, draw something in {ink} and save it in Pictures as "{file}"',
                 "Make a {ink} drawing with Simple Draw Pro and save it to the Pictures folder named {file}",
                 'Sketch anything in {ink} in Simple Draw Pro, then save the image as "{file}" in Pictures')

    def grid(self) -> list[dict[str, Any]]:
        """Every name and format; the Save dialog starts on Download for every other instance."""
        return [{**p, "start": "Download" if p["phrasing"] % 2 else "Pictures"} for p in named_grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The twin in Pictures (an older drawing in black), the dialog's folder, a black brush."""
        return {DRAW: {**drawings([(f"Pictures/{params['twin']}", days_ago(3 + params["phrasing"] % 20), 2,
                                    "Black")]), "folder": params["start"], "color": DS.COLORS["Black"]}}

    def check(self, params: Params, state: State) -> bool:
        """Every save went to Pictures/{file}, which holds a stroke in {ink}; the twin is as it was."""
        path, d = f"Pictures/{params['file']}", draw_state(state)
        saved = file_at(state, path)
        return (bool(d["saved"]) and set(d["saved"]) == {path} and saved is not None
                and any(s["color"] == DS.COLORS[params["ink"]] for s in saved["strokes"])
                and file_at(state, f"Pictures/{params['twin']}") is not None)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The colour, a stroke, Save: Pictures, the format, the name, OK."""
        d, ink = draw_state(state), DS.COLORS[params["ink"]]
        if f"Pictures/{params['file']}" in d["saved"]:
            return wait()
        if not any(s["color"] == ink for s in d["canvas"]):
            return brush(params["ink"], elements, state) or stroke(elements)
        return save_drawing(params["file"], "Pictures", elements, state)


class CountPicturesTemplate(WorldTemplate):
    """How many images are in Pictures? {count}, with {decoys} more in Download (Open file lists both)."""

    name, max_steps, split_key = "draw_count_pictures", 10, "key"
    outcome, apps = "answer", (DRAW,)
    phrasings = ("How many images does Simple Draw Pro list in the Pictures folder?",
                 "Using Simple Draw Pro's Open file list, count the drawings saved in Pictures",
                 "How many pictures are in my Pictures folder, according to Simple Draw Pro?")

    def grid(self) -> list[dict[str, Any]]:
        """2-6 images in Pictures, 1-3 in Download, two name rotations each."""
        return [{"count": n, "decoys": m, "key": f"{n}:{m}:{k}", "phrasing": n + m + k}
                for n in range(2, 7) for m in range(1, 4) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only those images, their names rotating through the task names, dated apart."""
        n, seed = params["count"], stable_seed("draw-count", params["key"])
        specs = [(f"{'Pictures' if i < n else 'Download'}/{nth(STEMS, seed + i)}.{nth(DS.FORMATS, seed + 2 * i)}",
                  days_ago(1 + (seed + 7 * i) % 90), 1 + i % 4, nth(INKS, i))
                 for i in range(n + params["decoys"])]
        return {DRAW: drawings(specs)}

    def answer(self, params: Params, state: State) -> str | None:
        """The number of images in Pictures, while nothing was saved."""
        files = draw_state(state)["files"]
        return str(sum(f["folder"] == "Pictures" for f in files)) if untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open file; count the rows under Internal storage/Pictures."""
        step = to_files(elements, state)
        if step is not None:
            return step
        rows = [e for e in elements if e.rid == f"{DRAW}:id/file_details"]
        if not rows:
            return wait()
        n = sum(e.text.startswith(f"{D.ROOT_LABEL}/Pictures ") for e in rows)
        return Action(ActionType.STATUS_TASK_COMPLETE, text=str(n))


class StrokeCountTemplate(WorldTemplate):
    """How many strokes does the drawing {file} have? Its twin {twin} has another count."""

    name, max_steps, split_key = "draw_stroke_count", 13, "file"
    outcome, apps = "answer", (DRAW,)
    phrasings = ('How many strokes are in the drawing "{file}" in Simple Draw Pro?',
                 "Open {file} in Simple Draw Pro and tell me how many strokes it has",
                 "Count the strokes of my drawing {file} (Simple Draw Pro)")

    def grid(self) -> list[dict[str, Any]]:
        """Every task name in every format, 1-9 strokes, the twin with another count."""
        return [{**p, "strokes": 1 + (p["phrasing"] * 5) % 9, "twin_strokes": 1 + (p["phrasing"] * 5 + 4) % 9}
                for p in named_grid()]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The drawing and its twin, in Pictures."""
        age = 2 + params["phrasing"] % 30
        return {DRAW: drawings([(f"Pictures/{params['file']}", days_ago(age), params["strokes"], params["ink"]),
                                (f"Pictures/{params['twin']}", days_ago(age + 1), params["twin_strokes"], "Black")])}

    def answer(self, params: Params, state: State) -> str | None:
        """The drawing's stroke count, while nothing was saved."""
        f = file_at(state, f"Pictures/{params['file']}")
        return str(len(f["strokes"])) if f is not None and untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open file, the drawing; read the canvas's count."""
        step = open_drawing(f"Pictures/{params['file']}", elements, state)
        if step is not None:
            return step
        canvas = find(elements, rid=D.CANVAS_RID)
        count = re.search(r"(\d+) stroke", canvas.desc) if canvas is not None else None
        return Action(ActionType.STATUS_TASK_COMPLETE, text=count.group(1)) if count else wait()


class LatestToTextTemplate(WorldTemplate):
    """Text {person} the file name of the newest drawing ({latest}); older ones are listed below it."""

    name, max_steps, split_key = "draw_latest_to_text", 19, "latest"
    apps = (DRAW, M.PACKAGE)
    phrasings = ("Text {person} the file name of my most recent drawing in Simple Draw Pro",
                 "Send {person} a message with the name of the newest image in Simple Draw Pro",
                 "{person} wants to know what my latest Simple Draw Pro drawing is called: text them its file name")

    def grid(self) -> list[dict[str, Any]]:
        """Every task name as the newest (an older one of the next name), with a person per instance."""
        return [{"latest": p["file"], "older": named_grid()[(i + 4) % len(named_grid())]["file"],
                 "person": names(f"draw:{p['file']}", 1)[0], "phrasing": p["phrasing"]}
                for i, p in enumerate(named_grid()) if i % 2 == 0]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The newest drawing (two days old) and two older ones; a conversation with the person."""
        p = person(params["person"])
        return {DRAW: drawings([(f"Pictures/{params['latest']}", days_ago(2), 3, "Red"),
                                (f"Pictures/{params['older']}", days_ago(9), 2, "Blue"),
                                (f"Download/{DS.POOL[params['phrasing'] % len(DS.POOL)]}.png", days_ago(30), 1,
                                 "Green")]),
                M.PACKAGE: {"threads": [conversation(p, ("What did you draw last?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the newest drawing's name; nothing saved."""
        return texts_ok(state, [(params["person"], params["latest"])], contains=True) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open file to read the top row, then text it."""
        if not draw_state(state)["browsed"]:
            return to_files(elements, state) or home()
        return send_text(person(params["person"]), params["latest"], elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    SaveNamedTemplate(), CountPicturesTemplate(), StrokeCountTemplate(), LatestToTextTemplate())
"""The Simple Draw Pro templates of the world suite."""
