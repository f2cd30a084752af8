// The delegation module's public face: other modules import only from here.
export { DelegationModule } from './delegation.module';
export { type DelegationRequest, type DelegationResult, DelegationService } from './delegation.service';
