"""The official Python SDK (firecrawl 4.x) against our gateway: the team usage calls.

Run by test/integration/team-usage.test.ts with API_URL and API_KEY set; prints one JSON
object with what the SDK returned (its pydantic models validate the answers' types)."""
import json
import os

from firecrawl import Firecrawl

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
credits = client.get_credit_usage()
tokens = client.get_token_usage()
# The historical calls are on the v2 client (the top-level class does not forward them).
credit_history = client.v2.get_credit_usage_historical(by_api_key=True)
token_history = client.v2.get_token_usage_historical()
queue = client.get_queue_status()
concurrency = client.get_concurrency()
print(json.dumps({
    "remaining_credits": credits.remaining_credits,
    "billing_period_start": credits.billing_period_start,
    "remaining_tokens": tokens.remaining_tokens,
    "credit_periods": [[p.startDate, p.apiKey, p.creditsUsed] for p in credit_history.periods],
    "token_periods": [[p.startDate, p.tokensUsed] for p in token_history.periods],
    "queue": [queue.jobs_in_queue, queue.active_jobs_in_queue, queue.waiting_jobs_in_queue, queue.max_concurrency],
    "most_recent_success": queue.most_recent_success.isoformat() if queue.most_recent_success else None,
    "concurrency": [concurrency.concurrency, concurrency.max_concurrency],
}))
