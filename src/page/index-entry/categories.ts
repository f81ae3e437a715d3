// The categories of the spec, by documented rules on the page's host and type:
// github = github.com and its subdomains (repositories, code, issues, gists, docs
// on github.io are not GitHub's own); research = the academic hosts upstream lists
// and their subdomains; pdf = a PDF by content type or extension.
/** The search categories a page can belong to (the spec's `categories`). */
export type SearchCategory = 'github' | 'research' | 'pdf';

export const GITHUB_HOSTS = ['github.com', 'githubusercontent.com'];
export const RESEARCH_HOSTS = [
  'arxiv.org',
  'scholar.google.com',
  'pubmed.ncbi.nlm.nih.gov',
  'researchgate.net',
  'nature.com',
  'science.org',
  'ieee.org',
  'acm.org',
  'springer.com',
  'wiley.com',
  'sciencedirect.com',
  'plos.org',
  'biorxiv.org',
  'medrxiv.org',
];

export const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

export function categoryOf(host: string, ext: string | null, contentType: string | undefined): SearchCategory | null {
  if (GITHUB_HOSTS.some((d) => within(host, d))) return 'github';
  if (RESEARCH_HOSTS.some((d) => within(host, d))) return 'research';
  if (ext === 'pdf' || /^application\/pdf\b/i.test(contentType ?? '')) return 'pdf';
  return null;
}
