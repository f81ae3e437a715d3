"""The official Python SDK (firecrawl 4.x) against our gateway: its eight monitor calls.

Run by test/integration/sdk-python-monitor.test.ts with API_URL, API_KEY and SITE_URL
set; prints one JSON object with what the SDK returned. /py/a changes after its first
load, /py/c answers 500."""
import json
import os
import time

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]


def wait_for_check(monitor_id, check_id):
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for check in client.list_monitor_checks(monitor_id):
            if check.id == check_id and check.status in ("completed", "partial", "failed"):
                return check
        time.sleep(0.25)
    raise TimeoutError(f"check {check_id} did not end")


def statuses(detail):
    return sorted([page.url[len(site):], page.status] for page in detail.pages)


monitor = client.create_monitor(
    "Python watch",
    {"cron": "0 3 1 1 *", "timezone": "UTC"},
    [{"id": "pages", "type": "scrape", "urls": [site + "/py/a", site + "/py/b", site + "/py/d"]}],
    retention_days=3,
)
listed = [m.id for m in client.list_monitors(limit=100)]
got = client.get_monitor(monitor.id)

first = wait_for_check(monitor.id, client.run_monitor(monitor.id).id)
first_detail = client.get_monitor_check(monitor.id, first.id)

client.update_monitor(monitor.id, targets=[{"id": "pages", "type": "scrape", "urls": [site + "/py/a", site + "/py/c", site + "/py/d"]}])
queued = client.run_monitor(monitor.id)
second = wait_for_check(monitor.id, queued.id)
# One page a request: the SDK follows `next`.
second_detail = client.get_monitor_check(monitor.id, second.id, limit=1)
changed = [p for p in second_detail.pages if p.status == "changed"][0]

paused = client.update_monitor(monitor.id, status="paused")
checks = [c.id for c in client.list_monitor_checks(monitor.id)]
deleted = client.delete_monitor(monitor.id)

print(json.dumps({
    "monitor": {"id": monitor.id, "status": monitor.status, "cron": monitor.schedule.cron, "retention_days": monitor.retention_days},
    "listed": monitor.id in listed,
    "got_name": got.name,
    "queued_trigger": queued.trigger,
    "first": {"status": first.status, "summary": first.summary.model_dump(), "pages": statuses(first_detail)},
    "second": {"status": second.status, "summary": second.summary.model_dump(), "pages": statuses(second_detail)},
    "diff_text": changed.diff.text if changed.diff else None,
    "checks": checks,
    "check_ids": [second.id, first.id],
    "paused": paused.status,
    "deleted": deleted,
}))
