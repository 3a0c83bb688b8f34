import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../src/kubeconfig.js';
import { main } from '../src/main.js';
import { captureIO } from './helpers/capture-io.js';
import { startSilentServer } from './helpers/silent-server.js';

const dir = mkdtempSync(join(tmpdir(), 'capi-kit-kubeconfig-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

/** A kubeconfig with one cluster, user and context, all named as given. */
const kubeconfig = (o: { cluster: string; user: string; context: string; server: string; ns?: string }) =>
  `apiVersion: v1
kind: Config
clusters:
- name: ${o.cluster}
  cluster: {server: '${o.server}'}
users:
- name: ${o.user}
  user: {token: t-${o.server.slice(-1)}}
contexts:
- name: ${o.context}
  context: {cluster: ${o.cluster}, user: ${o.user}${o.ns === undefined ? '' : `, namespace: '${o.ns}'`}}
current-context: ${o.context}
`;

/**
 * A TCP server on loopback that counts the connections made to it and hangs up on each:
 * a kubeconfig pointing at it shows whether a command sent anything at all.
 */
async function hangingUpServer() {
  const connections: number[] = [];
  const server = createServer((socket) => {
    connections.push(1);
    socket.destroy();
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
  return { port, connections, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('KUBECONFIG with several files, merged as kubectl merges them', () => {
  const first = file(
    'a',
    kubeconfig({ cluster: 'c', user: 'kubernetes-admin', context: 'x', server: 'https://127.0.0.1:1' }),
  );
  const second = file(
    'b',
    kubeconfig({ cluster: 'c', user: 'kubernetes-admin', context: 'y', server: 'https://127.0.0.1:2' }),
  );

  it('the first file to name a cluster, user or context wins; so does its current-context', async () => {
    const config = await loadKubeConfig(captureIO('', { KUBECONFIG: [first, second].join(delimiter) }).io);
    expect(config.getCurrentContext()).toBe('x');
    expect(config.getClusters()).toEqual([
      expect.objectContaining({ name: 'c', server: 'https://127.0.0.1:1' }),
    ]);
    expect(config.getUsers().map((u) => u.name)).toEqual(['kubernetes-admin']);
    expect(config.getContexts().map((c) => c.name)).toEqual(['x', 'y']);
  });

  it('the same file twice is no error (it was an internal error: "Duplicate cluster: c")', async () => {
    const c = captureIO('', { KUBECONFIG: [first, first].join(delimiter) });
    const config = await loadKubeConfig(c.io);
    expect(config.getCurrentCluster()?.server).toBe('https://127.0.0.1:1');
  });

  it('bytes that are not UTF-8 are refused with where they are, not read as U+FFFD (exit 3)', async () => {
    const good = kubeconfig({ cluster: 'c', user: 'u', context: 'x', server: 'https://127.0.0.1:1' });
    const [before, after] = good.split('t-1') as [string, string];
    const badToken = Buffer.concat([Buffer.from(`${before}t-`), Buffer.from([0xc3]), Buffer.from(after)]);
    const line = before.split('\n').length;
    for (const [name, bytes, where] of [
      // (it was "kubeconfig … is a string, not a mapping of clusters, contexts and users")
      ['binary', Buffer.from([0xff, 0xfe, 0x00, 0x01]), 'byte 0, line 1'],
      // (the token was sent with U+FFFD in place of the byte)
      ['bad-token', badToken, `byte ${Buffer.byteLength(before) + 2}, line ${line}`],
    ] as const) {
      const path = join(dir, `not-utf8-${name}`);
      writeFileSync(path, bytes);
      const c = captureIO('', { KUBECONFIG: path });
      expect(await main(['get', 'clusters'], c.io), name).toBe(3);
      expect(c.stderr(), name).toBe(`capi-kit get: kubeconfig ${path}: not valid UTF-8 (${where})\n`);
      expect(c.stdout()).toBe('');
    }
    // (a BOM and CRLF line ends are read as kubectl reads them)
    const bom = join(dir, 'bom-crlf');
    writeFileSync(bom, `\ufeff${good.replaceAll('\n', '\r\n')}`);
    const config = await loadKubeConfig(captureIO('', { KUBECONFIG: bom }).io);
    expect(config.getCurrentUser()?.token).toBe('t-1');
  });

  it('names from the kubeconfig are quoted as JSON literals of the names, not of their escaped text', async () => {
    // (they were quoted after escaping: "c\\x1b[31m", which reads as a backslash in the name)
    const path = join(dir, 'hostile-names');
    writeFileSync(
      path,
      `apiVersion: v1
kind: Config
clusters: [{name: "c\\e[31m", cluster: {server: "ftp://x\\e[2J"}}, {name: ok, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: "u\\u202e", user: {token: "t\\e"}}]
contexts: [{name: a, context: {cluster: "c\\e[31m", user: "u\\u202e"}}, {name: b, context: {cluster: ok, user: "u\\u202e"}}]
current-context: a
`,
    );
    const server = captureIO('', { KUBECONFIG: path });
    expect(await main(['get', 'clusters'], server.io)).toBe(3);
    expect(server.stderr()).toBe(
      'capi-kit get: kubeconfig cluster "c\\u001b[31m": its server "ftp://x\\u001b[2J" is not an https:// (or http://) URL\n',
    );
    writeFileSync(path, readFileSync(path, 'utf8').replace('current-context: a', 'current-context: b'));
    const token = captureIO('', { KUBECONFIG: path });
    expect(await main(['get', 'clusters'], token.io)).toBe(3);
    expect(token.stderr()).toBe(
      'capi-kit get: kubeconfig user "u\\u202e": its token holds a control character, so it cannot be sent in an HTTP header\n',
    );
  });

  it('an entry that is a directory is an error, as in kubectl', async () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    const loading = loadKubeConfig(captureIO('', { KUBECONFIG: [sub, first].join(delimiter) }).io);
    await expect(loading).rejects.toMatchObject({ code: 'kubeconfig-unreadable' });
  });
});

describe('namespaces and names go into request paths: refused before any request (exit 2)', () => {
  const config = file(
    'ok',
    kubeconfig({ cluster: 'c', user: 'u', context: 'x', server: 'https://127.0.0.1:1' }),
  );
  const run = async (argv: string[], path = config) => {
    const c = captureIO('', { KUBECONFIG: path });
    const code = await main(argv, c.io);
    return { code, stderr: c.stderr() };
  };

  it.each([
    [['get', 'clusters', '-n', '..'], '--namespace ".." is not a valid namespace'],
    [['get', 'clusters', '-n', ''], '--namespace "" is not a valid namespace'],
    [['get', 'machines', '-n', 'BAD NS'], '--namespace "BAD NS" is not a valid namespace'],
    [['describe', 'cluster', 'c1', '-n', '..'], '--namespace ".." is not a valid namespace'],
    [['describe', 'cluster', '..'], 'NAME ".." is not a valid Cluster name'],
    [['describe', 'cluster', 'a/b'], 'NAME "a/b" is not a valid Cluster name'],
    [['migrate', 'plan', '-n', '..'], '--namespace ".." is not a valid namespace'],
    [['migrate', 'prune', '--confirm', '-n', ''], '--namespace "" is not a valid namespace'],
    [
      ['autoscaler', 'groups', '--lease-namespace', '../x'],
      '--lease-namespace "../x" is not a valid namespace',
    ],
    [['lease', 'status', 'n1', '-n', '..'], '--namespace ".." is not a valid namespace'],
  ])('%j', async (argv, message) => {
    const { code, stderr } = await run(argv);
    expect(stderr).toContain(message);
    expect(code).toBe(2);
  });

  it('a kubeconfig context whose namespace is not one is an unusable kubeconfig (exit 3)', async () => {
    const bad = file(
      'bad-ns',
      kubeconfig({ cluster: 'c', user: 'u', context: 'x', server: 'https://127.0.0.1:1', ns: '..' }),
    );
    // (migrate settles its scope before it connects; get and describe after discovery)
    const { code, stderr } = await run(['migrate', 'plan'], bad);
    expect(stderr).toContain('the current context\'s namespace ".." is not a valid namespace');
    expect(code).toBe(3);
  });
});

describe('an API server that cannot be reached', () => {
  it('migrate says why (fetch says only "fetch failed"; the reason is its cause)', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const path = file(
      'closed',
      kubeconfig({ cluster: 'c', user: 'u', context: 'x', server: `https://127.0.0.1:${port}` }),
    );
    const c = captureIO('', { KUBECONFIG: path });
    expect(await main(['migrate', 'plan'], c.io)).toBe(3);
    expect(c.stderr()).toMatch(/^capi-kit migrate: list apigroups: fetch failed: .*ECONNREFUSED/);
  });
});

describe('an API server that accepts the connection and never answers', () => {
  it('every command that reads the cluster gives up after CAPI_KIT_REQUEST_TIMEOUT_SECONDS (exit 3)', async () => {
    const silent = await startSilentServer();
    const path = file('silent', silent.kubeconfig);
    try {
      for (const argv of [
        ['get', 'clusters'],
        ['describe', 'cluster', 'c1'],
        ['migrate', 'plan'],
        ['autoscaler', 'groups'],
      ]) {
        const c = captureIO('', { KUBECONFIG: path, CAPI_KIT_REQUEST_TIMEOUT_SECONDS: '1' });
        const started = Date.now();
        const code = await main(argv, c.io);
        expect(code, `${argv.join(' ')}: ${c.stderr()}`).toBe(3);
        // (it said "HTTP 23": the abort's DOMException code read as a status)
        expect(c.stderr()).toMatch(
          /: (no answer from the API server: )?The operation was aborted due to timeout\n$/,
        );
        expect(Date.now() - started).toBeLessThan(20_000);
      }
    } finally {
      await silent.close();
    }
  }, 120_000);

  it('refuses a CAPI_KIT_REQUEST_TIMEOUT_SECONDS that is not 1..3600 (exit 2)', async () => {
    for (const value of ['0', '-1', '1.5', '3601', 'x']) {
      const c = captureIO('', { KUBECONFIG: join(dir, 'missing'), CAPI_KIT_REQUEST_TIMEOUT_SECONDS: value });
      expect(await main(['get', 'clusters'], c.io)).toBe(2);
      expect(c.stderr()).toContain('CAPI_KIT_REQUEST_TIMEOUT_SECONDS must be 1..3600');
    }
  });
});

describe('credentials that cannot be used are refused before any request, saying which and why', () => {
  /** A kubeconfig whose one user is `user` (YAML flow text) and cluster `cluster`. */
  const withCredentials = (name: string, user: string, cluster = "{server: 'https://127.0.0.1:1'}") =>
    file(
      name,
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: ${cluster}}]
users: [{name: u, user: ${user}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
    );
  const run = async (argv: string[], path: string, env: Record<string, string> = {}) => {
    const c = captureIO('', { KUBECONFIG: path, ...env });
    const code = await main(argv, c.io);
    return { code, stderr: c.stderr() };
  };

  it('a token with a line break: exit 3, and the token is never printed', async () => {
    // (fetch refused the header with a message quoting it: "Bearer SECRET\nPART" is an invalid header value)
    const path = withCredentials('token-lf', '{token: "SECRET-TOKEN\\nPART"}');
    for (const argv of [
      ['get', 'clusters'],
      ['migrate', 'plan'],
      ['lease', 'status', 'n1'],
    ]) {
      const { code, stderr } = await run(argv, path);
      expect(code, argv.join(' ')).toBe(3);
      expect(stderr).toContain(
        'kubeconfig user "u": its token holds a control character, so it cannot be sent in an HTTP header',
      );
      expect(stderr).not.toContain('SECRET');
    }
  });

  it('certificate, key and CA files that are not regular files (they were read forever)', async () => {
    const ca = withCredentials(
      'ca-zero',
      '{token: t}',
      "{server: 'https://127.0.0.1:1', certificate-authority: /dev/zero}",
    );
    expect(await run(['get', 'clusters'], ca)).toEqual({
      code: 3,
      stderr: expect.stringContaining(
        'kubeconfig cluster "c": certificate-authority /dev/zero is not a readable regular file',
      ),
    });
    const key = withCredentials('key-dir', `{client-certificate: ${dir}, client-key: /dev/zero}`);
    expect((await run(['get', 'clusters'], key)).stderr).toContain(
      `kubeconfig user "u": client-certificate ${dir} is not a readable regular file`,
    );
  });

  it('certificate, key, CA and token files past 1 MiB are refused before they are read (they were read whole, however large)', async () => {
    // (sparse: 2 MiB long, nothing written)
    const huge = file('huge.pem', '');
    truncateSync(huge, 2 * 1024 * 1024);
    const cases = [
      [
        'ca-huge',
        '{token: t}',
        `{server: 'https://127.0.0.1:1', certificate-authority: ${huge}}`,
        `kubeconfig cluster "c": certificate-authority ${huge}: more than 1 MiB; capi-kit reads a CA file whole`,
      ],
      [
        'cert-huge',
        `{client-certificate: ${huge}, client-key-data: a2V5}`,
        undefined,
        `kubeconfig user "u": client-certificate ${huge}: more than 1 MiB; capi-kit reads a certificate file whole`,
      ],
      [
        'key-huge',
        `{client-certificate-data: Y2VydA==, client-key: ${huge}}`,
        undefined,
        `kubeconfig user "u": client-key ${huge}: more than 1 MiB; capi-kit reads a key file whole`,
      ],
      [
        'token-huge',
        '{tokenFile: huge.pem}',
        undefined,
        'kubeconfig user "u": tokenFile huge.pem: more than 1 MiB; capi-kit reads a token file whole',
      ],
    ] as const;
    for (const [name, user, cluster, message] of cases) {
      const path = withCredentials(name, user, cluster);
      for (const argv of [
        ['get', 'clusters'],
        ['lease', 'status', 'n1'],
      ]) {
        const { code, stderr } = await run(argv, path);
        expect({ code, stderr }, `${name}: ${argv.join(' ')}`).toEqual({
          code: 3,
          stderr: expect.stringContaining(message),
        });
      }
    }
    // (exactly 1 MiB is not past it)
    const mib = file('mib.pem', '');
    truncateSync(mib, 1024 * 1024);
    const config = await loadKubeConfig(
      captureIO('', {
        KUBECONFIG: withCredentials(
          'ca-mib',
          '{token: t}',
          `{server: 'https://127.0.0.1:1', certificate-authority: ${mib}}`,
        ),
      }).io,
    );
    expect(config.getCurrentCluster()?.caData).toHaveLength(Math.ceil((1024 * 1024) / 3) * 4);
  });

  it('certificate, key and CA files are read once, when the kubeconfig loads, not again on each request', async () => {
    // client-node read them whole on every request: a file that grew after the check was read without bound
    const ca = file('once-ca.pem', 'the CA');
    const cert = file('once-cert.pem', 'the certificate');
    const key = file('once-key.pem', 'the key');
    const config = await loadKubeConfig(
      captureIO('', {
        KUBECONFIG: withCredentials(
          'read-once',
          `{client-certificate: once-cert.pem, client-key: ${key}}`,
          "{server: 'https://127.0.0.1:1', certificate-authority: once-ca.pem}",
        ),
      }).io,
    );
    for (const path of [ca, cert, key]) truncateSync(path, 8 * 1024 * 1024);
    const options: { ca?: Buffer; cert?: Buffer; key?: Buffer } = {};
    await config.applyToHTTPSOptions(options as never);
    expect({
      ca: options.ca?.toString(),
      cert: options.cert?.toString(),
      key: options.key?.toString(),
    }).toEqual({ ca: 'the CA', cert: 'the certificate', key: 'the key' });
  });

  it('a FIFO named as a CA or key file is refused, not waited on', async () => {
    const fifo = join(dir, 'fifo.pem');
    execFileSync('mkfifo', [fifo]);
    const ca = withCredentials(
      'ca-fifo',
      '{token: t}',
      `{server: 'https://127.0.0.1:1', certificate-authority: ${fifo}}`,
    );
    expect(await run(['get', 'clusters'], ca)).toEqual({
      code: 3,
      stderr: expect.stringContaining(
        `kubeconfig cluster "c": certificate-authority ${fifo} is not a readable regular file`,
      ),
    });
    const key = withCredentials('key-fifo', `{client-certificate-data: Y2VydA==, client-key: ${fifo}}`);
    expect((await run(['get', 'clusters'], key)).stderr).toContain(
      `kubeconfig user "u": client-key ${fifo} is not a readable regular file`,
    );
  });

  it('a server URL with a user name or password is refused unprinted (fetch quoted it whole, password and all)', async () => {
    for (const server of [
      'https://admin:S3CRET@127.0.0.1:1',
      'ftp://admin:S3CRET@127.0.0.1:1',
      'https://S3CRET@[::1',
    ]) {
      const { code, stderr } = await run(
        ['get', 'clusters'],
        withCredentials('server-creds', '{token: t}', `{server: '${server}'}`),
      );
      expect(code, server).toBe(3);
      expect(stderr, server).toMatch(
        /^capi-kit get: kubeconfig cluster "c": its server (URL holds a user name or password|is not a URL) \(not shown/,
      );
      expect(stderr, server).not.toContain('S3CRET');
    }
  });

  it('a server that is no http(s) URL is named as such (it was "You need to define an absolute base url")', async () => {
    for (const server of ['ftp://127.0.0.1:1', '127.0.0.1:6443', 'https://[::1']) {
      const path = withCredentials('server-scheme', '{token: t}', `{server: '${server}'}`);
      expect(await run(['get', 'clusters'], path), server).toEqual({
        code: 3,
        stderr: `capi-kit get: kubeconfig cluster "c": its server ${JSON.stringify(server)} is not an https:// (or http://) URL\n`,
      });
    }
  });

  it('a huge server is named shortened (a 1 MB one filled a pipe, and the message was cut off)', async () => {
    const server = `ftp://${'a'.repeat(1_000_000)}`;
    const { code, stderr } = await run(
      ['get', 'clusters'],
      withCredentials('server-huge', '{token: t}', `{server: '${server}'}`),
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(/characters left out\) …a+" is not an https:\/\/ \(or http:\/\/\) URL\n$/);
    expect(stderr.length).toBeLessThan(2_000);
  });

  const exec = (command: string, args: string[]) =>
    `{exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ${command}, args: ${JSON.stringify(args)}}}`;

  it('a credential plugin that fails says so (the message was empty)', async () => {
    const path = withCredentials('exec-false', exec('/bin/false', []));
    const { code, stderr } = await run(['get', 'clusters'], path);
    expect(code).toBe(3);
    expect(stderr).toMatch(/the kubeconfig's credential plugin \(\/bin\/false\) failed without a message\n$/);
  });

  it('a credential plugin that never answers is given up on after the request timeout', async () => {
    const path = withCredentials('exec-sleep', exec('sleep', ['5']));
    const started = Date.now();
    const { code, stderr } = await run(['get', 'clusters'], path, { CAPI_KIT_REQUEST_TIMEOUT_SECONDS: '1' });
    expect(code).toBe(3);
    expect(stderr).toMatch(/the kubeconfig's credential plugin \(sleep\) gave no credentials within 1 s\n$/);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('a kubeconfig of the wrong shape is refused as such, not as one without a cluster', () => {
  // (client-node takes a field of another type as empty, so these were "no current cluster")
  const good = kubeconfig({ cluster: 'c', user: 'u', context: 'x', server: 'https://127.0.0.1:1' });
  const cases: [string, string, string][] = [
    [
      'clusters',
      good.replace(/clusters:\n- name: c\n {2}cluster: \{[^}]*\}\n/, 'clusters: 5\n'),
      'clusters is a number, not a list',
    ],
    [
      'contexts',
      good.replace(/contexts:\n.*\n.*\n/, 'contexts: {x: {cluster: c}}\n'),
      'contexts is a mapping, not a list',
    ],
    ['users', good.replace(/users:\n.*\n.*\n/, 'users: "u"\n'), 'users is a string, not a list'],
    [
      'current-context',
      good.replace('current-context: x', 'current-context: [x]'),
      "current-context is a list, not a context's name",
    ],
    ['top', '- just\n- a list\n', 'is a list, not a mapping of clusters, contexts and users'],
    ['comments', '# nothing but a comment\n', 'is null, not a mapping of clusters, contexts and users'],
  ];
  for (const [name, text, why] of cases) {
    it(name, async () => {
      const path = file(`shape-${name}`, text);
      const c = captureIO('', { KUBECONFIG: path });
      expect(await main(['get', 'clusters'], c.io)).toBe(3);
      const where = name === 'top' || name === 'comments' ? `kubeconfig ${path} ` : `kubeconfig ${path}: `;
      expect(c.stderr()).toBe(`capi-kit get: ${where}${why}\n`);
    });
  }

  // client-node's YAML reader takes more than 100 aliases; ours refused them, and the file
  // then went to client-node unchecked: clusters: 5 was "no current cluster", a tokenFile was
  // never read (a token-file of /dev/zero was read forever).
  const aliases = `${Array.from({ length: 101 }, (_, i) => `a${i}: ${i === 0 ? '&a 1' : '*a'}`).join('\n')}\n`;
  it('a file our YAML reader refuses is refused with its reason, not loaded unchecked', async () => {
    for (const [name, text] of [
      ['aliases-shape', `${aliases}clusters: 5\n`],
      ['aliases-token-file', aliases + good.replace('{token: t-1}', '{token: inline, tokenFile: /dev/zero}')],
    ] as const) {
      const path = file(name, text);
      const loading = loadKubeConfig(captureIO('', { KUBECONFIG: path }).io);
      await expect(loading, name).rejects.toMatchObject({
        code: 'kubeconfig-invalid',
        message: `cannot load kubeconfig ${path}: Excessive alias count indicates a resource exhaustion attack`,
      });
    }
  });

  it('a YAML error says where', async () => {
    const path = file(
      'dup-key',
      good.replace("{server: 'https://127.0.0.1:1'}", "{server: 'https://127.0.0.1:1', server: x}"),
    );
    await expect(loadKubeConfig(captureIO('', { KUBECONFIG: path }).io)).rejects.toMatchObject({
      code: 'kubeconfig-invalid',
      message: expect.stringMatching(
        /^cannot load kubeconfig .*: Map keys must be unique at line 5, column \d+$/,
      ),
    });
  });

  it('a current-context or context cluster naming nothing defined says which (it said only "set a current context")', async () => {
    for (const [name, text, why] of [
      [
        'no-context',
        good.replace('current-context: x', 'current-context: y'),
        'current-context "y" names no context',
      ],
      [
        'no-cluster',
        good.replace('{cluster: c,', '{cluster: d,'),
        'context "x" names cluster "d", which is not defined',
      ],
    ] as const) {
      const path = file(name, text);
      await expect(loadKubeConfig(captureIO('', { KUBECONFIG: path }).io), name).rejects.toMatchObject({
        code: 'no-current-cluster',
        message: `no current cluster in the kubeconfig (${path}): ${why}`,
      });
    }
  });

  it('the well-formed one it is cut from loads', async () => {
    expect(
      (await loadKubeConfig(captureIO('', {}).io, file('shape-good', good))).getCurrentCluster()?.name,
    ).toBe('c');
  });
});

describe('token files, as kubectl reads them', () => {
  const withUser = (name: string, user: string) =>
    file(
      name,
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: u, user: ${user}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
    );

  it('reads tokenFile (client-node knew only token-file: the token went unsent), relative to the kubeconfig', async () => {
    file('token.txt', '  from-the-file\n');
    const config = await loadKubeConfig(
      captureIO('', { KUBECONFIG: withUser('tf', '{tokenFile: token.txt}') }).io,
    );
    expect(config.getCurrentUser()?.token).toBe('from-the-file');
    const both = withUser('tf-both', `{token: inline, tokenFile: ${join(dir, 'token.txt')}}`);
    expect((await loadKubeConfig(captureIO('', { KUBECONFIG: both }).io)).getCurrentUser()?.token).toBe(
      'from-the-file',
    );
  });

  it('reads token-file relative to the kubeconfig too, and only as checked (client-node read it again from the working directory, and unchecked beside a tokenFile: /dev/zero held the command forever)', async () => {
    file('token.txt', '  from-the-file\n');
    for (const [name, user] of [
      ['tfd-relative', '{token-file: token.txt}'],
      ['tfd-beside', '{tokenFile: token.txt, token-file: nowhere.txt}'],
    ] as const) {
      const config = await loadKubeConfig(captureIO('', { KUBECONFIG: withUser(name, user) }).io);
      expect(config.getCurrentUser()?.token, name).toBe('from-the-file');
    }
  });

  it('minds a bad tokenFile only for the user it runs as, as kubectl does', async () => {
    const path = file(
      'tf-other-user',
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: u, user: {token: t}}, {name: other, user: {tokenFile: nowhere.txt}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
    );
    expect((await loadKubeConfig(captureIO('', { KUBECONFIG: path }).io)).getCurrentUser()?.token).toBe('t');
  });

  it('refuses a token file that is no regular file (/dev/zero was read forever), and a missing one', async () => {
    for (const [name, user, shown] of [
      ['tf-zero', '{tokenFile: /dev/zero}', '/dev/zero'],
      ['tf-dash', '{token-file: /dev/zero}', '/dev/zero'],
      ['tf-missing', '{tokenFile: nowhere.txt}', 'nowhere.txt'],
    ] as const) {
      const loading = loadKubeConfig(captureIO('', { KUBECONFIG: withUser(name, user) }).io);
      await expect(loading, name).rejects.toMatchObject({
        code: 'kubeconfig-unreadable',
        message: `kubeconfig user "u": tokenFile ${shown} is not a readable regular file`,
      });
    }
  });
});

describe('a context naming a user that is not defined is refused, not sent anonymously', () => {
  // client-node took the missing user as none, and every request went without credentials.
  // client-go's validation refuses it: "user %q was not found for context %q".
  const withContext = (name: string, context: string, users = '[{name: u, user: {token: t}}]', server = 1) =>
    file(
      name,
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:${server}'}}]
users: ${users}
contexts: [{name: prod, context: ${context}}]
current-context: prod
`,
    );

  it('every command that reads the cluster: exit 3, saying which context and user, and no request sent', async () => {
    const { port, connections, close } = await hangingUpServer();
    try {
      const path = withContext('ghost-user', '{cluster: c, user: ghost}', undefined, port);
      for (const argv of [
        ['get', 'clusters'],
        ['describe', 'cluster', 'c1'],
        ['migrate', 'plan'],
        ['autoscaler', 'groups'],
        ['lease', 'status', 'n1'],
      ]) {
        const c = captureIO('', { KUBECONFIG: path, CAPI_KIT_REQUEST_TIMEOUT_SECONDS: '2' });
        expect(await main(argv, c.io), argv.join(' ')).toBe(3);
        expect(c.stderr(), argv.join(' ')).toBe(
          `capi-kit ${argv[0]}: kubeconfig ${path}: context "prod" names user "ghost", which is not in users\n`,
        );
      }
      expect(connections).toEqual([]);
    } finally {
      await close();
    }
  });

  it('convert --context checks the context it is given, not only the current one (it was set after the checks)', async () => {
    const { port, connections, close } = await hangingUpServer();
    const path = file(
      'context-flag',
      `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:${port}'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: good, context: {cluster: c, user: u}}, {name: prod, context: {cluster: c, user: ghost}}]
current-context: good
`,
    );
    const manifest = 'apiVersion: cluster.x-k8s.io/v1beta2\nkind: Cluster\nmetadata: {name: c1}\n';
    const convert = async (context: string) => {
      const c = captureIO(manifest, { KUBECONFIG: path, CAPI_KIT_REQUEST_TIMEOUT_SECONDS: '2' });
      const argv = ['convert', '-f', '-', '--to', 'cluster.x-k8s.io/v1beta1', '--context', context];
      return { code: await main(argv, c.io), stdout: c.stdout(), stderr: c.stderr() };
    };
    try {
      expect(await convert('prod')).toEqual({
        code: 3,
        stdout: '',
        stderr: `capi-kit convert: kubeconfig ${path}: context "prod" names user "ghost", which is not in users\n`,
      });
      expect(await convert('nope')).toEqual({
        code: 3,
        stdout: '',
        stderr: 'capi-kit convert: no context "nope" in the kubeconfig (contexts: good, prod)\n',
      });
      expect(connections).toEqual([]);
      // (the good one is used: its lookup reaches the server, which hangs up)
      expect((await convert('good')).stderr).toMatch(/^capi-kit convert: contract lookup: /);
      expect(connections.length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it('a user named with another type is refused as such', async () => {
    const path = withContext('user-bool', '{cluster: c, user: true}');
    await expect(loadKubeConfig(captureIO('', { KUBECONFIG: path }).io)).rejects.toMatchObject({
      code: 'kubeconfig-invalid',
      message: `kubeconfig ${path}: context "prod" names its user with a boolean, not a user's name`,
    });
  });

  it('a user of false or 0 is refused, naming the file and field (client-node took it as no user: anonymous)', async () => {
    for (const [name, value, shown] of [
      ['user-false', 'false', 'false (a boolean)'],
      ['user-zero', '0', '0 (a number)'],
    ] as const) {
      const path = withContext(name, `{cluster: c, user: ${value}}`);
      await expect(loadKubeConfig(captureIO('', { KUBECONFIG: path }).io), name).rejects.toMatchObject({
        code: 'kubeconfig-invalid',
        message: `kubeconfig ${path}: contexts[0].context.user of context "prod" is ${shown}, not a user's name: client-node took it as no user (every request went anonymous)`,
      });
      // every command that reads a cluster, and a workload kubeconfig given to describe
      for (const argv of [
        ['get', 'machines'],
        ['describe', 'cluster', 'c1'],
      ]) {
        const c = captureIO('', { KUBECONFIG: path });
        expect(await main(argv, c.io), argv.join(' ')).toBe(3);
        expect(c.stderr()).toContain(
          `kubeconfig ${path}: contexts[0].context.user of context "prod" is ${shown}`,
        );
        expect(c.stdout()).toBe('');
      }
      const c = captureIO('', { KUBECONFIG: withContext(`${name}-ok`, '{cluster: c, user: u}') });
      expect(await main(['describe', 'cluster', 'c1', '--workload-kubeconfig', path], c.io)).toBe(3);
      expect(c.stderr()).toBe(
        `capi-kit describe: kubeconfig ${path}: contexts[0].context.user of context "prod" is ${shown}, not a user's name: client-node took it as no user (every request went anonymous)\n`,
      );
    }
  });

  it('a namespace of 0 is refused, naming the file and field (client-node took it as none: default)', async () => {
    const path = withContext('namespace-zero', '{cluster: c, user: u, namespace: 0}');
    await expect(loadKubeConfig(captureIO('', { KUBECONFIG: path }).io)).rejects.toMatchObject({
      code: 'kubeconfig-invalid',
      message: `kubeconfig ${path}: contexts[0].context.namespace of context "prod" is 0 (a number), not a namespace: client-node took it as no namespace (the command used "default")`,
    });
  });

  it('a namespace or cluster named with a number, a boolean or a list is refused as such, before any request (exit 3)', async () => {
    const { port, connections, close } = await hangingUpServer();
    try {
      for (const [name, context, said] of [
        [
          'ns-number',
          '{cluster: c, user: u, namespace: 5}',
          'namespace of context "prod" is 5 (a number), not a namespace',
        ],
        [
          'ns-true',
          '{cluster: c, user: u, namespace: true}',
          'namespace of context "prod" is true (a boolean), not a namespace',
        ],
        [
          'ns-list',
          '{cluster: c, user: u, namespace: [x]}',
          'namespace of context "prod" is a list, not a namespace',
        ],
        [
          'cluster-number',
          '{cluster: 5, user: u}',
          'cluster of context "prod" is 5 (a number), not a cluster\'s name',
        ],
      ] as const) {
        // (a cluster named "5" is there: `cluster: 5` was "names cluster 5, which is not defined")
        const path = file(
          name,
          `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:${port}'}}, {name: '5', cluster: {server: 'https://127.0.0.1:${port}'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: prod, context: ${context}}]
current-context: prod
`,
        );
        for (const argv of [
          ['get', 'clusters'],
          ['describe', 'cluster', 'c1'],
          ['migrate', 'plan'],
          ['autoscaler', 'groups'],
          ['lease', 'status', 'n1'],
        ]) {
          const c = captureIO('', { KUBECONFIG: path });
          expect(await main(argv, c.io), `${name}: ${argv.join(' ')}`).toBe(3);
          expect(c.stderr(), `${name}: ${argv.join(' ')}`).toBe(
            `capi-kit ${argv[0]}: kubeconfig ${path}: contexts[0].context.${said}\n`,
          );
          expect(c.stdout()).toBe('');
        }
      }
      expect(connections).toEqual([]);
    } finally {
      await close();
    }
  });

  it('commandNamespace names the type of a context namespace that is no text', async () => {
    const { commandNamespace } = await import('../src/names.js');
    expect(() => commandNamespace(undefined, 5)).toThrow(
      "the current context's namespace is a number (5), not a namespace's name",
    );
    expect(() => commandNamespace(undefined, ['x'])).toThrow(
      "the current context's namespace is a list, not a namespace's name",
    );
    expect(commandNamespace(undefined, null)).toBe('default');
    expect(commandNamespace('n', 5)).toBe('n');
  });

  it('the file that defines the context is named; a context the command does not use is not minded', async () => {
    const bad = withContext('user-false-later', '{cluster: c, user: false}');
    const good = withContext('user-good-first', '{cluster: c, user: u}');
    // (the first file's context "prod" wins, as merged)
    const config = await loadKubeConfig(captureIO('', { KUBECONFIG: [good, bad].join(delimiter) }).io);
    expect(config.getCurrentUser()?.name).toBe('u');
    await expect(
      loadKubeConfig(captureIO('', { KUBECONFIG: [bad, good].join(delimiter) }).io),
    ).rejects.toMatchObject({
      message: expect.stringMatching(new RegExp(`^kubeconfig ${bad}: contexts\\[0\\]`)),
    });
  });

  it('a context with no user, or an empty one, is anonymous on purpose, as in kubectl', async () => {
    for (const [name, context] of [
      ['no-user', '{cluster: c}'],
      ['empty-user', "{cluster: c, user: ''}"],
      ['null-user', '{cluster: c, user: null}'],
    ] as const) {
      const config = await loadKubeConfig(captureIO('', { KUBECONFIG: withContext(name, context) }).io);
      expect(config.getCurrentUser(), name).toBeNull();
    }
  });

  it('a user defined in a later KUBECONFIG file is found (they are merged first)', async () => {
    const first = withContext('user-later-a', '{cluster: c, user: later}');
    const second = withContext(
      'user-later-b',
      '{cluster: c, user: u}',
      '[{name: later, user: {token: from-b}}]',
    );
    const config = await loadKubeConfig(captureIO('', { KUBECONFIG: [first, second].join(delimiter) }).io);
    expect(config.getCurrentUser()?.token).toBe('from-b');
  });
});

describe('an insecure-skip-tls-verify that is not true or false is refused, not read otherwise than kubectl reads it', () => {
  // kubectl's YAML 1.1 reads `yes` as true and skips TLS verification; this YAML 1.2 reader
  // read the text "yes", which client-node took as false: it verified TLS instead.
  const withInsecure = (name: string, value: string, current = 'c') =>
    file(
      name,
      `apiVersion: v1
kind: Config
clusters:
- {name: c, cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: ${value}}}
- {name: other, cluster: {server: 'https://127.0.0.1:2', insecure-skip-tls-verify: yes}}
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: ${current}, user: u}}]
current-context: x
`,
    );

  it('names the cluster and the value, exit 3 before any request', async () => {
    const path = withInsecure('insecure-yes', 'yes');
    const c = captureIO('', { KUBECONFIG: path });
    expect(await main(['get', 'clusters'], c.io)).toBe(3);
    expect(c.stderr()).toBe(
      'capi-kit get: kubeconfig cluster "c": insecure-skip-tls-verify is "yes", not true or false (YAML 1.1, which kubectl reads, took yes, no, on and off as booleans; YAML 1.2 does not: write true or false)\n',
    );
    for (const [value, shown] of [
      ['on', '"on"'],
      ['"true"', '"true"'],
      ['1', 'a number'],
    ] as const) {
      const loading = loadKubeConfig(captureIO('', { KUBECONFIG: withInsecure('insecure-value', value) }).io);
      await expect(loading, value).rejects.toMatchObject({
        code: 'kubeconfig-invalid',
        message: expect.stringContaining(`insecure-skip-tls-verify is ${shown}, not true or false`),
      });
    }
  });

  it('true, false and null load as before; a cluster the command does not use is not minded', async () => {
    for (const [value, skip] of [
      ['true', true],
      ['false', false],
      ['null', false],
    ] as const) {
      const config = await loadKubeConfig(
        captureIO('', { KUBECONFIG: withInsecure(`insecure-${value}`, value) }).io,
      );
      expect(config.getCurrentCluster()?.skipTLSVerify, value).toBe(skip);
    }
  });

  it('the first file to define the cluster decides, as merged', async () => {
    const first = withInsecure('insecure-first', 'true');
    const second = withInsecure('insecure-second', 'yes');
    const config = await loadKubeConfig(captureIO('', { KUBECONFIG: [first, second].join(delimiter) }).io);
    expect(config.getCurrentCluster()?.skipTLSVerify).toBe(true);
    const reversed = loadKubeConfig(captureIO('', { KUBECONFIG: [second, first].join(delimiter) }).io);
    await expect(reversed).rejects.toMatchObject({ code: 'kubeconfig-invalid' });
  });
});
