/**
 * Structured JSON logs. Secrets never reach a log line: values that look like API keys,
 * webhook secrets or bearer tokens are masked, credentials in URLs too (core/redact-url.ts), and
 * fields with secret-ish names are dropped.
 */
import { redactUrlCredentials } from './redact-url.js';

const SECRET_FIELD = /secret|password|authorization|api_key|token|credential|cookie/i;
const SECRET_VALUE = /(glr_|whsec_|gls_)[0-9A-Za-z]{6,}|Bearer\s+[^\s"]+/g;

/** Rewrites an error's stack before it is logged (the Lambda bundle maps it to the sources). */
let mapStack: (stack: string) => string = (s) => s;
export const setStackMapper = (f: (stack: string) => string) => {
  mapStack = f;
};

export function redact(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return redactUrlCredentials(v.replace(SECRET_VALUE, (m) => `${m.slice(0, 4)}…[redacted]`));
  if (!v || typeof v !== 'object' || depth > 6) return v;
  if (v instanceof Error) return { name: v.name, message: redact(v.message), stack: redact(v.stack === undefined ? undefined : mapStack(v.stack)) };
  if (Array.isArray(v)) return v.map((x) => redact(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : redact(x, depth + 1);
  return out;
}

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
let threshold: Level | 'silent' = 'info';
export const setLogLevel = (l: Level | 'silent') => {
  threshold = l;
};

function emit(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (ORDER[level] < ORDER[threshold]) return;
  const line = JSON.stringify({ level, ts: new Date().toISOString(), msg: redact(msg), ...(redact(fields ?? {}) as object) });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

export const log = {
  debug: (m: string, f?: Record<string, unknown>) => emit('debug', m, f),
  info: (m: string, f?: Record<string, unknown>) => emit('info', m, f),
  warn: (m: string, f?: Record<string, unknown>) => emit('warn', m, f),
  error: (m: string, f?: Record<string, unknown>) => emit('error', m, f),
  /** 401s have no tenant to audit against: they go to the service's security log. */
  security: (m: string, f?: Record<string, unknown>) => emit('warn', m, { security: true, ...f }),
};
