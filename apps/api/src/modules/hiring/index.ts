// The hiring module's public face: nothing but the module (its routes and its tool are its interface).
export { HiringModule } from './hiring.module';
