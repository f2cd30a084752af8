// The tool-servers module's public face: other modules import only from here.
export { ToolServersModule } from './tool-servers.module';
