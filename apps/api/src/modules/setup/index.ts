// The setup module's public face: other modules import only from here.
export { SetupModule } from './setup.module';
export { NameGenerator } from './names/name-generator';
export { SetupService } from './setup.service';
export { TemplateCatalog } from './templates/template-catalog';
