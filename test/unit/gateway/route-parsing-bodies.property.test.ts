// The routes that take a body, in-process: see test/support/route-parsing-properties.ts.
import { checkRoutesInProcess } from '../../support/route-parsing-properties.ts';

checkRoutesInProcess('every route with a body, in-process', (route) => route.startsWith('POST '));
