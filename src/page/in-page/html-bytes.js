// UTF-8 size of the document's HTML (src/page/capture.ts), measured in the page so that an
// oversized DOM never crosses into the worker. A UTF-16 code unit is at most 3 UTF-8 bytes:
// only a document that may be over `max` is measured exactly.
function htmlBytes(max) {
  const html = document.documentElement?.outerHTML ?? '';
  return html.length * 3 <= max ? html.length : new Blob([html]).size;
}
