// Conversions in tests that expect a document: a page sent to the browser instead fails the test.
import type { HtmlConversion, HtmlOutcome } from '../../src/page/conversion/html-conversion.ts';

export function converted(outcome: HtmlOutcome): HtmlConversion {
  if ('needsBrowser' in outcome) throw new Error(`expected a document, but the page needs the browser: ${outcome.needsBrowser}`);
  return outcome;
}
