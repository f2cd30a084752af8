import { Inject, Injectable } from '@nestjs/common';

import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';
import { NamedRegistry } from './named-registry';

/**
 * Work a previous process decided but did not finish, resumed once the server is up: the last
 * step of startup (approvals decided but not yet resumed re-dispatch their parked tasks). A failing
 * hook is logged and left for the next startup; it never blocks boot.
 */
export interface StartupResumeHook {
  /** Shown in logs, e.g. `approvals.redispatch`. */
  name: string;
  run(): Promise<void>;
}

@Injectable()
export class StartupResumeHooks extends NamedRegistry<StartupResumeHook> {
  private ran = false;

  constructor(@Inject(LOGGING_RUNTIME) private readonly logging: LoggingRuntime) {
    super('startup resume hook', false);
  }

  /** Runs every hook once per process, in registration order; answers the names that failed. */
  async runAll(): Promise<string[]> {
    if (this.ran) {
      return [];
    }
    this.ran = true;
    const log = this.logging.forName('engine.startup');
    const failed: string[] = [];
    for (const hook of this.entries) {
      try {
        await hook.run();
        log.info({ hook: hook.name }, 'engine.startup.resumed');
      } catch (error) {
        failed.push(hook.name);
        log.error({ err: error, hook: hook.name }, 'engine.startup.resume_failed');
      }
    }
    return failed;
  }
}
