// `npm run docs`: writes docs/operations.md from the contracts.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { OPERATIONS_DOC_PATH, renderOperationsDoc } from './operations-doc.ts';

const target = fileURLToPath(new URL(`../../../../${OPERATIONS_DOC_PATH}`, import.meta.url));
writeFileSync(target, renderOperationsDoc());
console.log(`wrote ${OPERATIONS_DOC_PATH}`);
