import type { PreflightCheck, PreflightContext, PreflightResult } from '@app/domain';

/** The ordered pipeline. A refusal stops it; a swap of provider or model carries on to later steps. */
export class RunPreflight {
  private readonly checks: PreflightCheck[] = [];

  register(check: PreflightCheck): () => void {
    this.checks.push(check);
    this.checks.sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));
    return () => {
      const index = this.checks.indexOf(check);
      if (index >= 0) {
        this.checks.splice(index, 1);
      }
    };
  }

  names(): string[] {
    return this.checks.map((c) => c.name);
  }

  async run(initial: PreflightContext): Promise<PreflightResult> {
    const context = { ...initial };
    const notes: string[] = [];
    for (const check of this.checks) {
      const verdict = await check.check(context);
      if (!verdict.ok) {
        return { ok: false, check: check.name, reason: verdict.reason, code: verdict.code };
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
