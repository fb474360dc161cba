/**
 * Whether a URL may receive webhooks: `https`, and every address its host resolves to a
 * public one (never loopback, private, shared, link-local, cloud metadata, multicast or
 * reserved). Checked when an endpoint is saved and again at every delivery, by the lookup
 * the delivery's connection uses, so a name that changes its answer after the check
 * (DNS rebinding) still cannot reach inside. `allowLoopback` (an operator setting, for
 * tests and the demo) admits loopback addresses, over plain http too.
 */
import { lookup as dnsLookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`): its IPv4 form. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

/** Why an address may not be reached, or null when it is public (or loopback, allowed). */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  const a = unmapped(address);
  if (allowLoopback && LOOPBACK.check(a.address, a.family)) return null;
  return BLOCKED.check(a.address, a.family) ? `${address} is not a public address` : null;
}

/** Why a URL may not receive webhooks (its form only; the addresses are checked at connection), or null. */
export function urlRefusal(raw: string, allowLoopback: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && allowLoopback) return null;
  return 'must be an https URL';
}

/** A `lookup` for node:http(s) that refuses any answer holding a non-public address. */
export function publicLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as { address: string; family: number }[];
      const refused = list.map((a) => addressRefusal(a.address, allowLoopback)).find((r) => r !== null);
      if (refused || list.length === 0) {
        const error = Object.assign(new Error(refused ?? `${hostname} has no address`), { code: 'EADDRREFUSED' });
        return callback(error, '', 0);
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** Resolves `url`'s host and says why it may not receive webhooks, or null (checked when an endpoint is saved). */
export async function resolvedRefusal(raw: string, allowLoopback: boolean): Promise<string | null> {
  const form = urlRefusal(raw, allowLoopback);
  if (form) return form;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    publicLookup(allowLoopback)(host, { all: true }, (err) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      resolve(!err ? null : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? `${host} does not resolve to an address` : err.message);
    });
  });
}
