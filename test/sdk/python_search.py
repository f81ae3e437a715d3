"""The official Python SDK (firecrawl 4.x) against our gateway: search() with web, images and news,
and with scrapeOptions. Run by test/integration/search-local.test.ts with API_URL and API_KEY set;
prints one JSON object with what the SDK returned (its pydantic models validate the answers)."""
import json
import os

from firecrawl import Firecrawl
from firecrawl.v2.types import ScrapeOptions

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
found = client.search("rust", sources=["web", "images", "news"], limit=5)
scraped = client.search("executor", scrape_options=ScrapeOptions(formats=["markdown"]))


def field(item, name):
    return getattr(item, name, None) if not isinstance(item, dict) else item.get(name)


print(json.dumps({
    "web": [[field(r, "url"), field(r, "title")] for r in found.web or []],
    "images": [[field(r, "image_url"), field(r, "image_width"), field(r, "image_height")] for r in found.images or []],
    "news": [[field(r, "title"), field(r, "url")] for r in found.news or []],
    "scraped": field((scraped.web or [None])[0], "markdown") or "",
}))
