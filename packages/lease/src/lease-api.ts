import {
  ApiException,
  CoordinationV1Api,
  CoreV1Api,
  type KubeConfig,
  Observable,
  type ObservableMiddleware,
  type RequestContext,
  type ResponseContext,
  type V1Lease,
  type V1Node,
} from '@kubernetes/client-node';
import { LeaseApiError, type LeaseApiErrorCode } from './errors.js';
import {
  answerProblem,
  type ExpectedLease,
  type LeaseAnswerProblem,
  leaseAnswerProblem,
  leaseListProblem,
  nodeProblem,
} from './lease-answer.js';
import { withoutCredentials } from './redact.js';

/**
 * The few calls the lease client makes, with two things client-node does not do by itself:
 * a per-request timeout (a hung request must not outlive a renew deadline; client-go uses
 * max(1 s, renewDeadline / 2) for the same reason) plus the caller's AbortSignal, and
 * errors turned into LeaseApiError.
 */
export class LeaseApi {
  readonly #leases: CoordinationV1Api;
  readonly #core: CoreV1Api;

  constructor(
    kubeConfig: KubeConfig,
    private readonly requestTimeoutMs: number,
  ) {
    this.#leases = kubeConfig.makeApiClient(CoordinationV1Api);
    this.#core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** The lease, or undefined when it does not exist. */
  async read(namespace: string, name: string, signal?: AbortSignal): Promise<V1Lease | undefined> {
    const operation = `read lease ${namespace}/${name}`;
    try {
      return await this.#leases.readNamespacedLease(
        { name, namespace },
        this.#options(signal, leaseCheck(operation, { namespace, name })),
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return undefined;
      throw toLeaseApiError(error, operation);
    }
  }

  /** Creates the lease; resolves to undefined when it already exists (409 AlreadyExists). */
  async create(namespace: string, body: V1Lease, signal?: AbortSignal): Promise<V1Lease | undefined> {
    const operation = `create lease ${namespace}/${body.metadata?.name}`;
    try {
      return await this.#leases.createNamespacedLease(
        { namespace, body },
        this.#options(signal, leaseCheck(operation, written(namespace, body))),
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return undefined;
      throw toLeaseApiError(error, operation);
    }
  }

  /**
   * PUTs the lease with the resourceVersion it carries. Resolves to undefined on 409
   * Conflict (someone wrote in between, or the lease was deleted and recreated): the
   * caller must re-read and decide again.
   */
  async replace(namespace: string, body: V1Lease, signal?: AbortSignal): Promise<V1Lease | undefined> {
    const name = body.metadata?.name ?? '';
    const operation = `update lease ${namespace}/${name}`;
    try {
      return await this.#leases.replaceNamespacedLease(
        { name, namespace, body },
        this.#options(signal, leaseCheck(operation, written(namespace, body))),
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return undefined;
      throw toLeaseApiError(error, operation);
    }
  }

  /**
   * Deletes the lease if it is still exactly `lease` (resourceVersion and UID
   * preconditions). Resolves to false on 409 (it changed) and true when it is gone.
   */
  async delete(namespace: string, lease: V1Lease, signal?: AbortSignal): Promise<boolean> {
    const name = lease.metadata?.name ?? '';
    try {
      await this.#leases.deleteNamespacedLease(
        {
          name,
          namespace,
          body: {
            preconditions: { resourceVersion: lease.metadata?.resourceVersion, uid: lease.metadata?.uid },
          },
        },
        this.#options(signal),
      );
      return true;
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return false;
      if (error instanceof ApiException && error.code === 404) return true;
      throw toLeaseApiError(error, `delete lease ${namespace}/${name}`);
    }
  }

