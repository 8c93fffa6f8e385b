/**
 * Webhook signatures: `x-dagboard-signature: v1=<hex HMAC-SHA256(secret, timestamp + "." + body)>`, the timestamp
 * (unix seconds) in `x-dagboard-timestamp`. Signing the timestamp with the body lets receivers refuse replays of old
 * deliveries (the README's recipe allows five minutes).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-dagboard-signature';
export const TIMESTAMP_HEADER = 'x-dagboard-timestamp';
export const EVENT_ID_HEADER = 'x-dagboard-event-id';

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signDelivery(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The receiver's check (the README's recipe, in this code base for the tests). */
export function verifyDelivery(secret: string, timestamp: string, body: string, header: string): boolean {
  const expected = Buffer.from(signDelivery(secret, timestamp, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
