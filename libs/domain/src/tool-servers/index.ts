export * from './tool-servers';
