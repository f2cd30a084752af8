import { createHash } from 'node:crypto';

/** The hash a chain's first row links to. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/** Outcomes an audit row records. */
export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** The fields of a row that its hash covers (everything but the hash itself). */
export interface AuditFields {
  seq: number;
  id: string;
  at: Date;
  actor: string;
  action: string;
  target: string | null;
  outcome: string;
  requestId: string | null;
  details: Record<string, unknown>;
  prevHash: string;
}

/** A JSON text with object keys sorted at every depth, so that equal details hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** SHA-256 (hex) of the previous row's hash and this row's fields. */
export function auditHash(fields: AuditFields): string {
  const text = canonical({
    seq: fields.seq,
    id: fields.id,
    at: fields.at.toISOString(),
    actor: fields.actor,
    action: fields.action,
    target: fields.target,
    outcome: fields.outcome,
    request_id: fields.requestId,
    details: fields.details,
    prev_hash: fields.prevHash,
  });
  return createHash('sha256').update(text).digest('hex');
}

/** Where a chain breaks: the first row whose link or hash does not hold. */
export interface AuditBreak {
  seq: number;
  reason: 'hash_mismatch' | 'link_mismatch' | 'gap';
}

/**
 * Checks consecutive rows against the row before them (`previous`: the last row of the prior batch,
 * or null at the start of the chain). A changed field changes the row's hash; a deleted row leaves a
 * gap in `seq` or a link to a hash that is not its predecessor's.
 */
export function verifyAuditRows(
  rows: readonly (AuditFields & { hash: string })[],
  previous: { seq: number; hash: string } | null,
): AuditBreak | null {
  let before = previous;
  for (const row of rows) {
    if (before !== null && row.seq !== before.seq + 1) {
      return { seq: row.seq, reason: 'gap' };
    }
    // A chain that starts at its first row links to the genesis hash.
    const expectedLink = before?.hash ?? (row.seq === 1 ? AUDIT_GENESIS_HASH : row.prevHash);
    if (row.prevHash !== expectedLink) {
      return { seq: row.seq, reason: 'link_mismatch' };
    }
    if (auditHash(row) !== row.hash) {
      return { seq: row.seq, reason: 'hash_mismatch' };
    }
    before = { seq: row.seq, hash: row.hash };
  }
  return null;
}
