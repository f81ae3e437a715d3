"""The official Python SDK (firecrawl 4.x) against our gateway: browser sessions.

Run by test/integration/sdk-browser.test.ts with API_URL, API_KEY and PAGE_URL set;
prints one JSON object with what the SDK returned (its pydantic models validate the
answers' types)."""
import json
import os

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
# block_ads and location as the SDK documents them: the session browses with its country's language and time zone.
created = client.browser(ttl=120, activity_ttl=60, block_ads=True, location={"country": "GB"})
# The SDK's default language is bash: agent-browser attached to the session.
opened = client.browser_execute(created.id, f"agent-browser open {os.environ['PAGE_URL']} && agent-browser get title")
python = client.browser_execute(created.id, "print(await page.title())", language="python")
node = client.browser_execute(
    created.id,
    "await page.evaluate(() => [6 * 7, navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone].join(' '))",
    language="node",
)
listed = client.list_browsers(status="active")
deleted = client.delete_browser(created.id)
after = client.list_browsers(status="destroyed")
print(json.dumps({
    "id": created.id,
    "cdp_url": created.cdp_url,
    "live_view_url": created.live_view_url,
    "expires_at": created.expires_at,
    "bash": [opened.stdout, opened.exit_code, opened.error],
    "python": [python.stdout, python.exit_code, python.error],
    "node": [node.result, node.exit_code],
    "listed": [[s.id, s.status, s.cdp_url, s.stream_web_view, s.created_at, s.last_activity] for s in listed.sessions or []],
    "deleted": [deleted.success, deleted.session_duration_ms, deleted.credits_billed],
    "destroyed": [s.id for s in after.sessions or []],
}))
