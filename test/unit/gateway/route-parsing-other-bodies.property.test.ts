// The other routes with a body (search, browser sessions, execute), in-process: see test/support/route-parsing-properties.ts.
import { checkRoutesInProcess, RUNS_WITH_BODY, JOB_BODY_ROUTES } from '../../support/route-parsing-properties.ts';

checkRoutesInProcess('every other route with a body, in-process', (route) => route.startsWith('POST ') && !JOB_BODY_ROUTES.includes(route), RUNS_WITH_BODY);