  /** The leases in the namespace; an answer that is not a LeaseList of them is `unreadable-lease`. */
  async list(namespace: string, signal?: AbortSignal) {
    const operation = `list leases in ${namespace}`;
    try {
      return await this.#leases.listNamespacedLease(
        { namespace },
        this.#options(signal, {
          operation,
          what: 'the LeaseList asked for',
          problem: (text, type) =>
            answerProblem(text, type, 'a JSON LeaseList', (answer) => leaseListProblem(answer, namespace)),
        }),
      );
    } catch (error) {
      throw toLeaseApiError(error, operation);
    }
  }

  /** Creates the namespace unless it exists. */
  async ensureNamespace(namespace: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.#core.createNamespace({ body: { metadata: { name: namespace } } }, this.#options(signal));
    } catch (error) {
      if (error instanceof ApiException && error.code === 409) return;
      throw toLeaseApiError(error, `create namespace ${namespace}`);
    }
  }

  /** The Node; an answer that is not it (another name, no uid) is `unreadable-lease`. */
  async readNode(name: string, signal?: AbortSignal): Promise<V1Node> {
    const operation = `read node ${name}`;
    try {
      return await this.#core.readNode(
        { name },
        this.#options(signal, {
          operation,
          what: 'the Node asked for',
          problem: (text, type) =>
            answerProblem(text, type, 'a JSON Node', (answer) => nodeProblem(answer, name)),
        }),
      );
    } catch (error) {
      throw toLeaseApiError(error, operation);
    }
  }

  /**
   * client-node builds a new undici Agent (so a new TCP + TLS connection) for every request.
   * The first one built for this KubeConfig is kept and reused, so renewals ride a kept-alive
   * connection. Its TLS settings come from the KubeConfig, which does not change; headers
   * (tokens) are still set per request.
   */
  #dispatcher: ReturnType<RequestContext['getDispatcher']>;

  #options(signal: AbortSignal | undefined, check?: AnswerCheck) {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
    const middleware: ObservableMiddleware = {
      pre: (context: RequestContext) => {
        context.setSignal(combined);
        if (this.#dispatcher === undefined) this.#dispatcher = context.getDispatcher();
        else context.setDispatcher(this.#dispatcher);
        return new Observable(Promise.resolve(context));
      },
      post: (context: ResponseContext) =>
        new Observable(check === undefined ? Promise.resolve(context) : checkedAnswer(context, check)),
    };
    return { middleware: [middleware], middlewareMergeStrategy: 'append' as const };
  }
}

/** How a successful answer is checked before client-node reads it. */
interface AnswerCheck {
  readonly operation: string;
  /** What the answer must be, as the error says it (`the Lease asked for`). */
  readonly what: string;
  readonly problem: (text: string, contentType: string | undefined) => LeaseAnswerProblem | undefined;
}

function leaseCheck(operation: string, lease: ExpectedLease): AnswerCheck {
  return {
    operation,
    what: 'the Lease asked for',
    problem: (text, contentType) => leaseAnswerProblem(text, contentType, lease),
  };
}

/** What a create or update must be answered with: the lease written, its holder included. */
function written(namespace: string, body: V1Lease): ExpectedLease {
  return { namespace, name: body.metadata?.name ?? '', holder: body.spec?.holderIdentity ?? '' };
}

/**
 * A successful answer to a Lease, LeaseList or Node call, checked (lease-answer.ts) before
 * client-node reads it: an answer that is not the one expected rejects with `unreadable-lease`. The body is
 * read here, so the context goes on with a body that hands the same text out again.
 */
async function checkedAnswer(context: ResponseContext, check: AnswerCheck): Promise<ResponseContext> {
  const status = context.httpStatusCode;
  if (status < 200 || status > 299) return context;
  // (client-node's own fetch wrapper has no working binary(): text() is what its parser reads)
  const text = await context.body.text();
  const problem = check.problem(text, context.headers['content-type']);
  if (problem !== undefined) throw unreadableAnswer(check.operation, check.what, problem, status);
  context.body = {
    text: () => Promise.resolve(text),
    binary: () => Promise.resolve(Buffer.from(text, 'utf8')),
    stream: () => null,
  };
  return context;
}

/**
 * The `unreadable-lease` error for a successful answer (HTTP `status`) to `operation` that is
 * not `what` was asked for (`the Lease asked for`): it names the path and what was found there.
 */
export function unreadableAnswer(
  operation: string,
  what: string,
  problem: LeaseAnswerProblem,
  status: number,
): LeaseApiError {
  const where = problem.path === '' ? 'the answer' : problem.path;
  return new LeaseApiError(
    `${operation}: the server's answer is not ${what}: ${where}: expected ${problem.expected}, found ${problem.found} (HTTP ${status})`,
    { code: 'unreadable-lease', status, path: problem.path },
  );
}

