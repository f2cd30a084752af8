import { randomUUID } from 'node:crypto';

import { RunSpend } from '../../apps/api/src/modules/engine';
import type { TestApp } from './test-app';

/**
 * One model call's cost, written the way runs write it: through the spend control the budget module
 * plugs into the engine, so the rollup rows that spend reads come with it.
 */
export async function recordSpend(
  t: TestApp,
  agentId: string,
  timestamp: Date,
  costUsd: number,
  taskId: string | null = null,
): Promise<void> {
  await t.app.get(RunSpend).record(
    {
      id: randomUUID(),
      agentId,
      taskId,
      provider: 'test-provider',
      model: 'medium-model',
      inputTokens: 100,
      outputTokens: 50,
      costUsd,
      callCategory: 'productive',
      timestamp,
    },
    null,
  );
}
