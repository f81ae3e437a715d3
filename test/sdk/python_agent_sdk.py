"""Every agent method of the official Python SDK (firecrawl 4.54) against our gateway, each answer
parsed by the SDK's own pydantic models (a field of the wrong shape raises): agent() with every
request parameter it has, start_agent continuing the thread in chat mode, get_agent_status,
list_agents (and its `before` page), get_agent_trace with live_view, get_agent_snapshot,
get_agent_thread with include_data, cancel_agent, the exchange refused; the async client's
status, trace and snapshot. Run by test/integration/agent-sdk.test.ts with API_URL, API_KEY,
SITE_URL and RECEIVER_URL set; prints one JSON object."""
import asyncio
import json
import os
import time

from firecrawl import AsyncFirecrawl, Firecrawl
from firecrawl.v2.types import AgentExchangeOptions, AgentWebhookConfig, AuditMetadata, ThreatProtectionOptions

api_url, api_key, site = os.environ["API_URL"], os.environ["API_KEY"], os.environ["SITE_URL"]
client = Firecrawl(api_key=api_key, api_url=api_url)
schema = {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}


def wait(job_id):
    while True:
        status = client.get_agent_status(job_id)
        if status.status != "processing":
            return status
        time.sleep(0.3)


done = client.agent(
    urls=[site + "/widgets"],
    prompt="[agent:quick] Name the widget page",
    schema=schema,
    integration="pytest",
    poll_interval=1,
    max_credits=50,
    strict_constrain_to_urls=True,
    model="spark-1-mini",
    effort="low",
    webhook=AgentWebhookConfig(url=os.environ["RECEIVER_URL"], metadata={"sdk": "python"}, events=["started", "completed"]),
    threat_protection=ThreatProtectionOptions(mode="manual-only", blacklist=["*.blocked.example"], blocked_tlds=["zip"]),
    audit_metadata=AuditMetadata(username="bob"),
    mode="extract",
    exchange=AgentExchangeOptions(enabled=False, on_terms_required="skip"),
    location={"country": "DE"},
    zero_data_retention=False,
)
follow = client.start_agent(prompt="[agent:followup] What did you find?", thread_id=done.thread_id, mode="chat")
chat = wait(follow.id)

trace = client.get_agent_trace(done.id, live_view=True)
artifact = next(e for e in trace.events if e.type == "artifact.updated")
snapshot = client.get_agent_snapshot(done.id, artifact.artifact.snapshot_id)
thread = client.get_agent_thread(done.thread_id, include_data=True)
listing = client.list_agents()
older = client.list_agents(before=int(time.time() * 1000) + 1000)

try:
    client.start_agent(prompt="[agent:quick] x", exchange={"enabled": True, "toolkits": ["maps"]})
    refused = None
except Exception as err:  # the SDK's error for a 400
    refused = {"kind": type(err).__name__, "status": getattr(err, "status_code", None), "message": str(err)}

slow = client.start_agent(urls=[site + "/"], prompt="[agent:slowloop] Read slowly forever")
cancelled = client.cancel_agent(slow.id)
after = client.get_agent_status(slow.id)


async def with_async_client():
    # The async client's list_agents and get_agent_thread read `resp.ok`, which httpx responses do not
    # have (firecrawl 4.54): they fail before reading any answer, so they are left out here.
    aclient = AsyncFirecrawl(api_key=api_key, api_url=api_url)
    status = await aclient.get_agent_status(done.id)
    atrace = await aclient.get_agent_trace(follow.id, live_view=True)
    asnapshot = await aclient.get_agent_snapshot(done.id, artifact.artifact.snapshot_id)
    return {
        "status": status.status,
        "trace_types": [e.type for e in atrace.events][-2:],
        "snapshot": json.loads(asnapshot.snapshot),
    }


print(json.dumps({
    "done": {
        "status": done.status, "data": done.data, "model": done.model, "effort": done.effort, "mode": done.mode,
        "thread_turn": done.thread_turn, "credits_used": done.credits_used,
        "exchange": done.exchange.model_dump(by_alias=True, exclude_none=True) if done.exchange else None,
    },
    "chat": {"status": chat.status, "mode": chat.mode, "message": chat.message, "data": chat.data, "thread_turn": chat.thread_turn,
             "same_thread": chat.thread_id == done.thread_id},
    "trace": {"id": trace.id, "types": [e.type for e in trace.events], "credits_used": trace.credits_used,
              "active_browser_sessions": trace.active_browser_sessions},
    "snapshot": {"id": snapshot.id, "matches": snapshot.snapshot_id == artifact.artifact.snapshot_id, "content": json.loads(snapshot.snapshot)},
    "thread": {"status": thread.thread.status, "runs": [[r.turn, r.mode, r.status, r.data, r.message] for r in thread.thread.runs]},
    "listing": {"first": [a.id for a in listing.agents][:2], "first_item": listing.agents[0].model_dump(by_alias=True, exclude_none=True),
                "next": listing.next, "older_count": len(older.agents)},
    "ids": {"done": done.id, "follow": follow.id, "slow": slow.id},
    "refused": refused,
    "cancelled": cancelled,
    "after": {"status": after.status, "error": after.error},
    "async": asyncio.run(with_async_client()),
}))
