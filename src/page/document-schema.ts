// The page document the API hands out (scrape, crawl and batch status, search
// results): the one source of its TypeScript type and of its OpenAPI schema.
import { z } from 'zod';
import { brandingProfileSchema } from './branding/branding-profile.ts';
import { menuProfileSchema } from './menu/menu-profile.ts';
import { productProfileSchema } from './product/product-profile.ts';

// Loose: a page's own <meta> tags are copied in under their names.
export const pageMetadataSchema = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  keywords: z.string().optional(),
  ogLocaleAlternate: z.array(z.string()).optional(),
  sourceURL: z.string().describe('The URL as requested.'),
  url: z.string().describe('The URL after redirects.'),
  statusCode: z.number().int(),
  error: z.string().optional().describe('Why the page failed, when it did.'),
  contentType: z.string().optional(),
  concurrencyLimited: z.boolean().optional().describe('Whether the page waited for a slot of the team’s concurrency.'),
  concurrencyQueueDurationMs: z.number().optional(),
  numPages: z.number().int().optional().describe('Pages of a PDF (1 for an image read by OCR).'),
  scrapeId: z.string().optional().describe('The scrape job’s id (single scrapes).'),
});
export type PageMetadata = z.infer<typeof pageMetadataSchema>;

const diffChangeSchema = z.object({
  type: z.enum(['normal', 'add', 'del']),
  normal: z.literal(true).optional(),
  add: z.literal(true).optional(),
  del: z.literal(true).optional(),
  ln: z.number().int().optional().describe('The line number of an added (current) or removed (previous) line.'),
  ln1: z.number().int().optional().describe('The line number of an unchanged line in the previous version.'),
  ln2: z.number().int().optional().describe('The line number of an unchanged line in the current version.'),
  content: z.string().describe('The line with its diff mark: " ", "+" or "-".'),
});

export const changeTrackingSchema = z
  .object({
    previousScrapeAt: z.string().nullable().describe('When the snapshot compared against was taken; null when there was none.'),
    changeStatus: z.enum(['new', 'same', 'changed', 'removed']).describe('"removed" comes from monitors only, never from a scrape or crawl.'),
    visibility: z.enum(['visible', 'hidden']),
    diff: z
      .object({
        text: z.string().describe('A unified diff of the markdown, previous to current.'),
        json: z.object({
          files: z.array(
            z.object({
              from: z.string().nullable(),
              to: z.string().nullable(),
              additions: z.number().int().optional(),
              deletions: z.number().int().optional(),
              chunks: z.array(
                z.object({
                  content: z.string().describe('The hunk header, "@@ -a,b +c,d @@".'),
                  oldStart: z.number().int().optional(),
                  oldLines: z.number().int().optional(),
                  newStart: z.number().int().optional(),
                  newLines: z.number().int().optional(),
                  changes: z.array(diffChangeSchema),
                }),
              ),
            }),
          ),
        }),
      })
      .optional()
      .describe('git-diff mode, when the page changed.'),
    json: z
      .record(z.string(), z.object({ previous: z.unknown(), current: z.unknown() }))
      .optional()
      .describe('json mode, when the page changed: the extracted fields whose values differ.'),
  })
  .describe('The page against the team’s previous snapshot of the same URL and tag (docs/api/change-tracking.md).');
export type ChangeTracking = z.infer<typeof changeTrackingSchema>;

export const PDF_PAGE_STATUSES = ['ok', 'empty', 'ocr-skipped', 'ocr-failed'] as const;

export const pdfPageSchema = z.object({
  pageNumber: z.number().int().describe('1-based physical page.'),
  markdown: z.string().describe('The page’s own markdown (no page marker); empty for a page with no text.'),
});
export type PdfPage = z.infer<typeof pdfPageSchema>;

