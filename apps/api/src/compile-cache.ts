import { enableCompileCache } from 'node:module';

// Imported first by main: every module loaded after this is compiled once and then read back from
// V8's code cache on later starts (in NODE_COMPILE_CACHE, or a directory under the system's
// temporary directory). Entries are keyed by the source's content, so a rebuild never runs stale
// code; when the directory cannot be written, startup simply compiles as before.
try {
  enableCompileCache();
} catch {
  // Not fatal: the cache only saves time.
}
