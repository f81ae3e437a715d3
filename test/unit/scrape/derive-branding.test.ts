import { describe, expect, it } from 'vitest';
import { deriveBranding, hex, luminance, parseCssColor } from '../../../src/page/branding/derive-branding.ts';
import { brandingSampleSchema, type BrandingSample, type StyledElement } from '../../../src/page/branding/branding-sample.ts';

const el = (kind: StyledElement['kind'], overrides: Partial<StyledElement> = {}): StyledElement => ({
  kind,
  color: 'rgb(17, 24, 39)',
  background: 'rgba(0, 0, 0, 0)',
  borderColor: 'rgb(17, 24, 39)',
  borderRadius: '0px',
  fontFamily: 'Inter, "Helvetica Neue", sans-serif',
  fontSize: '16px',
  fontWeight: '400',
  lineHeight: '24px',
  weight: 100,
  ...overrides,
});

function sample(overrides: Partial<BrandingSample> = {}): BrandingSample {
  return {
    root: {
      htmlBackground: 'rgba(0, 0, 0, 0)',
      bodyBackground: 'rgb(255, 255, 255)',
      color: 'rgb(17, 24, 39)',
      fontFamily: 'Inter, sans-serif',
      fontSize: '16px',
    },
    elements: [
      el('h1', { fontFamily: '"Playfair Display", serif', fontSize: '48px', fontWeight: '700', lineHeight: '57.6px', color: 'rgb(255, 90, 31)', weight: 20 }),
      el('h2', { fontFamily: '"Playfair Display", serif', fontSize: '32px', fontWeight: '700', lineHeight: '38.4px', weight: 15 }),
      el('h2', { fontFamily: '"Playfair Display", serif', fontSize: '32px', fontWeight: '700', lineHeight: '38.4px', weight: 12 }),
      el('h3', { fontFamily: '"Playfair Display", serif', fontSize: '24px', fontWeight: '600', weight: 10 }),
      el('header', { background: 'rgb(255, 255, 255)', weight: 100_000 }),
      el('button', { background: 'rgb(255, 90, 31)', color: 'rgb(255, 255, 255)', borderColor: 'rgb(255, 90, 31)', borderRadius: '8px', weight: 6000 }),
      el('button', { background: 'rgb(255, 90, 31)', color: 'rgb(255, 255, 255)', borderColor: 'rgb(255, 90, 31)', borderRadius: '8px', weight: 5000 }),
      el('button', { background: 'rgb(255, 255, 255)', color: 'rgb(37, 99, 235)', borderColor: 'rgb(37, 99, 235)', borderRadius: '8px', weight: 4000 }),
      el('input', { borderColor: 'rgb(209, 213, 219)', borderRadius: '4px', weight: 3000 }),
      el('link', { color: 'rgb(37, 99, 235)', weight: 10 }),
      el('link', { color: 'rgb(37, 99, 235)', weight: 10 }),
      el('code', { fontFamily: '"JetBrains Mono", monospace', fontSize: '14px', weight: 40 }),
      el('text', { weight: 400 }),
      el('text', { weight: 300 }),
      el('text', { color: 'rgb(107, 114, 128)', fontSize: '14px', lineHeight: '20px', weight: 50 }),
    ],
    logos: [
      { src: 'https://brand.example/hero.png', inHeader: false, named: false, area: 500_000 },
      { src: 'https://brand.example/logo.svg', inHeader: true, named: true, area: 4000 },
    ],
    icons: [
      { href: 'https://brand.example/apple-touch.png', rel: 'apple-touch-icon', sizes: '180x180' },
      { href: 'https://brand.example/favicon.png', rel: 'icon', sizes: '' },
    ],
    ogImage: 'https://brand.example/og.png',
    ...overrides,
  };
}

describe('colour helpers', () => {
  it('reads rgb() and rgba() in both notations and refuses what is mostly transparent or another notation', () => {
    expect(parseCssColor('rgb(255, 90, 31)')).toEqual({ r: 255, g: 90, b: 31 });
    expect(parseCssColor('rgba(1, 2, 3, 0.75)')).toEqual({ r: 1, g: 2, b: 3 });
    expect(parseCssColor('rgb(1 2 3 / 80%)')).toEqual({ r: 1, g: 2, b: 3 });
    expect(parseCssColor('rgba(0, 0, 0, 0)')).toBeUndefined();
    expect(parseCssColor('rgb(1 2 3 / 20%)')).toBeUndefined();
    expect(parseCssColor('oklch(0.7 0.1 30)')).toBeUndefined();
    expect(parseCssColor('transparent')).toBeUndefined();
  });

  it('writes #RRGGBB and measures luminance', () => {
    expect(hex({ r: 255, g: 90, b: 31 })).toBe('#FF5A1F');
    expect(luminance({ r: 255, g: 255, b: 255 })).toBeCloseTo(1);
    expect(luminance({ r: 0, g: 0, b: 0 })).toBe(0);
  });
});

