"""The official Python SDK (firecrawl 4.x) against our gateway: crawl = start + wait.

Run by test/integration/sdk-python.test.ts with API_URL, API_KEY and SITE_URL
set; prints one JSON object with what the SDK returned."""
import json
import os

from firecrawl import Firecrawl
from firecrawl.v2.types import ScrapeOptions

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
job = client.crawl(os.environ["SITE_URL"], limit=20, sitemap="skip", poll_interval=1, timeout=120)
# The most common crawl call: the SDK serializes every ScrapeOptions field's default (fastMode: false among them).
with_options = client.crawl(os.environ["SITE_URL"], limit=10, scrape_options=ScrapeOptions(formats=["markdown"]), poll_interval=1, timeout=120)
started = client.start_crawl(os.environ["SITE_URL"], limit=2, sitemap="skip")
errors = client.get_crawl_errors(started.id)
print(json.dumps({
    "status": job.status,
    "completed": job.completed,
    "total": job.total,
    "credits_used": job.credits_used,
    "urls": sorted(d.metadata.source_url for d in job.data),
    "markdown": [d.markdown for d in job.data],
    "started_id": started.id,
    "errors": len(errors.errors),
    "with_options": {"status": with_options.status, "completed": with_options.completed, "markdown": sum(1 for d in with_options.data if d.markdown)},
}))
