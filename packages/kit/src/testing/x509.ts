import { execFileSync } from 'node:child_process';

/**
 * A fresh self-signed X.509 certificate (PEM), made by the `openssl` CLI: for tests of anything that
 * takes a real certificate (SAML providers). The private key is thrown away.
 */
export function selfSignedCertificatePem(commonName = 'test', days = 1): string {
  return execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${commonName}`, '-days', String(days), '-keyout', '/dev/null'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
