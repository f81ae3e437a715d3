// What a page's formats add to its credits (platform/usage/credits.ts adds the
// rest): each format's answerCredits when a model answered for it, and at most
// its mostCredits, which estimates count.
import { formatModule, type ScrapeFormat } from './registry.ts';

/** Credits the formats a model answered for (their types, once per answer) add to a page. */
export function answeredCredits(types: readonly string[]): number {
  return types.reduce((sum, type) => sum + (formatModule(type).answerCredits ?? 0), 0);
}

/** Most credits a request's formats add to a page. */
export function mostFormatCredits(formats: readonly ScrapeFormat[]): number {
  return formats.reduce((sum, format) => {
    const module = formatModule(format.type);
    return sum + (module.mostCredits?.(format) ?? module.answerCredits ?? 0);
  }, 0);
}
