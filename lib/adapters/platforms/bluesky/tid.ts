import { randomInt } from "node:crypto";

// A record key of the kind app.bsky.feed.post takes: a TID (atproto.com/specs/tid), 64 bits
// written as 13 characters of base32-sortable: the top bit 0, then microseconds since the
// epoch (53 bits), then a 10-bit clock id. Chosen by this service before the record is created
// and stored first, so that a repeated createRecord names the same record and the PDS refuses
// it instead of posting twice.

const ALPHABET = "234567abcdefghijklmnopqrstuvwxyz";
const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const clockId = BigInt(randomInt(1024));
let last = 0n;

function encode(n: bigint): string {
  let s = "";
  for (let i = 0; i < 13; i++, n >>= 5n) s = ALPHABET[Number(n & 31n)] + s;
  return s;
}

function decode(tid: string): bigint {
  let n = 0n;
  for (const c of tid) n = (n << 5n) | BigInt(ALPHABET.indexOf(c));
  return n;
}

export const isTid = (s: string) => TID.test(s);

/** A new TID, later than any this process made before. */
export function tid(now = Date.now()): string {
  let t = (BigInt(now) * 1000n) << 10n;
  if (t <= last) t = last + 1024n;
  last = t;
  return encode(t | clockId);
}

/** The TID right after `t` (the same moment, the next clock id): a key no other record of the account's is likely to have. */
export const nextTid = (t: string): string => encode(decode(t) + 1n);

/** The record key of an at:// URI (at://{did}/{collection}/{rkey}). */
export const rkeyOf = (uri: string) => uri.slice(uri.lastIndexOf("/") + 1);
