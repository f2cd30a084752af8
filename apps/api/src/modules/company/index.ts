// The company module's public face: other modules import only from here.
export { CompanyFacade, type DepartmentShape } from './company.facade';
export { CompanyModule } from './company.module';
export { CompanyService } from './company.service';
export { ProjectsService } from './projects.service';
