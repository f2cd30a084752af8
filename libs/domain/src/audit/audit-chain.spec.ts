import { AUDIT_GENESIS_HASH, type AuditFields, auditHash, verifyAuditRows } from './audit-chain';

function chain(n: number): (AuditFields & { hash: string })[] {
  const rows: (AuditFields & { hash: string })[] = [];
  let prevHash = AUDIT_GENESIS_HASH;
  for (let seq = 1; seq <= n; seq += 1) {
    const fields: AuditFields = {
      seq,
      id: `id-${seq}`,
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)),
      actor: 'ceo',
      action: 'approval.decided',
      target: `approval:${seq}`,
      outcome: 'success',
      requestId: null,
      details: { b: 1, a: [seq] },
      prevHash,
    };
    const hash = auditHash(fields);
    rows.push({ ...fields, hash });
    prevHash = hash;
  }
  return rows;
}

describe(verifyAuditRows.name, () => {
  it('should accept an intact chain whatever the order of detail keys', () => {
    const rows = chain(4);
    expect(verifyAuditRows(rows, null)).toBeNull();
    expect(auditHash({ ...rows[0], details: { a: [1], b: 1 } })).toBe(rows[0].hash);
  });

  it('should name the row whose field was edited', () => {
    const rows = chain(4);
    rows[2] = { ...rows[2], actor: 'intruder' };
    expect(verifyAuditRows(rows, null)).toEqual({ seq: 3, reason: 'hash_mismatch' });
  });

  it('should name the row after a deleted one', () => {
    const rows = chain(4);
    rows.splice(1, 1);
    expect(verifyAuditRows(rows, null)).toEqual({ seq: 3, reason: 'gap' });
  });

  it('should name a row re-hashed on a forged link', () => {
    const rows = chain(3);
    const forged = { ...rows[1], prevHash: 'f'.repeat(64) };
    rows[1] = { ...forged, hash: auditHash(forged) };
    expect(verifyAuditRows(rows, null)).toEqual({ seq: 2, reason: 'link_mismatch' });
  });

  it('should continue from the previous batch', () => {
    const rows = chain(4);
    expect(verifyAuditRows(rows.slice(2), { seq: 2, hash: rows[1].hash })).toBeNull();
    expect(verifyAuditRows(rows.slice(2), { seq: 2, hash: 'x' })).toEqual({ seq: 3, reason: 'link_mismatch' });
  });
});
