"""World-suite tasks on YouTube (issue 48): answer a video's view count, channel or length from its page; like it,
save it to Watch later, subscribe to its channel; text someone the title of a channel's latest upload (Messages);
email someone the title of a search's most viewed video (Gmail).

A task names a video by its title; the videos of its topic's search (`youtube.videos`) are fixed for every episode,
and searching the title itself finds the same list. The near miss is the video's twin, a neighbour in that list whose
figure differs (`twin_of`): answering off it, or liking, saving or subscribing there, loses. Checks read YouTube's
state ("liked", "watch_later", "subscriptions"), so an extra change fails too. Splits hold out topics (channels for
the texting task).
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import youtube
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import find, wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate, press
from android_gym.tasks.world.media_apps_expert import YT, declare, figure_matches, to_video, yt_state
from android_gym.tasks.world.messaging_expert import (
    conversation,
    holds,
    mail_contacts,
    names,
    namesake,
    new_email,
    one_mail,
    person,
    send_text,
    texts_ok,
)

TOPICS = youtube.TOPICS[::2]
"""The task topics (35): every other topic YouTube knows."""


def twin_of(topic: str, rank: int, field: str) -> int:
    """The rank of the first video after `rank` in `topic`'s list whose `field` differs from its own."""
    listed = youtube.videos(topic)
    return next(k % len(listed) for k in range(rank + 1, rank + len(listed))
                if listed[k % len(listed)][field] != listed[rank][field])


def untouched(state: State) -> bool:
    """Nothing liked, saved or subscribed to (tasks start with none)."""
    y = yt_state(state)
    return not (y["liked"] or y["watch_later"] or y["subscriptions"])


class _VideoTemplate(WorldTemplate):
    """A task about the video {title} of {topic}'s results, its twin {twin} beside it; split on the topic."""

    split_key, apps = "topic", (YT,)
    field = "views"
    """The figure the twin differs in."""

    def grid(self) -> list[dict[str, Any]]:
        """Two videos per topic, each with its twin."""
        out = []
        for i, topic in enumerate(TOPICS):
            listed = youtube.videos(topic)
            for k in range(2):
                rank = (3 * i + 5 * k) % len(listed)
                twin = listed[twin_of(topic, rank, self.field)]
                out.append({"topic": topic, "title": listed[rank]["title"], "twin": twin["title"],
                            "phrasing": i + k})
        return out

    def video(self, params: Params) -> dict[str, Any]:
        """The task's video as `youtube.videos` lists it."""
        return next(v for v in youtube.videos(params["topic"]) if v["title"] == params["title"])

    def to_video(self, params: Params, elements: Elements, state: State) -> Action | None:
        """The next step to the video's player (None once there)."""
        return to_video(params["topic"], params["title"], elements, state)


class _VideoAnswer(_VideoTemplate):
    """What does the page of {title} show as its {field}? Answered while nothing was changed."""

    outcome, max_steps = "answer", 12
    rid: str

    def answer(self, params: Params, state: State) -> str | None:
        """The video's figure, while YouTube is as the task set it up."""
        return self.video(params)[self.field] if untouched(state) else None

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The figure with or without its unit ("1.2M", "1.2M views", "1.2 million")."""
        return figure_matches(given, truth)

    def read(self, text: str) -> str:
        """The figure in the text of the element `rid`."""
        return text

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The video's page; answer with what it shows."""
        shown = find(elements, rid=self.rid)
        return self.to_video(params, elements, state) or declare(self.read(shown.text) if shown else None)


class VideoViewsTemplate(_VideoAnswer):
    """How many views does {title} have? ("1.2M")."""

    name, rid = "youtube_video_views", youtube.META_RID
    phrasings = ('How many views does the YouTube video "{title}" have?',
                 "Check YouTube: what is the view count of {title}?",
                 'Find the video "{title}" on YouTube and tell me how many times it was watched')

    def read(self, text: str) -> str:
        """The first word of the meta line ("1.2M views  3 days ago")."""
        return text.split()[0]


