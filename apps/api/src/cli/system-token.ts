// `npm run system-token`: prints a System token valid for 60 seconds, for the command-line client's
// backup and restore calls. It reads the signing secret the way the server does (environment, then
// the YAML configuration file), so run it where the server's configuration is.
import { buildAppConfig, ConfigError, readConfigSources } from '@app/platform';

import { mintSystemToken } from '../modules/users';

function main(): void {
  try {
    const config = buildAppConfig(readConfigSources());
    process.stdout.write(`${mintSystemToken(config.auth.jwtSecret)}\n`);
  } catch (error) {
    process.stderr.write(
      `synthorg: cannot mint a System token: ${error instanceof ConfigError ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
}

main();
