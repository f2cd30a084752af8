// The users module's public face: other modules import only from here.
export { UserDirectory } from './user-directory.facade';
export { UsersModule } from './users.module';
export { mintSystemToken, SYSTEM_TOKEN_TTL_SECONDS } from './system-token';
