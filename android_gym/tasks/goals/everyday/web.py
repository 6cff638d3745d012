"""Everyday phrasings of web goals (issue 49), and of services no app on the phone offers.

    >>> from android_gym.tasks.goals import parse_goal
    >>> parse_goal("Go to the New York Times website").params
    {'site': 'nytimes.com'}
    >>> parse_goal("Order me a pizza").params
    {'service': 'food delivery', 'what': 'pizza'}

A country's population is the search engine's population card about the country; a site named by its address or
its name ("wikipedia.org", "the New York Times") is opened in Chrome (`VisitWebsite`); a shop's search and a price
on a shop are the webshop suite's search (the article in "for a phone charger" is not part of the query).
Ordering food and booking a flight are infeasible (`world.unavailable_tasks`): the phone has no app that does them,
and its web lists but never sells them, so the task is to look and declare it impossible.
"""

from __future__ import annotations

from android_gym.sim.web.search import ARTICLE_SITES
from android_gym.tasks.goals.rule import Rule, rule
from android_gym.tasks.goals.slots import Names, Parsed
from android_gym.tasks.goals.when import DATE_WORDS, parse_date
from android_gym.tasks.web import SearchSite
from android_gym.tasks.web_answers import CountryPopulationQuestion, VisitWebsite
from android_gym.tasks.world.unavailable_tasks import UnavailableServiceTemplate

_ASK = "(what's|what is|whats|tell me|show me|find|search for|look up|google|check)"


def _site_names() -> dict[str, str]:
    """Every way a line names an article site: its host, "www." host, its name, its name without "the" and its
    host's first label ("wikipedia"), each -> the host."""  # noqa: D205, D209
    names: dict[str, str] = {}
    for host, name in ARTICLE_SITES.items():
        bare = name.lower().removeprefix("the ")
        names.update({f"www.{host}": host, name.lower(): host, bare: host, host.split(".")[0]: host})
    return names


WEBSITE = Names("web site", {host: host for host in ARTICLE_SITES}, {**_site_names(), "nyt": "nytimes.com",
                                                                     "ny times": "nytimes.com"})
"""The sites Chrome can open that are not shops (shops are the webshop suite's `site`)."""
FOOD = Names("food to order", {f: f for f in (
    "pizza", "pizzas", "sushi", "burger", "burgers", "tacos", "takeout", "takeaway", "food", "dinner", "lunch",
    "chinese food", "thai food", "indian food", "burrito", "fried chicken", "noodles", "ramen", "salad", "sandwich",
    "pad thai", "curry", "wings", "chicken wings")})
"""What an order-food line may ask for (any of it is a delivery the phone cannot order)."""

RULES: tuple[Rule, ...] = (
    rule("population", CountryPopulationQuestion(), (
        f"{_ASK} the population of {{country}}",
        "how many people live in {country}",
        "how (big|large) is the population of {country}",
    )),
    rule("website", VisitWebsite(), (
        "(open|go to|visit|navigate to|browse|head to|take me to|load) [the] {website} [website|site|web site|"
        "homepage|home page|page]",
        "(open|show me) the {website} (website|site|homepage|home page) [in chrome]",
    ), lambda s: {"site": s["website"]}, readers={"website": WEBSITE}),
    rule("shop", SearchSite(), (  # the article is not part of what is searched for
        "search {site} for (a|an|some|the) {query}",
        "search for (a|an|some|the) {query} on {site}",
        "(find|check|look up|get|show me|tell me) the price (of|for) [a|an|the] {query} (on|at) {site}",
        "how much (is|does) (a|an|the) {query} [cost] (on|at) {site}",
    )),
    # -- things the phone cannot do ------------------------------------------------------------------------------------
    rule("unavailable", UnavailableServiceTemplate(), (
        "order [me|us] [a|an|some] {food} [for delivery|online|to my house|delivered]",
        "(get|have) [me] [a|an|some] {food} delivered",
    ), lambda s: {"service": "food delivery", "what": s["food"]}, readers={"food": FOOD}),
    rule("unavailable", UnavailableServiceTemplate(), (
        "book [me] [a|an] [cheap|one way|round trip|return] (flight|flights|plane ticket|plane tickets) to "
        "{destination} [[for|on] {when}]",
        "book [me] [a|an] [cheap] (flight|flights|plane ticket) [for {when}] to {destination}",
    ), lambda s: {"service": "flight booking", "what": s["destination"]},
        readers={"when": Parsed("date", parse_date, tuple(DATE_WORDS))}),
)
