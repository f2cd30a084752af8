// `npm run client:generate`: the typed client's schema (libs/client/src/schema.ts) from openapi.json,
// with openapi-typescript. `--check` fails instead of writing when the committed file differs
// (run by `npm run openapi:check`, so the client drifts from the document no more than the document
// drifts from the code).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import openapiTS, { astToString } from 'openapi-typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'libs/client/src/schema.ts');
const document = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8'));
const header =
  '/* eslint-disable */\n' +
  '// Generated from openapi.json by `npm run client:generate` (openapi-typescript). Do not edit.\n\n';
const source = header + astToString(await openapiTS(document, { alphabetize: true }));

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing: reported below
  }
  if (current !== source) {
    console.error('libs/client/src/schema.ts is out of date with openapi.json: run `npm run client:generate`');
    process.exit(1);
  }
  console.log('libs/client/src/schema.ts is up to date');
} else {
  writeFileSync(target, source);
  console.log(`wrote ${target.slice(root.length + 1)}`);
}
