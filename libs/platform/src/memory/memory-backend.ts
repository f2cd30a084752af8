import { Inject, Injectable, type OnApplicationBootstrap, Optional } from '@nestjs/common';

import { Subsystem } from '@app/domain';

import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';
import { SubsystemRegistry } from '../subsystems/subsystem.registry';

/** A registered embedding model the memory backend can use. */
export interface ResolvedEmbedder {
  provider: string;
  model: string;
  dimensions: number | null;
}

/**
 * Port implemented by the providers module: resolves the configured embedder against the live
 * provider registry. Absent (no providers module, or nothing registered) means nothing resolves.
 */
export abstract class EmbedderResolver {
  abstract resolve(provider: string | null, model: string | null): Promise<ResolvedEmbedder | null>;
}

/**
 * Startup rule: the memory backend is wired only when an embedding model resolves. Otherwise no
 * backend is wired and one ERROR is logged; there is deliberately no ephemeral fallback store.
 */
@Injectable()
export class MemoryBackendBootstrap implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) private readonly logging: LoggingRuntime,
    private readonly registry: SubsystemRegistry,
    @Optional() private readonly resolver?: EmbedderResolver,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { embedderProvider, embedderModel } = this.config.memory;
    let resolved: ResolvedEmbedder | null = null;
    let reason = 'no embedding model configured (SYNTHORG_MEMORY_EMBEDDER_MODEL)';
    if (embedderModel) {
      reason = `embedding model ${embedderModel} does not resolve to a registered provider`;
      try {
        resolved = this.resolver ? await this.resolver.resolve(embedderProvider, embedderModel) : null;
      } catch (error) {
        reason = `embedding model resolution failed: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    const log = this.logging.forName('memory');
    if (resolved) {
      this.registry.markWired(Subsystem.Memory, `${resolved.provider}/${resolved.model}`);
      log.info({ provider: resolved.provider, model: resolved.model }, 'memory.backend.wired');
      return;
    }
    this.registry.markUnwired(Subsystem.Memory, reason);
    log.error({ reason, provider: embedderProvider, model: embedderModel }, 'memory.backend.unwired');
  }
}
