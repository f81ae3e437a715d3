// The gRPC status codes this service tells apart (grpc/doc/statuscodes.md), and the
// status of a failed call, which the SDK wraps in a ServiceError's cause.

export const GrpcStatus = { PERMISSION_DENIED: 7, UNIMPLEMENTED: 12, UNAUTHENTICATED: 16 } as const;

export function grpcStatus(err: unknown): number | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) if (typeof e.code === 'number') return e.code;
  return undefined;
}
