// A prompt of POST /v2/scrape/{id}/interact becomes node code: the model gets the
// open page's text (as untrusted data, clipped like every page sent to a model)
// and the user's words, and answers with the body of an async function run
// against `page` in the session's sandbox, like code a user sends.
import type { LlmSettings, TokenUsage } from '../../../../platform/llm/chat-completion.ts';
import { LlmError } from '../../../../platform/llm/chat-completion.ts';
import { structuredCompletion } from '../../../../platform/llm/structured-output.ts';
import { pageMessages } from '../../../../page/model-formats/page-as-data.ts';
import { DomainError } from '../../../../platform/domain-error.ts';

/** Node code that reads the open page as the model sees it. */
export const READ_PAGE_CODE =
  "JSON.stringify({ url: page.url(), title: await page.title(), text: await page.evaluate(() => (document.body ? document.body.innerText : '')) })";

export interface OpenPage {
  url: string;
  title: string;
  text: string;
}

/** The page READ_PAGE_CODE reported; a result the sandbox cut short is taken as plain text. */
export function openPageOf(result: string | null): OpenPage {
  try {
    const page = JSON.parse(result ?? '') as Partial<OpenPage>;
    return { url: String(page.url ?? ''), title: String(page.title ?? ''), text: String(page.text ?? '') };
  } catch {
    return { url: '', title: '', text: result ?? '' };
  }
}

const CODE_SCHEMA = {
  type: 'object',
  properties: {
    code: {
      type: 'string',
      description: 'The body of an async JavaScript function; `page` is the open Playwright Page. Its last expression (or a return) is the answer.',
    },
  },
  required: ['code'],
  additionalProperties: false,
};

function task(prompt: string, page: OpenPage): string {
  return [
    'You control one open browser tab through Playwright for Node.js. Write the body of an async JavaScript function that does what the request below asks on that tab.',
    '`page` is the open tab (a Playwright Page), `context` its BrowserContext. Top-level await is allowed.',
    'The value of the last expression, or of a `return`, is the answer the user gets: end with it (a string, or a JSON-serialisable value).',
    'Stay on the page unless the request asks to go elsewhere. Wait for elements with Playwright locators rather than fixed sleeps.',
    `The tab shows ${JSON.stringify(page.url)}, titled ${JSON.stringify(page.title)}.`,
    `The request: ${prompt}`,
  ].join('\n');
}

/** The code for the prompt, and the tokens the model used for it. */
export async function codeForPrompt(llm: LlmSettings, prompt: string, page: OpenPage): Promise<{ code: string; usage: TokenUsage }> {
  try {
    const answer = await structuredCompletion(llm, {
      name: 'interact_code',
      schema: CODE_SCHEMA,
      messages: pageMessages(task(prompt, page), page.text, llm.maxInputChars),
    });
    return { code: (answer.value as { code: string }).code, usage: answer.usage };
  } catch (err) {
    if (err instanceof LlmError) throw new DomainError('unavailable', `The model could not write code for the prompt: ${err.message}`, 'MODEL_FAILED');
    throw err;
  }
}
