import type {
  ChatChunk,
  ChatRequest,
  ChatResult,
  DiscoveredModel,
  EmbedRequest,
  EmbedResult,
  LlmDriver,
  ModelCapabilities,
  PullProgress,
} from '@app/domain';

/**
 * Checks the provider's address before every call, so a refused target fails at once with the
 * refusal instead of reaching the SDK, which would retry it as a connection error. Names are checked
 * again when dialled (the guarded transport's lookup); this only front-runs what can be known.
 */
export class AddressCheckedDriver implements LlmDriver {
  readonly pullModel?: (modelId: string, signal?: AbortSignal) => AsyncIterable<PullProgress>;
  readonly deleteModel?: (modelId: string) => Promise<void>;
  readonly embed?: (request: EmbedRequest) => Promise<EmbedResult>;

  constructor(
    private readonly inner: LlmDriver,
    private readonly check: () => Promise<void>,
  ) {
    const pullModel = inner.pullModel?.bind(inner);
    const deleteModel = inner.deleteModel?.bind(inner);
    const embed = inner.embed?.bind(inner);
    if (embed) {
      this.embed = async (request) => {
        await this.check();
        return embed(request);
      };
    }
    if (pullModel) {
      this.pullModel = (modelId, signal) => this.checkedStream(() => pullModel(modelId, signal));
    }
    if (deleteModel) {
      this.deleteModel = async (modelId) => {
        await this.check();
        return deleteModel(modelId);
      };
    }
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    await this.check();
    return this.inner.chat(request);
  }

  stream(request: ChatRequest): AsyncIterable<ChatChunk> {
    return this.checkedStream(() => this.inner.stream(request));
  }

  async listModels(signal?: AbortSignal): Promise<DiscoveredModel[]> {
    await this.check();
    return this.inner.listModels(signal);
  }

  async capabilities(modelId: string, signal?: AbortSignal): Promise<Partial<ModelCapabilities> | null> {
    await this.check();
    return this.inner.capabilities(modelId, signal);
  }

  private async *checkedStream<T>(open: () => AsyncIterable<T>): AsyncIterable<T> {
    await this.check();
    yield* open();
  }
}
