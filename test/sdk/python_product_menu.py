"""The official Python SDK (firecrawl 4.x) against our gateway: the product, menu and query formats.

Run by test/integration/model-formats.test.ts with API_URL, API_KEY and SHOP_URL set. The SDK
parses every document into its pydantic models (ProductProfile, MenuProfile...), so a field of
the wrong shape fails here. Prints one JSON object with what the SDK returned, dumped by alias
(the API's own camelCase names)."""
import json
import os

from firecrawl import Firecrawl
from firecrawl.v2.types import MenuItem, MenuProfile, ProductAvailability, ProductProfile, ProductVariant, QueryFormat

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
shop = os.environ["SHOP_URL"]


def dump(model):
    return None if model is None else model.model_dump(by_alias=True, exclude_none=True)


tee = client.scrape(shop + "/tee", formats=["product", {"type": "query", "prompt": "shipping returns", "mode": "directQuote"}], max_age=0)
cafe = client.scrape(shop + "/cafe", formats=["menu", QueryFormat(prompt="Is there soup?")], max_age=0)
about = client.scrape(shop + "/about", formats=["product", "menu"], max_age=0)

assert isinstance(tee.product, ProductProfile)
assert all(isinstance(v, ProductVariant) and isinstance(v.availability, ProductAvailability) for v in tee.product.variants)
assert isinstance(cafe.menu, MenuProfile)
assert all(isinstance(item, MenuItem) for section in cafe.menu.sections for item in section.items)

print(json.dumps({
    "tee_product": dump(tee.product),
    "tee_answer": tee.answer,
    "tee_in_stock": [v.availability.in_stock for v in tee.product.variants],
    "cafe_menu": dump(cafe.menu),
    "cafe_answer": cafe.answer,
    "cafe_merchant": cafe.menu.merchant.name,
    "about_product": dump(about.product),
    "about_menu": dump(about.menu),
    "about_warning": about.warning,
}))
