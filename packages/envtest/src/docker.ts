import { request } from 'node:http';
import { EnvtestError } from './errors.js';

// Whether a Docker engine answers, checked the way the Docker CLI finds one (DOCKER_HOST,
// else the default socket). Used to decide whether the k3s backend can run at all, and to
// say precisely why not when it cannot.

/** The outcome of pinging the Docker engine. */
export type DockerProbe = { available: true; endpoint: string } | { available: false; reason: string };

/** Pings the Docker engine's `/_ping` endpoint; never throws. */
export function probeDocker(env: NodeJS.ProcessEnv = process.env, timeoutMs = 2_000): Promise<DockerProbe> {
  const host = env.DOCKER_HOST || 'unix:///var/run/docker.sock';
  let target: { socketPath: string } | { host: string; port: number };
  if (host.startsWith('unix://')) {
    target = { socketPath: host.slice('unix://'.length) };
  } else if (host.startsWith('tcp://')) {
    const u = new URL(host.replace(/^tcp:/, 'http:'));
    target = { host: u.hostname, port: Number(u.port || 2375) };
  } else {
    return Promise.resolve({ available: false, reason: `DOCKER_HOST=${host}: scheme not supported here` });
  }
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(
        res.statusCode === 200
          ? { available: true, endpoint: host }
          : {
              available: false,
              reason: `no Docker engine at ${host} (/_ping answered HTTP ${res.statusCode})`,
            },
      );
    });
    req.on('timeout', () => req.destroy(new EnvtestError('timeout', `no answer within ${timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ available: false, reason: `no Docker engine at ${host} (${error.code ?? error.message})` }),
    );
    req.end();
  });
}
