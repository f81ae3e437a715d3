// The page's menu from its schema.org data (JSON-LD first, then microdata and
// RDFa): a Menu (a food establishment's hasMenu, or one of its own), else the
// MenuSections or MenuItems the page states outside any menu. Nested sections
// follow their parent in page order; items straight on the menu come first, in
// a section named after the menu. An item the page does not say is unavailable
// is available: a menu lists what is served.
import { absoluteWebUrl, currencyCode, imagesOf, offerAvailability, offerPrice, offersOf, parseAmount } from '../structured-data/offer-terms.ts';
import type { StructuredData } from '../structured-data/read-structured-data.ts';
import { findThings, isA, termsOf, textOf, thingsOf, type Thing, type ThingGraph } from '../structured-data/things.ts';
import { itemId, MAX_MENU_ITEM_IMAGES, MAX_MENU_ITEMS, MAX_MENU_SECTIONS, sectionId, type MenuDraft, type MenuItem, type MenuSection } from './menu-profile.ts';

export const FOOD_ESTABLISHMENTS = new Set([
  'FoodEstablishment',
  'Restaurant',
  'CafeOrCoffeeShop',
  'BarOrPub',
  'Bakery',
  'FastFoodRestaurant',
  'IceCreamShop',
  'Brewery',
  'Winery',
  'Distillery',
]);
const MENU = new Set(['Menu']);
const MENU_SECTION = new Set(['MenuSection']);
const MENU_ITEM = new Set(['MenuItem']);

/** schema.org RestrictedDiet members as the words the dietary list uses (a Map: the terms are the page's). */
const DIETS = new Map(
  Object.entries({
    DiabeticDiet: 'diabetic',
    GlutenFreeDiet: 'gluten-free',
    HalalDiet: 'halal',
    HinduDiet: 'hindu',
    KosherDiet: 'kosher',
    LowCalorieDiet: 'low-calorie',
    LowFatDiet: 'low-fat',
    LowLactoseDiet: 'low-lactose',
    LowSaltDiet: 'low-salt',
    VeganDiet: 'vegan',
    VegetarianDiet: 'vegetarian',
  }),
);

interface Context {
  graph: ThingGraph;
  pageUrl: string;
  /** Items left to take, all sections together. */
  itemsLeft: number;
}

function dietary(item: Thing): string[] {
  const diets = termsOf(item, 'suitableForDiet').map((t) => DIETS.get(t) ?? t.replace(/Diet$/, '').toLowerCase());
  return [...new Set(diets)];
}

function addOnOption(ctx: Context, addOn: Thing): { name: string; price?: unknown } | undefined {
  const name = textOf(ctx.graph, addOn, 'name');
  if (!name) return undefined;
  const { price } = offersOf(ctx.graph, addOn).map((o) => offerPrice(ctx.graph, o))[0] ?? {};
  return { name, ...(price && { price }) };
}

/** schema.org menuAddOn as option groups: a section of add-ons is a group; single add-on items share one. */
function optionGroups(ctx: Context, item: Thing): unknown[] {
  const groups: unknown[] = [];
  const loose: unknown[] = [];
  for (const addOn of thingsOf(ctx.graph, item, 'menuAddOn')) {
    if (isA(addOn, MENU_SECTION)) {
      const options = thingsOf(ctx.graph, addOn, 'hasMenuItem')
        .map((o) => addOnOption(ctx, o))
        .filter((o) => o !== undefined);
      groups.push({ name: textOf(ctx.graph, addOn, 'name') ?? 'Add-ons', options });
    } else {
      const option = addOnOption(ctx, addOn);
      if (option) loose.push(option);
    }
  }
  return loose.length > 0 ? [...groups, { name: 'Add-ons', options: loose }] : groups;
}

function menuItem(ctx: Context, item: Thing, section: number, index: number): MenuItem | undefined {
  const { graph, pageUrl } = ctx;
  const name = textOf(graph, item, 'name');
  if (!name) return undefined;
  const offer = offersOf(graph, item)[0];
  const { price } = offer ? offerPrice(graph, offer) : {};
  const description = textOf(graph, item, 'description');
  const nutrition = thingsOf(graph, item, 'nutrition')[0];
  const calories = nutrition && parseAmount(textOf(graph, nutrition, 'calories'));
  const merchantItemId = textOf(graph, item, 'identifier') ?? textOf(graph, item, 'sku') ?? textOf(graph, item, 'productID');
  const url = absoluteWebUrl(textOf(graph, item, 'url'), pageUrl);
  return {
    id: itemId(section, index),
    name,
    ...(description && { description }),
    images: imagesOf(graph, item, pageUrl, MAX_MENU_ITEM_IMAGES),
    ...(price && { price }),
    availability: (offer && offerAvailability(offer)) ?? { inStock: true },
    dietary: dietary(item),
    ...(calories !== undefined && { calories }),
    optionGroups: optionGroups(ctx, item),
    identifiers: merchantItemId ? { merchantItemId } : {},
    ...(url && { url }),
    sourceUrl: pageUrl,
  };
}

