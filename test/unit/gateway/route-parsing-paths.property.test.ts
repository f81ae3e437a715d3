// The routes of paths and query strings, and unknown routes, in-process: see test/support/route-parsing-properties.ts.
import { checkRoutesInProcess, RUNS_WITHOUT_BODY } from '../../support/route-parsing-properties.ts';

checkRoutesInProcess('every route without a body, and unknown routes, in-process', (route) => !route.startsWith('POST '), RUNS_WITHOUT_BODY);
