// The conversion's part of the profile formats (product, menu: a format module
// with `profile`): the page's schema.org data read once, into each one's draft,
// on the parsed tree before it is cleaned. The drafts are plain data, copied
// out of the conversion thread.
import type { Requested } from '../formats/registry.ts';
import { readStructuredData } from '../structured-data/read-structured-data.ts';

/** Per profile format asked for, its draft (absent when the page's data states none); why some of the data was not read. */
export type ProfileDrafts = { skipped: string[] } & Record<string, unknown>;

/** Drafts of the profile formats asked for; undefined when none is. */
export function profileDrafts(parsed: Document, requested: readonly Requested[], pageUrl: string): ProfileDrafts | undefined {
  const profiles = requested.filter(({ module }) => module.profile);
  if (profiles.length === 0) return undefined;
  const data = readStructuredData(parsed, pageUrl);
  const drafts: Record<string, unknown> = {};
  for (const { module } of profiles) {
    const draft = module.profile!.draft(data, pageUrl);
    if (draft) drafts[module.type] = draft;
  }
  return { ...drafts, skipped: data.skipped };
}
