"""The official Python SDK (firecrawl 4.x) sending redactPII, threatProtection and auditMetadata.

Run by test/integration/redaction-threat.test.ts with API_URL, API_KEY and SITE_URL set (the
site's start page links to http://localhost:1/secret and http://files.example.zip/x); prints
one JSON object with what the SDK returned."""
import json
import os
import time

from firecrawl import Firecrawl
from firecrawl.v2.types import AuditMetadata, RedactPIIOptions, ScrapeOptions, ThreatProtectionOptions

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]

options = ScrapeOptions(
    formats=["markdown"],
    max_age=0,
    redact_pii=RedactPIIOptions(mode="accurate", replace_style="mask"),
    threat_protection=ThreatProtectionOptions(mode="manual-only", blacklist=["localhost"], blocked_tlds=["zip"], failure_policy="closed"),
    audit_metadata=AuditMetadata(username="py-sdk"),
)
started = client.start_crawl(site + "/", limit=5, allow_external_links=True, scrape_options=options)
deadline = time.time() + 120
status = client.get_crawl_status(started.id)
while status.status == "scraping" and time.time() < deadline:
    time.sleep(1)
    status = client.get_crawl_status(started.id)
errors = client.get_crawl_errors(started.id)

try:
    client.scrape(site + "/about", threat_protection=ThreatProtectionOptions(mode="normal"))
    blocked = None
except Exception as err:  # the SDK raises on the 403
    blocked = str(err)

opened = client.scrape(
    site + "/about",
    formats=["markdown"],
    max_age=0,
    threat_protection=ThreatProtectionOptions(mode="zscaler", failure_policy="open", risk_score_threshold=60),
    audit_metadata=AuditMetadata(username="py-scrape"),
)

print(json.dumps({
    "status": status.status,
    "urls": sorted(d.metadata.source_url for d in status.data),
    "markdown": [d.markdown for d in status.data],
    "errors": sorted((e.url, e.error) for e in errors.errors),
    "blocked": blocked,
    "open_warning": opened.warning,
    "open_markdown": opened.markdown,
}))
