"""Tests of the simulated browser and web: navigation, history, results, carts, adverts, layouts, determinism."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from android_gym.sim.apps.browser import URL_BAR, Browser
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.sim.view import View
from android_gym.sim.web import SHOP_HOSTS, catalog
from android_gym.sim.web.content import answer
from android_gym.sim.web.search import QUERY_BOX
from android_gym.sim.web.site import PACKAGE, split_url

ROOT = Path(__file__).resolve().parents[3]
CALM = dict(dialog_prob=0.0, slow_load_prob=0.0, slow_load_steps=(0, 0), ignored_tap_prob=0.0)


def make_phone(seed: int = 0, sponsored: bool = False, layout_variants: bool = False, **extra: object) -> SimPhone:
    """A phone without random pop-ups, spinners or dropped taps, reset with `seed`."""
    phone = SimPhone(PerturbationConfig(**{**CALM, **extra}, sponsored=sponsored, layout_variants=layout_variants))
    phone.reset(seed)
    return phone


def web(phone: SimPhone) -> dict:
    """The browser's state."""
    return phone.state()["apps"][PACKAGE]


def tap_where(phone: SimPhone, predicate: Callable[[View], bool]) -> bool:
    """Tap the centre of the first view matching `predicate`."""
    view = phone.tree().find(predicate)
    assert view is not None, "no such view on screen"
    return phone.tap(*view.center)


def type_in(phone: SimPhone, rid: str, text: str) -> None:
    """Focus field `rid`, type `text`, press ENTER."""
    tap_where(phone, lambda v: v.rid == rid)
    phone.type_text(text)
    phone.key("enter")


def open_url(phone: SimPhone, text: str) -> None:
    """Open Chrome if needed and submit `text` in the URL bar."""
    if phone.foreground != PACKAGE:
        phone.launch("Chrome")
    type_in(phone, URL_BAR, text)


def site_field(phone: SimPhone) -> View:
    """The page's own search box (the EditText that is not the URL bar)."""
    field = phone.tree().find(lambda v: v.cls.endswith("EditText") and v.rid != URL_BAR)
    assert field is not None
    return field


def search_shop(phone: SimPhone, host: str, query: str) -> None:
    """Go to shop `host` and search it for `query`."""
    open_url(phone, host)
    type_in(phone, site_field(phone).rid, query)


