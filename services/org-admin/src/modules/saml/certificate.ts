import { X509Certificate } from 'node:crypto';
import { invalid } from '@quire/kit';

const ARMOR = /^-----BEGIN CERTIFICATE-----\s*([A-Za-z0-9+/=\s]+?)\s*-----END CERTIFICATE-----$/;
const BASE64 = /^[A-Za-z0-9+/=\s]+$/;

/**
 * The certificate of an identity provider, as stored: PEM with its armor, 64-character lines. Users paste a
 * PEM file or the bare base64 DER of IdP metadata (`<X509Certificate>MIIC…</X509Certificate>`); both are
 * accepted and normalized. Anything that does not parse as an X.509 certificate is a 400 naming the field.
 */
export function normalizeCertificate(text: string): string {
  const trimmed = text.trim();
  const body = ARMOR.exec(trimmed)?.[1] ?? (BASE64.test(trimmed) ? trimmed : undefined);
  const der = body === undefined ? undefined : Buffer.from(body.replace(/\s+/g, ''), 'base64');
  try {
    if (!der?.length) throw new Error('empty');
    new X509Certificate(der);
  } catch {
    throw invalid('Invalid request: certificate: not a PEM-encoded X.509 certificate, nor the base64 DER of one');
  }
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`;
}
