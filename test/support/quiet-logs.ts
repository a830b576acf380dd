import { setLogLevel } from '../../functions/core/log.js';

// Tests that call the core directly (no service, so no config applied) log warnings and errors only.
setLogLevel('warn');
