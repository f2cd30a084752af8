import type { PreflightCheck, PreflightContext, PreflightResult } from '@app/domain';
import { NamedRegistry } from '@app/platform';

/** The ordered pipeline. A refusal stops it; a swap of provider or model carries on to later steps. */
export class RunPreflight extends NamedRegistry<PreflightCheck> {
  constructor() {
    super('pre-flight check', false);
  }

  /** Kept in run order (by `order`, then name). */
  override register(check: PreflightCheck): () => void {
    const unregister = super.register(check);
    this.entries.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
    return unregister;
  }

  async run(initial: PreflightContext): Promise<PreflightResult> {
    const context = { ...initial };
    const notes: string[] = [];
    for (const check of this.entries) {
      const verdict = await check.check(context);
      if (!verdict.ok) {
        const { reason, code, spendLimit } = verdict;
        return { ok: false, check: check.name, reason, code, ...(spendLimit ? { spendLimit } : {}) };
      }
      context.provider = verdict.provider ?? context.provider;
      context.model = verdict.model ?? context.model;
      if (verdict.note) {
        notes.push(`${check.name}: ${verdict.note}`);
      }
    }
    return { ok: true, provider: context.provider, model: context.model, notes };
  }
}
