import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, loadCertificateAuthority } from '../src/pki.js';

describe('throwaway PKI', () => {
  it('issues server certificates for loopback that chain to the CA', async () => {
    const ca = await createCertificateAuthority('test-ca');
    const server = await ca.issueServerCertificate();
    const caCert = new X509Certificate(ca.certPem);
    const cert = new X509Certificate(server.certPem);
    expect(caCert.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.keyUsage).toContain('1.3.6.1.5.5.7.3.1');
    expect(server.certPem.endsWith('\n')).toBe(true);
    expect(server.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+-----END PRIVATE KEY-----\n$/);
  });

  it('puts the user in CN and each group in an O, as Kubernetes reads them', async () => {
    const ca = await createCertificateAuthority('client-ca');
    const client = await ca.issueClientCertificate('alice', ['system:authenticated', 'team,with comma']);
    const cert = new X509Certificate(client.certPem);
    // Node prints the comma escaped: one O value, not two.
    expect(cert.subject).toBe('CN=alice\nO=system:authenticated\nO=team\\,with comma');
    expect(cert.keyUsage).toContain('1.3.6.1.5.5.7.3.2');
    expect(cert.checkIssued(new X509Certificate(ca.certPem))).toBe(true);
  });

  it('a CA rebuilt from PEM (as in vitest workers) issues certificates the original CA vouches for', async () => {
    const ca = await createCertificateAuthority('client-ca');
    const copy = await loadCertificateAuthority({ certPem: ca.certPem, keyPem: ca.keyPem });
    const client = await copy.issueClientCertificate('bob');
    const cert = new X509Certificate(client.certPem);
    expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(cert.subject).toBe('CN=bob');
  });
});
