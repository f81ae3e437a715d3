// The menu format of one page: the menu its structured data states
// (menu-from-things.ts, read in the conversion), with a model, when the job may
// use one, for the merchant's name when that data leaves it out, or for the
// whole menu when it states none. Without a model a missing merchant name is the
// page's og:site_name or title, and the warning says so. A page without a menu
// gets no `menu` and a warning; the page itself never fails.
// As a format it is src/page/formats/menu/menu-format.ts.
import { LlmError, NO_TOKENS } from '../../platform/llm/chat-completion.ts';
import { NO_MODEL_REASON, pageName, type ProfileOutcome, type ProfilePage } from '../profiles/profile-page.ts';
import { extractMenu, fillMerchant } from './menu-model.ts';
import type { MenuDraft, MenuProfile } from './menu-profile.ts';

const NOT_A_MENU_PAGE = 'No menu found on this page; it does not appear to be a menu page.';
const NO_MENU_DATA = 'No menu found on this page: it has no schema.org Menu data (JSON-LD, microdata or RDFa)';

function complete(draft: MenuDraft, page: ProfilePage, why: string): { menu: MenuProfile; warning?: string } {
  const { merchant, ...profile } = draft;
  if (merchant.name !== undefined) return { menu: { ...profile, merchant: { ...merchant, name: merchant.name } } };
  const name = pageName(page.metadata, 'og:site_name') ?? '';
  const used = name === '' ? 'left empty: the page has no title either' : 'the page’s site name or title is used';
  return { menu: { ...profile, merchant: { ...merchant, name } }, warning: `The page does not state whose menu it is (merchant.name: ${used}); ${why}.` };
}

async function withoutData(page: ProfilePage): Promise<ProfileOutcome<MenuProfile>> {
  const { llm } = page;
  if (!llm) return { warnings: [`${NO_MENU_DATA}, and ${NO_MODEL_REASON}.`], usage: NO_TOKENS, answered: false };
  if (page.text.trim() === '') return { warnings: [`${NO_MENU_DATA} and no text.`], usage: NO_TOKENS, answered: false };
  try {
    const { draft, usage } = await extractMenu(page.text, page.url, llm, page.fetchImpl);
    if (!draft) return { warnings: [NOT_A_MENU_PAGE], usage, answered: true };
    const { menu, warning } = complete(draft, page, 'the model did not find it either');
    return { value: menu, warnings: warning ? [warning] : [], usage, answered: true };
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return { warnings: [`${NO_MENU_DATA}, and the model call that was to read its text failed: ${err.message}.`], usage: err.usage, answered: false };
  }
}

async function fromData(draft: MenuDraft, page: ProfilePage): Promise<ProfileOutcome<MenuProfile>> {
  const outcome = (d: MenuDraft, why: string, usage = NO_TOKENS, answered = false): ProfileOutcome<MenuProfile> => {
    const { menu, warning } = complete(d, page, why);
    return { value: menu, warnings: warning ? [warning] : [], usage, answered };
  };
  if (draft.merchant.name !== undefined) return outcome(draft, '');
  if (!page.llm) return outcome(draft, NO_MODEL_REASON);
  if (page.text.trim() === '') return outcome(draft, 'the page has no text a model could read it from');
  try {
    const filled = await fillMerchant(draft, page.text, page.llm, page.fetchImpl);
    return outcome(filled.draft, 'the model did not find it either', filled.usage, true);
  } catch (err) {
    if (!(err instanceof LlmError)) throw err;
    return outcome(draft, `the model call that was to read it failed: ${err.message}`, err.usage);
  }
}

/** The page's `menu`, its warnings, and what its model call used. */
export async function menuFormat(draft: MenuDraft | undefined, page: ProfilePage): Promise<ProfileOutcome<MenuProfile>> {
  return draft ? fromData(draft, page) : withoutData(page);
}