function section(ctx: Context, index: number, name: string, description: string | undefined, things: Thing[]): MenuSection {
  const items: MenuItem[] = [];
  for (const thing of things) {
    if (ctx.itemsLeft <= 0) break;
    const item = menuItem(ctx, thing, index, items.length);
    if (!item) continue;
    items.push(item);
    ctx.itemsLeft--;
  }
  return { id: sectionId(index), name, ...(description && { description }), items };
}

/** Sections in page order, each nested section after its parent; each section once (references can loop). */
function sections(ctx: Context, menuName: string, topSections: Thing[], looseItems: Thing[]): MenuSection[] {
  const out: MenuSection[] = [];
  if (looseItems.length > 0) out.push(section(ctx, 0, menuName, undefined, looseItems));
  const seen = new Set<Thing>();
  const stack = [...topSections].reverse();
  while (stack.length > 0 && out.length < MAX_MENU_SECTIONS) {
    const thing = stack.pop()!;
    if (seen.has(thing)) continue;
    seen.add(thing);
    const name = textOf(ctx.graph, thing, 'name') ?? menuName;
    out.push(section(ctx, out.length, name, textOf(ctx.graph, thing, 'description'), thingsOf(ctx.graph, thing, 'hasMenuItem')));
    stack.push(...thingsOf(ctx.graph, thing, 'hasMenuSection').reverse());
  }
  return out;
}

function location(graph: ThingGraph, place: Thing): Record<string, unknown> | undefined {
  const address = thingsOf(graph, place, 'address')[0];
  const text = address
    ? ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry']
        .map((p) => textOf(graph, address, p))
        .filter((p) => p !== undefined)
        .join(', ')
    : textOf(graph, place, 'address');
  const geo = thingsOf(graph, place, 'geo')[0];
  const latitude = geo && Number(textOf(graph, geo, 'latitude'));
  const longitude = geo && Number(textOf(graph, geo, 'longitude'));
  const located = {
    ...(text && { address: text }),
    ...(Number.isFinite(latitude) && Number.isFinite(longitude) && { latitude, longitude }),
  };
  return Object.keys(located).length > 0 ? located : undefined;
}

function menuFrom(graph: ThingGraph, pageUrl: string): MenuDraft | undefined {
  const establishment = findThings(graph, FOOD_ESTABLISHMENTS)[0];
  const ownMenus = establishment ? [...thingsOf(graph, establishment, 'hasMenu'), ...thingsOf(graph, establishment, 'menu')] : [];
  const menu = ownMenus.find((m) => m.props.size > 0) ?? findThings(graph, MENU)[0];
  const topSections = menu ? thingsOf(graph, menu, 'hasMenuSection') : graph.roots.filter((t) => isA(t, MENU_SECTION));
  const looseItems = menu ? thingsOf(graph, menu, 'hasMenuItem') : graph.roots.filter((t) => isA(t, MENU_ITEM));
  if (!menu && topSections.length === 0 && looseItems.length === 0) return undefined;
  const ctx: Context = { graph, pageUrl, itemsLeft: MAX_MENU_ITEMS };
  const menuSections = sections(ctx, (menu && textOf(graph, menu, 'name')) ?? 'Menu', topSections, looseItems);
  const currency =
    menuSections.flatMap((s) => s.items).find((i) => i.price?.currency)?.price?.currency ??
    (establishment && currencyCode(textOf(graph, establishment, 'currenciesAccepted')?.split(/[\s,]+/)[0]));
  const name = establishment && textOf(graph, establishment, 'name');
  const where = establishment && location(graph, establishment);
  return {
    isMenu: true,
    confidence: 1,
    merchant: { ...(name && { name }), type: establishment?.types[0] ?? null, ...(where && { location: where }) },
    currency: currency ?? null,
    sections: menuSections,
    sourceUrl: pageUrl,
  };
}

/** The page's menu as its structured data states it, or undefined when it states none. */
export function menuDraft(data: StructuredData, pageUrl: string): MenuDraft | undefined {
  return menuFrom(data.jsonLd, pageUrl) ?? menuFrom(data.microdata, pageUrl);
}
