"""The official Python SDK (firecrawl 4.x) against our gateway: extract().

Run by test/integration/extract.test.ts with API_URL, API_KEY and SITE_URL set;
prints one JSON object with what the SDK returned."""
import json
import os
import warnings

from firecrawl import Firecrawl

# The SDK marks extract deprecated (upstream's maintenance mode); the test reads stderr.
warnings.simplefilter("ignore", DeprecationWarning)

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]
schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
result = client.extract([site + "/widget"], prompt="the product name", schema=schema, show_sources=True, poll_interval=1, timeout=120)
print(json.dumps({
    "status": result.status,
    "data": result.data,
    "sources": result.sources,
    "credits_used": result.credits_used,
    "tokens_used": result.tokens_used,
    "has_expiry": result.expires_at is not None,
}))
