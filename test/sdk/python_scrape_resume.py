"""The official Python SDK (firecrawl 4.x) on scrapes that outlive their timeout.

Run by test/integration/scrape-resume.test.ts with API_URL, API_KEY and SITE_URL set. First
auto_resume=False (the 408 surfaces as RequestTimeoutError), then the default auto resume, which
the test lets finish only after the SDK's resume arrived (through a restarted gateway). Prints one
JSON object with what the SDK returned and raised."""
import json
import os

from firecrawl import Firecrawl, RequestTimeoutError

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]

try:
    client.scrape(site + "/py-manual", formats=["markdown"], timeout=2000, max_age=0, auto_resume=False)
    manual = {"raised": None}
except RequestTimeoutError as err:
    manual = {
        "raised": type(err).__name__,
        "status": err.status_code,
        "body": err.response.json(),
        "retry_after": err.response.headers.get("Retry-After"),
    }

doc = client.scrape(site + "/py-auto", formats=["markdown"], timeout=2000, max_age=0)
print(json.dumps({"manual": manual, "markdown": doc.markdown, "scrape_id": doc.metadata.scrape_id}))
