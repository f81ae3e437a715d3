// The contract of the monitor routes (routes.ts).
import { z } from 'zod';
import type { RouteDoc } from '../../platform/http/route-doc.ts';
import { checkQuerySchema, createMonitorSchema, listQuerySchema, updateMonitorSchema } from './monitor-request.ts';
import { checkDetailSchema, checkSchema, monitorSchema } from './monitor-answers.ts';

const monitorAnswer = z.object({ success: z.literal(true), data: monitorSchema });
const idParams = z.object({ id: z.string().describe('The monitor id.') });
const checkParams = z.object({ id: z.string().describe('The monitor id.'), checkId: z.string().describe('The check id.') });

export const monitorRouteDocs: RouteDoc[] = [
  {
    method: 'post',
    path: '/v2/monitor',
    operationId: 'createMonitor',
    summary: 'Create a monitor: targets checked on a schedule (a Temporal Schedule monitor-<id>)',
    tag: 'monitor',
    body: createMonitorSchema,
    responses: { 200: monitorAnswer },
    errors: [403],
  },
  {
    method: 'get',
    path: '/v2/monitor',
    operationId: 'listMonitors',
    summary: "The team's monitors, newest first",
    tag: 'monitor',
    query: listQuerySchema,
    responses: { 200: z.object({ success: z.literal(true), data: z.array(monitorSchema) }) },
    errors: [400],
  },
  {
    method: 'get',
    path: '/v2/monitor/:id',
    operationId: 'getMonitor',
    summary: 'A monitor, with its next run and last check summary',
    tag: 'monitor',
    params: idParams,
    responses: { 200: monitorAnswer },
    errors: [404],
  },
  {
    method: 'patch',
    path: '/v2/monitor/:id',
    operationId: 'updateMonitor',
    summary: 'Change a monitor; status paused / active pauses and resumes its schedule',
    tag: 'monitor',
    params: idParams,
    body: updateMonitorSchema,
    responses: { 200: monitorAnswer },
    errors: [403, 404],
  },
  {
    method: 'delete',
    path: '/v2/monitor/:id',
    operationId: 'deleteMonitor',
    summary: 'Delete a monitor, its schedule and its checks',
    tag: 'monitor',
    params: idParams,
    responses: { 200: z.object({ success: z.literal(true) }) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/v2/monitor/:id/run',
    operationId: 'runMonitor',
    summary: 'Start a check now (manual trigger); answers the queued check',
    tag: 'monitor',
    params: idParams,
    responses: { 200: z.object({ success: z.literal(true), data: checkSchema }) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/v2/monitor/:id/checks',
    operationId: 'listMonitorChecks',
    summary: "A monitor's checks, newest first",
    tag: 'monitor',
    params: idParams,
    query: listQuerySchema,
    responses: { 200: z.object({ success: z.literal(true), data: z.array(checkSchema) }) },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v2/monitor/:id/checks/:checkId',
    operationId: 'getMonitorCheck',
    summary: 'A check with its pages (status, diff, judgment), paginated by skip and limit',
    tag: 'monitor',
    params: checkParams,
    query: checkQuerySchema,
    responses: { 200: z.object({ success: z.literal(true), data: checkDetailSchema }) },
    errors: [400, 404],
  },
];
