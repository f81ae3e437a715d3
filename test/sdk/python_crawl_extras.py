"""The official Python SDK (firecrawl 4.x) against our gateway: crawl_params_preview and get_active_crawls.

Run by test/integration/formats-deterministic.test.ts with API_URL, API_KEY, SITE_URL and
CRAWL_ID (a crawl still running) set; prints one JSON object with what the SDK returned."""
import json
import os

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
preview = client.crawl_params_preview(os.environ["SITE_URL"] + "/", "only the blog, five pages")
active = client.get_active_crawls()
print(json.dumps({
    "preview": [preview.include_paths, preview.limit],
    "active": [c.id for c in active.crawls],
}))