describe('deriveBranding', () => {
  it('derives the whole profile from a light page', () => {
    expect(deriveBranding(sample())).toEqual({
      colorScheme: 'light',
      logo: 'https://brand.example/logo.svg',
      fonts: [{ family: 'Inter' }, { family: 'Playfair Display' }],
      colors: {
        primary: '#FF5A1F',
        accent: '#2563EB',
        background: '#FFFFFF',
        textPrimary: '#111827',
        textSecondary: '#6B7280',
        link: '#2563EB',
      },
      typography: {
        fontFamilies: { primary: 'Inter', heading: 'Playfair Display', code: 'JetBrains Mono' },
        fontStacks: { primary: ['Inter', 'Helvetica Neue', 'sans-serif'], heading: ['Playfair Display', 'serif'] },
        fontSizes: { h1: '48px', h2: '32px', h3: '24px', body: '16px' },
        lineHeights: { heading: 1.2, body: 1.5 },
        fontWeights: { regular: 400, bold: 700 },
      },
      spacing: { borderRadius: '8px' },
      components: {
        buttonPrimary: { background: '#FF5A1F', textColor: '#FFFFFF', borderColor: '#FF5A1F', borderRadius: '8px' },
        buttonSecondary: { background: '#FFFFFF', textColor: '#2563EB', borderColor: '#2563EB', borderRadius: '8px' },
        input: { borderColor: '#D1D5DB', borderRadius: '4px' },
      },
      images: { logo: 'https://brand.example/logo.svg', favicon: 'https://brand.example/favicon.png', ogImage: 'https://brand.example/og.png' },
    });
  });

  it('fills no model-written field', () => {
    const profile = deriveBranding(sample()) as Record<string, unknown>;
    expect(profile.brandName).toBeUndefined();
    expect(profile.tone).toBeUndefined();
  });

  it('calls a page with a dark background dark, and never takes the background for the primary colour', () => {
    const dark = sample({
      root: { htmlBackground: 'rgb(10, 10, 30)', bodyBackground: 'rgba(0, 0, 0, 0)', color: 'rgb(230, 230, 230)', fontFamily: 'Inter', fontSize: '16px' },
      elements: [
        el('header', { background: 'rgb(10, 10, 30)', weight: 1e6 }),
        el('button', { background: 'rgb(10, 10, 30)', weight: 1e6 }),
        el('link', { color: 'rgb(250, 204, 21)' }),
      ],
    });
    const profile = deriveBranding(dark);
    expect(profile.colorScheme).toBe('dark');
    expect(profile.colors?.background).toBe('#0A0A1E');
    expect(profile.colors?.primary).toBe('#FACC15');
  });

  it('takes white for the background when neither body nor root paints one', () => {
    const bare = sample({
      root: { htmlBackground: 'rgba(0, 0, 0, 0)', bodyBackground: 'rgba(0, 0, 0, 0)', color: 'rgb(0, 0, 0)', fontFamily: 'serif', fontSize: '16px' },
    });
    expect(deriveBranding(bare)).toMatchObject({ colorScheme: 'light', colors: { background: '#FFFFFF' } });
  });

  it('falls back to the og:image for the logo, and to apple-touch-icon for the favicon', () => {
    const noLogo = sample({
      logos: [{ src: 'https://brand.example/hero.png', inHeader: false, named: false, area: 500_000 }],
      icons: [{ href: 'https://brand.example/apple-touch.png', rel: 'apple-touch-icon', sizes: '180x180' }],
    });
    expect(deriveBranding(noLogo)).toMatchObject({
      logo: 'https://brand.example/og.png',
      images: { logo: 'https://brand.example/og.png', favicon: 'https://brand.example/apple-touch.png', ogImage: 'https://brand.example/og.png' },
    });
    expect(deriveBranding(sample({ logos: [], icons: [], ogImage: '' }))).toMatchObject({ logo: null, images: { logo: null, favicon: null, ogImage: null } });
  });

  it('prefers a logo named so over one merely in the header, and ignores non-web sources', () => {
    const logos = [
      { src: 'javascript:alert(1)', inHeader: true, named: true, area: 10 },
      { src: 'https://brand.example/avatar.png', inHeader: true, named: false, area: 10 },
      { src: 'data:image/svg+xml,%3Csvg%3E%3C%2Fsvg%3E', inHeader: false, named: true, area: 10 },
    ];
    expect(deriveBranding(sample({ logos })).logo).toBe('data:image/svg+xml,%3Csvg%3E%3C%2Fsvg%3E');
  });

  it('gives an empty page only what it can know', () => {
    const empty = sample({ elements: [], logos: [], icons: [], ogImage: '' });
    const profile = deriveBranding(empty);
    expect(profile.colors).toEqual({ background: '#FFFFFF', textPrimary: '#111827' });
    expect(profile.components).toBeUndefined();
    expect(profile.fonts).toEqual([{ family: 'Inter' }]);
  });

  it('is deterministic: the same sample, the same profile', () => {
    expect(JSON.stringify(deriveBranding(sample()))).toBe(JSON.stringify(deriveBranding(sample())));
  });
});

describe('brandingSampleSchema', () => {
  it('accepts what the page read gives and refuses what a hostile page could send instead', () => {
    expect(brandingSampleSchema.safeParse(sample()).success).toBe(true);
    expect(brandingSampleSchema.safeParse({ ...sample(), elements: Array.from({ length: 401 }, () => el('text')) }).success).toBe(false);
    expect(brandingSampleSchema.safeParse({ ...sample(), root: null }).success).toBe(false);
    expect(brandingSampleSchema.safeParse({ ...sample(), elements: [{ ...el('text'), weight: Infinity }] }).success).toBe(false);
    expect(brandingSampleSchema.safeParse('x').success).toBe(false);
  });
});
