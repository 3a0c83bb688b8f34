// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect
// metadata API before the library is evaluated.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

// Throwaway certificates for a test control plane: ECDSA P-256, valid for a week. They
// protect nothing but loopback traffic of one test run, so they favour speed (EC keys
// are generated in about a millisecond) over any operational concern.

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

const crypto = webcrypto;
const keyAlgorithm = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-256' } as const;
const week = 7 * 24 * 60 * 60 * 1000;
// Tolerate clocks that disagree by a little (etcd, the apiserver and Node share one clock
// here, but a user's remote cluster may not).
const backdate = 60 * 60 * 1000;

/** A PEM certificate and its PEM (PKCS#8) private key. */
export interface CertificateAndKey {
  certPem: string;
  keyPem: string;
}

/** A certificate authority that can issue leaf certificates. */
export interface CertificateAuthority extends CertificateAndKey {
  /** Issues a TLS server certificate for the given DNS names and IP addresses. */
  issueServerCertificate(hosts?: readonly string[]): Promise<CertificateAndKey>;
  /**
   * Issues a TLS client certificate. Kubernetes reads the common name as the user name
   * and each organisation as a group.
   */
  issueClientCertificate(user: string, groups?: readonly string[]): Promise<CertificateAndKey>;
}

/** The hosts a loopback server answers to; Go checks SANs only, never the common name. */
export const loopbackHosts: readonly string[] = ['localhost', '127.0.0.1', '::1'];

// PEM blocks end with a newline so that they can be concatenated into bundles.
const pemLine = (pem: string): string => (pem.endsWith('\n') ? pem : `${pem}\n`);

function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f; // keep the serial positive
  return Buffer.from(bytes).toString('hex');
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(keyAlgorithm, true, ['sign', 'verify']);
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey('pkcs8', key);
  return pemLine(x509.PemConverter.encode(der, 'PRIVATE KEY'));
}

/** Exports a public key as an SPKI PEM ("PUBLIC KEY"), as kube-apiserver reads it. */
export async function publicKeyPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey('spki', key);
  return pemLine(x509.PemConverter.encode(der, 'PUBLIC KEY'));
}

function validity(): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: new Date(now - backdate), notAfter: new Date(now + week) };
}

function isIpAddress(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  const der = x509.PemConverter.decodeFirst(pem);
  return crypto.subtle.importKey('pkcs8', der, keyAlgorithm, true, ['sign']);
}

async function issue(
  ca: { cert: x509.X509Certificate; key: CryptoKey },
  subject: x509.JsonName,
  extensions: x509.Extension[],
): Promise<CertificateAndKey> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerial(),
      subject,
      issuer: ca.cert.subject,
      ...validity(),
      publicKey: keys.publicKey,
      signingKey: ca.key,
      signingAlgorithm,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
          true,
        ),
        await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey, false, crypto),
        ...extensions,
      ],
    },
    crypto,
  );
  return { certPem: pemLine(cert.toString('pem')), keyPem: await privateKeyPem(keys.privateKey) };
}

function authorityFrom(cert: x509.X509Certificate, key: CryptoKey, keyPem: string): CertificateAuthority {
  const signer = { cert, key };
  return {
    certPem: pemLine(cert.toString('pem')),
    keyPem,
    issueServerCertificate: (hosts = loopbackHosts) =>
      issue(
        signer,
        [{ CN: [hosts[0] ?? 'localhost'] }],
        [
          new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
          new x509.SubjectAlternativeNameExtension(
            hosts.map((host) => ({ type: isIpAddress(host) ? 'ip' : 'dns', value: host })),
          ),
        ],
      ),
    issueClientCertificate: (user, groups = []) => {
      // One RDN per group, the shape openssl and Go's crypto/x509 produce.
      const subject: x509.JsonName = [{ CN: [user] }, ...groups.map((g) => ({ O: [g] }))];
      return issue(signer, subject, [new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth])]);
    },
  };
}

/** Creates a new self-signed certificate authority. */
export async function createCertificateAuthority(commonName: string): Promise<CertificateAuthority> {
  const keys = await generateKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomSerial(),
      name: [{ CN: [commonName] }],
      ...validity(),
      keys,
      signingAlgorithm,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      ],
    },
    crypto,
  );
  return authorityFrom(cert, keys.privateKey, await privateKeyPem(keys.privateKey));
}

/**
 * Rebuilds a certificate authority from PEM, e.g. the client CA that the vitest global
 * setup hands to test workers so each worker can mint users of its own.
 */
export async function loadCertificateAuthority(pem: CertificateAndKey): Promise<CertificateAuthority> {
  const cert = new x509.X509Certificate(pem.certPem);
  return authorityFrom(cert, await importPrivateKey(pem.keyPem), pem.keyPem);
}

/** A key pair for signing service-account tokens. */
export async function createServiceAccountSigningKey(): Promise<{
  publicKeyPem: string;
  privateKeyPem: string;
}> {
  const keys = await generateKeys();
  return {
    publicKeyPem: await publicKeyPem(keys.publicKey),
    privateKeyPem: await privateKeyPem(keys.privateKey),
  };
}
