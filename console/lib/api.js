// The console's API client: same-origin fetch (the HttpOnly session cookie goes along), or a
// pasted Bearer key; errors as ApiError.

const STORE = 'gleaner.console.auth';

/**
 * What the console is logged in with, kept in sessionStorage (this tab only):
 * { mode: 'session', email, tenant_id } after a password login: no secret at all, the credential
 * is the HttpOnly session cookie, which page scripts cannot read;
 * { mode: 'key', api_key, tenant_id?, tenant_name? } when the user pasted an API key.
 */
export const auth = {
  get() {
    try {
      const v = JSON.parse(sessionStorage.getItem(STORE) ?? 'null');
      if (v?.mode === 'session') return { mode: 'session', email: v.email, tenant_id: v.tenant_id };
      return v?.mode === 'key' && typeof v.api_key === 'string' ? v : null;
    } catch {
      return null;
    }
  },
  set(v) {
    sessionStorage.setItem(STORE, JSON.stringify(v));
  },
  clear() {
    sessionStorage.removeItem(STORE);
  },
};

export class ApiError extends Error {
  constructor({ status, code, message, request_id, details, retry_after }) {
    super(message || `Request failed (${status})`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = request_id ?? null;
    this.details = Array.isArray(details) ? details : null;
    this.retryAfter = retry_after ?? null;
  }
}

/** Turn a non-2xx response into an ApiError, whatever its body. */
async function toApiError(res) {
  let body;
  const text = await res.text().catch(() => '');
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  const retry = res.headers.get('retry-after');
  return new ApiError({
    status: res.status,
    code: body?.code ?? `http_${res.status}`,
    message:
      (typeof body?.message === 'string' && body.message) ||
      `The service answered ${res.status} ${res.statusText || ''}`.trim() + (text && !body ? `: ${text.slice(0, 200)}` : ''),
    request_id: body?.request_id ?? res.headers.get('x-request-id'),
    details: body?.details,
    retry_after: retry,
  });
}

const qs = (query) => {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
};

/** Path segment encoding for ids and file keys. */
export const seg = (s) => encodeURIComponent(String(s));

/**
 * request('GET', '/v1/runs', { query, json, signal, auth: 'bearer' | 'cookie', raw })
 * auth 'bearer' (default) sends the stored key; 'cookie' sends none (the session cookie goes
 * along same-origin). raw returns the Response (for downloads). quiet: a 401 does not log out.
 */
export async function request(method, path, opts = {}) {
  // x-gleaner-client: the audit log says such a call was made in the console (a pasted key's calls too), not through the API.
  const headers = { accept: 'application/json', 'x-gleaner-client': 'console' };
  const a = auth.get();
  const bearer = opts.auth !== 'cookie' && a?.mode === 'key' && a.api_key;
  if (bearer) headers.authorization = `Bearer ${a.api_key}`;
  let body;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  }
  let res;
  try {
    res = await fetch(path + qs(opts.query), { method, headers, body, signal: opts.signal, credentials: 'same-origin', cache: 'no-store' });
  } catch (e) {
    if (e?.name === 'AbortError') throw e;
    throw new ApiError({ status: 0, code: 'network_error', message: `Could not reach the service (${e?.message ?? e}). Check that it is running.` });
  }
  if (!res.ok) {
    const err = await toApiError(res);
    if (res.status === 401 && a && opts.auth !== 'cookie' && !opts.quiet) window.dispatchEvent(new CustomEvent('gleaner:unauthorized', { detail: err }));
    throw err;
  }
  if (opts.raw) return res;
  if (res.status === 204) return null;
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({ status: res.status, code: 'bad_response', message: 'The service sent a response that is not JSON', request_id: res.headers.get('x-request-id') });
  }
}

export const get = (path, query, opts = {}) => request('GET', path, { ...opts, query });
export const post = (path, json, opts = {}) => request('POST', path, { ...opts, json });
export const put = (path, json, opts = {}) => request('PUT', path, { ...opts, json });
export const patch = (path, json, opts = {}) => request('PATCH', path, { ...opts, json });
export const del = (path, opts = {}) => request('DELETE', path, opts);

/** The filename of a Content-Disposition header, if any (only a plain, safe name). */
function dispositionName(res) {
  const m = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '');
  return m && /^[\w.:-]{1,200}$/.test(m[1]) ? m[1] : null;
}

/**
 * Fetch with the key, then save through a Blob and an object URL (an <a download> click):
 * a plain link could not send the Authorization header.
 */
export async function download(path, query, fallbackName) {
  const res = await request('GET', path, { query, raw: true });
  const blob = await res.blob();
  const name = dispositionName(res) ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return name;
}
