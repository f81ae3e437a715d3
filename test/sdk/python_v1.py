"""The official Python SDK's v1 client (V1FirecrawlApp of firecrawl 4.x, also
Firecrawl(...).v1) against our gateway's /v1 routes.

Run by test/integration/sdk-v1.test.ts with API_URL, API_KEY, SITE_URL and SLOW_URL
set; prints one JSON object with what the SDK's methods returned (the models they
build raise on answers they cannot read)."""
import asyncio
import json
import os
import time
import warnings

from firecrawl import Firecrawl
from firecrawl.v1 import V1FirecrawlApp
from firecrawl.v1.client import V1ScrapeOptions

# The SDK marks extract deprecated; the test reads stderr.
warnings.simplefilter("ignore", DeprecationWarning)

app = V1FirecrawlApp(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]
out = {}

schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

page = app.scrape_url(site + "/widget", formats=["markdown", "html", "links", "json"], json_options={"prompt": "the product name", "schema": schema})
out["scrape"] = {
    "markdown": page.markdown,
    "has_html": page.html is not None,
    "links": page.links,
    "json": page.json_field,
    "status_code": page.metadata["statusCode"],
}
legacy = app.scrape_url(site + "/widget", formats=["extract"], extract={"schema": schema})
out["scrape_extract"] = {"extract": legacy.extract, "json": legacy.json_field, "markdown": legacy.markdown}

crawl = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"]).v1.crawl_url(site + "/", limit=20, ignore_sitemap=True, poll_interval=1)
out["crawl"] = {
    "status": crawl.status,
    "completed": crawl.completed,
    "total": crawl.total,
    "credits_used": crawl.creditsUsed,
    "urls": sorted(d.metadata["sourceURL"] for d in crawl.data),
    "expires": crawl.expiresAt.isoformat(),
}

started = app.async_crawl_url(site + "/", limit=20, max_depth=1, ignore_sitemap=True)
while True:
    status = app.check_crawl_status(started.id)
    if status.status != "scraping":
        break
    time.sleep(0.5)
errors = app.check_crawl_errors(started.id)
out["async_crawl"] = {
    "id": started.id,
    "url": started.url,
    "status": status.status,
    "success": status.success,
    "urls": [d.metadata["sourceURL"] for d in status.data],
    "errors": [e.url for e in errors.errors],
    "robots_blocked": errors.robotsBlocked,
}

watcher = app.crawl_url_and_watch(site + "/", limit=2, ignore_sitemap=True)
watched = []
watcher.add_event_listener("document", lambda e: watched.append("document"))
watcher.add_event_listener("done", lambda e: watched.append("done"))
asyncio.run(watcher.connect())
out["watch"] = watched

slow = app.async_crawl_url(os.environ["SLOW_URL"], limit=30)
out["cancel"] = app.cancel_crawl(slow.id)
out["cancelled_status"] = app.check_crawl_status(slow.id).status

batch = app.batch_scrape_urls([site + "/p/1", site + "/p/2"], formats=["markdown"], poll_interval=1)
out["batch"] = {"status": batch.status, "completed": batch.completed, "urls": sorted(d.metadata["sourceURL"] for d in batch.data)}
started_batch = app.async_batch_scrape_urls([site + "/p/3", site + "/missing"], formats=["markdown"])
while True:
    batch_status = app.check_batch_scrape_status(started_batch.id)
    if batch_status.status != "scraping":
        break
    time.sleep(0.5)
out["async_batch"] = {
    "url": started_batch.url,
    "invalid": started_batch.invalidURLs,
    "status": batch_status.status,
    "urls": sorted(d.metadata["sourceURL"] for d in batch_status.data),
    "errors": len(app.check_batch_scrape_errors(started_batch.id).errors),
}
try:
    app.async_batch_scrape_urls([site + "/p/3", "not a url"])
    out["invalid_batch"] = "accepted"
except Exception as e:  # v1 refuses the whole batch for one malformed URL
    out["invalid_batch"] = str(e)

mapped = app.map_url(site + "/", sitemap_only=False, limit=50)
out["map"] = mapped.links

found = app.search("widget", limit=3)
out["search"] = found.data
scraped = app.search("widget", limit=3, scrape_options=V1ScrapeOptions(formats=["markdown"]))
out["search_scraped"] = [{"url": d["url"], "markdown": d.get("markdown")} for d in scraped.data]

extracted = app.extract([site + "/widget"], prompt="the product name", schema=schema)
out["extract"] = {"success": extracted.success, "status": extracted.status, "data": extracted.data}

credits = app.get_credit_usage()
tokens = app.get_token_usage()
history = app.get_credit_usage_historical(by_api_key=True)
out["usage"] = {
    "remaining_credits": credits.data.remaining_credits,
    "remaining_tokens": tokens.data.remaining_tokens,
    "periods": [p.creditsUsed for p in history.periods],
    "token_periods": [p.tokensUsed for p in app.get_token_usage_historical().periods],
}

print(json.dumps(out))
