// The approvals module's public face: other modules import only from here.
export { ApprovalsModule } from './approvals.module';
export { type ApprovalRequest, ApprovalsService } from './approvals.service';
export { ApprovalResponseDto } from './dto/approval-item.dto';