class VideoChannelTemplate(_VideoAnswer):
    """Which channel posted {title}? Answered with the channel's name (case and punctuation aside)."""

    name, rid, field = "youtube_video_channel", youtube.CHANNEL_RID, "channel"
    phrasings = ('Which channel uploaded the YouTube video "{title}"?', "Who posted {title} on YouTube?",
                 'Look up "{title}" on YouTube: what channel is it from?')

    def answer_matches(self, params: Params, given: str, truth: str) -> bool:
        """The channel's name, case and punctuation aside."""
        return TaskTemplate.answer_matches(self, params, given, truth)


class VideoLengthTemplate(_VideoAnswer):
    """How long is {title}? ("12:34", "12:34 minutes")."""

    name, rid, field = "youtube_video_length", youtube.LENGTH_RID, "duration"
    phrasings = ('How long is the YouTube video "{title}"?', "What is the duration of {title} on YouTube?",
                 'Tell me the length of the video "{title}"')


class LikeVideoTemplate(_VideoTemplate):
    """Like {title}: it alone liked, nothing else changed."""

    name, max_steps = "youtube_like_video", 12
    phrasings = ('Like the YouTube video "{title}"', "Give {title} a thumbs up on YouTube",
                 'Find "{title}" on YouTube and like it')

    def check(self, params: Params, state: State) -> bool:
        """Liked: exactly the video; nothing saved, no subscription."""
        y = yt_state(state)
        return y["liked"] == [params["title"]] and not y["watch_later"] and not y["subscriptions"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its page, Like."""
        if yt_state(state)["liked"]:
            return wait()
        return self.to_video(params, elements, state) or press(elements, desc="Like")


class WatchLaterTemplate(_VideoTemplate):
    """Save {title} to Watch later: it alone saved, nothing else changed."""

    name, max_steps = "youtube_watch_later", 12
    phrasings = ('Save the YouTube video "{title}" to Watch later', "Add {title} to my Watch later list on YouTube",
                 'I want to watch "{title}" later: save it in YouTube')

    def check(self, params: Params, state: State) -> bool:
        """Watch later: exactly the video; nothing liked, no subscription."""
        y = yt_state(state)
        return y["watch_later"] == [params["title"]] and not y["liked"] and not y["subscriptions"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its page, Save to Watch later."""
        if yt_state(state)["watch_later"]:
            return wait()
        return self.to_video(params, elements, state) or press(elements, desc="Save to Watch later")


class SubscribeUploaderTemplate(_VideoTemplate):
    """Subscribe to the channel that posted {title}: that channel alone subscribed to (its twin's channel differs)."""

    name, max_steps, field = "youtube_subscribe_uploader", 12, "channel"
    phrasings = ('Subscribe to the channel that uploaded "{title}" on YouTube',
                 "I liked {title}: subscribe me to its channel",
                 'Find the YouTube video "{title}" and subscribe to whoever made it')

    def check(self, params: Params, state: State) -> bool:
        """Subscriptions: exactly the video's channel; nothing liked or saved."""
        y = yt_state(state)
        return (y["subscriptions"] == [self.video(params)["channel"]] and not y["liked"]
                and not y["watch_later"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Its page, Subscribe."""
        if yt_state(state)["subscriptions"]:
            return wait()
        return self.to_video(params, elements, state) or press(elements, rid=youtube.SUBSCRIBE_RID)


CHANNELS = tuple(sorted(c for c in set(youtube.CHANNELS.values()) if youtube.channel_of(c) == c))
"""The channels whose name, searched, lists their uploads."""


class LatestTitleToTextTemplate(WorldTemplate):
    """Text {person} the title of {channel}'s latest YouTube video: one SMS to them holding it, YouTube unchanged."""

    name, max_steps, split_key = "youtube_latest_title_to_text", 20, "channel"
    apps = (YT, M.PACKAGE)
    phrasings = ("Text {person} the title of the latest {channel} video on YouTube",
                 "What did {channel} post last on YouTube? Send the video's title to {person} by SMS",
                 "Look up {channel}'s newest YouTube upload and message its title to {person}")

    def grid(self) -> list[dict[str, Any]]:
        """Every channel twice, a person per instance."""
        return [{"channel": c, "person": names(f"youtube:{c}:{k}", 1)[0], "phrasing": i + k}
                for i, c in enumerate(CHANNELS) for k in range(2)]

    def latest(self, params: Params) -> str:
        """The title of the channel's newest upload."""
        return youtube.videos(params["channel"])[0]["title"]

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A conversation with the person."""
        p = person(params["person"])
        return {M.PACKAGE: {"threads": [conversation(p, ("Seen anything good lately?",), False)],
                            "contacts": [{"name": p["name"], "number": p["number"]}]}}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one text, to the person, holding the newest upload's title; YouTube unchanged."""
        return texts_ok(state, [(params["person"], self.latest(params))], contains=True) and untouched(state)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the channel, open its newest upload (read its title), then text it."""
        title = self.latest(params)
        y = yt_state(state)
        if title not in y["watched"] or (state["foreground"] == YT and y["playing"] is None
                                         and state["screen"]["name"] == "player"):
            return to_video(params["channel"].lower(), title, elements, state) or wait()
        return send_text(person(params["person"]), title, elements, state)


def view_count(label: str) -> float:
    """A view count as YouTube writes it, as a number.

    >>> view_count("1.2M"), view_count("523K")
    (1200000.0, 523000.0)
    """
    return float(label[:-1]) * (1e6 if label.endswith("M") else 1e3)


class MostViewedToEmailTemplate(WorldTemplate):
    """Email {person} the title of the most viewed video of YouTube's results for {topic} (the runner-up loses)."""

    name, max_steps, split_key = "youtube_most_viewed_to_email", 27, "topic"
    apps = (YT, G.PACKAGE)
    phrasings = ('Email {person} the title of the most viewed video when I search YouTube for "{topic}"',
                 "Search YouTube for {topic}, find the video with the most views and send its title to {person} by "
                 "email",
                 "{person} wants the most popular YouTube video about {topic}: email them its title")

    def grid(self) -> list[dict[str, Any]]:
        """Every topic whose top two videos differ in views, twice, a person per instance."""
        out = []
        for i, topic in enumerate(TOPICS):
            ranked = sorted(youtube.videos(topic), key=lambda v: -view_count(v["views"]))
            if ranked[0]["views"] == ranked[1]["views"]:
                continue
            for k in range(2):
                out.append({"topic": topic, "title": ranked[0]["title"], "twin": ranked[1]["title"],
                            "person": names(f"youtube-mail:{topic}:{k}", 1)[0], "phrasing": i + k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The person and their namesake among Gmail's contacts."""
        return {G.PACKAGE: {"contacts": mail_contacts(params["person"], namesake(params["person"]))}}

    def check(self, params: Params, state: State) -> bool:
        """The only email sent: new, to the person, naming the video (not the runner-up); YouTube unchanged."""
        m = one_mail(state, "new", [person(params["person"])["email"]])
        said = f"{m['subject']} {m['body']}" if m is not None else ""
        return (m is not None and holds(said, params["title"]) and not holds(said, params["twin"])
                and untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the topic, open the most viewed video (read its title), then email it."""
        y = yt_state(state)
        if params["title"] not in y["watched"] or (state["foreground"] == YT and state["screen"]["name"] == "player"
                                                   and y["playing"] is None):
            return to_video(params["topic"], params["title"], elements, state) or wait()
        return new_email([person(params["person"])], f"Most viewed {params['topic']} video", params["title"],
                         elements, state)


TEMPLATES: tuple[TaskTemplate, ...] = (
    VideoViewsTemplate(), VideoChannelTemplate(), VideoLengthTemplate(), LikeVideoTemplate(), WatchLaterTemplate(),
    SubscribeUploaderTemplate(), LatestTitleToTextTemplate(), MostViewedToEmailTemplate(),
)
"""The YouTube templates of the World suite."""
