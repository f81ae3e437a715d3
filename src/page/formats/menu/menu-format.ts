// The menu format: the page's menu from its schema.org data (drafted in the
// conversion), a model filling what it leaves out (menu/menu-format.ts).
import { z } from 'zod';
import { MODEL_FORMAT_CREDITS } from '../../../platform/usage/credits.ts';
import { menuFormat as completeMenu } from '../../menu/menu-format.ts';
import { menuDraft } from '../../menu/menu-from-things.ts';
import type { MenuDraft } from '../../menu/menu-profile.ts';
import { defineFormat } from '../format-module.ts';

export const menuFormat = defineFormat({
  type: 'menu',
  schema: z.strictObject({ type: z.literal('menu') }),
  needs: 'text',
  profile: {
    draft: menuDraft,
    run: (draft, page) => completeMenu(draft as MenuDraft | undefined, page),
  },
  // Only when its model call was answered.
  answerCredits: MODEL_FORMAT_CREDITS,
});
