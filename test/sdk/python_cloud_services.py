"""The official Python SDK (firecrawl 4.54) against our gateway: every method that calls a
Firecrawl cloud service, and the search values that need one. Run by
test/integration/cloud-services.test.ts with API_URL, API_KEY, and QUERY set; prints
one JSON object: per call, what the SDK raised (class, status_code, code, message, request_id)
or, for the searches it answers, what it returned."""
import json
import os
import warnings

from firecrawl import Firecrawl
from firecrawl.v2.types import ThreatProtectionOptions

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
query = os.environ["QUERY"]


def raised(call):
    try:
        result = call()
    except Exception as err:  # the SDK's own error classes are what is checked
        return {
            "class": type(err).__name__,
            "status_code": getattr(err, "status_code", None),
            "code": getattr(err, "code", None),
            "message": str(err),
            "request_id": getattr(err, "request_id", None),
        }
    return {"returned": repr(result)[:300]}


def found(data):
    return {
        "web": [r.url for r in data.web or []],
        "news": [r.url for r in data.news or []],
        "tools": data.tools,
        "warning": data.warning,
    }


alexandria_call = {"provider": "firecrawl", "capability": "find-tools", "options": {"limit": 3}}

with warnings.catch_warnings(record=True) as deprecations:
    warnings.simplefilter("always")
    github = raised(lambda: client.search_github(query, k=3))

refusals = {
    "search_papers": raised(lambda: client.search_papers(query, k=5, authors=["Ada", "Grace"], from_date="2024-01-01")),
    "inspect_paper": raised(lambda: client.inspect_paper("doi:10.1000/xyz")),
    "read_paper": raised(lambda: client.read_paper("pmid:123", "primary endpoint", k=2)),
    "related_papers": raised(lambda: client.related_papers("arxiv:2401.00001", "replications", mode="citers", rerank=True)),
    "search_github": github,
    "developer_search": raised(lambda: client.developer_search(query, k=5, types=["issue"], min_stars=10)),
    "gov_search": raised(lambda: client.gov_search(query, 3, jurisdiction="us", court_type="federal-supreme")),
    "scrape_alexandria": raised(lambda: client.scrape(alexandria=alexandria_call, request_id="req-py-1")),
    "find_tools": raised(lambda: client.find_tools(limit=3)),
    "search_alexandria": raised(lambda: client.search(query, sources=["alexandria"])),
    "search_developer": raised(lambda: client.search(query, categories=["developer"])),
    "search_gov": raised(lambda: client.search(query, categories=[{"type": "gov"}])),
    "developer_search_malformed": raised(lambda: client.developer_search(query, k=5, language="")),
}

# What a caller does next: the same search without the cloud parts.
answered = {
    "web_only": found(client.search(query, sources=["web"], limit=5)),
    "web_and_alexandria": found(client.search(query, sources=["web", {"type": "alexandria"}], domain_tools=True, tool_detail="full")),
    "github_instead_of_developer": found(client.search(query, categories=["github"])),
    "manual_lists": found(
        client.search(query, limit=5, threat_protection=ThreatProtectionOptions(mode="manual-only", blacklist=["localhost"], blocked_tlds=["zip"]))
    ),
    "highlights": [r.description for r in client.search(query, highlights=True, limit=5).web or []],
    # No scanner here: failurePolicy decides (closed, the default, removes every result the whitelist does not keep).
    "scan_closed": found(client.search(query, limit=5, threat_protection=ThreatProtectionOptions(mode="normal"))),
    "scan_open": found(client.search(query, limit=5, threat_protection=ThreatProtectionOptions(mode="zscaler", failure_policy="open"))),
}

print(json.dumps({"refusals": refusals, "answered": answered, "deprecation_warnings": len(deprecations)}))
