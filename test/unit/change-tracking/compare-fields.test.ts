import { describe, expect, it } from 'vitest';
import { compareFields, sameJson } from '../../../src/page/change-tracking/compare-fields.ts';

describe('compareFields', () => {
  it('gives previous and current of each field that changed, and nothing for equal ones', () => {
    expect(
      compareFields(
        { price: '$9', plans: ['starter', 'pro'], limits: { pages: 10, seats: 1 }, note: null },
        { price: '$12', plans: ['starter', 'pro'], limits: { seats: 1, pages: 10 }, note: null },
      ),
    ).toEqual({ price: { previous: '$9', current: '$12' } });
  });

  it('reports a field that appeared or disappeared with null on the side it is missing from', () => {
    expect(compareFields({ a: 1, gone: 'x' }, { a: 1, added: true })).toEqual({
      added: { previous: null, current: true },
      gone: { previous: 'x', current: null },
    });
  });

  it('compares nested values deeply and arrays in order', () => {
    expect(compareFields({ list: [1, 2] }, { list: [2, 1] })).toEqual({ list: { previous: [1, 2], current: [2, 1] } });
    expect(compareFields({ o: { a: { b: 1 } } }, { o: { a: { b: 2 } } })).toEqual({ o: { previous: { a: { b: 1 } }, current: { a: { b: 2 } } } });
    expect(compareFields({}, {})).toEqual({});
  });
});

describe('sameJson', () => {
  it('tells arrays, objects, null and scalars apart', () => {
    expect(sameJson([], {})).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
    expect(sameJson({ a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] })).toBe(true);
  });
});
