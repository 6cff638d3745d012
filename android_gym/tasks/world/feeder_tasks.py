"""World-suite tasks over Feeder, the news reader (issue 48): questions answered from the feeds (who wrote a feed's
latest article, how many unread articles a tag holds, which saved article is from a weekday, which feed published an
article and on which day, how many articles are saved), edits (subscribe by address under a tag, unsubscribe, retitle
or retag a feed, mark a feed read, save an article). The tasks that carry an article into another app are in
`feeder_cross_tasks`.

Every task puts its own articles on the phone (`initial`), beside a twin with a similar title in another place or
day (the near miss), among the episode's seeded articles. Checks read Feeder's state and its change log ("added",
"removed", "edited", "read_changed", "saved_changed"), so touching the twin, another feed, or anything else fails;
opening articles (which marks them read) is allowed wherever the goal does not count unread articles. Answers are read
from the state at the end, and none is given once the agent changed what it was asked about. The task articles and
expert steps are in `feeder_expert`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import re
from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.apps import feeder as F
from android_gym.sim.apps import feeder_data as D
from android_gym.tasks.base import TaskTemplate, answers_match, normalise_answer
from android_gym.tasks.expert import find, tap, wait
from android_gym.tasks.world.answer_tasks import answer_with
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, nth, press
from android_gym.tasks.world.feeder_expert import (
    AUTHORS,
    FEEDER,
    FEEDS,
    TITLES,
    article,
    edit_feed,
    feeder_state,
    feeds_untouched,
    find_article,
    find_feed,
    subscribe,
    title_of,
    to_article,
    to_showing,
    unsubscribe,
    untouched,
)

TODAY = str(D.DATE)
WEEKDAYS = {"Wednesday": "2026-06-03", "Thursday": "2026-06-04", "Friday": "2026-06-05", "Monday": "2026-06-08",
            "Tuesday": "2026-06-09"}
"""The weekdays of the week before the sim's today (Wednesday, June 10) a saved article may be from."""
TAGS = ("News", "Science", "Tech")
NEW_TITLES = ("Morning read", "Space stuff", "Local paper", "Gadget news", "Weekend reading", "Science bits",
              "Daily digest", "Hometown", "Dev news", "Cooking ideas", "Headlines", "Lab stuff")
NEW_TAGS = ("Reading", "Weekend", "Hobbies", "Later", "Favourites", "Work")


def by_prefix(given: str, truth: str, prefix: str) -> bool:
    """Whether `given` says `truth`, a leading `prefix` word aside ("By Ada Byrne" for "Ada Byrne")."""
    words = given.strip().split(maxsplit=1)
    return answers_match(given, truth) or (len(words) == 2 and words[0].lower() == prefix
                                           and answers_match(words[1], truth))


COUNT = re.compile(r"(\d+)(?: unread| saved)?(?: articles?| stories| story| posts?| items?)?")
"""A count as a person writes it: the number, maybe with "unread"/"saved" and a noun after it ("5 unread articles")."""


def count_matches(given: str, truth: str) -> bool:
    """Whether `given` says the count `truth`, with or without its noun.

    >>> count_matches("5 unread articles", "5"), count_matches("5", "5"), count_matches("15", "5")
    (True, True, False)
    """
    found = COUNT.fullmatch(normalise_answer(given))
    return found is not None and found.group(1) == truth


def day_forms(day: str) -> set[str]:
    """The ways a person writes the day `day` ("YYYY-MM-DD"), normalised as answers are: the weekday alone (the week
    holds one of each), the month and day with or without the weekday and year, either order, or the ISO date.

    >>> {"monday", "june 8", "mon jun 8th 2026", "8 june", "2026 06 08"} <= day_forms("2026-06-08")
    True
    >>> "june 9" in day_forms("2026-06-08")
    False
    """  # noqa: D205
    d = datetime.date.fromisoformat(day)
    suffix = "th" if 10 <= d.day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d.day % 10, "th")
    weekdays, months, days = (f"{d:%A}".lower(), f"{d:%a}".lower()), (f"{d:%B}".lower(), f"{d:%b}".lower()), (
        str(d.day), f"{d.day}{suffix}")
    forms = {normalise_answer(day), *weekdays}
    for m in months:
        for n in days:
            for core in (f"{m} {n}", f"{n} {m}"):
                forms |= {core, f"{core} {d.year}"} | {f"{w} {core}" for w in weekdays} | {
                    f"{w} {core} {d.year}" for w in weekdays}
    return forms


