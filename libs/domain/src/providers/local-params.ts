import {
  configError,
  isIntegerInRange,
  isPlainObject,
  ownValue,
  throwIfProblems,
  unknownKeysProblem,
} from './validation';

/**
 * Launch parameters of a locally served model (Ollama-style names, stored and served verbatim).
 * Null or absent: the server's default.
 */
export interface LocalModelParams {
  /** Context window in tokens. */
  num_ctx?: number | null;
  /** Layers offloaded to the GPU (0: CPU only). */
  num_gpu_layers?: number | null;
  num_threads?: number | null;
  /** Prompt-processing batch size. */
  num_batch?: number | null;
  /** Penalty on repeated tokens (1: none). */
  repeat_penalty?: number | null;
}

export type LocalModelParamName = keyof LocalModelParams;

interface ParamRange {
  readonly name: LocalModelParamName;
  readonly integer: boolean;
  /** Inclusive bounds. */
  readonly min: number;
  readonly max: number;
}

/** The accepted range of every parameter, in canonical key order. */
export const LOCAL_MODEL_PARAM_RANGES: readonly ParamRange[] = [
  { name: 'num_ctx', integer: true, min: 128, max: 1_048_576 },
  { name: 'num_gpu_layers', integer: true, min: 0, max: 1024 },
  { name: 'num_threads', integer: true, min: 1, max: 1024 },
  { name: 'num_batch', integer: true, min: 1, max: 65_536 },
  { name: 'repeat_penalty', integer: false, min: 0, max: 5 },
];

const PARAM_NAMES = LOCAL_MODEL_PARAM_RANGES.map((range) => range.name);

/**
 * Validates launch parameters against LOCAL_MODEL_PARAM_RANGES and returns every key in canonical
 * order, null when unset. Null or absent input means all defaults.
 * @throws ValidationError (2005) naming unknown keys and every field of the wrong type or out of range.
 */
export function parseLocalModelParams(raw: unknown): LocalModelParams {
  const params: Required<LocalModelParams> = {
    num_ctx: null,
    num_gpu_layers: null,
    num_threads: null,
    num_batch: null,
    repeat_penalty: null,
  };
  if (raw === null || raw === undefined) {
    return params;
  }
  if (!isPlainObject(raw)) {
    throw configError(['local model parameters: must be a JSON object']);
  }
  const problems: string[] = [];
  const unknown = unknownKeysProblem(raw, PARAM_NAMES, 'local model parameters: ');
  if (unknown !== null) {
    problems.push(unknown);
  }
  for (const range of LOCAL_MODEL_PARAM_RANGES) {
    const value = ownValue(raw, range.name);
    if (value === null || value === undefined) {
      continue;
    }
    if (inRange(value, range)) {
      params[range.name] = value;
    } else {
      const kind = range.integer ? 'an integer' : 'a number';
      problems.push(`${range.name}: must be ${kind} between ${range.min} and ${range.max} (inclusive) or null`);
    }
  }
  throwIfProblems(problems);
  return params;
}

function inRange(value: unknown, range: ParamRange): value is number {
  if (range.integer) {
    return isIntegerInRange(value, range.min, range.max);
  }
  return typeof value === 'number' && Number.isFinite(value) && value >= range.min && value <= range.max;
}
