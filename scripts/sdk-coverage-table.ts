// `npm run sdk-coverage`: writes docs/api/sdk-coverage.md from test/sdk/coverage/*.ts
// and the installed SDKs (test/unit/docs/sdk-coverage.test.ts checks it is current).
import { writeFileSync } from 'node:fs';
import { coverageTableText, COVERAGE_TABLE_PATH } from '../test/sdk/coverage/table-file.ts';

writeFileSync(COVERAGE_TABLE_PATH, coverageTableText());
process.stdout.write(`wrote ${COVERAGE_TABLE_PATH}\n`);
