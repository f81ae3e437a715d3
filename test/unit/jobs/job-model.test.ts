import { describe, expect, it } from 'vitest';
import { checkModelFormats } from '../../../src/jobs/job-model.ts';
import { DomainError } from '../../../src/platform/domain-error.ts';
import { loadConfig } from '../../../src/config.ts';
import { scrapeOptionsSchema } from '../../../src/page/scrape-options.ts';

const base = loadConfig().llm;
const none = { ...base, baseUrl: undefined };
const remote = { ...base, baseUrl: 'http://model.test/v1', local: false };
const local = { ...remote, local: true };

function refusal(redactPII: unknown, zdr: boolean, llm: typeof base): DomainError | undefined {
  try {
    checkModelFormats(scrapeOptionsSchema.parse({ redactPII }), zdr, llm);
    return undefined;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
}

describe('checkModelFormats with redactPII', () => {
  it('refuses PERSON and LOCATION (named or by default) without a model, naming the way out', () => {
    expect(refusal(true, false, none)).toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
      message: expect.stringMatching(
        /^redactPII: PERSON and LOCATION are found by a model and none is configured on this server \(LLM_BASE_URL\); use redactPII \{"mode": "fast"\}/,
      ),
    });
    expect(refusal({ entities: ['LOCATION', 'EMAIL'] }, false, none)?.message).toMatch(/^redactPII: LOCATION are found by a model/);
  });

  it('needs no model for mode fast or pattern entities only', () => {
    expect(refusal({ mode: 'fast' }, false, none)).toBeUndefined();
    expect(refusal({ entities: ['EMAIL', 'PHONE', 'FINANCIAL', 'SECRET'] }, true, none)).toBeUndefined();
    expect(refusal(false, false, none)).toBeUndefined();
  });

  it('under zero data retention wants a model marked local', () => {
    expect(refusal(true, true, remote)).toMatchObject({ code: 'MODEL_NOT_LOCAL' });
    expect(refusal(true, true, local)).toBeUndefined();
    expect(refusal(true, false, remote)).toBeUndefined();
  });
});
