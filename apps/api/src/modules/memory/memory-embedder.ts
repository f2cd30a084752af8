import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  AppError,
  costOfCall,
  ErrorCode,
  MEMORY_BACKENDS,
  normalise,
  type PreflightAgent,
  type PreflightTask,
  ProviderCallError,
} from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { RunSpend } from '../engine';
import { ProviderRegistry, type RegisteredProvider } from '../providers';
import { SettingsSnapshot } from '../settings';

const NS = 'memory';
/** Longest wait for one embedding call. */
const EMBED_TIMEOUT_MS = 30_000;

/** An embedder as configured: provider (null: the one whose models list the model), model, dims. */
export interface EmbedderConfig {
  provider: string | null;
  model: string;
  dims: number | null;
}

/** Whether two configurations name the same embedder. */
export function sameEmbedder(a: EmbedderConfig, b: EmbedderConfig): boolean {
  return a.provider === b.provider && a.model === b.model && a.dims === b.dims;
}

/** The embedder in force, or why there is none. */
export type EmbedderState =
  | { wired: true; provider: string; model: string; dims: number | null; marker: string }
  | { wired: false; reason: string; code: number; provider: string | null; model: string | null; dims: number | null };

/** Who pays for an embedding call: a run (reserved against its budget) or an agent outside a run. */
export type EmbedCharge =
  { task: PreflightTask; agent: PreflightAgent } | { agentId: string; taskId?: string | null } | null;

/**
 * The configured embedding model (`memory.embedder_provider`, `memory.embedder_model`,
 * `memory.embedder_dims`), called through the provider registry's drivers: the same address checks,
 * call records and quotas as chat calls. A call made for a run reserves its estimated cost first and
 * records its cost (`call_category` embedding) like any model call of the run.
 */
@Injectable()
export class MemoryEmbedder {
  private readonly log: Logger;
  /**
   * The embedder retrieval and new entries use while a re-embedding moves the stored vectors to the
   * configured one (null: the configured one). Queries must be embedded by the model that made the
   * vectors searched.
   */
  private retrieval: EmbedderConfig | null = null;

  constructor(
    private readonly registry: ProviderRegistry,
    private readonly settings: SettingsSnapshot,
    private readonly spend: RunSpend,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('memory.embedder');
  }

  /** Makes retrieval and new entries use `config` until cleared (null) by the end of a re-embedding. */
  useForRetrieval(config: EmbedderConfig | null): void {
    this.retrieval = config;
  }

  /** The embedder retrieval uses: the one a re-embedding moves away from, else the configured one. */
  retrievalConfig(): EmbedderConfig | null {
    return this.retrieval ?? this.configured();
  }

  /** The configured embedder (settings), or null when no model is set. */
  configured(): EmbedderConfig | null {
    const model = this.settings.value<string | null>(NS, 'embedder_model');
    return model
      ? {
          provider: this.settings.value<string | null>(NS, 'embedder_provider'),
          model,
          dims: this.settings.value<number | null>(NS, 'embedder_dims'),
        }
      : null;
  }

  /** Resolves the configured embedder (or `config`) against the settings and the live providers. */
  state(config?: EmbedderConfig): EmbedderState {
    const backend = this.settings.value<string | null>(NS, 'backend') ?? 'embedded';
    const providerName = config ? config.provider : this.settings.value<string | null>(NS, 'embedder_provider');
    const model = config ? config.model : this.settings.value<string | null>(NS, 'embedder_model');
    const dims = config ? config.dims : this.settings.value<number | null>(NS, 'embedder_dims');
    const refuse = (reason: string, code: number = ErrorCode.MemoryBackendUnavailable): EmbedderState => ({
      wired: false,
      reason,
      code,
      provider: providerName,
      model,
      dims,
    });
    if (!(MEMORY_BACKENDS as readonly string[]).includes(backend)) {
      return refuse(`memory.backend ${backend} is not a backend of this service (embedded, or its alias mem0)`);
    }
    if (!model) {
      return refuse('no embedding model configured (memory.embedder_model, SYNTHORG_MEMORY_EMBEDDER_MODEL)');
    }
    const provider = this.providerFor(providerName, model);
    if (!provider) {
      return refuse(
        providerName
          ? `embedding provider ${providerName} is not registered`
          : `embedding model ${model} is offered by no registered provider (set memory.embedder_provider)`,
      );
    }
    if (!provider.driver.embed) {
      return refuse(
        `provider ${provider.record.name} speaks the ${provider.record.protocol} protocol, which has no embeddings endpoint`,
        ErrorCode.MemoryEmbedderUnsupported,
      );
    }
    const name = provider.record.name;
    return { wired: true, provider: name, model, dims, marker: `${name}/${model}/${dims ?? 'native'}` };
  }

