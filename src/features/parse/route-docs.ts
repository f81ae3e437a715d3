// The contract of POST /v2/parse (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { pageDocumentSchema } from '../../page/document-schema.ts';

export const parseUploadSchema = z.object({
  file: z
    .string()
    .meta({ format: 'binary' })
    .describe(
      'The file: PDF, HTML, DOCX, plain text, markdown or (with the image parser) an image read by OCR, at most PARSE_MAX_FILE_BYTES (50 MB by default).',
    ),
  options: z
    .string()
    .optional()
    .describe(
      'JSON text of the parse options: formats (not screenshot, changeTracking or branding), onlyMainContent, includeTags, excludeTags, removeBase64Images, parsers, timeout, zeroDataRetention; see docs/api/parse.md.',
    ),
});

export const parseFormatsSchema = z.object({
  success: z.literal(true),
  data: z.object({
    formats: z.array(
      z.object({
        format: z.string().describe('Documents: pdf, html, docx, text, markdown; images (read by OCR): png, jpeg, jpeg2000, tiff, gif, bmp, webp, avif.'),
        kind: z.enum(['document', 'image']),
        extensions: z.array(z.string()).describe('File name extensions, with their dot.'),
        mimeTypes: z.array(z.string()),
        available: z.boolean().describe('Images: whether this server has its OCR engine (tesseract).'),
      }),
    ),
  }),
});

export const parseRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/parse',
    operationId: 'parse',
    summary: 'Convert an uploaded file into a document',
    description:
      'A multipart upload (a `file` part and an optional `options` part) converted into the document a scrape gives; images are read by OCR (docs/api/parsers.md). 413 FILE_TOO_LARGE past PARSE_MAX_FILE_BYTES, 415 UNSUPPORTED_MEDIA_TYPE for other file types, 422 UNREADABLE_FILE for a file its parser cannot read.',
    tag: 'parse',
    body: parseUploadSchema,
    bodyMediaType: 'multipart/form-data',
    responses: { 200: z.object({ success: z.literal(true), data: pageDocumentSchema }) },
    errors: [402, 403, 408, 422],
  },
  {
    method: 'get',
    path: '/v2/parse/formats',
    operationId: 'getParseFormats',
    summary: 'The file types POST /v2/parse converts',
    tag: 'parse',
    responses: { 200: parseFormatsSchema },
  },
];
