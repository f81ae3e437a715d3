// The srcset attribute of <img> and <source>: every candidate image URL with its descriptor.

export interface SrcsetCandidate {
  url: string;
  size: number;
  isDensity: boolean;
}

// Follows the HTML srcset grammar: a URL is a run of non-whitespace (data: URLs contain commas),
// a URL ending in commas has no descriptor, otherwise the descriptor runs to the next comma.
export function parseSrcset(srcset: string): SrcsetCandidate[] {
  const candidates: SrcsetCandidate[] = [];
  const urlPattern = /[\s,]*(\S+)/y;
  const descriptorPattern = /([^,]*),?/y;
  while (urlPattern.lastIndex < srcset.length) {
    const urlMatch = urlPattern.exec(srcset);
    if (!urlMatch) break;
    let url = urlMatch[1];
    let descriptor = '';
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '');
    } else {
      descriptorPattern.lastIndex = urlPattern.lastIndex;
      descriptor = descriptorPattern.exec(srcset)?.[1].trim() ?? '';
      urlPattern.lastIndex = descriptorPattern.lastIndex;
    }
    const size = /^(\d+(?:\.\d+)?)([wx])$/i.exec(descriptor);
    candidates.push({ url, size: size ? Number(size[1]) : 1, isDensity: !size || size[2].toLowerCase() === 'x' });
  }
  return candidates;
}
