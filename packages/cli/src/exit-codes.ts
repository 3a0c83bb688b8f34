/** The CLI's exit codes: part of its scriptable contract (see each command's usage text). */
export const ExitCode = {
  ok: 0,
  /** Bad input: a document that does not decode, convert or parse. */
  input: 1,
  /** The command line itself is wrong: unknown command or flag, missing argument. */
  usage: 2,
  /** The cluster or its API answered with an error, or could not be reached. */
  cluster: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The codes of the errors the CLI itself throws (tagged `code` like every capi-kit error),
 * each with the exit code it ends the command with. Library errors are reported by the
 * commands where they happen; these are thrown from helpers and caught once, in `main`.
 */
export const exitCodeOfError = {
  /** A malformed command line (`UsageError`). */
  usage: ExitCode.usage,
  /** `-f FILE` cannot be read: missing, a directory, no permission (`InputFileError`). */
  'input-unreadable': ExitCode.input,
  /** Input bytes that are not UTF-8 (`InputFileError`). */
  'input-not-utf8': ExitCode.input,
  /** Input past the most the CLI reads: `MAX_INPUT_BYTES` read whole, a line past `MAX_LINE_BYTES` (`InputFileError`). */
  'input-too-large': ExitCode.input,
  /** A command refuses what it was asked without the flag that says the caller means it (`prune` without `--confirm`). */
  refused: ExitCode.input,
  /** No kubeconfig file at all: KUBECONFIG names none that exists, no ~/.kube/config (`KubeconfigError`). */
  'no-kubeconfig': ExitCode.cluster,
  /** A kubeconfig file that is not a readable file (`KubeconfigError`). */
  'kubeconfig-unreadable': ExitCode.cluster,
  /** An empty kubeconfig file (`KubeconfigError`). */
  'kubeconfig-empty': ExitCode.cluster,
  /** A file client-node cannot load as a kubeconfig (`KubeconfigError`). */
  'kubeconfig-invalid': ExitCode.cluster,
  /** A kubeconfig without a current context with a cluster (`KubeconfigError`). */
  'no-current-cluster': ExitCode.cluster,
} as const satisfies Record<string, ExitCode>;
export type CliErrorCode = keyof typeof exitCodeOfError;

/** An error the CLI throws: its `code` decides the exit code (`exitCodeOfError`). */
export class CliError<C extends CliErrorCode = CliErrorCode> extends Error {
  constructor(
    readonly code: C,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown for a malformed command line; `main` prints it with a hint and exits 2. */
export class UsageError extends CliError<'usage'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super('usage', message);
  }
}