TIME = re.compile(r"(?: at)? \d{1,2} \d{2} [ap]m$")
"""A time after a day ("... 10 15 am" once normalised), which a day answer may carry (the reader's date line)."""


def number_from_desc(elements: Elements, name: str) -> Action:
    """Answer with the count of the drawer row `name` (its description is "<name>, <count>")."""
    row = next((e for e in elements if e.desc.startswith(f"{name}, ")), None)
    if row is None:
        return wait()
    return Action(ActionType.STATUS_TASK_COMPLETE, text=row.desc.rsplit(", ", 1)[1])


def holds_text(text: str, part: str) -> bool:
    """Whether `text` holds `part`, case aside."""
    return part.casefold() in text.casefold()


class _FeederTemplate(WorldTemplate):
    """A Feeder task; split on `key` unless a template names another parameter."""

    apps, split_key = (FEEDER,), "key"


# -- answers ----------------------------------------------------------------------------------------------------------
class LatestAuthorTemplate(_FeederTemplate):
    """Who wrote the latest article in {feed_title}? Its author; the twin (newest of all, in another feed) is not."""

    name, max_steps, outcome = "feeder_latest_author", 10, "answer"
    phrasings = ("Who wrote the latest article in {feed_title}?", "In Feeder, who is the author of the newest "
                 "{feed_title} article?", "Check Feeder: who wrote the most recent post of {feed_title}?")

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, rotating feeds and authors."""
        return [{"key": f"{t}/{k}", "title": t, "twin": w, "feed": nth(FEEDS, i + 3 * k),
                 "feed_title": title_of(nth(FEEDS, i + 3 * k)), "other": nth(FEEDS, i + 3 * k + 1),
                 "author": nth(AUTHORS, i + k), "twin_author": nth(AUTHORS, i + k + 5), "phrasing": i + k}
                for i, (t, w) in enumerate(TITLES) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article today in the feed; the twin later today in the next feed."""
        p = params
        return {FEEDER: {"articles": [article(p["feed"], p["title"], p["author"], TODAY, "07:30"),
                                      article(p["other"], p["twin"], p["twin_author"], TODAY, "08:45")]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The author of the feed's newest article, while no feed was changed."""
        latest = next((a for a in feeder_state(state)["articles"] if a["feed"] == params["feed"]), None)
        return latest["author"] if latest is not None and feeds_untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The author's name, "By" before it or not."""
        return by_prefix(given, truth, "by")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The feed's list, its top article, answer with the author line."""
        step = to_article(params["title"], f"feed:{params['feed']}", elements, state)
        return step or answer_with(find(elements, rid=F.AUTHOR_RID))


class UnreadInTagTemplate(_FeederTemplate):
    """How many unread articles are in tag {tag}? The drawer's count; no article may be opened first."""

    name, max_steps, outcome = "feeder_unread_in_tag", 8, "answer"
    phrasings = ("How many unread articles are in {tag} in Feeder?", "Tell me how many {tag} articles I have not "
                 "read yet", "Count the unread articles under the {tag} tag in my news reader")

    def grid(self) -> list[dict[str, Any]]:
        """Every tag with 0-7 extra unread articles and 0-2 read ones."""
        return [{"key": f"{tag}/{n}/{r}", "tag": tag, "extra": n, "read": r, "phrasing": n + r}
                for tag in TAGS for n in range(8) for r in range(3)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The extra articles in the tag's feeds, and as many unread in another tag's (the near miss)."""
        feeds = [u for u in FEEDS if D.CATALOGUE[u]["tag"] == params["tag"]]
        other = next(u for u in FEEDS if D.CATALOGUE[u]["tag"] not in ("", params["tag"]))
        arts = [article(nth(feeds, k), f"{nth(TITLES, k)[0]} ({k + 1})", nth(AUTHORS, k), TODAY, "06:00")
                for k in range(params["extra"])]
        arts += [article(nth(feeds, k), f"{nth(TITLES, k)[1]} ({k + 1})", nth(AUTHORS, k), TODAY, "06:00", read=True)
                 for k in range(params["read"])]
        arts += [article(other, f"{nth(TITLES, k + 5)[0]} ({k + 1})", nth(AUTHORS, k + 3), TODAY, "06:30")
                 for k in range(1 + params["extra"] % 3)]
        return {FEEDER: {"articles": arts}}

    def answer(self, params: Params, state: State) -> str | None:
        """The unread articles of the tag's feeds, while nothing was read, marked or changed."""
        if not untouched(state):
            return None
        f = feeder_state(state)
        return str(sum(x["unread"] for x in f["feeds"] if x["tag"] == params["tag"]))

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count, with or without its noun."""
        return count_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the drawer, answer with the tag's count."""
        if feeder_state(state)["screen"] == "drawer" and state["foreground"] == FEEDER:
            return number_from_desc(elements, params["tag"])
        return to_showing("all", elements, state) or press(elements, desc=F.DRAWER_DESC)


class SavedOnDayTemplate(_FeederTemplate):
    """What is the title of the article I saved from {day}? The saved one of that day; a saved twin of another day and
    an unsaved article of that day are not."""  # noqa: D205, D209

    name, max_steps, outcome = "feeder_saved_on_day", 10, "answer"
    phrasings = ("What is the title of the article I saved from {day}?", "In Feeder, which saved article was "
                 "published on {day}? Tell me its title", "I saved an article from {day} in my news reader: what is it "
                 "called?")

    def grid(self) -> list[dict[str, Any]]:
        """Every title with two weekdays."""
        days = tuple(WEEKDAYS)
        return [{"key": f"{t}/{k}", "title": t, "twin": w, "other": nth(TITLES, i + 4)[0], "day": nth(days, i + k),
                 "twin_day": nth(days, i + k + 2), "feed": nth(FEEDS, i + k), "phrasing": i + 2 * k}
                for i, (t, w) in enumerate(TITLES) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's articles saved: the day's, the twin of another day; an unsaved one of the day."""
        p, day = params, WEEKDAYS[params["day"]]
        return {FEEDER: {"seeded_saved": False, "articles": [
            article(p["feed"], p["title"], nth(AUTHORS, len(p["title"])), day, "10:15", read=True, saved=True),
            article(nth(FEEDS, len(p["twin"])), p["twin"], nth(AUTHORS, 1), WEEKDAYS[p["twin_day"]], "11:20",
                    saved=True),
            article(nth(FEEDS, 2 + len(p["other"])), p["other"], nth(AUTHORS, 2), day, "12:40")]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The one saved article of the day, while no saved flag or feed was changed."""
        day = WEEKDAYS[params["day"]]
        saved = [a for a in feeder_state(state)["articles"] if a["saved"] and a["date"] == day]
        ok = len(saved) == 1 and feeds_untouched(state) and not feeder_state(state)["saved_changed"]
        return saved[0]["title"] if ok else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Saved articles, the row of that day, answer with the reader's title."""
        f, day = feeder_state(state), WEEKDAYS[params["day"]]
        if f["screen"] == "reader" and state["foreground"] == FEEDER:
            a = next((x for x in f["articles"] if x["id"] == f["open"]), None)
            if a is not None and a["date"] == day and a["saved"]:
                return answer_with(find(elements, rid=F.READER_TITLE_RID))
        step = to_showing("saved", elements, state)
        if step is not None:
            return step
        row = find(elements, rid=F.ROW_INFO_RID, contains=D.day_label(day))
        return tap(row) if row is not None else wait()


class ArticleFeedTemplate(_FeederTemplate):
    """Which feed published {title}? Its feed's title; the twin title's feed is not."""

    name, max_steps, outcome = "feeder_article_feed", 8, "answer"
    phrasings = ('Which feed published the article "{title}"?', "In Feeder, what feed is {title} from?",
                 'Tell me the name of the feed that has the story "{title}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, with two different feeds."""
        return [{"key": f"{t}/{k}", "title": t, "twin": w, "feed": nth(FEEDS, i + k), "other": nth(FEEDS, i + k + 2),
                 "phrasing": i + k} for i, (t, w) in enumerate(TITLES) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article and its twin, both today, in two feeds."""
        p = params
        return {FEEDER: {"articles": [article(p["feed"], p["title"], nth(AUTHORS, 0), TODAY, "08:00"),
                                      article(p["other"], p["twin"], nth(AUTHORS, 1), TODAY, "08:10")]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The title of the article's feed, while no feed was changed."""
        a = find_article(state, params["title"])
        feed = find_feed(state, a["feed"]) if a is not None else None
        return feed["title"] if feed is not None and feeds_untouched(state) else None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the article from All feeds, answer with its feed line."""
        step = to_article(params["title"], "all", elements, state)
        return step or answer_with(find(elements, rid=F.READER_FEED_RID))


class ArticleDayTemplate(_FeederTemplate):
    """On which day was {title} published? Its day (in any usual writing); the twin's day is not."""

    name, max_steps, outcome = "feeder_article_day", 15, "answer"
    phrasings = ('On which day was the article "{title}" published?', "When did {title} come out? Check Feeder",
                 'Tell me the date of the news story "{title}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, on two days, the twin on another day."""
        days = tuple(WEEKDAYS.values())
        return [{"key": f"{t}/{k}", "title": t, "twin": w, "day": nth(days, i + k), "twin_day": nth(days, i + k + 1),
                 "feed": nth(FEEDS, i + k), "other": nth(FEEDS, i + k + 3), "phrasing": i + k}
                for i, (t, w) in enumerate(TITLES) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article and its twin, in two feeds, on two days."""
        p = params
        return {FEEDER: {"articles": [article(p["feed"], p["title"], nth(AUTHORS, 7), p["day"], "10:15"),
                                      article(p["other"], p["twin"], nth(AUTHORS, 8), p["twin_day"], "10:15")]}}

    def answer(self, params: Params, state: State) -> str | None:
        """The article's day ("YYYY-MM-DD"), while no feed was changed."""
        a = find_article(state, params["title"])
        return a["date"] if a is not None and feeds_untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The day in any usual writing (`day_forms`), a time after it or not."""
        return TIME.sub("", normalise_answer(given)) in day_forms(truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the article from All feeds, answer with the reader's date line."""
        step = to_article(params["title"], "all", elements, state)
        return step or answer_with(find(elements, rid=F.DATE_RID))


class SavedCountTemplate(_FeederTemplate):
    """How many articles have I saved? The Saved articles count."""

    name, max_steps, outcome = "feeder_saved_count", 8, "answer"
    phrasings = ("How many articles have I saved in Feeder?", "Count my saved articles in the news reader",
                 "Tell me how many stories are in Feeder's saved articles")

    def grid(self) -> list[dict[str, Any]]:
        """One to six saved task articles, with one to three unsaved ones."""
        return [{"key": f"{s}/{u}/{v}", "saved": s, "unsaved": u, "offset": v, "phrasing": s + u + v}
                for s in range(1, 7) for u in range(1, 4) for v in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the task's saved articles saved, across the feeds."""
        p = params
        arts = [article(nth(FEEDS, k + p["offset"]), nth(TITLES, k + p["offset"])[0], nth(AUTHORS, k),
                        WEEKDAYS["Monday"], "09:00", saved=True) for k in range(p["saved"])]
        arts += [article(nth(FEEDS, k + 1), nth(TITLES, k + p["offset"])[1], nth(AUTHORS, k + 2), TODAY, "07:00")
                 for k in range(p["unsaved"])]
        return {FEEDER: {"seeded_saved": False, "articles": arts}}

    def answer(self, params: Params, state: State) -> str | None:
        """The saved articles, while no saved flag or feed was changed."""
        f = feeder_state(state)
        ok = feeds_untouched(state) and not f["saved_changed"]
        return str(sum(a["saved"] for a in f["articles"])) if ok else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The count, with or without its noun."""
        return count_matches(given, truth)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the drawer, answer with the Saved articles count."""
        if feeder_state(state)["screen"] == "drawer" and state["foreground"] == FEEDER:
            return number_from_desc(elements, "Saved articles")
        return to_showing("all", elements, state) or press(elements, desc=F.DRAWER_DESC)


# -- edits ------------------------------------------------------------------------------------------------------------
UNSUBSCRIBED = tuple(u for u in D.CATALOGUE if u not in D.SUBSCRIBED)


class SubscribeTemplate(_FeederTemplate):
    """Subscribe to {url} under tag {tag}: that feed added with its own title and the tag; nothing else changed."""

    name, max_steps = "feeder_subscribe", 16
    phrasings = ("Subscribe to {url} in Feeder and tag it {tag}", 'Add the feed {url} to my news reader under the tag '
                 '"{tag}"', "Follow {url} in Feeder, with {tag} as its tag")

    def grid(self) -> list[dict[str, Any]]:
        """Every unsubscribed address with every new tag."""
        return [{"key": f"{u} {t}", "url": u, "tag": t, "phrasing": i + j}
                for i, u in enumerate(UNSUBSCRIBED) for j, t in enumerate(NEW_TAGS)]

    def check(self, params: Params, state: State) -> bool:
        """Exactly that feed added, titled as the feed, under the tag (case aside); no other change."""
        f, feed = feeder_state(state), find_feed(state, params["url"])
        return (f["added"] == [params["url"]] and not f["removed"] and not f["edited"] and not f["saved_changed"]
                and feed is not None and feed["title"] == title_of(params["url"])
                and feed["tag"].casefold() == params["tag"].casefold())

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """More options, Add feed, the address, Search, the feed, the tag, OK."""
        if feeder_state(state)["added"]:
            return wait()
        return subscribe(params["url"], params["tag"], elements, state)


class _FeedTemplate(_FeederTemplate):
    """A task about the subscribed feed {feed_title}, with a second seeded rotation per feed."""

    def grid(self) -> list[dict[str, Any]]:
        """Every seeded feed four times."""
        return [{"key": f"{u}/{k}", "feed": u, "feed_title": title_of(u), "k": k, "phrasing": i + k}
                for i, u in enumerate(FEEDS) for k in range(4)]


class UnsubscribeTemplate(_FeedTemplate):
    """Unsubscribe from {feed_title}: that feed removed; nothing else changed."""

    name, max_steps = "feeder_unsubscribe", 12
    phrasings = ("Unsubscribe from {feed_title} in Feeder", "Delete the feed {feed_title} from my news reader",
                 "I don't want {feed_title} any more: remove it from Feeder")

    def check(self, params: Params, state: State) -> bool:
        """Exactly that feed removed; nothing added, edited or saved."""
        f = feeder_state(state)
        return f["removed"] == [params["feed"]] and not f["added"] and not f["edited"] and not f["saved_changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The feed's list, More options, Delete feed, Delete."""
        return wait() if feeder_state(state)["removed"] else unsubscribe(params["feed"], elements, state)


class RetitleFeedTemplate(_FeedTemplate):
    """Rename the feed {feed_title} to {new}, its tag kept."""

    name, max_steps = "feeder_retitle_feed", 16
    phrasings = ('Rename the feed {feed_title} to "{new}" in Feeder', "In my news reader, call {feed_title} {new}",
                 'Change the title of the {feed_title} feed to "{new}"')

    def grid(self) -> list[dict[str, Any]]:
        """Every feed four times, new titles rotating."""
        return [{**p, "new": nth(NEW_TITLES, p["phrasing"] + p["k"])} for p in super().grid()]

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the feed's title (exact but for outer spaces), its tag as it was; nothing else."""
        f = feeder_state(state)
        want = [{"url": params["feed"], "title": params["new"], "tag": D.CATALOGUE[params["feed"]]["tag"]}]
        return f["edited"] == want and not f["added"] and not f["removed"] and not f["saved_changed"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The feed's list, More options, Edit feed, the title, OK."""
        if feeder_state(state)["edited"]:
            return wait()
        return edit_feed(params["feed"], params["new"], D.CATALOGUE[params["feed"]]["tag"], elements, state)


class RetagFeedTemplate(_FeedTemplate):
    """Put the feed {feed_title} under tag {tag} (its title kept)."""

    name, max_steps = "feeder_retag_feed", 15
    phrasings = ("Move {feed_title} to the {tag} tag in Feeder", 'Tag the feed {feed_title} as "{tag}"',
                 "In my news reader, file {feed_title} under {tag}")

    def grid(self) -> list[dict[str, Any]]:
        """Every feed four times, with a tag other than its own."""
        out = []
        for p in super().grid():
            tags = [t for t in (*TAGS, *NEW_TAGS) if t != D.CATALOGUE[p["feed"]]["tag"]]
            out.append({**p, "tag": nth(tags, p["phrasing"] + 2 * p["k"])})
        return out

    def check(self, params: Params, state: State) -> bool:
        """Exactly one edit: the feed's tag (case aside), its title kept; nothing else."""
        f = feeder_state(state)
        if len(f["edited"]) != 1 or f["added"] or f["removed"] or f["saved_changed"]:
            return False
        e = f["edited"][0]
        return (e["url"], e["title"], e["tag"].casefold()) == (params["feed"], params["feed_title"],
                                                               params["tag"].casefold())

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The feed's list, More options, Edit feed, the tag, OK."""
        if feeder_state(state)["edited"]:
            return wait()
        return edit_feed(params["feed"], params["feed_title"], params["tag"], elements, state)


class MarkFeedReadTemplate(_FeedTemplate):
    """Mark every article of {feed_title} read: its articles read, no other article's flag changed."""

    name, max_steps = "feeder_mark_feed_read", 9
    phrasings = ("Mark all articles in {feed_title} as read", "In Feeder, mark the {feed_title} feed as read",
                 "I've caught up on {feed_title}: mark everything in it read")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Two unread task articles in the feed, one in the next feed (the near miss)."""
        t, w = nth(TITLES, params["phrasing"])
        return {FEEDER: {"articles": [article(params["feed"], t, nth(AUTHORS, 0), TODAY, "07:00"),
                                      article(params["feed"], w, nth(AUTHORS, 1), TODAY, "06:00"),
                                      article(nth(FEEDS, FEEDS.index(params["feed"]) + 1), nth(TITLES, params[
                                          "phrasing"] + 1)[0], nth(AUTHORS, 2), TODAY, "06:30")]}}

    def check(self, params: Params, state: State) -> bool:
        """Every article of the feed read; only its articles' read flags changed; no feed or saved flag changed."""
        f = feeder_state(state)
        mine = {a["id"] for a in f["articles"] if a["feed"] == params["feed"]}
        return (all(a["read"] for a in f["articles"] if a["id"] in mine) and set(f["read_changed"]) <= mine
                and feeds_untouched(state) and not f["saved_changed"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The feed's list, Mark all as read."""
        f = feeder_state(state)
        if all(a["read"] for a in f["articles"] if a["feed"] == params["feed"]):
            return wait()
        return to_showing(f"feed:{params['feed']}", elements, state) or press(elements, desc=F.MARK_ALL_DESC)


class SaveArticleTemplate(_FeederTemplate):
    """Save the article {title}: its saved flag alone changed; the twin in the same feed stays unsaved."""

    name, max_steps = "feeder_save_article", 10
    phrasings = ('Save the article "{title}" in Feeder', "Star {title} in my news reader so I can read it later",
                 'Add "{title}" to my saved articles')

    def grid(self) -> list[dict[str, Any]]:
        """Every title twice, in two feeds."""
        return [{"key": f"{t}/{k}", "title": t, "twin": w, "feed": nth(FEEDS, i + 2 * k), "phrasing": i + k}
                for i, (t, w) in enumerate(TITLES) for k in range(2)]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The article and its twin, both today in the feed, unsaved."""
        p = params
        return {FEEDER: {"articles": [article(p["feed"], p["title"], nth(AUTHORS, 3), TODAY, "08:00"),
                                      article(p["feed"], p["twin"], nth(AUTHORS, 4), TODAY, "08:20")]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly that article's saved flag changed, to saved; no feed changed."""
        a, f = find_article(state, params["title"]), feeder_state(state)
        return a is not None and a["saved"] and f["saved_changed"] == [a["id"]] and feeds_untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The article from its feed, Save article."""
        a = find_article(state, params["title"])
        if a is not None and a["saved"]:
            return wait()
        step = to_article(params["title"], f"feed:{params['feed']}", elements, state)
        return step or press(elements, desc="Save article")


TEMPLATES: tuple[TaskTemplate, ...] = (
    LatestAuthorTemplate(), UnreadInTagTemplate(), SavedOnDayTemplate(), ArticleFeedTemplate(), ArticleDayTemplate(),
    SavedCountTemplate(),
    SubscribeTemplate(), UnsubscribeTemplate(), RetitleFeedTemplate(), RetagFeedTemplate(), MarkFeedReadTemplate(),
    SaveArticleTemplate(),
)
"""The Feeder templates of the world suite within Feeder (`feeder_cross_tasks` holds those across apps)."""
