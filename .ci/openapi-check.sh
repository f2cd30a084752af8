#!/usr/bin/env bash
# `npm run openapi:check`: fails when openapi.json differs from what the code generates, when the typed
# client (libs/client/src/schema.ts) differs from what openapi.json generates, or when it is
# not a valid OpenAPI document (checked by @readme/openapi-parser, as the unit spec beside the generator does).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
node dist/apps/api/src/openapi/generate.js --check
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { validate } from "@readme/openapi-parser";
  const result = await validate(JSON.parse(readFileSync("openapi.json", "utf8")));
  if (!result.valid || result.warnings.length > 0) {
    console.error(JSON.stringify(result, null, 2));
    process.exit(1);
  }
  console.log("openapi.json is a valid OpenAPI document");
'
node .ci/generate-client.mjs --check
