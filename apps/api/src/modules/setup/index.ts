// The setup module's public face: other modules import only from here.
export { SetupModule } from './setup.module';
