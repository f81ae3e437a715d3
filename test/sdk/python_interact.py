"""The official Python SDK (firecrawl 4.x) against our gateway: interacting with a scrape.

Run by test/integration/scrape-interact.test.ts with API_URL, API_KEY and PAGE_URL set;
prints one JSON object with what the SDK returned."""
import json
import os

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
doc = client.scrape(os.environ["PAGE_URL"], formats=["markdown"], actions=[{"type": "click", "selector": "#more"}])
scrape_id = doc.metadata.scrape_id
counted = client.interact(scrape_id, "await page.textContent('#count')")
titled = client.scrape_execute(scrape_id, "print(await page.title())", language="python")
stopped = client.stop_interaction(scrape_id)
print(json.dumps({
    "interact": [counted.success, counted.result, counted.exit_code],
    "execute": [titled.success, titled.stdout, titled.exit_code],
    "stopped": [stopped.success, stopped.credits_billed],
}))
