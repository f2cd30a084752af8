// The offboarding module's public face: other modules import only from here.
export { OffboardingModule } from './offboarding.module';
