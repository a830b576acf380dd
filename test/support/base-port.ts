import { readFileSync } from 'node:fs';

/**
 * A random base port for a service that listens on `base`, `base + 1` and `base + 2` (npm start:
 * the API, the embedded DynamoDB and S3), chosen below the kernel's ephemeral range. Ports in that
 * range are also handed out as the local ports of outgoing connections: under the suite's load one
 * of them can be taken by some other test's connection between a kill and the restart on the same
 * ports (seen: "PORT+2 already in use" after a kill -9). Below the range only listeners can hold a
 * port, and every listener of the suite but these asks for port 0, which the kernel gives from the
 * ephemeral range.
 */
export function basePortBelowEphemeral(): number {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || low;
  } catch {
    /* not Linux: the common default */
  }
  const from = 10_000;
  const to = Math.max(from + 1000, low - 3);
  return from + Math.floor(Math.random() * (to - from));
}
