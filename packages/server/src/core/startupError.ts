/**
 * A start refused for a reason the operator can act on. `hublink` prints it as one line (no stack)
 * and exits with `exitCode`: 78 (EX_CONFIG, sysexits.h) for a configuration that can never work, so a
 * supervisor can be told not to restart on it; 1 for what may pass (a database, Redis or port not yet
 * available, a data dir not yet mounted).
 */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** The environment's configuration cannot be used as it is (exit 78). */
export class ConfigError extends StartupError {
  constructor(message: string) {
    super(message, 78);
    this.name = 'ConfigError';
  }
}
