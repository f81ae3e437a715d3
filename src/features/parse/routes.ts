import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { createConversionPool } from '../../page/conversion/conversion-pool.ts';
import { IMAGE_FORMATS, IMAGE_TYPES } from '../../page/ocr/image-format.ts';
import { ocrAvailable } from '../../page/ocr/ocr-engine.ts';
import { UPLOAD_KINDS, UPLOAD_TYPES } from '../../page/upload/upload-kind.ts';
import { readMultipartUpload } from './multipart-upload.ts';
import { parseFile } from './parse-file.ts';
import { createUploadBudget } from './upload-budget.ts';
import type { ParseFeatureSettings } from './config.ts';

export function parseRoutes(deps: GatewayDeps<ParseFeatureSettings>): Router {
  const router = Router();
  // Its threads start with the first upload; an idle pool keeps no process alive.
  const conversion = createConversionPool({
    threads: deps.config.parse.conversionThreads,
    timeoutMs: deps.config.parse.conversionTimeoutMs,
    timeoutSetting: 'PARSE_CONVERSION_TIMEOUT_MS',
  });

  const budget = createUploadBudget(deps.config.parse.maxInflightBytes, deps.config.parse.maxFileBytes);

  router.post('/parse', async (req, res) => {
    const started = Date.now();
    budget.reserve(req, res);
    const upload = await readMultipartUpload(req, deps.config.parse.maxFileBytes);
    const { team, apiKeyId } = authOf(res);
    res.json({ success: true, data: await parseFile({ ...deps, conversion }, team, apiKeyId, upload, started) });
  });

  router.get('/parse/formats', (_req, res) => {
    const documents = UPLOAD_KINDS.filter((kind) => kind !== 'image').map((kind) => ({
      format: kind,
      kind: 'document' as const,
      extensions: UPLOAD_TYPES[kind].extensions.map((e) => `.${e}`),
      mimeTypes: UPLOAD_TYPES[kind].mimeTypes,
      available: true,
    }));
    // Images are read by OCR: available where its engine is installed.
    const ocr = ocrAvailable(deps.config.ocr);
    const images = IMAGE_FORMATS.map((format) => ({
      format,
      kind: 'image' as const,
      extensions: IMAGE_TYPES[format].extensions.map((e) => `.${e}`),
      mimeTypes: IMAGE_TYPES[format].mimeTypes,
      available: ocr,
    }));
    res.json({ success: true, data: { formats: [...documents, ...images] } });
  });

  return router;
}
