// The artifacts module's public face: other modules import only from here.
export { ArtifactsModule } from './artifacts.module';
export { ArtifactsService, type NewArtifact } from './artifacts.service';
