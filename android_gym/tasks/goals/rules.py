"""The goal families the parser knows: per family, the template that checks it and the phrasings that ask for it.

A `Rule` ties phrasings to a template of the built-in suites; `build` turns the slots' values into that template's
parameters. Phrasings are our own, written from the kinds of goals AitW-style task lists hold ("What's the weather
like in Paris?", "Set an alarm for 5pm", "Go to ebay.com, search for 'macbook', and select the first entry"); each
family has several, so that wordings nobody wrote down still parse.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from android_gym.sim.app import stable_seed
from android_gym.sim.web.places import HOME_CITY
from android_gym.tasks.app_settings import AppInfoTemplate, AppNotificationsTemplate
from android_gym.tasks.apps import (
    SETTING_VARIANTS,
    InstallAppTemplate,
    OpenAppTemplate,
    PlayVideoTemplate,
    SetAlarmTemplate,
    ToggleSettingTemplate,
    TurnOffAlarmTemplate,
)
from android_gym.tasks.calendar_tasks import CalendarViewTemplate
from android_gym.tasks.chrome import NewTabTemplate
from android_gym.tasks.file_manager import FileCategoryTemplate
from android_gym.tasks.forum import ForumTemplate
from android_gym.tasks.goals.everyday import EVERYDAY_RULES
from android_gym.tasks.goals.rule import Rule, Slots, gap, rule
from android_gym.tasks.maps_tasks import MapsSearchTemplate
from android_gym.tasks.notifications import NotificationShadeTemplate
from android_gym.tasks.web import (
    AddFirstToCart,
    CapitalQuestion,
    CostQuestion,
    NewsQuestion,
    PopulationQuestion,
    PriceQuestion,
    RestaurantSearch,
    SearchSite,
    SelectFirst,
    TimeQuestion,
    VisitSite,
    WeatherQuestion,
)
from android_gym.tasks.web_answers import (
    DirectionsQuestion,
    ExchangeRateQuestion,
    FactQuestion,
    FlightSearch,
    HotelSearch,
    MenuQuestion,
    OfficeHolderQuestion,
    RentQuestion,
    WebSearch,
)
from android_gym.tasks.world.media_tasks import RecordVideoTemplate, TakePhotoTemplate, TakeSelfieTemplate
from android_gym.tasks.youtube_channels import LatestVideoTemplate

_WHAT = "(what's|what is|whats)"
_WHEN = "[today|now|right now|this week|this weekend|this morning|this afternoon|this evening|this month|tonight]"
_SEARCH = "(search for|search|look up|google|find|show me|tell me)"


def _time(slots: Slots) -> dict[str, Any]:
    hour, minute = slots["time"]
    return {"hour": hour, "minute": minute}


def _setting(on: bool) -> Callable[[Slots], dict[str, Any]]:
    def build(slots: Slots) -> dict[str, Any]:
        # the other switches' starting positions are drawn from the variant, as in the suite; fixed per setting
        variant = stable_seed("goal", slots["setting"], on) % SETTING_VARIANTS
        return {"setting": slots["setting"], "on": on, "variant": variant}
    return build


_AITW_RULES: tuple[Rule, ...] = (
    # -- web questions: solved when the search engine's answer card of the kind is on screen ------------------------
    rule("weather", WeatherQuestion(), (
        f"{_WHAT} the (weather|forecast|temperature) [like] [today|now|right now] (in|for|at) {{city}} "
        "[today|now|right now|this week]",
        "(how's|how is) the weather [today|now] in {city} [today|now|right now]",
        f"[{_SEARCH}] [the] (weather|forecast|weather forecast|temperature) (in|for) {{city}} [today|now]",
        "is it (raining|sunny|cold|hot) in {city} [today|now|right now]",
    )),
    rule("time", TimeQuestion(), (
        f"{_WHAT} the [current|local] time [now|right now] in {{city}} [now|right now]",
        "what time is it [now|right now] in {city} [now|right now]",
        f"[{_SEARCH}] [the] (current|local) time in {{city}}",
        "what's the time like in {city}",
    )),
    rule("population", PopulationQuestion(), (
        f"{_WHAT} the population of {{city}}",
        "how many people live in {city}",
        f"[{_SEARCH}] the population of {{city}}",
        "how (big|large) is the population of {city}",
    )),
    rule("capital", CapitalQuestion(), (
        f"{_WHAT} the capital [city] of {{country}}",
        f"{_SEARCH} the capital [city] of {{country}}",
        "(which|what) city is the capital of {country}",
        "capital of {country}",
    )),
    rule("news", NewsQuestion(), (
        f"{_WHAT} the [latest|recent|top] (news|headlines) (about|on|in|regarding|for) {{news_topic}} [today|now]",
        f"{_WHAT} the latest (in|on|about) {{news_topic}} [news]",
        f"[{_SEARCH}] [the] (latest|recent|top) (news|headlines|stories) (about|on|in) {{news_topic}}",
        f"{_WHAT} (new|happening) (with|in) {{news_topic}}",
        "any news (about|on) {news_topic}",
        f"{_WHAT} the (latest|recent|top) {{news_topic}} (news|headlines)",
        f"[{_SEARCH}] [the] (latest|recent) {{news_topic}} news",
    ), lambda s: {"topic": s["news_topic"]}),
    rule("news", NewsQuestion(), (
        f"{_WHAT} [the] [latest|top] (news|headlines) {_WHEN}",
        f"({_SEARCH}|read) [me] the [latest|top] (news|headlines) {_WHEN}",
        f"{_WHAT} in the news {_WHEN}",
    ), lambda s: {"topic": ""}),
    rule("price", PriceQuestion(), (
        f"{_WHAT} the price of [a|an|the] {{product}}",
        "how much is [a|an|the] {product}",
        f"[{_SEARCH}] the price of [a|an|the] {{product}}",
        f"{_WHAT} [a|an|the] {{product}} (sell|selling|going) for",
    )),
    rule("price", CostQuestion(), (
        "how much (does|do|would) [a|an|the] {product} cost",
        "how much (does|do|would) it cost to buy [a|an|the] {product}",
    )),
    rule("restaurants", RestaurantSearch(), (
        "find [me] (a|an) [good|nice|great] {cuisine} (restaurant|place) (near|in|around) {city}",
        f"{_WHAT} a (good|nice|great) {{cuisine}} (restaurant|place) (in|near|around) {{city}}",
        f"[{_SEARCH}] [good|the best|top rated|nice] {{cuisine}} (restaurants|food|places) (in|near|around) {{city}}",
        "where can i (eat|get) {cuisine} food in {city}",
    ), lambda s: {"cuisine": s["cuisine"], "city": s["city"]}),
    rule("restaurants", RestaurantSearch(), (
        "find [me] a [good|nice|great] (restaurant|place to eat) (near|in|around) {city}",
        f"{_WHAT} a (good|nice|great) (restaurant|place to eat) (in|near|around) {{city}}",
        f"[{_SEARCH}] [good|the best|top rated|nice] restaurants (in|near|around) {{city}}",
        "where (can|should) i eat in {city}",
    ), lambda s: {"cuisine": "", "city": s["city"]}),
    rule("restaurants", RestaurantSearch(), (  # no place: the phone's own city, as its search engine answers
        f"{_WHAT} a (good|nice|great) [{{cuisine}}] (restaurant|place to eat) (near me|nearby|around here)",
        "find [me] (a|an) [good|nice|great] {cuisine} (restaurant|place) (near me|nearby)",
        f"{_SEARCH} [for] [good|the best|top rated|nice] {{cuisine}} (restaurant|restaurants) [near me|nearby]",
    ), lambda s: {"cuisine": s.get("cuisine", ""), "city": HOME_CITY}),
    rule("hotels", HotelSearch(), (
        f"[{_SEARCH}] [for] [a|some] [cheap|good|nice|the best] (hotel|hotels) (in|near|around) {{city}}",
        "(book|look for) [a|some] [cheap|good] (hotel|hotels) in {city}",
        "where (can|should) i stay in {city}",
    )),
    rule("flights", FlightSearch(), (
        f"[{_SEARCH}] [for] [cheap|the cheapest] flights from {{origin}} to {{destination}}",
        "(book|look for) [a] [cheap] (flight|flights) from {origin} to {destination}",
        "how much is a flight from {origin} to {destination}",
    ), lambda s: {"origin": s["origin"], "destination": s["destination"]}),
    rule("rent", RentQuestion(), (
        "how much (does|do|would) [a|an] {size} [apartment|flat] (rent|cost) [for] (in|around) {city}",
        f"{_WHAT} the [average] rent (for|of) (a|an) {{size}} [apartment|flat] in {{city}}",
        f"[{_SEARCH}] [the] [average] rent (for|of) (a|an) {{size}} [apartment|flat] in {{city}}",
    )),
    rule("rent", RentQuestion(), (
        f"{_WHAT} the [average] rent [for an apartment] in {{city}}",
        "how much (does|do|would) an apartment (rent|cost) [for] in {city}",
        "how much is rent in {city}",
    ), lambda s: {"size": "", "city": s["city"]}),
    rule("menu", MenuQuestion(), (
        f"{_WHAT} on the menu (at|of|for) {{chain}}",
        f"[{_SEARCH}] [me] the menu (at|of|for) {{chain}}",
        f"{_WHAT} (on|in) {{chain}} menu",
        "what does {chain} (serve|sell|have on the menu)",
    )),
    rule("exchange", ExchangeRateQuestion(), (
        f"{_WHAT} [the] (us dollar|usd|dollar) exchange rate (against|to|for|vs|versus|in|with) [the] {{currency}}",
        f"{_WHAT} the exchange rate (between|of|from) [the] (us dollar|usd|dollar|dollars) (and|to|against|into) "
        "[the] {currency}",
        "(convert|change) [us] (dollars|dollar|usd) (to|into) [the] {currency}",
        "how many {currency} (for|in|to) (a|one) [us] dollar",
    )),
    rule("office", OfficeHolderQuestion(), (
        "(who is|who's|whos) the [current] {office} of {country}",
        f"{_SEARCH} [who is] the [current] {{office}} of {{country}}",
    )),
    rule("directions", DirectionsQuestion(), (
        "how (do|can) i get to the (nearest|closest) {store}",
        "[give me|show me|get] directions to the (nearest|closest) {store}",
        "(find|where is|show me|navigate to|take me to) the (nearest|closest) {store} [that's open|thats open] "
        "[today|now|tomorrow|right now]",
    ), lambda s: {"place": s["store"]}),
    rule("facts", FactQuestion(), (
        f"{_WHAT} the [average|top|maximum] speed of [a|an|the] {{speed_thing}}",
        "how fast (is|can|does) [a|an|the] {speed_thing} [go|run|travel|fly|move]",
    ), lambda s: {"measure": "speed", "thing": s["speed_thing"]}),
    rule("facts", FactQuestion(), (
        "how (big|large) is [a|an|the] {size_thing}",
        f"{_WHAT} the size of [a|an|the] {{size_thing}}",
    ), lambda s: {"measure": "size", "thing": s["size_thing"]}),
    rule("facts", FactQuestion(), (
        "how old (is|are) [a|an|the] {age_thing}",
        f"{_WHAT} the age of [a|an|the] {{age_thing}}",
    ), lambda s: {"measure": "age", "thing": s["age_thing"]}),
    rule("facts", FactQuestion(), (
        "how far [away] is [a|an|the] {distance_thing} [from earth|from the earth|from here|away]",
        f"{_WHAT} the distance (to|from earth to|from the earth to) [a|an|the] {{distance_thing}}",
    ), lambda s: {"measure": "distance", "thing": s["distance_thing"]}),
    # -- apps --------------------------------------------------------------------------------------------------------
    rule("alarm", SetAlarmTemplate(), (
        "set [an|a|the|my] alarm (for|at) {time}",
        "(create|add|make|set up) [an|a|new] alarm (for|at) {time}",
        "wake me [up] at {time}",
        "set [an|a] {time} alarm",
    ), _time),
    rule("alarm", TurnOffAlarmTemplate(), (
        "(turn off|switch off|disable|cancel|stop) [the|my] {time} alarm",
        "(turn off|switch off|disable|cancel) [the|my] alarm (for|at) {time}",
    ), _time),
    rule("settings", ToggleSettingTemplate(), (
        "(turn|switch) on [the|my] {setting}",
        "(turn|switch) [the|my] {setting} on",
        "(enable|activate|start) [the|my] {setting}",
    ), _setting(True)),
    rule("settings", ToggleSettingTemplate(), (
        "(turn|switch) off [the|my] {setting}",
        "(turn|switch) [the|my] {setting} off",
        "(disable|deactivate|stop) [the|my] {setting}",
    ), _setting(False)),
    rule("open_app", OpenAppTemplate(), (
        "(open|launch|start|show) [the|my] {app}",
        "go to [the|my] {app} app",
        "(open|launch) up [the|my] {app}",
    )),
    rule("email", OpenAppTemplate(), (  # Gmail opens on the inbox
        "(check|open|read|show me) my (email|emails|gmail|mail|inbox) [inbox]",
        "(do i have|are there) [any] new (email|emails|mail)",
    ), lambda s: {"app": "Gmail"}),
    rule("local_time", OpenAppTemplate(), (  # the time here: the Clock app shows it
        "(what time is it|what's the time|whats the time|what is the time) [now|right now|here]",
    ), lambda s: {"app": "Clock"}),
    rule("install_app", InstallAppTemplate(), (
        "(install|download|get) [the] {store_app} [from the play store|from google play|from the google play store]",
        "(install|download|get) [the] {store_app} app [from the play store|from google play]",
    ), lambda s: {"app": s["store_app"]}),
    rule("youtube", PlayVideoTemplate(), (
        "play [a|an|the|some] [new|latest|recent] (video|videos) (about|on|of) {video_topic} (on|in) youtube",
        "play the (new|latest) {video_topic} video (on|in) youtube",
        "play some {video_topic} (on|in) youtube",
        "(watch|find|show me) [a|an|some] [video|videos] (about|on|of) {video_topic} (on|in) youtube",
        "(search|look) (for|up) {video_topic} (on|in) youtube and (play|watch) [a|an|the|one] [video]",
        "(search|look) youtube for {video_topic} and (play|watch) [a|an|the|one] [video]",
    ), lambda s: {"topic": s["video_topic"]}),
    rule("web_search", WebSearch(), (
        "(search|search the web|search google|google|look) for [a|an|some] [new|nice|good|cheap] {terms}",
        "where (can|do) i (buy|get|find) [a|an|some] [nice|good|cheap] {terms}",
        "what (does|do) [a|an|the] {terms} look like",
        "(what are|show me) the [new|latest] products (by|from|of) {terms}",
        "(what are|show me) the best (selling|rated) {terms}",
        "(show me|find) [me] some [nice|good|cool] {terms}",
    ), fallback=True),
    rule("maps", MapsSearchTemplate(), (
        "(search for|search|find|show me|look for|look up) [a|an|some|the] [good|nice|great|cheap|top rated|best|"
        "5 star|highly rated] {place_kind} (on|in|using|with) [google] maps",
        "(search|look) [on] [google] maps for [a|an|some|the] [good|nice|top rated|best] {place_kind}",
        "(open|use) [google] maps [and] (search for|find|to find) [a|an|some|the] [good|nice|top rated|best] "
        "{place_kind}",
    ), lambda s: {"terms": s["place_kind"]}),
    rule("forum", ForumTemplate(), (
        f"{_WHAT} (on|new on|happening on|trending on) reddit {_WHEN}",
        "(open|go to|visit|show me|browse) [the] reddit [front page|homepage|website|site]",
        "reddit.com",
    ), lambda s: {"stage": "front"}),
    rule("forum", ForumTemplate(), (
        f"{_WHAT} the (top|most popular|best) post on reddit {_WHEN}",
        f"(show me|open|find) the (top|most popular) post on reddit {_WHEN}",
    ), lambda s: {"stage": "top_post"}),
    rule("youtube_channels", LatestVideoTemplate(), (
        "(what's|what is|whats|play|show me|watch) the (latest|newest|new|most recent) video (from|by|of) {channel} "
        "[on youtube]",
        "play {channel}'s (latest|newest) video [on youtube]",
    )),
    rule("app_settings", AppInfoTemplate(), (
        "(check|open|show me|go to) the settings (for|of) [the] {settings_app}",
        "(open|show me|check) [the] app info (for|of) [the] {settings_app}",
        "(open|show me) [the] {settings_app} [app] settings",
    ), lambda s: {"app": s["settings_app"]}),
    rule("app_notifications", AppNotificationsTemplate(), (
        "(turn on|enable|allow|unmute) [the] notifications (for|from|of) [the] {settings_app}",
        "toggle [the] notifications (for|from|of) [the] {settings_app}",  # starts off, so toggling turns them on
    ), lambda s: {"app": s["settings_app"], "on": True}),
    rule("app_notifications", AppNotificationsTemplate(), (
        "(turn off|disable|block|mute|stop) [the] notifications (for|from|of) [the] {settings_app}",
    ), lambda s: {"app": s["settings_app"], "on": False}),
    rule("calendar", CalendarViewTemplate(), (
        f"{_WHAT} on my (calendar|schedule) (for|this) [the rest of] [the|this] week",
        "(open the calendar and show me|show me|what are) [my] this week's events",
        "(show me|what are) my events (this|for the|for this) week",
    ), lambda s: {"view": "week"}),
    rule("calendar", CalendarViewTemplate(), (
        f"{_WHAT} on my (calendar|schedule) (for|this) [the rest of] [the|this] month",
        "(open the calendar and show me|show me|what are) [my] this month's events",
        "(show me|what are) my events (this|for the|for this) month",
    ), lambda s: {"view": "month"}),
    rule("calendar", CalendarViewTemplate(), (
        f"{_WHAT} on my (calendar|schedule) [for] today",
        "(open the calendar and show me|show me|what are) [my] today's events",
        "(show me|what are) my events [for] today",
    ), lambda s: {"view": "day"}),
    rule("files", FileCategoryTemplate(), (
        "(open|show me) [my|the] {file_category} [folder] [in files|in the files app]",
    ), lambda s: {"category": s["file_category"]}),
    rule("camera", TakePhotoTemplate(), (
        "take a (photo|picture|pic) [with the [back] camera]",
        "(open|use) the camera [app] [and|to] take a (photo|picture|pic)",
    ), lambda s: {"count": 1, "variant": 0}),
    rule("camera", TakeSelfieTemplate(), (
        "take a selfie", "(open|use) the camera [app] [and|to] take a selfie",
        "take a (photo|picture) of myself [with the front camera]",
    ), lambda s: {"portrait": False, "variant": 0}),
    rule("camera", RecordVideoTemplate(), (
        "(record|film|shoot|take) a video [with the [back] camera]",
        "(open|use) the camera [app] [and|to] record a video",
    ), lambda s: {"facing": "back", "variant": 0}),
    rule("notifications", NotificationShadeTemplate(), (
        "(show me|show|open|check|read|view|see) [all] [of] [my|the] [new|recent|latest] notifications",
        "(open|pull down|swipe down|expand) the notification (shade|bar|panel|drawer|center)",
        "what are my notifications",
    ), lambda s: {"action": "show"}),
    rule("notifications", NotificationShadeTemplate(), (
        "(clear|dismiss|delete|remove) [all] [of] [my|the] notifications",
    ), lambda s: {"action": "clear"}),
    rule("chrome_tabs", NewTabTemplate(), (
        "open a new [chrome] (tab|window) [(in|on) [the] [google] chrome [app|browser]]",
        "(open|start) [a] new [chrome] (tab|window)",
    ), lambda s: {"incognito": False}),
    rule("chrome_tabs", NewTabTemplate(), (
        "open a new [chrome] (incognito|private) (tab|window) [(in|on) [the] [google] chrome [app|browser]]",
        "(open|start) [an|a] (incognito|private) (tab|window|session) [(in|on) [the] [google] chrome [app]]",
        "go incognito (in|on) [google] chrome",
    ), lambda s: {"incognito": True}),
    # -- shopping on a named site (the webshop suite) ----------------------------------------------------------------
    rule("shop", VisitSite(), (
        "(go to|open|visit|navigate to|browse|head to) [the] {site} [website|site]",
    ), lambda s: {"site": s["site"], "phrasing": 0}),
    rule("shop", SearchSite(), (
        "(go to|open|visit|navigate to) {site} [and] search [for] {query}",
        "search {site} for {query}",
        "search for {query} on {site}",
        f"{_WHAT} the price of [a|an|the] {{query}} (on|at) {{site}}",
        "how much (does|do|is) [a|an|the] {query} [cost] (on|at) {site}",
        "what (does|do) [a|an|the] {query} look like on {site}",
        "(find|show me) [me] [a|an|some] [nice|good|cheap] {query} on {site}",
        f"({_WHAT}|what are|show me) the new products (by|from) {{query}} on {{site}}",
    )),
    rule("shop", SelectFirst(), (
        "(go to|open|visit|navigate to) {site} [and] search [for] {query} [and] (select|open|click|tap) [on] "
        "the first (entry|result|item|product|one)",
        "search for {query} on {site} and (select|open|click|tap) [on] the first (entry|result|item|product|one)",
    )),
    rule("shop", AddFirstToCart(), (
        "(go to|open|visit|navigate to) {site} [and] search [for] {query} [and] (select|open) the first "
        "(entry|result|item|product|one) [and] add it to [the|my] (cart|basket)",
        "(go to|open|visit) {site} [and] search [for] {query} [and] add the first (entry|result|item|product) "
        "to [the|my] (cart|basket)",
    )),
)
RULES: tuple[Rule, ...] = (*_AITW_RULES, *EVERYDAY_RULES)
"""Every family, most specific phrasings win (see `phrasing.Phrasing.specificity`); order breaks ties."""

GAPS: tuple[Rule, ...] = (
    gap("screenshot", "the simulated phone takes no screenshots", (
        "take a screenshot [of the screen]",
        "(capture|grab) [a screenshot of] the screen",
    )),
)
"""Families of the AitW-style lists the sim cannot check yet (issue 17 builds their apps), so that their lines are
reported with the missing piece rather than as unparsed text."""
