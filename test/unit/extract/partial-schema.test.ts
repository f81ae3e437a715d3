import { expect, it } from 'vitest';
import { partialSchema } from '../../../src/features/extract/partial-schema.ts';
import { compileJsonSchema } from '../../../src/platform/llm/json-schema.ts';

const SCHEMA = {
  type: 'object',
  required: ['company', 'products'],
  additionalProperties: false,
  properties: {
    company: { type: 'string', minLength: 1 },
    products: {
      type: 'array',
      minItems: 1,
      items: { type: 'object', required: ['name', 'price'], properties: { name: { type: 'string' }, price: { type: 'number' } } },
    },
    // A property named like a keyword is a property, not the keyword.
    required: { type: 'boolean' },
    contact: { anyOf: [{ $ref: '#/$defs/email' }, { type: 'null' }] },
  },
  $defs: { email: { type: 'object', required: ['address'], properties: { address: { type: 'string', pattern: '@' } } } },
};

it('accepts what one chunk of pages can say: fields and list items left out', () => {
  const validate = compileJsonSchema(partialSchema(SCHEMA));
  expect(validate({})).toBe(true);
  expect(validate({ products: [] })).toBe(true);
  expect(validate({ products: [{ name: 'Widget' }] })).toBe(true);
  expect(validate({ contact: {} })).toBe(true);
  expect(compileJsonSchema(SCHEMA)({ products: [{ name: 'Widget' }] })).toBe(false);
});

it('still refuses what the schema forbids: wrong types, unknown fields, broken patterns', () => {
  const validate = compileJsonSchema(partialSchema(SCHEMA));
  expect(validate({ company: 3 })).toBe(false);
  expect(validate({ company: '' })).toBe(false);
  expect(validate({ products: [{ price: 'cheap' }] })).toBe(false);
  expect(validate({ other: 1 })).toBe(false);
  expect(validate({ required: 'yes' })).toBe(false);
  expect(validate({ contact: { address: 'nowhere' } })).toBe(false);
});

it('leaves the caller’s schema as it was', () => {
  const before = JSON.stringify(SCHEMA);
  partialSchema(SCHEMA);
  expect(JSON.stringify(SCHEMA)).toBe(before);
});
