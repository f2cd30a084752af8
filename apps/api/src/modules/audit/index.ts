// The audit module's public face: other modules record through AuditTrail.
export { AuditModule } from './audit.module';
export { AuditRetention } from './audit-retention';
export { type AuditEvent, AuditTrail } from './audit-trail';
