"""World-suite tasks that carry what one app shows into another, over Photos, Markor, Retro Music, OpenTracks, Pro
Expense and Broccoli (issue 48): a receipt photo's total written into a note, a note's songs made a playlist, the
longest run's distance noted, a note's purchase logged as an expense; and questions needing two apps (which expense
matches a receipt, what the receipt not yet logged cost, how far the track a note names went, which recipe uses what
an expense's note says was bought, who sings the song a note names, how long the recipe a note plans takes).

Every task seeds its own data (`initial`) next to a near miss: a twin receipt, a twin note naming another song,
track or recipe, an overall-longer track of another activity. State checks want exactly the asked change and nothing
else in either app; answers are read from the state while nothing was changed and accept the ways a person writes
them ("$16.41" or "16.41", "7.52 km" or "7.52", "1 h 30 min" or "90 minutes"). Helpers are in `cross_media_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import expenses as X
from android_gym.sim.apps import markor
from android_gym.sim.apps import opentracks_data as D
from android_gym.sim.apps import recipes as R
from android_gym.sim.apps.gallery_prints import money
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world import expenses_expert as xe
from android_gym.tasks.world import opentracks_expert as ote
from android_gym.tasks.world import pictures_expert as pe
from android_gym.tasks.world import recipes_tasks as rt
from android_gym.tasks.world import retro_expert as re_
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth
from android_gym.tasks.world.cross_media_expert import (
    NOTES,
    UNIQUE,
    amount_of,
    km_of,
    minutes_of,
    new_note,
    read_note,
    same_number,
)
from android_gym.tasks.world.expenses_cross_tasks import STORES
from android_gym.tasks.world.media_expert import PHOTOS
from android_gym.tasks.world.notes_expert import MARKOR, only_touched

EXP, OT, RETRO, REC = xe.EXP, ote.OT, re_.RETRO, rt.REC
LABELS = ("Weekly shop", "Gift for Mum", "Team lunch", "Home repairs", "Picnic supplies", "Office snacks",
          "Birthday treats", "Camping gear", "Sunday brunch", "School supplies")
"""Expense names that do not give away the shop (the receipt-matching question)."""
PLAYLISTS = ("Morning commute", "Dinner party", "Study focus", "Sunday drive", "Gym mix", "Rainy day",
             "Summer evenings", "Kitchen dance", "Long run", "Quiet hours")
ACTIVITIES = (("running", "run"), ("cycling", "bike ride"), ("hiking", "hike"), ("walking", "walk"))
"""OpenTracks activity types and how a person calls one outing of each."""
TRACK_NAMES = ("Dawn Patrol", "Lunch Break", "Old Road", "Riverside", "Hill Repeats", "Back Roads", "Lakeside",
               "Commute Home", "Easy Sunday", "Tempo Test", "Bridge Out", "Windy One")
SHOPS = ("Farmers market", "Corner shop", "Deli counter", "Night market", "Village store", "Food hall")
"""Expense names for the ingredient bought (its note says what)."""


def answer_now(text: str) -> Action:
    """Declare the task complete with `text` as the answer."""
    return Action(ActionType.STATUS_TASK_COMPLETE, text=text)


def pick(key: str, i: int, pool: tuple[str, ...], avoid: tuple[str, ...] = ()) -> str:
    """A value of `pool` fixed by `key` and `i`, not one of `avoid`."""
    choices = [p for p in pool if p not in avoid]
    return choices[(stable_seed("cross_media", key) + i) % len(choices)]


def notes_untouched(state: State) -> bool:
    """Whether Markor saved, created or changed nothing."""
    return only_touched(state_of(state, markor.MarkorState)["edits"], set())


# -- Photos -> Markor ----------------------------------------------------------------------------------------------
class ReceiptTotalToNoteTemplate(WorldTemplate):
    """Write the total of the receipt photographed on {when} into a new Markor note {note} (its twin photographed two
    hours away prints another total)."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_receipt_total_to_note", 20, "key"
    apps = (PHOTOS, MARKOR)
    phrasings = ('Write just the total of the receipt I photographed on {when} into a new Markor note named '
                 '"{note}"',
                 "Check my receipt photo from {when} in Photos and save only its total in a Markor note called "
                 "{note}",
                 "Create a note {note} in Markor holding just the amount on the receipt picture taken {when}")

    def grid(self) -> list[dict[str, Any]]:
        """Every receipt instance of the pictures grid, with a note name."""
        return [{**p, "note": pick(p["key"], 0, NOTES)} for p in pe.grid(self.name)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The receipt and its twin in Photos; no note of that name."""
        return {PHOTOS: pe.receipts_initial(params), MARKOR: {"absent": [params["note"]]}}

    def text(self, params: Params) -> str:
        """What the expert writes: the receipt's total as printed."""
        return pe.total_text(pe.receipt_of(params))

    def check(self, params: Params, state: State) -> bool:
        """The note holds the total alone (with or without "$"); no other note edited; Photos changed nothing."""
        m = state_of(state, markor.MarkorState)
        return (params["note"] in m["files"] and amount_of(m["files"][params["note"]]) is not None
                and same_number(amount_of, m["files"][params["note"]], pe.total_text(pe.receipt_of(params)))
                and only_touched(m["edits"], {params["note"]}) and pe.untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the receipt photo, then create the note and type the total."""
        return pe.read_picture(params, elements, state) or new_note(params["note"], self.text(params), elements,
                                                                    state)


# -- Markor -> Retro Music -----------------------------------------------------------------------------------------
class NoteSongsToPlaylistTemplate(WorldTemplate):
    """Make a Retro Music playlist {playlist} of the three songs Markor note {note} lists, in its order (a twin note
    lists three others; a playlist is there already and must stay as it is)."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_note_songs_to_playlist", 30, "playlist"
    apps = (MARKOR, RETRO)
    phrasings = ('Make a Retro Music playlist "{playlist}" with the songs listed in my Markor note {note}, in the '
                 "order they are listed",
                 'Create the playlist {playlist} in Retro Music from the song list in the note "{note}" (same order)',
                 'My note {note} in Markor lists some songs: put them, in that order, in a new playlist called '
                 '"{playlist}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every playlist name three times, with a note and a twin note."""
        out = []
        for i, name in enumerate(PLAYLISTS):
            for v in range(3):
                key = f"{name}:{v}"
                note = pick(key, 0, NOTES)
                out.append({"playlist": name, "key": key, "note": note, "twin_note": pick(key, 5, NOTES, (note,)),
                            "phrasing": i + v})
        return out

    @staticmethod
    def library(params: Params) -> list[dict[str, Any]]:
        """The instance's twelve songs."""
        return re_.task_library(params["key"])

    def songs(self, params: Params, twin: bool = False) -> list[str]:
        """The titles the note (or the twin note) lists."""
        lib = self.library(params)
        return [lib[i]["title"] for i in ((0, 4, 7) if twin else (9, 2, 5))]

    def kept(self, params: Params) -> dict[str, Any]:
        """The playlist there at set-up."""
        lib = self.library(params)
        return {"name": "Favourites", "songs": [lib[1]["title"], lib[3]["title"]]}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The library, one playlist, and both notes."""
        def listing(songs: list[str]) -> str:
            return "\n".join(f"- {s}" for s in songs)

        files = {params["note"]: f"Songs to add:\n{listing(self.songs(params))}",
                 params["twin_note"]: f"Maybe later:\n{listing(self.songs(params, twin=True))}"}
        return {RETRO: re_.library_initial(self.library(params), [self.kept(params)]),
                MARKOR: {"absent": list(files), "files": files}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly two playlists: the set-up one unchanged, and {playlist} (any case) holding the note's songs in
        order; Markor changed nothing."""  # noqa: D205, D209
        lists = re_.retro_state(state)["playlists"]
        new = [p for p in lists if p["name"].casefold() == params["playlist"].casefold()]
        return (len(lists) == 2 and self.kept(params) in lists and len(new) == 1
                and new[0]["songs"] == self.songs(params) and notes_untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then build the playlist song by song."""
        return (read_note(params["note"], elements, state)
                or re_.make_playlist(params["playlist"], self.songs(params), elements, state) or wait())


# -- OpenTracks -> Markor --------------------------------------------------------------------------------------------
def task_tracks(params: Params) -> list[dict[str, Any]]:
    """The instance's tracks: three of its activity (the longest is the answer), two longer of another."""
    key, seed = params["key"], stable_seed("cross_tracks", params["key"])
    names = [pick(key, 3 * k, TRACK_NAMES) for k in range(5)]
    while len(set(names)) < 5:
        names = [n for i, n in enumerate(names) if n not in names[:i]]
        names += [t for t in TRACK_NAMES if t not in names][:5 - len(names)]
    other = nth([a for a, _ in ACTIVITIES if a != params["activity"]], seed)
    base_m = 3000 + seed % 4000 // 10 * 10
    lengths = (base_m, base_m + 1370, base_m + 2950 + seed % 7 * 10, base_m + 4400, base_m + 6100)
    out = []
    for k, (name, metres) in enumerate(zip(names, lengths, strict=True)):
        out.append({"name": name, "category": params["activity"] if k < 3 else other,
                    "date": ote.days_ago(1 + (seed // (k + 1)) % 9), "start": f"{7 + k:02d}:30",
                    "duration_s": 60 * (15 + metres // 250), "distance_m": metres})
    return out


class LongestTrackToNoteTemplate(WorldTemplate):
    """Write the distance of the longest {activity} track in OpenTracks into a new Markor note {note} (tracks of
    another activity are longer still)."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_longest_track_to_note", 20, "key"
    apps = (OT, MARKOR)
    phrasings = ('Note down the distance of my longest {noun} in OpenTracks: a new Markor note "{note}" with just '
                 "that distance",
                 "Find my longest {noun} in OpenTracks and write how far it was in a Markor note called {note}",
                 'Create a Markor note named "{note}" with the distance of the longest {noun} I tracked')

    def grid(self) -> list[dict[str, Any]]:
        """Every activity with eight note names."""
        return [{"activity": a, "noun": noun, "key": f"{a}:{v}", "note": nth(NOTES, 3 * i + v), "phrasing": i + v}
                for i, (a, noun) in enumerate(ACTIVITIES) for v in range(8)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the instance's five tracks; no note of that name."""
        return {OT: {"clear": True, "tracks": task_tracks(params)}, MARKOR: {"absent": [params["note"]]}}

    @staticmethod
    def longest(params: Params) -> dict[str, Any]:
        """The longest track of the activity."""
        mine = [t for t in task_tracks(params) if t["category"] == params["activity"]]
        return max(mine, key=lambda t: t["distance_m"])

    def check(self, params: Params, state: State) -> bool:
        """The note holds the distance alone (with or without "km"); no other note edited; OpenTracks untouched."""
        m = state_of(state, markor.MarkorState)
        text = m["files"].get(params["note"])
        return (text is not None and same_number(km_of, text, D.distance_label(self.longest(params)["distance_m"]))
                and only_touched(m["edits"], {params["note"]}) and ote.untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the longest track, then create the note and type its distance."""
        track = self.longest(params)
        if ote.tracks_state(state)["last_opened"] != track["name"]:
            return ote.to_track(track["name"], elements, state) or wait()
        return new_note(params["note"], D.distance_label(track["distance_m"]), elements, state)


# -- Markor -> Pro Expense -------------------------------------------------------------------------------------------
class NoteToExpenseTemplate(WorldTemplate):
    """Log the purchase Markor note {note} describes (at {store}, {category}) as an expense named {store}, dated
    today; a twin note describes another purchase."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_note_to_expense", 21, "store"
    apps = (MARKOR, EXP)
    phrasings = ('Log the purchase written down in my Markor note "{note}" in Pro Expense: the shop as its name, '
                 "the amount and category the note gives, dated today",
                 "Read the note {note} in Markor and record that purchase as an expense (named after the shop, "
                 "in the category it says)",
                 'Add what my note "{note}" says I paid today to Pro Expense, named after the shop, with the '
                 "category from the note")

    def grid(self) -> list[dict[str, Any]]:
        """Every shop with four amounts, a note and a twin shop."""
        out = []
        for i, (store, category) in enumerate(STORES):
            for v in range(4):
                note = nth(NOTES, i + 5 * v)
                out.append({"store": store, "category": category, "cents": 1435 + 271 * v + 113 * i, "note": note,
                            "twin_note": nth(NOTES, i + 5 * v + 1), "twin": nth(STORES, i + v + 1),
                            "phrasing": i + v})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both notes; no expense of either shop's name."""
        (twin, twin_category), cents = params["twin"], params["cents"] + 642
        files = {params["note"]: f"Paid {money(params['cents'])} at {params['store']} today. "
                                 f"Category: {params['category']}.",
                 params["twin_note"]: f"Paid {money(cents)} at {twin} today. Category: {twin_category}."}
        return {MARKOR: {"absent": list(files), "files": files}, EXP: {"absent": [params["store"], twin]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that expense added, dated today (any note); nothing removed or changed; Markor changed nothing."""
        e = state_of(state, X.ExpensesState)
        added = [{**x, "note": ""} for x in e["added"]]
        want = xe.expense(params["store"], params["cents"], params["category"], 0)
        return xe.same_items(added, [want]) and not e["removed"] and not e["changed"] and notes_untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then add the expense."""
        want = xe.expense(params["store"], params["cents"], params["category"], 0)
        return read_note(params["note"], elements, state) or xe.add_step(want, elements, state)


# -- questions across two apps ---------------------------------------------------------------------------------------
class _ReceiptQuestion(WorldTemplate):
    """A question on the receipt photographed on {when} and Pro Expense; split on the day and time."""

    outcome, split_key = "answer", "key"
    apps = (PHOTOS, EXP)

    def grid(self) -> list[dict[str, Any]]:
        """Every receipt instance of the pictures grid, with expense names."""
        return [{**p, "label": pick(p["key"], 0, LABELS), "twin_label": pick(p["key"], 4, LABELS),
                 "other_label": pick(p["key"], 7, LABELS)} for p in pe.grid(self.name)]

    def expenses(self, params: Params) -> list[dict[str, Any]]:
        """The expenses the question seeds."""
        raise NotImplementedError

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The receipt and its twin in Photos, the question's expenses in Pro Expense (no seeded one of either
        receipt's amount: at seed 9 one had it, and the question had two answers)."""  # noqa: D205, D209
        names = [e["name"] for e in self.expenses(params)]
        amounts = [pe.receipt_of(params).total_cents, pe.receipt_of(params, twin=True).total_cents]
        return {PHOTOS: pe.receipts_initial(params), EXP: {"absent": names, "absent_amounts": amounts,
                                                           "expenses": self.expenses(params)}}

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """Amounts match as numbers ("$16.41", "16.41"); names as `answers_match` compares them."""
        if amount_of(truth) is not None:
            return same_number(amount_of, given, truth)
        return super().answer_matches(params, given, truth)

    def truth(self, params: Params) -> str:
        """The answer the instance wants."""
        raise NotImplementedError

    def answer(self, params: Params, state: State) -> str | None:
        """The instance's answer while Photos and Pro Expense changed nothing."""
        return self.truth(params) if pe.untouched(state) and xe.untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the receipt photo, then Pro Expense's list of expenses, and answer."""
        return (pe.read_picture(params, elements, state) or xe.to_page("expenses", elements, state)
                or answer_now(self.truth(params)))


class ReceiptMatchingExpenseTemplate(_ReceiptQuestion):
    """Which expense has the amount of the receipt photographed on {when}? Its name ({label}); another expense has
    the twin receipt's amount."""  # noqa: D205, D209

    name, max_steps = "cross_receipt_matching_expense", 14
    phrasings = ("Which entry in Pro Expense has the same amount as the receipt I photographed on {when}? Tell me "
                 "its name",
                 "I logged the receipt from my {when} photo in Pro Expense under some name: which one?",
                 "Look at the receipt picture from {when}: which Pro Expense expense matches its total?")

    def grid(self) -> list[dict[str, Any]]:
        """The pictures grid, with three distinct expense names."""
        return [p for p in super().grid() if len({p["label"], p["twin_label"], p["other_label"]}) == 3]

    def expenses(self, params: Params) -> list[dict[str, Any]]:
        """The receipt's amount under {label}, the twin's under {twin_label}, another amount under {other_label}."""
        total, twin = pe.receipt_of(params).total_cents, pe.receipt_of(params, twin=True).total_cents
        return [xe.expense(params["label"], total, "Food", 3), xe.expense(params["twin_label"], twin, "Food", 4),
                xe.expense(params["other_label"], total + twin + 111, "Shopping", 2)]

    def truth(self, params: Params) -> str:
        """The name of the expense of the receipt's amount."""
        return params["label"]

    def answer(self, params: Params, state: State) -> str | None:
        """{label}, while it is the one expense of the receipt's amount and nothing changed."""
        total = pe.receipt_of(params).total_cents
        same = [e for e in state_of(state, X.ExpensesState)["expenses"] if e["amount"] == total]
        return super().answer(params, state) if [e["name"] for e in same] == [params["label"]] else None


class UnloggedReceiptTemplate(_ReceiptQuestion):
    """Two receipts were photographed on {when}'s day; the twin is logged in Pro Expense: what did the other cost?"""

    name, max_steps = "cross_unlogged_receipt_total", 15
    phrasings = ("I photographed two receipts on June {day} and logged one of them in Pro Expense. What is the "
                 "total of the one I have not logged yet?",
                 "Of my two receipt photos from June {day}, which total is still missing from Pro Expense? Give "
                 "the amount",
                 "How much did I pay according to the June {day} receipt photo that is not in Pro Expense yet?")

    def expenses(self, params: Params) -> list[dict[str, Any]]:
        """The twin receipt, logged under its shop's name."""
        twin = pe.receipt_of(params, twin=True)
        return [{**xe.expense(twin.merchant, twin.total_cents, "Food", 0), "date": twin.date}]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """As the base, with no expense of the receipt's shop either."""
        out = super().initial(params)
        out[EXP]["absent"] = [*out[EXP]["absent"], params["merchant"]]
        return out

    def truth(self, params: Params) -> str:
        """The receipt's total as printed."""
        return pe.total_text(pe.receipt_of(params))


class _NoteQuestion(WorldTemplate):
    """A question whose subject a Markor note {note} names (a twin note {twin_note} names the near miss)."""

    outcome = "answer"

    def notes(self, params: Params) -> dict[str, str]:
        """The two notes' texts by name."""
        raise NotImplementedError

    def markor_initial(self, params: Params) -> dict[str, Any]:
        """Markor's initial conditions: both notes."""
        files = self.notes(params)
        return {"absent": list(files), "files": files}


class NoteTrackDistanceTemplate(_NoteQuestion):
    """How far did the track that Markor note {note} names ({name}) go? Its twin track is named in another note."""

    name, max_steps, split_key = "cross_note_track_distance", 14, "name"
    apps = (MARKOR, OT)
    phrasings = ('How far was the OpenTracks track my note "{note}" mentions?',
                 "My Markor note {note} names a track: what distance does OpenTracks show for it?",
                 "Check which track the note {note} is about and tell me its distance from OpenTracks")

    def grid(self) -> list[dict[str, Any]]:
        """Every twin pair of OpenTracks' templates twice, with two notes."""
        return [{**p, "note": nth(NOTES, i), "twin_note": nth(NOTES, i + 1)} for i, p in enumerate(ote.twin_grid(2))]

    def notes(self, params: Params) -> dict[str, str]:
        """The note naming the track and the one naming its twin."""
        return {params["note"]: f"Sunday plan: do the {params['name']} route again, a little faster.",
                params["twin_note"]: f"Next week maybe: {params['twin']}."}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The track, its twin and both notes."""
        return {OT: ote.twin_tracks(params), MARKOR: self.markor_initial(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The track's distance as the app writes it, while OpenTracks and Markor changed nothing."""
        t = ote.find_track(state, params["name"])
        ok = t is not None and ote.untouched(state) and notes_untouched(state)
        return D.distance_label(t["distance_m"]) if ok else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same kilometres, with or without the unit."""
        return same_number(km_of, given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then the track, and answer its distance."""
        t = ote.find_track(state, params["name"])
        return (read_note(params["note"], elements, state) or ote.to_track(params["name"], elements, state)
                or answer_now(D.distance_label(t["distance_m"]) if t else "?"))


class NoteSongArtistTemplate(_NoteQuestion):
    """Who sings the song Markor note {note} names ({song})? Another note names a song by another artist."""

    name, max_steps, split_key = "cross_note_song_artist", 14, "song"
    apps = (MARKOR, RETRO)
    phrasings = ('Who sings the song my Markor note "{note}" talks about? Check Retro Music',
                 "Which artist is the song written in my note {note}? It's in my Retro Music library",
                 "Find the song named in the note {note} in Retro Music and tell me its artist")

    def grid(self) -> list[dict[str, Any]]:
        """Every song of the pool, when its library gives it and the twin song different artists."""
        out = []
        for i, song in enumerate(re_.TITLES):
            other = nth(re_.TITLES, i + 7)
            p = {"song": song, "other": other, "note": nth(NOTES, i), "twin_note": nth(NOTES, i + 2), "phrasing": i}
            lib = self.library(p)
            if lib[0]["artist"] != lib[1]["artist"]:
                out.append(p)
        return out

    @staticmethod
    def library(params: Params) -> list[dict[str, Any]]:
        """Ten songs, the note's and the twin note's first."""
        return re_.task_library(f"artist:{params['song']}", 10, (params["song"], params["other"]))

    def notes(self, params: Params) -> dict[str, str]:
        """The note naming the song and the one naming the other."""
        return {params["note"]: f"Song stuck in my head: {params['song']}",
                params["twin_note"]: f"Learn on guitar: {params['other']}"}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The library and both notes."""
        return {RETRO: re_.library_initial(self.library(params)), MARKOR: self.markor_initial(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The artist of the one song of that title, while Markor changed nothing and no playlist was made."""
        r = re_.retro_state(state)
        found = [s for s in r["songs"] if s["title"] == params["song"]]
        return found[0]["artist"] if len(found) == 1 and notes_untouched(state) and not r["playlists"] else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then Retro's Songs tab, and answer the artist."""
        return (read_note(params["note"], elements, state) or re_.to_tab("songs", elements, state)
                or answer_now(self.library(params)[0]["artist"]))


class NoteRecipeTimeTemplate(_NoteQuestion):
    """How long does the recipe Markor note {note} plans ({title}) take to prepare? Its near miss {other}, in
    Broccoli too, is planned in another note."""  # noqa: D205, D209

    name, max_steps, split_key = "cross_note_recipe_time", 14, "pair"
    apps = (MARKOR, REC)
    phrasings = ('How long will the dish in my note "{note}" take to prepare? It\'s a recipe in Broccoli',
                 "My Markor note {note} says what I'm cooking: what preparation time does Broccoli give for it?",
                 "Check the recipe planned in the note {note} and tell me how long it takes, per Broccoli")

    def grid(self) -> list[dict[str, Any]]:
        """The Broccoli templates' instances, with two notes."""
        return [{**p, "note": nth(NOTES, i), "twin_note": nth(NOTES, i + 3)}
                for i, p in enumerate(rt.IngredientsToNoteTemplate().grid())]

    def notes(self, params: Params) -> dict[str, str]:
        """The note planning the recipe and the one planning its near miss."""
        return {params["note"]: f"Friday dinner: {params['title']}",
                params["twin_note"]: f"Some day: {params['other']}"}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both recipes and both notes."""
        return {REC: {"absent": [params["title"], params["other"]],
                      "recipes": [rt.spec_of(params["title"]), rt.spec_of(params["other"])]},
                MARKOR: self.markor_initial(params)}

    def answer(self, params: Params, state: State) -> str | None:
        """The preparation time of the one recipe of that title, while neither app changed anything."""
        found = [x for x in state_of(state, R.RecipesState)["recipes"] if x["title"] == params["title"]]
        ok = len(found) == 1 and rt.untouched(state) and notes_untouched(state)
        return found[0]["prep_time"] if ok else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The same number of minutes, however written in hours and minutes."""
        return same_number(minutes_of, given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the note, then the recipe, and answer its preparation time."""
        return (read_note(params["note"], elements, state) or rt.to_details(params["title"], elements, state)
                or answer_now(rt.spec_of(params["title"])["prep_time"]))


class ExpenseRecipeTemplate(WorldTemplate):
    """Which Broccoli recipe uses what today's {shop} expense's note says was bought ({ingredient})? Another expense
    notes an ingredient of the near miss recipe."""  # noqa: D205, D209

    name, max_steps, outcome, split_key = "cross_expense_recipe", 16, "answer", "pair"
    apps = (REC, EXP)
    phrasings = ("Which of my Broccoli recipes uses what I bought at the {shop} today? The note of that expense "
                 "in Pro Expense says what it was",
                 'I noted in Pro Expense what my "{shop}" purchase today was: which Broccoli recipe needs it?',
                 "Look at today's {shop} expense and tell me which recipe in Broccoli I can use it in")

    def grid(self) -> list[dict[str, Any]]:
        """Every recipe with an ingredient of its own, when its near miss has one too; three shops each."""
        out = []
        for i, ((a, _), (b, _)) in enumerate(rt.PAIRS):
            for title, other in ((a, b), (b, a)):
                if title in UNIQUE and other in UNIQUE:
                    for v in range(3):
                        shop = nth(SHOPS, i + 2 * v)
                        out.append({"title": title, "other": other, "pair": a, "shop": shop,
                                    "twin_shop": nth(SHOPS, i + 2 * v + 1), "ingredient": UNIQUE[title],
                                    "phrasing": i + v})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Both recipes; the shop's expense today noting the ingredient, the twin shop's noting the near miss's."""
        spend = [xe.expense(params["shop"], 675 + 37 * len(params["title"]), "Food", 0,
                            f"Bought {params['ingredient']}"),
                 xe.expense(params["twin_shop"], 490 + 29 * len(params["other"]), "Food", 0,
                            f"Bought {UNIQUE[params['other']]}")]
        return {REC: {"absent": [params["title"], params["other"]],
                      "recipes": [rt.spec_of(params["title"]), rt.spec_of(params["other"])]},
                EXP: {"absent": [params["shop"], params["twin_shop"]], "expenses": spend}}

    def answer(self, params: Params, state: State) -> str | None:
        """The recipe's title, while it is there once and neither app changed anything."""
        found = [x for x in state_of(state, R.RecipesState)["recipes"] if x["title"] == params["title"]]
        return params["title"] if len(found) == 1 and rt.untouched(state) and xe.untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the recipe (the expert knows it), then the expense's details, and answer the title."""
        if state_of(state, R.RecipesState)["last_opened"] != params["title"]:
            return rt.to_details(params["title"], elements, state) or wait()
        return (xe.to_details(params["shop"], X.iso(0), elements, state) or answer_now(params["title"]))


TEMPLATES: tuple[TaskTemplate, ...] = (
    ReceiptTotalToNoteTemplate(), NoteSongsToPlaylistTemplate(), LongestTrackToNoteTemplate(),
    NoteToExpenseTemplate(), ReceiptMatchingExpenseTemplate(), UnloggedReceiptTemplate(),
    NoteTrackDistanceTemplate(), NoteSongArtistTemplate(), NoteRecipeTimeTemplate(), ExpenseRecipeTemplate(),
)
"""The cross-app templates over files, media, money and places."""
