"""The official Python SDK (firecrawl 4.x) against our gateway: scrape, map, batch_scrape.

Run by test/integration/sdk-python-scrape.test.ts with API_URL, API_KEY and SITE_URL
set; prints one JSON object with what the SDK returned."""
import json
import os

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]
doc = client.scrape(site + "/", formats=["markdown", "links"])
mapped = client.map(site + "/", limit=50)
batch = client.batch_scrape([site + "/p/1", site + "/p/2", site + "/p/3"], formats=["markdown"], poll_interval=1, wait_timeout=120)
print(json.dumps({
    "scrape_markdown": doc.markdown,
    "scrape_links": doc.links,
    "scrape_title": doc.metadata.title,
    "map_urls": sorted(link.url for link in mapped.links),
    "batch_status": batch.status,
    "batch_completed": batch.completed,
    "batch_credits": batch.credits_used,
    "batch_urls": sorted(d.metadata.source_url for d in batch.data),
}))