export const pdfBlockItemSchema = z.object({
  id: z.string().describe('"p<page>-b<readingOrder>".'),
  type: z.enum(['heading', 'paragraph', 'list_item']),
  label: z.string().nullable().describe('h1, h2 or h3 for a heading, ordered or bullet for a list item, null for a paragraph.'),
  bbox: z
    .tuple([z.number(), z.number(), z.number(), z.number()])
    .nullable()
    .describe('[left, top, right, bottom] in the page’s units (PDF points, image pixels), y down from the top edge.'),
  content: z.string().describe('The block’s text, without markdown.'),
  markdownSpan: z
    .tuple([z.number().int(), z.number().int()])
    .nullable()
    .describe('[start, end) of the block in the document’s markdown, in UTF-16 code units (JavaScript string indices).'),
  readingOrder: z.number().int().describe('0-based position on the page.'),
  source: z.enum(['text-layer', 'ocr']).nullable(),
  confidence: z.object({
    layout: z.number().nullable().describe('Always null: blocks come from fixed rules, not a layout model.'),
    ocr: z.number().nullable().describe('OCR blocks: the mean word confidence of tesseract, 0..1; null for the text layer.'),
  }),
});
export type PdfBlockItem = z.infer<typeof pdfBlockItemSchema>;

export const pdfPageBlocksSchema = z.object({
  pageNumber: z.number().int(),
  width: z.number().nullable().describe('Page width: points (1/72 in) for a PDF page, pixels for an image.'),
  height: z.number().nullable(),
  status: z
    .enum(PDF_PAGE_STATUSES)
    .describe(
      'ok: text read; empty: no text on the page; ocr-skipped: the page needed OCR and a limit or a missing OCR engine left it out; ocr-failed: its OCR failed (the document’s warning says why). A page without OCR keeps what its text layer had.',
    ),
  items: z.array(pdfBlockItemSchema),
});
export type PdfPageBlocks = z.infer<typeof pdfPageBlocksSchema>;
export type PdfPageStatus = PdfPageBlocks['status'];

export const pageDocumentSchema = z.object({
  markdown: z.string().optional(),
  html: z.string().optional(),
  rawHtml: z.string().optional(),
  links: z.array(z.string()).optional(),
  images: z
    .array(z.string())
    .optional()
    .describe(
      'Every http(s) image URL the page names (img src, data-src and srcset, picture sources, video posters, icons, og:image), absolute, each once; at most 1000.',
    ),
  attributes: z
    .array(z.object({ selector: z.string(), attribute: z.string(), values: z.array(z.string()) }))
    .optional()
    .describe('Per selector of the attributes format, the attribute’s values on the matching elements, in document order; at most 1000 per selector.'),
  branding: brandingProfileSchema
    .optional()
    .describe('Colors, fonts, typography, logo and icons read from the rendered page (no model: brand names and descriptions are never filled).'),
  summary: z.string().optional(),
  screenshot: z.string().optional().describe('A data: URL of a PNG.'),
  changeTracking: changeTrackingSchema.optional(),
  json: z.unknown().optional().describe('The json format: what the model extracted, valid under the request’s schema when it gave one.'),
  extract: z
    .unknown()
    .optional()
    .describe('The same result under the name of the /v1 API’s `extract` format: only in documents of jobs started through /v1 with that format.'),
  answer: z
    .string()
    .optional()
    .describe('The question format, or the query format: the model’s answer from the page (directQuote: passages of the page, one per line).'),
  highlights: z.string().optional().describe('The highlights format: passages of the page relevant to the query, one per line.'),
  product: productProfileSchema
    .optional()
    .describe('The product format: the page’s product from its schema.org data, a model filling what it leaves out (docs/api/product-menu.md).'),
  menu: menuProfileSchema
    .optional()
    .describe('The menu format: the page’s menu from its schema.org data, a model filling what it leaves out (docs/api/product-menu.md).'),
  warning: z
    .string()
    .optional()
    .describe(
      'What the service could not do as asked for this page (an LLM summary that fell back to the extractive one, a model format the model failed, a branding profile the page gave no styles for, a product or menu the page does not have or states only in part).',
    ),
  pages: z.array(pdfPageSchema).optional().describe('PDFs and images read with the pdf parser’s `pages` option: every page read, in order.'),
  blocks: z.array(pdfPageBlocksSchema).optional().describe('PDFs and images read with the pdf parser’s `blocks` option: layout blocks per page read.'),
  metadata: pageMetadataSchema,
});
export type PageDocument = z.infer<typeof pageDocumentSchema>;
