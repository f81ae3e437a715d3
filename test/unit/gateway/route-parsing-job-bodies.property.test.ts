// The routes that start a job from a body (crawl, scrape, map, batch scrape), in-process: see test/support/route-parsing-properties.ts.
import { checkRoutesInProcess, RUNS_WITH_BODY, JOB_BODY_ROUTES } from '../../support/route-parsing-properties.ts';

checkRoutesInProcess('every route that starts a job, in-process', (route) => JOB_BODY_ROUTES.includes(route), RUNS_WITH_BODY);
