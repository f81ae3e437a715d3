import { Router } from 'express';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { authOf } from '../../platform/http/auth.ts';
import { createConversionPool } from '../../page/conversion/conversion-pool.ts';
import { UPLOAD_KINDS, UPLOAD_TYPES } from '../../page/upload/upload-kind.ts';
import { readMultipartUpload } from './multipart-upload.ts';
import { parseFile } from './parse-file.ts';
import { createUploadBudget } from './upload-budget.ts';

export function parseRoutes(deps: GatewayDeps): Router {
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
    const formats = UPLOAD_KINDS.map((kind) => ({
      format: kind,
      kind: 'document' as const,
      extensions: UPLOAD_TYPES[kind].extensions.map((e) => `.${e}`),
      mimeTypes: UPLOAD_TYPES[kind].mimeTypes,
      available: true,
    }));
    res.json({ success: true, data: { formats } });
  });

  return router;
}
