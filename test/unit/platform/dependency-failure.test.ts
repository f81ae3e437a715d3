// Which errors name PostgreSQL or Temporal as away, in the shapes the real clients throw them
// (test/integration/dependency-failure.test.ts gets them from the real servers; these are the
// shapes seen in the fault suite, kept here so each stays covered).
import { describe, expect, it } from 'vitest';
import { Prisma } from '../../../src/generated/prisma/client.ts';
import { dependencyFailure } from '../../../src/platform/dependency-failure.ts';

const known = (code: string, message: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: 'test', ...(meta && { meta }) });

function serviceError(grpcCode: number): Error {
  const grpc = Object.assign(new Error(`${grpcCode} some status`), { code: grpcCode });
  return Object.assign(new Error('Failed to describe workflow', { cause: grpc }), { name: 'ServiceError' });
}

describe('dependencyFailure', () => {
  it('names PostgreSQL for every shape of a connection lost, refused or a server starting', () => {
    const adapter = Object.assign(new Error('ConnectionClosed'), { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } });
    for (const err of [
      adapter,
      known('P1017', 'Server has closed the connection.'),
      known('P2010', 'Raw query failed. Code: `57P03`. Message: `the database system is starting up`', { code: '57P03' }),
      known('P2010', 'Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ])
      expect(dependencyFailure(err), String(err)).toMatchObject({ dependency: 'PostgreSQL' });
  });

  it('names Temporal for UNAVAILABLE and DEADLINE_EXCEEDED of a call', () => {
    expect(dependencyFailure(serviceError(14))).toMatchObject({ dependency: 'Temporal' });
    expect(dependencyFailure(serviceError(4))).toMatchObject({ dependency: 'Temporal' });
  });

  it('names nothing for what a healthy server answers about the request, or for our own errors', () => {
    for (const err of [
      known('P2002', 'Unique constraint failed'),
      known('P2010', 'Raw query failed. Code: `42P01`. Message: `relation "x" does not exist`', { code: '42P01' }),
      Object.assign(new Error('x'), { name: 'DriverAdapterError', cause: { kind: 'UniqueConstraintViolation' } }),
      serviceError(5),
      new TypeError('undefined is not a function'),
      undefined,
      'text',
    ])
      expect(dependencyFailure(err), String(err)).toBeUndefined();
  });
});
