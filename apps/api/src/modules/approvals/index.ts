// The approvals module's public face: other modules import only from here.
export { ApprovalsModule } from './approvals.module';
export { ApprovalsService } from './approvals.service';
