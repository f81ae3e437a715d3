"""The official Python SDK (firecrawl 4.x) against our gateway: parse and get_parse_formats.

Run by test/integration/sdk-python-scrape.test.ts with API_URL, API_KEY and PDF_PATH
set; prints one JSON object with what the SDK returned."""
import json
import os

from firecrawl import Firecrawl
from firecrawl.v2.types import ScrapeOptions

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
pdf = client.parse(os.environ["PDF_PATH"], options=ScrapeOptions(formats=["markdown", "html"]))
text = client.parse(b"# Notes\n\nFrom bytes.", filename="notes.md")
try:
    client.parse(b"<svg xmlns='http://www.w3.org/2000/svg'/>", filename="chart.svg")
    refused = None
except Exception as err:  # the SDK raises its own error class for a 4xx
    refused = {"type": type(err).__name__, "message": str(err)}
formats = client.get_parse_formats()
print(json.dumps({
    "pdf_markdown": pdf.markdown,
    "pdf_html": pdf.html,
    "pdf_pages": pdf.metadata.num_pages,
    "pdf_source": pdf.metadata.source_url,
    "text_markdown": text.markdown,
    "text_type": text.metadata.content_type,
    "refused": refused,
    "formats": sorted(f.format for f in formats),
    "pdf_format": next(f.model_dump(by_alias=True) for f in formats if f.format == "pdf"),
}))
