import { ERROR_CATEGORIES } from '@app/domain';

export const ERROR_DETAIL_SCHEMA = {
  type: 'object',
  required: ['detail', 'error_code', 'error_category', 'retryable', 'retry_after', 'instance', 'title', 'type'],
  properties: {
    detail: { type: 'string' },
    error_code: { type: 'integer', minimum: 1000, maximum: 8999 },
    error_category: { type: 'string', enum: [...ERROR_CATEGORIES] },
    retryable: { type: 'boolean' },
    retry_after: { type: ['integer', 'null'], minimum: 0 },
    instance: { type: 'string' },
    title: { type: 'string' },
    type: { type: 'string', format: 'uri' },
  },
};
