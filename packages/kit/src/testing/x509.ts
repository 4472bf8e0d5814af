import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `openssl req` for a new RSA key and its self-signed certificate (printed on stdout); the key goes to `keyOut`. */
const opensslReq = (commonName: string, days: number, keyOut: string): string =>
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${commonName}`,
      '-days',
      String(days),
      '-keyout',
      keyOut,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );

/**
 * A fresh self-signed X.509 certificate (PEM), made by the `openssl` CLI: for tests of anything that
 * takes a real certificate (SAML providers). The private key is thrown away.
 */
export function selfSignedCertificatePem(commonName = 'test', days = 1): string {
  return opensslReq(commonName, days, '/dev/null');
}

/** A fresh self-signed X.509 certificate with its private key (both PEM): for tests that sign (a SAML identity provider). */
export function selfSignedKeyPair(commonName = 'test', days = 1): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'quire-x509-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const cert = opensslReq(commonName, days, keyFile);
    return { key: readFileSync(keyFile, 'utf8'), cert };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
