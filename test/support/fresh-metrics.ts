// Unit files share their worker's modules (isolate: false in vitest.config.ts), and
// with them the process's one metrics registry: each file counts from zero.
import { beforeAll } from 'vitest';
import { registry } from '../../src/platform/metrics/registry.ts';

beforeAll(() => registry.resetMetrics());
