import { ErrorCode, ValidationError } from '../errors';
import { LOCAL_MODEL_PARAM_RANGES, parseLocalModelParams } from './local-params';

const ALL_NULL = { num_ctx: null, num_gpu_layers: null, num_threads: null, num_batch: null, repeat_penalty: null };

function validationErrorOf(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) {
      return error;
    }
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('parseLocalModelParams', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an empty object', {}],
    ['all keys null', ALL_NULL],
  ])('should answer all defaults for %s', (_label, raw) => {
    expect(parseLocalModelParams(raw)).toEqual(ALL_NULL);
  });

  it('should keep the given values and fill the rest with null, in canonical order', () => {
    const params = parseLocalModelParams({ repeat_penalty: 1.1, num_ctx: 8192 });
    expect(params).toEqual({ ...ALL_NULL, num_ctx: 8192, repeat_penalty: 1.1 });
    expect(Object.keys(params)).toEqual(['num_ctx', 'num_gpu_layers', 'num_threads', 'num_batch', 'repeat_penalty']);
  });

  it.each<[string, number]>([
    ['num_ctx', 128],
    ['num_ctx', 1_048_576],
    ['num_gpu_layers', 0],
    ['num_gpu_layers', 1024],
    ['num_threads', 1],
    ['num_threads', 1024],
    ['num_batch', 1],
    ['num_batch', 65_536],
    ['repeat_penalty', 0],
    ['repeat_penalty', 5],
    ['repeat_penalty', 1.15],
    ['repeat_penalty', 5.0],
  ])('should accept %s = %d', (field, value) => {
    expect(parseLocalModelParams({ [field]: value })).toMatchObject({ [field]: value });
  });

  it.each<[string, unknown, string]>([
    ['num_ctx', 127, 'num_ctx: must be an integer between 128 and 1048576 (inclusive) or null'],
    ['num_ctx', 1_048_577, 'num_ctx: must be an integer between 128 and 1048576'],
    ['num_ctx', 4096.5, 'num_ctx: must be an integer'],
    ['num_ctx', '4096', 'num_ctx: must be an integer'],
    ['num_gpu_layers', -1, 'num_gpu_layers: must be an integer between 0 and 1024'],
    ['num_gpu_layers', 1025, 'num_gpu_layers: must be an integer between 0 and 1024'],
    ['num_gpu_layers', true, 'num_gpu_layers: must be an integer'],
    ['num_threads', 0, 'num_threads: must be an integer between 1 and 1024'],
    ['num_threads', 1025, 'num_threads: must be an integer between 1 and 1024'],
    ['num_threads', [4], 'num_threads: must be an integer'],
    ['num_batch', 0, 'num_batch: must be an integer between 1 and 65536'],
    ['num_batch', 65_537, 'num_batch: must be an integer between 1 and 65536'],
    ['num_batch', Number.NaN, 'num_batch: must be an integer'],
    ['repeat_penalty', -0.01, 'repeat_penalty: must be a number between 0 and 5 (inclusive) or null'],
    ['repeat_penalty', 5.0001, 'repeat_penalty: must be a number between 0 and 5'],
    ['repeat_penalty', Number.POSITIVE_INFINITY, 'repeat_penalty: must be a number'],
    ['repeat_penalty', Number.NaN, 'repeat_penalty: must be a number'],
    ['repeat_penalty', '1.1', 'repeat_penalty: must be a number'],
    ['repeat_penalty', {}, 'repeat_penalty: must be a number'],
  ])('should reject %s = %p, naming the field and range', (field, value, message) => {
    const error = validationErrorOf(() => parseLocalModelParams({ [field]: value }));
    expect(error.code).toBe(ErrorCode.ConfigValidationError);
    expect(error.httpStatus).toBe(400);
    expect(error.message).toContain(message);
    expect(error.message).toMatch(/^[a-z_]+: must be an? (integer|number) between \S+ and \S+ \(inclusive\) or null$/);
  });

  it.each<[string, unknown, string]>([
    ['a string', 'fast', 'local model parameters: must be a JSON object'],
    ['an array', [], 'local model parameters: must be a JSON object'],
    ['a number', 5, 'local model parameters: must be a JSON object'],
    [
      'an unknown key',
      { num_ctx: 2048, temperature: 0.2 },
      'local model parameters: unknown field temperature (allowed: num_ctx, num_gpu_layers, num_threads, num_batch, repeat_penalty)',
    ],
    ['two unknown keys', { top_k: 1, numCtx: 2 }, 'local model parameters: unknown fields top_k, numCtx'],
  ])('should reject %s', (_label, raw, message) => {
    expect(validationErrorOf(() => parseLocalModelParams(raw)).message).toContain(message);
  });

  it('should report every problem at once', () => {
    const error = validationErrorOf(() => parseLocalModelParams({ seed: 1, num_ctx: 1, repeat_penalty: 9 }));
    expect(error.message.split('; ')).toEqual([
      expect.stringContaining('unknown field seed'),
      expect.stringContaining('num_ctx:'),
      expect.stringContaining('repeat_penalty:'),
    ]);
  });

  it('should describe every parameter once', () => {
    expect(LOCAL_MODEL_PARAM_RANGES.map((range) => range.name)).toEqual(Object.keys(ALL_NULL));
  });
});
