import { defineSettings, ErrorCode, MEMORY_CATEGORIES, parseCategoryRetention, ValidationError } from '@app/domain';

/** The `memory` namespace: the backend, levels, consolidation, the embedder and retrieval. */
export const MEMORY_SETTINGS = defineSettings('memory', [
  {
    key: 'backend',
    type: 'str',
    default: 'mem0',
    description: 'Memory backend (embedded; mem0 is its alias)',
    group: 'Backend',
    restartRequired: true,
  },
  {
    key: 'default_level',
    type: 'enum',
    default: 'persistent',
    description: 'Memory level of new agents',
    group: 'Behaviour',
    enumValues: ['none', 'session', 'project', 'persistent'],
  },
  {
    key: 'consolidation_interval',
    type: 'enum',
    default: 'daily',
    description: 'How often memories are consolidated',
    group: 'Behaviour',
    level: 'advanced',
    enumValues: ['hourly', 'daily', 'weekly', 'never'],
  },
  {
    key: 'consolidation_enforce_batch_size',
    type: 'int',
    default: '1000',
    description: 'Memories consolidated per batch',
    group: 'Behaviour',
    level: 'advanced',
    min: 100,
    max: 10000,
  },
  {
    key: 'max_memories_per_agent',
    type: 'int',
    default: '10000',
    description: 'Most entries an agent keeps; consolidation drops the least useful',
    group: 'Behaviour',
    level: 'advanced',
    min: 1,
    max: 1000000,
  },
  {
    key: 'retention_days',
    type: 'int',
    default: null,
    description: "Days an entry is kept unless the agent's memory.retention_days says otherwise; unset keeps",
    group: 'Behaviour',
    level: 'advanced',
    min: 1,
  },
  {
    key: 'category_retention_days',
    type: 'json',
    default: '{}',
    description: 'Days kept per category, e.g. {"working": 7}; overrides retention_days',
    group: 'Behaviour',
    level: 'advanced',
    validate: (text) => {
      try {
        parseCategoryRetention(JSON.parse(text), MEMORY_CATEGORIES);
      } catch (error) {
        throw new ValidationError(
          `memory.category_retention_days: ${(error as Error).message}`,
          ErrorCode.MemoryConsolidationSettingInvalid,
        );
      }
    },
  },
  {
    key: 'duplicate_threshold',
    type: 'float',
    default: '0.95',
    description: 'Cosine from which two entries of a category are merged',
    group: 'Behaviour',
    level: 'advanced',
    min: 0.5,
    max: 1,
  },
  {
    key: 'embedder_provider',
    type: 'str',
    default: null,
    description: 'Provider of the embedding model',
    group: 'Embedding',
    level: 'advanced',
    envAliases: ['SYNTHORG_MEMORY_EMBEDDER_PROVIDER'],
  },
  {
    key: 'embedder_model',
    type: 'str',
    default: null,
    description: 'Embedding model',
    group: 'Embedding',
    level: 'advanced',
    envAliases: ['SYNTHORG_MEMORY_EMBEDDER_MODEL'],
  },
  {
    key: 'embedder_dims',
    type: 'int',
    default: null,
    description: 'Dimensions of the embeddings',
    group: 'Embedding',
    level: 'advanced',
    min: 1,
  },
  {
    key: 'retrieval_token_budget',
    type: 'int',
    default: '1500',
    description: 'Tokens of memory injected at a task start',
    group: 'Behaviour',
    level: 'advanced',
    min: 100,
    max: 32000,
  },
]);
