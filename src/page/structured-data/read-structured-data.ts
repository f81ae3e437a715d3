// Reads a parsed page's schema.org data, every syntax against one budget
// (structured-data-budget.ts). Runs where the page is converted (a conversion
// thread), on the tree before it is cleaned.
import { documentBaseUrl } from '../links.ts';
import { readJsonLd } from './json-ld.ts';
import { hasMicrodata, readMicrodata } from './microdata.ts';
import { StructuredDataBudget } from './structured-data-budget.ts';
import type { ThingGraph } from './things.ts';

export interface StructuredData {
  jsonLd: ThingGraph;
  /** Microdata and RDFa Lite. */
  microdata: ThingGraph;
  /** Why some of it was not read (for the document's warning). */
  skipped: string[];
}

function isJsonLd(script: Element): boolean {
  return (script.getAttribute('type') ?? '').split(';')[0]!.trim().toLowerCase() === 'application/ld+json';
}

export function readStructuredData(document: Document, pageUrl: string): StructuredData {
  const budget = new StructuredDataBudget();
  const scripts = [...document.querySelectorAll('script[type]')].filter(isJsonLd).map((s) => s.textContent ?? '');
  const jsonLd = readJsonLd(scripts, budget);
  const microdata = hasMicrodata(document)
    ? readMicrodata(document.documentElement, documentBaseUrl(document, pageUrl), budget)
    : { roots: [], byId: new Map() };
  return { jsonLd, microdata, skipped: [...budget.skipped] };
}
