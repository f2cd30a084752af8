#!/usr/bin/env node
// The registry mirror these machines use serves only the packages for this platform, so npm cannot
// record the other platforms' optional binaries (e.g. @swc/core-darwin-arm64) in package-lock.json,
// and `npm ci` then refuses the lock file as out of sync. This adds each missing optional dependency
// as a bare optional entry: npm ci accepts the lock, and on install an entry that cannot be fetched
// is skipped like any failed optional dependency. Run after changing dependencies.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const file = path.resolve(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = `${location ? location + '/' : ''}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) {
      continue;
    }
    packages[hoisted] = { version: String(range).replace(/^[^\d]*/, ''), optional: true };
    added += 1;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
fs.writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
process.stdout.write(`package-lock.json: added ${added} optional platform entries\n`);
