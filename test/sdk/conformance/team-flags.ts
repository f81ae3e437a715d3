// Every team flag on: the conformance suites send what the SDKs can send, and
// options that need a flag (zeroDataRetention, ignoreRobotsTxt, enterprise search)
// are the team's permission, not the request's shape (refused 403 without it).
import type { TeamFlags } from '../../../src/platform/teams/teams.ts';

export const ALL_TEAM_FLAGS: Required<TeamFlags> = { ignoreRobotsTxt: true, robotsUserAgent: true, zeroDataRetention: true, searchAnon: true, searchZdr: true };
