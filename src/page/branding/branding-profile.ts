// The `branding` document field: the shape of the SDKs' BrandingProfile, holding
// what this service derives without a model (derive-branding.ts). Names and
// descriptions a model would write (brandName, tone, ...) are never filled.
import { z } from 'zod';

const color = z.string().describe('#RRGGBB');

export const brandingProfileSchema = z.object({
  colorScheme: z.enum(['light', 'dark']).optional().describe('From the page background’s luminance.'),
  logo: z.string().nullable().optional().describe('The logo’s URL (an inline <svg> logo as a data: URL); null when none was found.'),
  fonts: z
    .array(z.object({ family: z.string() }))
    .optional()
    .describe('Font families in use, most text first.'),
  colors: z
    .object({
      primary: color.optional(),
      accent: color.optional(),
      background: color.optional(),
      textPrimary: color.optional(),
      textSecondary: color.optional(),
      link: color.optional(),
    })
    .optional(),
  typography: z
    .object({
      fontFamilies: z.object({ primary: z.string().optional(), heading: z.string().optional(), code: z.string().optional() }).optional(),
      fontStacks: z.object({ primary: z.array(z.string()).optional(), heading: z.array(z.string()).optional() }).optional(),
      fontSizes: z.object({ h1: z.string().optional(), h2: z.string().optional(), h3: z.string().optional(), body: z.string().optional() }).optional(),
      lineHeights: z.object({ heading: z.number().optional(), body: z.number().optional() }).optional(),
      fontWeights: z.object({ regular: z.number().optional(), bold: z.number().optional() }).optional(),
    })
    .optional(),
  spacing: z.object({ borderRadius: z.string().optional() }).optional(),
  components: z
    .object({
      buttonPrimary: z
        .object({ background: color.optional(), textColor: color.optional(), borderColor: color.optional(), borderRadius: z.string().optional() })
        .optional(),
      buttonSecondary: z
        .object({ background: color.optional(), textColor: color.optional(), borderColor: color.optional(), borderRadius: z.string().optional() })
        .optional(),
      input: z.object({ borderColor: color.optional(), borderRadius: z.string().optional() }).optional(),
    })
    .optional(),
  images: z
    .object({
      logo: z.string().nullable(),
      favicon: z.string().nullable(),
      ogImage: z.string().nullable(),
    })
    .optional(),
});
export type BrandingProfile = z.infer<typeof brandingProfileSchema>;
