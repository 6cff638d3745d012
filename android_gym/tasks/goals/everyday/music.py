"""Everyday phrasings of music and video goals (issue 49): YT Music's player, YouTube's search, videos and channels.

    >>> from android_gym.tasks.goals import parse_goal
    >>> parse_goal('Play the song "Blue in Green"').params
    {'title': 'Blue in Green'}

"Play some music", 'Play the song "Blue in Green"', "Pause the music" and "Skip to the next song" are YT Music's
(`world.music_tasks`); a song is found by the catalogue's search, which knows any title. Pausing and skipping start
with the library's first song playing (the library itself is drawn per episode). YouTube's lines search it, play a
video about a topic, or subscribe to a channel the phone's YouTube knows (another channel is uncovered, named).
"""

from __future__ import annotations

from android_gym.sim.apps import music as music_app
from android_gym.tasks.apps import PlayVideoTemplate
from android_gym.tasks.goals.rule import Rule, rule
from android_gym.tasks.goals.slots import FreeText, Parsed, UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.world.music_tasks import (
    NextSongTemplate,
    PauseMusicTemplate,
    PlayMusicTemplate,
    PlaySongTemplate,
    SearchVideosTemplate,
)
from android_gym.tasks.youtube_channels import SubscribeTemplate

PLAYING_RANK = 0
"""The library rank of the song playing when a pause or skip goal starts (the library differs per episode)."""


def read_song(text: str) -> str:
    """A song's title as the catalogue writes it ("blue in green" -> "Blue in Green").

    >>> read_song("blue in green")
    'Blue in Green'
    """
    title = music_app.song_title(" ".join(words(text)))
    if not title:
        raise UnknownValue(f"no song title in {text!r}")
    return title


_SONG = Parsed("song title", read_song)
_MUSIC = "(music|some music|a song|some songs|something)"

RULES: tuple[Rule, ...] = (
    rule("music", PlayMusicTemplate(), (
        f"(play|put on|start) {_MUSIC} [on yt music|on youtube music|in the music app]",
        f"put {_MUSIC} on",
    ), lambda s: {"phrasing": 0}),
    rule("music", PlaySongTemplate(), (
        "(play|put on) the (song|track|tune) {song} [on yt music|on youtube music|in the music app]",
        "play [the] song {song} [on yt music|on youtube music|in the music app]",
    ), lambda s: {"title": s["song"]}, readers={"song": _SONG}),
    rule("music", PauseMusicTemplate(), (
        "(pause|stop) [the|my] (music|song|track|playback)",
        "pause (it|playback)",
    ), lambda s: {"rank": PLAYING_RANK}),
    rule("music", NextSongTemplate(), (
        "(skip|go|jump) to the next (song|track)",
        "(skip|next) [this|the] (song|track)",
        "play the next (song|track)",
    ), lambda s: {"rank": PLAYING_RANK}),
    # -- YouTube -----------------------------------------------------------------------------------------------------
    rule("youtube_search", SearchVideosTemplate(), (
        "search youtube for {youtube_terms}",
        "(search|look) (for|up) {youtube_terms} (on|in) youtube",
        "(search|find) {youtube_terms} (on|in) youtube",
    ), lambda s: {"terms": s["youtube_terms"]}, readers={"youtube_terms": FreeText("YouTube search")}),
    rule("youtube", PlayVideoTemplate(), (  # "a cooking video": the topic before the word video
        "(play|watch|put on) (a|an|some) {video_topic} (video|videos) (on|in) youtube",
        "(play|watch) [a|an|some] {video_topic} (video|videos) (on|in) youtube",
    ), lambda s: {"topic": s["video_topic"]}),
    rule("youtube_channels", SubscribeTemplate(), (
        "subscribe to [the] [youtube] channel {channel} [on youtube]",
        "subscribe to {channel} [channel] [on youtube]",
        "subscribe to {channel} [youtube channel]",
    )),
)
