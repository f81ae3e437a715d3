import { describe, expect, it } from 'vitest';
import { isRejectedData } from '../../../src/platform/db/rejected-data.ts';

// The shapes Prisma 6 with the pg driver adapter raises (seen against PostgreSQL 18).
const adapterError = (code: string) =>
  Object.assign(new Error('driver adapter error'), { name: 'DriverAdapterError', cause: { kind: 'postgres', code, originalCode: code } });
const rawQueryError = (code: string) =>
  Object.assign(new Error('Raw query failed'), {
    code: 'P2010',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'postgres', code } } },
  });

describe('isRejectedData', () => {
  it('recognises what PostgreSQL refuses because of the data itself', () => {
    expect(isRejectedData(adapterError('22P05'))).toBe(true); // \u0000 in jsonb
    expect(isRejectedData(adapterError('22021'))).toBe(true); // NUL in text
    expect(isRejectedData(adapterError('54000'))).toBe(true); // index row too large
    expect(isRejectedData(rawQueryError('22021'))).toBe(true);
  });

  it('leaves errors that may pass on a retry to the retry', () => {
    expect(isRejectedData(adapterError('40P01'))).toBe(false); // deadlock
    expect(isRejectedData(adapterError('57P01'))).toBe(false); // server shutting down
    expect(isRejectedData(adapterError('08006'))).toBe(false); // connection failure
    expect(isRejectedData(rawQueryError('23505'))).toBe(false); // unique violation
    expect(isRejectedData(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isRejectedData(undefined)).toBe(false);
  });
});
