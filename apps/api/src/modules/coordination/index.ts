// The coordination module's public face: other modules import only from here.
export { CoordinationModule } from './coordination.module';
