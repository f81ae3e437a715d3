"""The official Python SDK (firecrawl 4.x) against our gateway: agent() waits for an answer with a
schema, start_agent / get_agent_status / cancel_agent on a run that keeps going. Run by
test/integration/agent.test.ts with API_URL, API_KEY and SITE_URL set; prints one JSON object."""
import json
import os
import time

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]
schema = {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}}
done = client.agent(urls=[site + "/widgets"], prompt="[agent:quick] Name the widget page", schema=schema, poll_interval=1)
started = client.start_agent(urls=[site + "/"], prompt="[agent:slowloop] Read slowly forever")
first = client.get_agent_status(started.id)
time.sleep(1)
cancelled = client.cancel_agent(started.id)
after = client.get_agent_status(started.id)

print(json.dumps({
    "done": {"status": done.status, "data": done.data, "credits_used": done.credits_used, "model": done.model},
    "first": first.status,
    "cancelled": cancelled,
    "after": {"status": after.status, "error": after.error},
}))
