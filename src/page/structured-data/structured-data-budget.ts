// How much of a page's structured data is read. Pages are written by strangers:
// every syntax is read in linear time against one budget per page, and what is
// left unread is noted for the document's warning, never an error.

/** Largest JSON-LD script read, in characters; a larger one is skipped. */
export const MAX_JSON_LD_SCRIPT_CHARS = 1_000_000;
/** JSON-LD read per page, in characters, all scripts together; scripts past it are skipped. */
export const MAX_JSON_LD_PAGE_CHARS = 4_000_000;
/** Deepest JSON-LD nesting read ({ and [ levels); a deeper script is skipped. */
export const MAX_JSON_LD_DEPTH = 64;
/** Things (JSON-LD nodes, microdata items) read per page, every syntax together. */
export const MAX_STRUCTURED_THINGS = 20_000;
/** Property values read per page, every syntax together. */
export const MAX_STRUCTURED_VALUES = 200_000;
/** Nodes the microdata reader visits to take elements' text, all values together. */
export const MAX_MICRODATA_TEXT_NODES = 200_000;

export class StructuredDataBudget {
  things = MAX_STRUCTURED_THINGS;
  values = MAX_STRUCTURED_VALUES;
  textNodes = MAX_MICRODATA_TEXT_NODES;
  jsonLdChars = MAX_JSON_LD_PAGE_CHARS;
  /** Why some of the page's structured data was not read, each reason once. */
  readonly skipped = new Set<string>();

  hasThingsLeft(): boolean {
    return this.things > 0;
  }

  /** Takes one thing; false (and noted) once the page's allowance is spent. */
  takeThing(): boolean {
    if (this.things > 0) {
      this.things--;
      return true;
    }
    this.skipped.add(`structured data past its first ${MAX_STRUCTURED_THINGS} items was not read`);
    return false;
  }

  takeValue(): boolean {
    if (this.values > 0) {
      this.values--;
      return true;
    }
    this.skipped.add(`structured data past its first ${MAX_STRUCTURED_VALUES} values was not read`);
    return false;
  }
}