  private providerFor(name: string | null, model: string): RegisteredProvider | undefined {
    if (name) {
      return this.registry.get(name);
    }
    return this.registry.list().find((p) => p.record.models.some((m) => m.id === model || m.alias === model));
  }

  /**
   * Unit vectors of the texts, in order, with the embedder that made them: `config`, else the one
   * retrieval uses (see {@link useForRetrieval}).
   * @throws AppError 8040 without an embedder, 7040 for an answer of the wrong shape, or the provider's error.
   */
  async embed(
    texts: readonly string[],
    charge: EmbedCharge,
    signal?: AbortSignal,
    config?: EmbedderConfig,
  ): Promise<{ vectors: Float32Array[]; marker: string }> {
    const target = config ?? this.retrieval ?? undefined;
    const state = this.state(target);
    if (!state.wired) {
      throw new AppError(state.code as ErrorCode, `memory backend unavailable: ${state.reason}`, false, {
        httpStatus: 503,
      });
    }
    const provider = this.registry.get(state.provider);
    const driver = provider?.driver;
    if (!provider || !driver?.embed) {
      throw new AppError(ErrorCode.MemoryBackendUnavailable, 'memory backend unavailable: the provider went away');
    }
    const pricing = provider.record.models.find((m) => m.id === state.model || m.alias === state.model);
    const estimate = costOfCall(
      pricing,
      texts.reduce((sum, t) => sum + Math.ceil(t.length / 3), 0),
      0,
    );
    let reservation: string | null = null;
    if (charge && 'task' in charge) {
      const verdict = await this.spend.reserve({
        task: charge.task,
        agent: charge.agent,
        provider: state.provider,
        model: state.model,
        estimatedCost: estimate,
      });
      if (!verdict.ok) {
        throw new AppError(verdict.code as ErrorCode, verdict.reason);
      }
      reservation = verdict.reservationId;
    }
    let result;
    try {
      result = await driver.embed({
        model: state.model,
        input: [...texts],
        ...(state.dims !== null ? { dimensions: state.dims } : {}),
        signal,
        timeoutMs: EMBED_TIMEOUT_MS,
      });
    } catch (error) {
      if (reservation !== null) {
        await this.spend.release(reservation).catch(() => undefined);
      }
      throw error;
    }
    const vectors = result.vectors;
    const size = state.dims ?? vectors[0]?.length ?? 0;
    if (vectors.length !== texts.length || size === 0 || vectors.some((v) => v.length !== size)) {
      if (reservation !== null) {
        await this.spend.release(reservation).catch(() => undefined);
      }
      throw new ProviderCallError(
        `embedding model ${state.model} answered ${vectors.length} vector(s) for ${texts.length} text(s), not all of size ${size}`,
        ErrorCode.EmbeddingMalformed,
      );
    }
    if (charge) {
      await this.recordCost(charge, state, costOfCall(pricing, result.inputTokens, 0), result.inputTokens, reservation);
    }
    return { vectors: vectors.map((v) => normalise(v)), marker: `${state.provider}/${state.model}/${size}` };
  }

  private async recordCost(
    charge: NonNullable<EmbedCharge>,
    state: Extract<EmbedderState, { wired: true }>,
    cost: number,
    inputTokens: number,
    reservation: string | null,
  ): Promise<void> {
    const isRun = 'task' in charge;
    try {
      await this.spend.record(
        {
          id: randomUUID(),
          agentId: isRun ? charge.agent.id : charge.agentId,
          taskId: isRun ? charge.task.id : (charge.taskId ?? null),
          provider: state.provider,
          model: state.model,
          inputTokens,
          outputTokens: 0,
          costUsd: cost,
          callCategory: 'embedding',
          timestamp: new Date(),
        },
        reservation,
      );
    } catch (error) {
      this.log.error({ err: error }, 'memory.embedding.cost_not_recorded');
    }
  }
}