/** The parts of a Kubernetes Status this package reads. */
interface StatusBody {
  readonly message?: string;
  readonly reason?: string;
  readonly details?: { readonly causes?: ReadonlyArray<{ readonly field?: unknown }> };
}

/** The field a 422 blames first (`spec.leaseDurationSeconds`), when the Status names one. */
function causeField(status: StatusBody): string | undefined {
  const causes = status.details?.causes;
  const field = Array.isArray(causes) ? causes[0]?.field : undefined;
  return typeof field === 'string' && field !== '' ? field : undefined;
}

function statusOf(body: unknown): StatusBody {
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : {};
    } catch {
      return {};
    }
  }
  return typeof body === 'object' && body !== null ? (body as StatusBody) : {};
}

/** The code of each HTTP status a caller can act on; any other status is `server`. */
const codeOfStatus: Readonly<Record<number, LeaseApiErrorCode>> = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
  422: 'invalid',
};

/** Classifies any error thrown by client-node (or by fetch underneath it). */
export function toLeaseApiError(error: unknown, operation: string): LeaseApiError {
  if (error instanceof LeaseApiError) return error;
  if (error instanceof ApiException) {
    const body = statusOf(error.body);
    const status: number = error.code;
    const detail = body.message ?? (status === 401 ? 'Unauthorized' : `HTTP ${status}`);
    return new LeaseApiError(
      `${operation}: ${detail} (HTTP ${status})`,
      { code: codeOfStatus[status] ?? 'server', status, reason: body.reason, path: causeField(body) },
      { cause: error },
    );
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    const timedOut = error.name === 'TimeoutError' || isTimeoutReason(error);
    return new LeaseApiError(
      `${operation}: ${timedOut ? 'no answer within the request timeout' : 'aborted'}`,
      { code: timedOut ? 'timeout' : 'unreachable' },
      { cause: error },
    );
  }
  const code = networkCode(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  // (fetch quotes a header or URL it refuses, credentials and all; the message goes to logs)
  const text = withoutCredentials(
    error instanceof Error ? error.message + (cause ? ` (${cause})` : '') : String(error),
  );
  return new LeaseApiError(
    `${operation}: cannot reach the API server${code !== undefined ? ` (${code})` : ''}: ${text}`,
    { code: 'unreachable' },
    { cause: error },
  );
}

/**
 * Classifies a failed watch request: client-node's Watch gives an answer other than 200 only
 * as an Error with its `statusCode` (the Status body unread), which is classified by that
 * status (403: `forbidden`); any other failure as toLeaseApiError does (`unreachable`,
 * `timeout`).
 */
export function toWatchRequestError(error: unknown, operation: string): LeaseApiError {
  const status = error instanceof Error ? (error as { statusCode?: unknown }).statusCode : undefined;
  if (typeof status !== 'number') return toLeaseApiError(error, operation);
  return new LeaseApiError(
    `${operation}: ${(error as Error).message} (HTTP ${status})`,
    { code: codeOfStatus[status] ?? 'server', status },
    { cause: error },
  );
}

/**
 * Whether a failed list or watch request may succeed if it is simply made again: the server
 * could not be reached or did not answer in time, or answered 5xx, 429 Too Many Requests,
 * 408 Request Timeout or 410 Gone (list again). A refusal (401, 403, 404, 400, 409, another
 * 4xx) or an answer that is not what was asked for (`unreadable-lease`) is not: asking again
 * gets the same answer.
 */
export function isTransientFailure(error: unknown): boolean {
  if (!(error instanceof LeaseApiError)) return false;
  if (error.code === 'unreachable' || error.code === 'timeout') return true;
  if (error.code !== 'server') return false;
  const status = error.status;
  return status === undefined || status >= 500 || status === 429 || status === 408 || status === 410;
}

function isTimeoutReason(error: Error): boolean {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.name === 'TimeoutError';
}

/**
 * The errno-style code (ECONNREFUSED, ...) somewhere in an undici error's cause chain
 * (an AggregateError's `errors` included: one per address tried).
 */
function networkCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  for (const inner of Array.isArray(errors) ? errors : []) {
    const found = networkCode(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return networkCode(cause, depth + 1);
}
