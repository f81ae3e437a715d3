"""Every public method of the official Python SDK (firecrawl 4.54: Firecrawl,
FirecrawlClient, V1FirecrawlApp and their async clients) called once against the
gateway. The SDK parses each answer into its own pydantic models, so an answer of
the wrong shape raises; a method the coverage table refuses must raise the refusal.

Run by test/integration/sdk-conformance-python-answers.test.ts with API_URL,
API_KEY and SITE_URL set; its last line is RESULT {"called": [...], "failures": [...], "refusals": {method: status}}
(the SDK prints to stdout itself: the V1 client prints a request body).
"""
import asyncio
import json
import os
import time
import uuid
import warnings

from firecrawl import AsyncFirecrawl, Firecrawl
from firecrawl.v1 import AsyncV1FirecrawlApp, V1FirecrawlApp
from firecrawl.v2.client import FirecrawlClient
from firecrawl.v2.client_async import AsyncFirecrawlClient
from firecrawl.v2.types import MonitorSchedule, ScrapeOptions
from firecrawl.v2.utils.error_handler import FirecrawlError

warnings.simplefilter("ignore")
API = dict(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
SITE = os.environ["SITE_URL"]
SCHEMA = {"type": "object", "properties": {"title": {"type": "string"}}, "required": ["title"]}

called, failures, refusals = set(), [], {}


def is_refusal(err, status, refused):
    statuses, messages = refused[:2]
    text = str(err)
    return status in statuses or any(f"Status code {s}" in text or f"status {s}" in text for s in statuses) or any(m in text for m in messages)


def record(client, method, fn, refused=None):
    """Calls `fn`; a refused method must raise with one of the statuses in `refused`."""
    name = f"{client}.{method}"
    called.add(name)
    try:
        result = fn()
    except Exception as err:  # the SDK's own error classes and its model validation errors
        status = getattr(err, "status_code", None) or getattr(getattr(err, "response", None), "status_code", None)
        if refused and is_refusal(err, status, refused):
            if len(refused) > 2:
                refusals[name] = refused[2]
            return None
        failures.append({"method": name, "error": f"{type(err).__name__}: {str(err)[:500]}"})
        return None
    if refused:
        failures.append({"method": name, "error": f"answered {repr(result)[:200]} where a refusal ({refused}) was expected"})
    return result


async def arecord(client, method, coro_fn, refused=None):
    name = f"{client}.{method}"
    called.add(name)
    try:
        result = await coro_fn()
    except Exception as err:
        status = getattr(err, "status_code", None) or getattr(getattr(err, "status", None), "__int__", lambda: None)()
        if refused and is_refusal(err, status, refused):
            if len(refused) > 2:
                refusals[name] = refused[2]
            return None
        failures.append({"method": name, "error": f"{type(err).__name__}: {str(err)[:500]}"})
        return None
    if refused:
        failures.append({"method": name, "error": f"answered {repr(result)[:200]} where a refusal ({refused}) was expected"})
    return result


def wait_until(check, seconds=60):
    end = time.time() + seconds
    while time.time() < end:
        if check():
            return
        time.sleep(0.5)
    raise TimeoutError("waited too long")


# A refusal: the statuses it may carry, and messages that say it where the SDK drops the status.
# Those of the coverage table carry its status as a third item, reported with the method.
CLOUD = ({501}, ("is a Firecrawl cloud service",), "cloud")
RETIRED = (
    {404, 410},
    (
        "job not found",  # the V1 status methods raise ValueError("… job not found") for a 404
        "is not offered by this service",
        # The V1 llms.txt starts hand the parsed body to their error handler, which reads .text off it (the SDK's bug).
        "'dict' object has no attribute 'text'",
    ),
    "retired",
)


def v2_methods():
    c = FirecrawlClient(**API)
    n = "FirecrawlClient"
    doc = record(n, "scrape", lambda: c.scrape(f"{SITE}/widgets", formats=["markdown", "product"]))
    scrape_id = doc.metadata.scrape_id if doc and doc.metadata else None
    record(n, "scrape_url", lambda: c.scrape_url(f"{SITE}/", params={"formats": ["html"]}))
    record(n, "interact", lambda: c.interact(scrape_id, code="await page.title()"))
    record(n, "scrape_execute", lambda: c.scrape_execute(scrape_id, code="1"))
    record(n, "stop_interaction", lambda: c.stop_interaction(scrape_id))
    record(n, "interact", lambda: c.interact(scrape_id, code="1"))
    record(n, "stop_interactive_browser", lambda: c.stop_interactive_browser(scrape_id))
    record(n, "interact", lambda: c.interact(scrape_id, code="1"))
    record(n, "delete_scrape_browser", lambda: c.delete_scrape_browser(scrape_id))
    record(n, "parse", lambda: c.parse(b"<h1>Parsed</h1>", filename="a.html", content_type="text/html"))
    record(n, "get_parse_formats", lambda: c.get_parse_formats())
    record(n, "map", lambda: c.map(f"{SITE}/", limit=10))
    record(n, "map_url", lambda: c.map_url(f"{SITE}/"))
    record(n, "search", lambda: c.search("widgets", limit=3))

    record(n, "crawl", lambda: c.crawl(f"{SITE}/", limit=3, sitemap="skip", poll_interval=1, timeout=60))
    record(n, "crawl_url", lambda: c.crawl_url(f"{SITE}/", params={"limit": 2}, poll_interval=1))
    started = record(n, "start_crawl", lambda: c.start_crawl(f"{SITE}/", limit=2, sitemap="skip"))
    record(n, "async_crawl_url", lambda: c.async_crawl_url(f"{SITE}/about", params={"limit": 1}))
    record(n, "wait_crawl", lambda: c.wait_crawl(started.id, poll_interval=1, timeout=60))
    status = record(n, "get_crawl_status", lambda: c.get_crawl_status(started.id))
    record(n, "check_crawl_status", lambda: c.check_crawl_status(started.id))
    page = c.http_client.get(f"/v2/crawl/{started.id}?limit=1").json().get("next")
    record(n, "get_crawl_status_page", lambda: c.get_crawl_status_page(page or f"{API['api_url']}/v2/crawl/{started.id}"))
    record(n, "get_crawl_errors", lambda: c.get_crawl_errors(started.id))
    record(n, "check_crawl_errors", lambda: c.check_crawl_errors(started.id))
    record(n, "get_active_crawls", lambda: c.get_active_crawls())
    record(n, "active_crawls", lambda: c.active_crawls())
    to_cancel = c.start_crawl(f"{SITE}/", limit=50, delay=5)
    record(n, "cancel_crawl", lambda: c.cancel_crawl(to_cancel.id))
    record(n, "crawl_params_preview", lambda: c.crawl_params_preview(f"{SITE}/", "only the widget pages"))
    watcher = record(n, "watcher", lambda: c.watcher(started.id, kind="crawl", poll_interval=1, timeout=30))

    record(n, "batch_scrape", lambda: c.batch_scrape([f"{SITE}/", f"{SITE}/about"], formats=["markdown"], poll_interval=1, wait_timeout=60))
    record(n, "batch_scrape_urls", lambda: c.batch_scrape_urls([f"{SITE}/about"], poll_interval=1))
    batch = record(n, "start_batch_scrape", lambda: c.start_batch_scrape([f"{SITE}/widgets"]))
    record(n, "async_batch_scrape_urls", lambda: c.async_batch_scrape_urls([f"{SITE}/widgets"]))
    wait_until(lambda: c.get_batch_scrape_status(batch.id).status == "completed")
    record(n, "get_batch_scrape_status", lambda: c.get_batch_scrape_status(batch.id))
    record(n, "check_batch_scrape_status", lambda: c.check_batch_scrape_status(batch.id))
    record(n, "get_batch_scrape_status_page", lambda: c.get_batch_scrape_status_page(f"{API['api_url']}/v2/batch/scrape/{batch.id}"))
    record(n, "get_batch_scrape_errors", lambda: c.get_batch_scrape_errors(batch.id))
    record(n, "check_batch_scrape_errors", lambda: c.check_batch_scrape_errors(batch.id))
    batch_to_cancel = c.start_batch_scrape([f"{SITE}/?p={i}" for i in range(20)], max_concurrency=1)
    record(n, "cancel_batch_scrape", lambda: c.cancel_batch_scrape(batch_to_cancel.id))

    record(n, "extract", lambda: c.extract([f"{SITE}/widgets"], schema=SCHEMA, poll_interval=1, timeout=60))
    ex = record(n, "start_extract", lambda: c.start_extract([f"{SITE}/about"], prompt="the title"))
    wait_until(lambda: c.get_extract_status(ex.id).status != "processing")
    record(n, "get_extract_status", lambda: c.get_extract_status(ex.id))
    record(n, "agent", lambda: c.agent(prompt="Name the widget page", schema=SCHEMA, poll_interval=1, timeout=60))
    ag = record(n, "start_agent", lambda: c.start_agent(prompt="Name it", schema=SCHEMA))
    wait_until(lambda: c.get_agent_status(ag.id).status != "processing")
    status = record(n, "get_agent_status", lambda: c.get_agent_status(ag.id))
    record(n, "list_agents", lambda: c.list_agents())
    trace = record(n, "get_agent_trace", lambda: c.get_agent_trace(ag.id, live_view=True))
    snapshots = [e.artifact.snapshot_id for e in (trace.events or []) if getattr(e, "type", None) == "artifact.updated"] if trace else []
    if snapshots:
        record(n, "get_agent_snapshot", lambda: c.get_agent_snapshot(ag.id, snapshots[0]))
    else:
        record(n, "get_agent_snapshot", lambda: c.get_agent_snapshot(ag.id, "none"), refused=({404}, ("not found",)))
    record(n, "get_agent_thread", lambda: c.get_agent_thread(status.thread_id, include_data=True))
    ag2 = c.start_agent(prompt="Name it again", schema=SCHEMA)
    record(n, "cancel_agent", lambda: c.cancel_agent(ag2.id))

    session = record(n, "browser", lambda: c.browser(ttl=60, activity_ttl=30))
    record(n, "browser_execute", lambda: c.browser_execute(session.id, "1 + 1", language="node"))
    record(n, "list_browsers", lambda: c.list_browsers(status="active"))
    record(n, "delete_browser", lambda: c.delete_browser(session.id))

    monitor = record(
        n,
        "create_monitor",
        lambda: c.create_monitor("answers", MonitorSchedule(cron="0 3 1 1 *", timezone="UTC"), [{"type": "scrape", "urls": [f"{SITE}/about"]}]),
    )
    record(n, "list_monitors", lambda: c.list_monitors(limit=10))
    record(n, "get_monitor", lambda: c.get_monitor(monitor.id))
    record(n, "update_monitor", lambda: c.update_monitor(monitor.id, name="answers, renamed"))
    check = record(n, "run_monitor", lambda: c.run_monitor(monitor.id))
    wait_until(lambda: any(k.id == check.id and k.status in ("completed", "partial", "failed") for k in c.list_monitor_checks(monitor.id)), 120)
    record(n, "list_monitor_checks", lambda: c.list_monitor_checks(monitor.id))
    record(n, "get_monitor_check", lambda: c.get_monitor_check(monitor.id, check.id))
    record(n, "delete_monitor", lambda: c.delete_monitor(monitor.id))

    for method, fn in [
        ("get_concurrency", lambda: c.get_concurrency()),
        ("get_credit_usage", lambda: c.get_credit_usage()),
        ("get_token_usage", lambda: c.get_token_usage()),
        ("get_credit_usage_historical", lambda: c.get_credit_usage_historical(by_api_key=True)),
        ("get_token_usage_historical", lambda: c.get_token_usage_historical()),
        ("get_queue_status", lambda: c.get_queue_status()),
    ]:
        record(n, method, fn)

    for method, fn in [
        ("search_papers", lambda: c.search_papers("tau", k=3)),
        ("inspect_paper", lambda: c.inspect_paper("doi:10.1/x")),
        ("read_paper", lambda: c.read_paper("pmid:1", "endpoint")),
        ("related_papers", lambda: c.related_papers("arxiv:2401.00001", "replications")),
        ("search_github", lambda: c.search_github("temporal", k=2)),
        ("developer_search", lambda: c.developer_search("temporal workers", k=2)),
        ("gov_search", lambda: c.gov_search("privacy", 2)),
        ("find_tools", lambda: c.find_tools(limit=2)),
        ("scrape_alexandria", lambda: c.scrape_alexandria({"provider": "firecrawl", "capability": "find-tools"})),
    ]:
        record(n, method, fn, refused=CLOUD)
    return watcher


def unified_methods():
    f = Firecrawl(**API)
    n = "Firecrawl"
    record(n, "parse", lambda: f.parse(b"<h1>Parsed</h1>", filename="a.html", content_type="text/html"))
    for method, fn in [
        ("search_papers", lambda: f.search_papers("tau")),
        ("inspect_paper", lambda: f.inspect_paper("doi:10.1/x")),
        ("read_paper", lambda: f.read_paper("pmid:1", "endpoint")),
        ("related_papers", lambda: f.related_papers("arxiv:2401.00001", "replications")),
        ("search_github", lambda: f.search_github("temporal")),
    ]:
        record(n, method, fn, refused=CLOUD)


def v1_methods():
    v = V1FirecrawlApp(**API)
    n = "V1FirecrawlApp"
    record(n, "scrape_url", lambda: v.scrape_url(f"{SITE}/", formats=["markdown"]))
    record(n, "crawl_url", lambda: v.crawl_url(f"{SITE}/", limit=2, ignore_sitemap=True, poll_interval=1))
    started = record(n, "async_crawl_url", lambda: v.async_crawl_url(f"{SITE}/", limit=2, ignore_sitemap=True))
    wait_until(lambda: v.check_crawl_status(started.id).status == "completed")
    record(n, "check_crawl_status", lambda: v.check_crawl_status(started.id))
    record(n, "check_crawl_errors", lambda: v.check_crawl_errors(started.id))
    to_cancel = v.async_crawl_url(f"{SITE}/", limit=50, delay=5)
    record(n, "cancel_crawl", lambda: v.cancel_crawl(to_cancel.id))
    record(n, "crawl_url_and_watch", lambda: v.crawl_url_and_watch(f"{SITE}/about", limit=1))
    record(n, "map_url", lambda: v.map_url(f"{SITE}/"))
    record(n, "search", lambda: v.search("widgets", limit=2))
    record(n, "batch_scrape_urls", lambda: v.batch_scrape_urls([f"{SITE}/about"], formats=["markdown"], poll_interval=1))
    batch = record(n, "async_batch_scrape_urls", lambda: v.async_batch_scrape_urls([f"{SITE}/widgets"]))
    wait_until(lambda: v.check_batch_scrape_status(batch.id).status == "completed")
    record(n, "check_batch_scrape_status", lambda: v.check_batch_scrape_status(batch.id))
    record(n, "check_batch_scrape_errors", lambda: v.check_batch_scrape_errors(batch.id))
    record(n, "batch_scrape_urls_and_watch", lambda: v.batch_scrape_urls_and_watch([f"{SITE}/about"]))
    record(n, "extract", lambda: v.extract([f"{SITE}/widgets"], schema=SCHEMA))
    ex = record(n, "async_extract", lambda: v.async_extract([f"{SITE}/about"], prompt="the title"))
    record(n, "get_extract_status", lambda: v.get_extract_status(ex.id))
    for method, fn in [
        ("get_credit_usage", lambda: v.get_credit_usage()),
        ("get_token_usage", lambda: v.get_token_usage()),
        ("get_credit_usage_historical", lambda: v.get_credit_usage_historical()),
        ("get_token_usage_historical", lambda: v.get_token_usage_historical(by_api_key=True)),
    ]:
        record(n, method, fn)
    for method, fn in [
        ("deep_research", lambda: v.deep_research("widgets", max_urls=2)),
        ("async_deep_research", lambda: v.async_deep_research("widgets")),
        ("check_deep_research_status", lambda: v.check_deep_research_status(str(uuid.uuid4()))),
        ("generate_llms_text", lambda: v.generate_llms_text(f"{SITE}/")),
        ("async_generate_llms_text", lambda: v.async_generate_llms_text(f"{SITE}/")),
        ("check_generate_llms_text_status", lambda: v.check_generate_llms_text_status(str(uuid.uuid4()))),
    ]:
        record(n, method, fn, refused=RETIRED)


async def async_methods():
    """The async clients: the quick methods of each; the job methods through their start and status."""
    a = AsyncFirecrawlClient(**API)
    n = "AsyncFirecrawlClient"
    await arecord(n, "scrape", lambda: a.scrape(f"{SITE}/", formats=["markdown"]))
    await arecord(n, "map", lambda: a.map(f"{SITE}/"))
    await arecord(n, "search", lambda: a.search("widgets", limit=2))
    started = await arecord(n, "start_crawl", lambda: a.start_crawl(f"{SITE}/", limit=1))
    await arecord(n, "wait_crawl", lambda: a.wait_crawl(started.id, poll_interval=1, timeout=60))
    await arecord(n, "get_crawl_status", lambda: a.get_crawl_status(started.id))
    batch = await arecord(n, "start_batch_scrape", lambda: a.start_batch_scrape([f"{SITE}/about"]))
    await arecord(n, "wait_batch_scrape", lambda: a.wait_batch_scrape(batch.id, poll_interval=1, timeout=60))
    await arecord(n, "get_batch_scrape_status", lambda: a.get_batch_scrape_status(batch.id))
    await arecord(n, "get_credit_usage", lambda: a.get_credit_usage())
    await arecord(n, "get_queue_status", lambda: a.get_queue_status())
    await arecord(n, "get_concurrency", lambda: a.get_concurrency())
    await arecord(n, "search_papers", lambda: a.search_papers("tau"), refused=CLOUD)
    af = AsyncFirecrawl(**API)
    await arecord("AsyncFirecrawl", "parse", lambda: af.parse(b"<h1>Parsed</h1>", filename="a.html", content_type="text/html"))
    av = AsyncV1FirecrawlApp(**API)
    await arecord("AsyncV1FirecrawlApp", "scrape_url", lambda: av.scrape_url(f"{SITE}/", formats=["markdown"]))
    await arecord("AsyncV1FirecrawlApp", "map_url", lambda: av.map_url(f"{SITE}/"))


def main():
    watcher = v2_methods()
    unified_methods()
    v1_methods()
    asyncio.run(async_methods())
    print("RESULT " + json.dumps({"called": sorted(called), "failures": failures, "refusals": refusals}))


main()
