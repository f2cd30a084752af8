// The audit module's public face: other modules record through AuditTrail.
export { AuditModule } from './audit.module';
export { type AuditEvent, AuditTrail } from './audit-trail';
