// How a scrape's `location` ({country, languages}) looks to a site: the browser
// locale (navigator.language, Intl), the time zone and the languages of the
// Accept-Language header. Pure functions, so the tables are testable without a browser.
import type { ScrapeLocation } from './scrape-options.ts';

/** Locale and IANA time zone of common countries (the capital's zone where there are several). */
const COUNTRIES: Record<string, [locale: string, timezone: string]> = {
  US: ['en-US', 'America/New_York'],
  CA: ['en-CA', 'America/Toronto'],
  MX: ['es-MX', 'America/Mexico_City'],
  BR: ['pt-BR', 'America/Sao_Paulo'],
  AR: ['es-AR', 'America/Argentina/Buenos_Aires'],
  CL: ['es-CL', 'America/Santiago'],
  CO: ['es-CO', 'America/Bogota'],
  GB: ['en-GB', 'Europe/London'],
  IE: ['en-IE', 'Europe/Dublin'],
  DE: ['de-DE', 'Europe/Berlin'],
  AT: ['de-AT', 'Europe/Vienna'],
  CH: ['de-CH', 'Europe/Zurich'],
  FR: ['fr-FR', 'Europe/Paris'],
  BE: ['nl-BE', 'Europe/Brussels'],
  NL: ['nl-NL', 'Europe/Amsterdam'],
  ES: ['es-ES', 'Europe/Madrid'],
  PT: ['pt-PT', 'Europe/Lisbon'],
  IT: ['it-IT', 'Europe/Rome'],
  PL: ['pl-PL', 'Europe/Warsaw'],
  CZ: ['cs-CZ', 'Europe/Prague'],
  SE: ['sv-SE', 'Europe/Stockholm'],
  NO: ['nb-NO', 'Europe/Oslo'],
  DK: ['da-DK', 'Europe/Copenhagen'],
  FI: ['fi-FI', 'Europe/Helsinki'],
  GR: ['el-GR', 'Europe/Athens'],
  RO: ['ro-RO', 'Europe/Bucharest'],
  HU: ['hu-HU', 'Europe/Budapest'],
  UA: ['uk-UA', 'Europe/Kyiv'],
  RU: ['ru-RU', 'Europe/Moscow'],
  TR: ['tr-TR', 'Europe/Istanbul'],
  IL: ['he-IL', 'Asia/Jerusalem'],
  AE: ['ar-AE', 'Asia/Dubai'],
  SA: ['ar-SA', 'Asia/Riyadh'],
  EG: ['ar-EG', 'Africa/Cairo'],
  ZA: ['en-ZA', 'Africa/Johannesburg'],
  NG: ['en-NG', 'Africa/Lagos'],
  KE: ['en-KE', 'Africa/Nairobi'],
  IN: ['en-IN', 'Asia/Kolkata'],
  PK: ['en-PK', 'Asia/Karachi'],
  CN: ['zh-CN', 'Asia/Shanghai'],
  HK: ['zh-HK', 'Asia/Hong_Kong'],
  TW: ['zh-TW', 'Asia/Taipei'],
  JP: ['ja-JP', 'Asia/Tokyo'],
  KR: ['ko-KR', 'Asia/Seoul'],
  SG: ['en-SG', 'Asia/Singapore'],
  MY: ['ms-MY', 'Asia/Kuala_Lumpur'],
  ID: ['id-ID', 'Asia/Jakarta'],
  TH: ['th-TH', 'Asia/Bangkok'],
  VN: ['vi-VN', 'Asia/Ho_Chi_Minh'],
  PH: ['en-PH', 'Asia/Manila'],
  AU: ['en-AU', 'Australia/Sydney'],
  NZ: ['en-NZ', 'Pacific/Auckland'],
};

export interface LocationSettings {
  locale: string;
  timezoneId: string;
  /** Preferred languages, most preferred first; Chromium adds the q-values. */
  languages: string[];
}

/** A syntactically valid BCP 47 tag in canonical form, or undefined: Chromium refuses a bad locale for the whole browser. */
function canonicalLanguage(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0];
  } catch {
    return undefined;
  }
}

export function locationSettings(location: ScrapeLocation): LocationSettings {
  const country = location.country.toUpperCase();
  const known = COUNTRIES[country];
  const languages = (location.languages ?? []).map(canonicalLanguage).filter((l): l is string => l !== undefined);
  const locale = languages[0] ?? known?.[0] ?? `en-${country}`;
  return {
    locale,
    timezoneId: known?.[1] ?? 'UTC',
    languages: languages.length > 0 ? [...new Set(languages)] : [locale],
  };
}

/**
 * The language tags of an Accept-Language header value. Clients list them most preferred first, and
 * Chromium re-adds q-values by position, so the q-values themselves are dropped.
 */
export function languagesOfHeader(value: string): string[] {
  return value
    .split(',')
    .map((part) => canonicalLanguage(part.split(';')[0] ?? ''))
    .filter((l): l is string => l !== undefined);
}
