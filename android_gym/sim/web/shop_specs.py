"""The shopping sites of the simulated web (plain data): URL schemes, element ids per layout, labels, categories."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote_plus


@dataclass(frozen=True)
class ShopSpec:
    """How one shop looks and addresses its pages.

    Attributes:
        host: normalised host, e.g. "amazon.com".
        name: display name.
        search_path, search_param: a search is `https://www.{host}{search_path}?{search_param}={query}`.
        product_path: product pages are `{product_path}{pid}`.
        search_ids: the search box's resource-id in layout 0 and layout 1 (sites rename ids between versions).
        add_ids: the "Add to cart" button's resource-id in layout 0 and layout 1.
        add_label: the button's text.
        placeholder: the search box's hint.
        banner: the promotion banner's text.
        categories: (label, query) links on the home page.
    """

    host: str
    name: str
    search_path: str
    search_param: str
    product_path: str
    search_ids: tuple[str, str]
    add_ids: tuple[str, str]
    add_label: str
    placeholder: str
    banner: str
    categories: tuple[tuple[str, str], ...]

    def search_url(self, query: str) -> str:
        """The URL of this shop's results for `query`.

        >>> SHOPS["amazon.com"].search_url("usb-c cable")
        'https://www.amazon.com/s?k=usb-c+cable'
        """
        return f"https://www.{self.host}{self.search_path}?{self.search_param}={quote_plus(query)}"


_SPECS = (
    ShopSpec("amazon.com", "Amazon", "/s", "k", "/dp/", ("twotabsearchtextbox", "nav-search-keywords"),
             ("add-to-cart-button", "a-autoid-add"), "Add to Cart", "Search Amazon",
             "Prime Day deals are here: up to 40% off", (("Electronics", "wireless earbuds"),
                                                         ("Computers", "gaming laptop"), ("Home", "air purifier"),
                                                         ("Toys", "board games"))),
    ShopSpec("ebay.com", "eBay", "/sch/i.html", "_nkw", "/itm/", ("gh-ac", "kw"), ("atcBtn", "binBtn_atc"),
             "Add to cart", "Search for anything", "Brand outlet: save on top brands",
             (("Tech", "bluetooth speaker"), ("Collectibles", "lego star wars"), ("Sports", "dumbbells"),
              ("Home & Garden", "robot vacuum"))),
    ShopSpec("walmart.com", "Walmart", "/search", "q", "/ip/", ("global-search-input", "search-form-input"),
             ("add-to-cart", "atc-button"), "Add to cart", "Search everything at Walmart online and in store",
             "Rollbacks on thousands of items", (("Electronics", "4k monitor"), ("Grocery", "coffee beans"),
                                                  ("Home", "space heater"), ("Back to school", "backpack"))),
    ShopSpec("bestbuy.com", "Best Buy", "/site/searchpage.jsp", "st", "/site/", ("gh-search-input", "autocomplete"),
             ("add-to-cart-btn", "fulfillment-add-to-cart-button"), "Add to Cart", "What can we help you find today?",
             "Top deals: save on laptops, TVs and more", (("TV & Home Theater", "soundbar"),
                                                           ("Computers & Tablets", "chromebook"),
                                                           ("Cell Phones", "phone charger"),
                                                           ("Video Games", "gaming mouse"))),
    ShopSpec("costco.com", "Costco", "/CatalogSearch", "keyword", "/product/", ("search-field", "navigation-search"),
             ("add-to-cart-btn", "addbutton"), "Add to Cart", "Search Costco", "Member-only savings this week",
             (("Appliances", "toaster oven"), ("Electronics", "external hard drive"), ("Furniture", "office chair"),
              ("Health", "electric toothbrush"))),
    ShopSpec("newegg.com", "Newegg", "/p/pl", "d", "/p/", ("searchbox", "newegg-search"),
             ("btn-primary-add", "ProductBuy"), "Add to cart", "Search Newegg",
             "Shell Shocker: limited-time tech deals",
             (("Components", "nvme ssd"), ("Peripherals", "mechanical keyboard"), ("Networking", "mesh wifi system"),
              ("Monitors", "portable monitor"))),
    ShopSpec("target.com", "Target", "/s", "searchTerm", "/p/", ("search", "searchMobile"),
             ("addToCartButton", "add-to-cart-cta"), "Add to cart", "What can we help you find?",
             "Target Circle: deals you'll love", (("Kitchen", "electric kettle"), ("Fitness", "yoga mat"),
                                                  ("Travel", "luggage set"), ("Outdoors", "camping tent"))),
)

SHOPS: dict[str, ShopSpec] = {s.host: s for s in _SPECS}
"""Every shopping site by host."""
