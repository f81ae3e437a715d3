// The `attributes` format: for each {selector, attribute} asked for, the values of
// that attribute on the elements the selector matches, in document order.
// Elements without the attribute add nothing; the same value on two elements is
// listed twice (the values line up with the elements that carry it).

/** Values listed per selector at most; further matches are left out. */
export const MAX_ATTRIBUTE_VALUES = 1000;

/** One selector of the attributes format. */
export interface AttributeSelector {
  selector: string;
  attribute: string;
}

export interface AttributeValues extends AttributeSelector {
  values: string[];
}

/** The selectors are valid (the request schema checked them with the same parser). */
export function attributeValues(document: Document, selectors: readonly AttributeSelector[]): AttributeValues[] {
  return selectors.map(({ selector, attribute }) => {
    const values: string[] = [];
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute);
      if (value === null) continue;
      values.push(value);
      if (values.length >= MAX_ATTRIBUTE_VALUES) break;
    }
    return { selector, attribute, values };
  });
}