def texts(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


@pytest.mark.parametrize("typed", ["amazon.com", "www.amazon.com", "https://www.amazon.com/", "AMAZON.COM"])
def test_url_bar_opens_known_site_any_spelling(typed: str) -> None:
    """A shop's address, with or without scheme and www, opens its home page."""
    phone = make_phone()
    open_url(phone, typed)
    state = web(phone)
    assert (state["host"], state["page"], state["url"]) == ("amazon.com", "home", "https://www.amazon.com/")


@pytest.mark.parametrize("typed", ["weather in paris", "unknownsite.xyz", "macbook air"])
def test_url_bar_searches_other_text(typed: str) -> None:
    """Text that is not a known site's address becomes a search on the search engine."""
    phone = make_phone()
    open_url(phone, typed)
    state = web(phone)
    assert (state["host"], state["page"], state["query"]) == ("google.com", "search_results", typed)


def test_search_shows_answer_card_for_weather_question() -> None:
    """A weather question shows its answer card on the result page, with the seeded answer text."""
    phone = make_phone()
    open_url(phone, "What's the weather in Paris?")
    card = web(phone)["answer"]
    assert (card["kind"], card["subject"]) == ("weather", "paris")
    assert card["text"].startswith("Paris: ") and "°C" in card["text"] and card["text"] in texts(phone)


def test_launcher_search_bar_opens_focused_query_box() -> None:
    """The home screen's search bar opens the search engine with its query box focused."""
    phone = make_phone()
    tap_where(phone, lambda v: v.rid.endswith("search_container_hotseat"))
    assert phone.foreground == PACKAGE and phone.top.focus == QUERY_BOX and phone.keyboard_up
    phone.type_text("time in tokyo")
    phone.key("enter")
    assert web(phone)["answer"]["kind"] == "time" and not phone.keyboard_up


def test_back_returns_through_page_history() -> None:
    """BACK walks the pages back in order, then leaves Chrome."""
    phone = make_phone()
    search_shop(phone, "ebay.com", "usb-c cable")
    assert web(phone)["history"] == ["https://www.google.com/", "https://www.ebay.com/",
                                     "https://www.ebay.com/sch/i.html?_nkw=usb-c+cable"]
    phone.key("back")
    assert (web(phone)["page"], phone.keyboard_up) == ("home", False)
    phone.key("back")
    assert web(phone)["page"] == "search_home"
    phone.key("back")
    assert phone.foreground != PACKAGE and web(phone)["page"] is None


def test_results_scroll_reveals_later_results() -> None:
    """Swiping up on a result list brings the last results into view."""
    phone = make_phone()
    search_shop(phone, "walmart.com", "desk lamp")
    last = catalog.organic("walmart.com", "desk lamp")[-1].title
    assert last not in texts(phone)
    for _ in range(6):
        phone.swipe(540, 1700, 540, 800)
    assert last in texts(phone) and phone.top.scroll > 0


def test_product_page_add_to_cart_counts_in_header() -> None:
    """Tapping the first result opens its product page; Add to cart fills the cart and the header count."""
    phone = make_phone()
    search_shop(phone, "bestbuy.com", "soundbar")
    first = catalog.organic("bestbuy.com", "soundbar")[0]
    tap_where(phone, lambda v: v.text == first.title)
    product = web(phone)["product"]
    assert (web(phone)["page"], product["pid"], product["rank"], product["sponsored"]) == (
        "product", first.pid, 1, False)
    tap_where(phone, lambda v: v.text == "Add to Cart")
    tap_where(phone, lambda v: v.text == "Add to Cart")
    assert [(i["pid"], i["qty"]) for i in web(phone)["cart"]] == [(first.pid, 2)]
    assert "Cart (2)" in texts(phone)
    phone.go_home()
    assert web(phone)["cart"][0]["host"] == "bestbuy.com"  # the cart outlives the page


@pytest.mark.parametrize("sponsored", [True, False])
def test_sponsored_entries_follow_config(sponsored: bool) -> None:
    """Shop and search result pages carry "Sponsored" entries exactly when the perturbation is on."""
    phone = make_phone(sponsored=sponsored)
    search_shop(phone, "target.com", "yoga mat")
    for _ in range(3):
        if "Sponsored" in texts(phone):
            break
        phone.swipe(540, 1700, 540, 800)
    assert ("Sponsored" in texts(phone)) == sponsored
    open_url(phone, "price of yoga mat")
    assert ("Sponsored" in texts(phone)) == sponsored


def test_sponsored_product_has_no_organic_rank() -> None:
    """Opening a sponsored entry shows a product flagged sponsored, without an organic rank."""
    phone = make_phone(seed=3, sponsored=True)
    search_shop(phone, "amazon.com", "gaming mouse")
    while phone.tree().find(lambda v: v.style == "sponsored") is None:
        assert phone.swipe(540, 1700, 540, 800)
    tap_where(phone, lambda v: v.style == "sponsored")
    product = web(phone)["product"]
    assert product["sponsored"] and product["rank"] is None
    assert product["title"] not in {p.title for p in catalog.organic("amazon.com", "gaming mouse")}


def test_layout_variants_differ_across_seeds() -> None:
    """With layout variants on, shops change look and element ids between episodes; off, they never do."""
    layouts = {json.dumps(web(make_phone(seed, layout_variants=True))["layouts"]) for seed in range(8)}
    fixed = {json.dumps(web(make_phone(seed))["layouts"]) for seed in range(8)}
    assert len(layouts) > 1 and len(fixed) == 1
    rids = set()
    for seed in range(8):
        phone = make_phone(seed, layout_variants=True)
        open_url(phone, "costco.com")
        rids.add(site_field(phone).rid)
    assert len(rids) == 2


def test_same_seed_same_tree_xml() -> None:
    """Two phones with the same seed and inputs dump identical XML at every step, even with every perturbation."""
    def play(seed: int) -> list[str]:
        phone = SimPhone(PerturbationConfig.preset("hard"))
        phone.reset(seed)
        dumps = []
        for step in (lambda: phone.launch("chrome"), lambda: phone.swipe(540, 1700, 540, 800),
                     lambda: tap_where(phone, lambda v: v.rid == URL_BAR), lambda: phone.type_text("newegg.com"),
                     lambda: phone.key("enter"), lambda: phone.tap(540, 600), lambda: phone.type_text("webcam"),
                     lambda: phone.key("enter"), lambda: phone.swipe(540, 1700, 540, 800)):
            if phone.dialog is None and not phone.top.loading:
                step()
            phone.tick()
            dumps.append(phone.xml())
        return dumps

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_search_result_link_opens_shop_results() -> None:
    """A search result pointing at a shop opens that shop's result page for the product."""
    phone = make_phone()
    open_url(phone, "macbook air")
    tap_where(phone, lambda v: v.text == "MacBook Air : Amazon")
    state = web(phone)
    assert (state["host"], state["page"], state["query"]) == ("amazon.com", "results", "macbook air")


def test_slow_load_shows_spinner_then_page() -> None:
    """With slow loads, a navigation shows a spinner for the drawn steps, then the page."""
    phone = make_phone(slow_load_prob=1.0, slow_load_steps=(2, 2))
    open_url(phone, "ebay.com")
    assert web(phone)["loading"] and phone.tree().find(lambda v: v.style == "spinner") is not None
    phone.tick()
    phone.tick()
    assert not web(phone)["loading"] and "eBay" in texts(phone)


def test_toolbar_home_button_opens_search_home() -> None:
    """Chrome's Home button opens the search engine's home page."""
    phone = make_phone()
    open_url(phone, "target.com")
    tap_where(phone, lambda v: v.desc == "Home" and v.package == PACKAGE)
    assert web(phone)["page"] == "search_home"


def test_browser_is_found_by_alias_and_marked_browser() -> None:
    """Chrome answers to its aliases and is flagged as a browser (for cookie banners)."""
    phone = make_phone()
    assert isinstance(phone.find_app("google chrome"), Browser) and phone.find_app("browser").is_browser


@pytest.mark.parametrize("query, kind, subject", [
    ("what time is it in new york", "time", "new york"),
    ("Find a thai restaurant near Lima", "restaurants", "lima"),
    ("population of cape town", "population", "cape town"),
    ("what is the capital of peru", "capital", "peru"),
    ("latest news about the stock market", "news", "stock market"),
    ("how much does a sony wh-1000xm5 cost", "price", "sony wh-1000xm5"),
])
def test_answer_reads_question_kinds(query: str, kind: str, subject: str) -> None:
    """The search engine recognises each kind of question and its subject."""
    card = answer(query)
    assert card is not None and (card.kind, card.subject) == (kind, subject)


def test_product_titles_contain_query_words_everywhere() -> None:
    """Every listed product's title contains every word of its query, and titles are unique per list."""
    for query in catalog.ALL_PRODUCT_QUERIES:
        for host in SHOP_HOSTS[:3]:
            titles = [p.title for p in catalog.organic(host, query) + catalog.adverts(host, query)]
            assert len(set(titles)) == len(titles)
            assert all(all(w in t.lower() for w in query.split()) for t in titles), query


def test_content_same_in_every_process() -> None:
    """Products and answers come from `stable_seed`, so a fresh interpreter generates the same ones."""
    code = ("import json; from android_gym.sim.web import catalog; from android_gym.sim.web.content import answer; "
            "print(json.dumps([[p.to_state() for p in catalog.organic('ebay.com', 'hdmi cable')], "
            "answer('weather in oslo').lines, answer('latest news about mars').lines]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                         env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout
    here = [[p.to_state() for p in catalog.organic("ebay.com", "hdmi cable")],
            list(answer("weather in oslo").lines), list(answer("latest news about mars").lines)]
    assert json.loads(out) == here


def test_split_url_rejects_text_with_spaces() -> None:
    """Only single-token text with a dotted host reads as an address."""
    assert split_url("go to amazon.com") is None and split_url("localhost") is None
    assert split_url("ebay.com/sch/i.html?_nkw=lamp") == ("ebay.com", "/sch/i.html", {"_nkw": "lamp"})
