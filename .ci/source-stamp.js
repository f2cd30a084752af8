// Prints a fingerprint of everything `npm run build` reads: the path, size and modification time of
// every file under apps/, libs/ and test/bench/, and of the compiler and package settings. Cheap
// (no file is read), so `npm start` can tell whether dist/ was built from the sources as they are.
'use strict';
const { createHash } = require('node:crypto');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const roots = ['apps', 'libs', 'test/bench'];
const files = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json', 'ormconfig.ts'];

const hash = createHash('sha256');
const add = (path) => {
  try {
    const stat = statSync(join(root, path));
    hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
  } catch {
    hash.update(`${path}\0missing\n`);
  }
};
const walk = (dir) => {
  const entries = readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() && entry.name === 'node_modules') {
      // Tool caches (Vite's, Vitest's): written while building, never sources.
      continue;
    }
    if (entry.isDirectory()) {
      walk(path);
    } else {
      add(path);
    }
  }
};
for (const dir of roots) {
  walk(dir);
}
for (const file of files) {
  add(file);
}
process.stdout.write(`${hash.digest('hex')}\n`);
