// POST /v2/parse: an uploaded file turned into the document a scrape of it would
// give. It runs in the gateway, as a scrape's wait does, under one slot of the
// team's concurrency limit; the CPU work (PDF, DOCX, HTML) runs in conversion
// threads, model formats through the job model. Nothing of the file is stored:
// the usage ledger gets a row of credits and tokens, the answer gets the document.
import { v7 as uuidv7 } from 'uuid';
import type { Team } from '../../generated/prisma/client.ts';
import type { GatewayDeps } from '../../platform/http/app.ts';
import { HttpError } from '../../platform/http/http-error.ts';
import { withTeamSlot } from '../../platform/teams/hold-team-slot.ts';
import { chargeOnce, insufficientCredits, pageCredits } from '../../platform/usage/credits.ts';
import { answeredCredits } from '../../page/formats/format-costs.ts';
import { checkSelectors, checkTeamPermissions } from '../../jobs/commit-job.ts';
import { checkModelFormats, jobModel } from '../../jobs/job-model.ts';
import type { ConversionPool } from '../../page/conversion/conversion-pool.ts';
import type { PageDocument } from '../../page/document-schema.ts';
import { documentFromLoad } from '../../page/page-document.ts';
import { RedactionError } from '../../page/redaction/redact-document.ts';
import { DomainError } from '../../platform/domain-error.ts';
import { defaultScrapeOptions, parsesImages, pdfParser, type ScrapeOptions } from '../../page/scrape-options.ts';
import { SUPPORTED_UPLOADS, uploadKind } from '../../page/upload/upload-kind.ts';
import type { MultipartUpload } from './multipart-upload.ts';
import { parseOptionsSchema, type ParseOptions } from './parse-options.ts';
import type { ParseFeatureSettings } from './config.ts';

export type ParseDeps = GatewayDeps<ParseFeatureSettings> & { conversion: ConversionPool };

/** Where the document says it came from: the file's name as a file: URL (there is no web address). */
export function uploadUrl(filename: string): string {
  return `file:///${encodeURIComponent(filename || 'upload')}`;
}

function readOptions(text: string | undefined): ParseOptions {
  let raw: unknown = {};
  if (text !== undefined) {
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new HttpError(400, `The options part is not valid JSON: ${(err as Error).message}`, 'BAD_REQUEST_INVALID_JSON');
    }
  }
  return parseOptionsSchema.parse(raw);
}

function scrapeOptionsOf(o: ParseOptions): ScrapeOptions {
  const { formats, onlyMainContent, onlyCleanContent, includeTags, excludeTags, removeBase64Images, timeout, parsers, domainTools, redactPII } = o;
  return {
    ...defaultScrapeOptions(),
    formats,
    onlyMainContent,
    onlyCleanContent,
    includeTags,
    excludeTags,
    removeBase64Images,
    timeout,
    parsers,
    domainTools,
    redactPII,
  };
}

/** Time to spare for the rest of the conversion once OCR is done, so that OCR never outlasts the thread. */
const AFTER_OCR_MS = 5_000;

/** OCR of an upload stops in time for its conversion thread's limit (PARSE_CONVERSION_TIMEOUT_MS). */
function ocrOfUpload(config: ParseDeps['config']) {
  return { settings: config.ocr, budgetMs: Math.max(1_000, Math.min(config.ocr.documentTimeoutMs, config.parse.conversionTimeoutMs - AFTER_OCR_MS)) };
}

const unreadable = (err: unknown) => new HttpError(422, (err as Error).message, 'UNREADABLE_FILE');

export async function parseFile(deps: ParseDeps, team: Team, apiKeyId: string, upload: MultipartUpload, started: number): Promise<PageDocument> {
  const options = readOptions(upload.options);
  const { file } = upload;
  const kind = uploadKind(file.bytes, file.contentType, file.filename);
  if (!kind) {
    throw new HttpError(
      415,
      `The file "${file.filename}" (${file.contentType ?? 'no content type'}) is of a type POST /v2/parse does not convert. Supported: ${SUPPORTED_UPLOADS}.`,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  }
  const so = scrapeOptionsOf(options);
  const pdfOptions = pdfParser(so);
  if (kind === 'pdf' && !pdfOptions) throw new HttpError(400, 'The file is a PDF and PDF parsing is off (parsers does not include "pdf").', 'BAD_REQUEST');
  if (kind === 'image' && !parsesImages(so))
    throw new HttpError(400, 'The file is an image and image parsing is off (parsers does not include "image").', 'BAD_REQUEST');
  const zdr = options.zeroDataRetention;
  checkTeamPermissions(team, { zeroDataRetention: zdr });
  checkSelectors(so, '');
  checkModelFormats(so, zdr, deps.config.llm);
  if (team.creditBalance < 1) throw insufficientCredits(team.creditBalance, 'a parse');

  const id = uuidv7();
  const url = uploadUrl(file.filename);
  const slot = {
    teamId: team.id,
    limit: team.concurrencyLimit,
    holder: `parse:${id}`,
    leaseMs: 2 * deps.config.crawl.heartbeatTimeoutMs,
    deadline: started + so.timeout,
    what: 'The parse',
  };
  const { document, credits, tokens } = await withTeamSlot(deps.db, slot, async (queuedMs) => {
    const load = await deps.conversion
      .loadUpload({ bytes: file.bytes, kind, url, pdf: pdfOptions, ocr: ocrOfUpload(deps.config), maxUnpackedBytes: deps.config.parse.maxUnpackedBytes })
      .catch((err: unknown) => {
        throw unreadable(err);
      });
    const outcome = await documentFromLoad(load, so, {
      sourceURL: url,
      convert: (input) => deps.conversion.convert(input).catch((err: unknown) => Promise.reject(unreadable(err))),
      llm: jobModel(deps.config.llm, zdr),
      redactMaxChunks: deps.config.llm.redactMaxChunks,
      queuedMs,
    }).catch((err: unknown) => {
      // Nothing of the file is answered unredacted: the model that redacts it failed, as a model format's would.
      if (err instanceof RedactionError)
        throw new DomainError('unavailable', `redactPII: ${err.message}; the file is not answered unredacted.`, 'MODEL_FAILED');
      throw err;
    });
    // Only a page fetched over HTTP is checked for script rendering; an upload never is.
    if ('needsBrowser' in outcome) throw new Error('an uploaded file was sent to the browser');
    return {
      document: outcome.built.document,
      credits: pageCredits({
        zeroDataRetention: zdr,
        pdfPages: load.pdf && Math.min(load.pdf.numPages, pdfOptions?.maxPages ?? Infinity),
        formatCredits: answeredCredits(outcome.modelUse.answered),
        redacted: so.redactPII !== undefined && so.redactPII !== false,
      }),
      tokens: outcome.modelUse.usage.promptTokens + outcome.modelUse.usage.completionTokens,
    };
  });
  await deps.db.$transaction((tx) =>
    chargeOnce(tx, { teamId: team.id, apiKeyId, endpoint: 'parse', jobId: id, itemKey: 'file', credits, modelTokens: tokens }),
  );
  return document;
}
