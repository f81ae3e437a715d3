"""The official Python SDK (firecrawl 4.x) against our gateway: the pdf and image parsers.

Run by test/integration/pdf-parsers.test.ts with API_URL, API_KEY, SITE_URL and SCAN_PATH
set. The SDK builds its pydantic Document from every answer, so pages and blocks of the
wrong shape raise here; prints one JSON object with what the SDK returned."""
import json
import os

from firecrawl import Firecrawl
from firecrawl.v2.types import ImageParser, PDFParser, PdfPage, PdfPageBlocks, ScrapeOptions

client = Firecrawl(api_key=os.environ["API_KEY"], api_url=os.environ["API_URL"])
site = os.environ["SITE_URL"]

pdf = client.scrape(
    f"{site}/scanned.pdf",
    formats=["markdown"],
    parsers=[PDFParser(mode="auto", pages=True, blocks=True, page_markers=True)],
)
assert all(isinstance(p, PdfPage) for p in pdf.pages)
assert all(isinstance(b, PdfPageBlocks) for b in pdf.blocks)
spans_match = all(
    pdf.markdown[item.markdown_span[0] : item.markdown_span[1]].endswith(item.content)
    for page in pdf.blocks
    for item in page.items
)

image = client.scrape(f"{site}/scan.png", formats=["markdown"], parsers=[ImageParser(), "pdf"])
with open(os.environ["SCAN_PATH"], "rb") as scan:
    parsed = client.parse(scan.read(), filename="scan.png", options=ScrapeOptions(parsers=["image", {"type": "pdf", "blocks": True}]))
formats = client.get_parse_formats()

print(json.dumps({
    "pdf_pages": [p.page_number for p in pdf.pages],
    "pdf_markers": "\n\n---\n\n<!-- page 2 -->\n\n" in pdf.markdown,
    "pdf_block_types": [[i.type for i in b.items] for b in pdf.blocks],
    "pdf_block_sources": [sorted({i.source for i in b.items}) for b in pdf.blocks],
    "pdf_spans_match": spans_match,
    "image_markdown": image.markdown,
    "parsed_markdown": parsed.markdown,
    "parsed_blocks": len(parsed.blocks[0].items),
    "image_formats": [{"format": f.format, "kind": f.kind, "available": f.available} for f in formats if f.kind == "image"],
}))
