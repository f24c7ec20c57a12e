// The service, called from the browser through gRPC-Web on the page's own origin (the server that
// served the page), with the generated solver.v2 descriptors.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Duration } from "@bufbuild/protobuf/wkt";

import { SolverService } from "./gen/solver/v2/solver_pb";

export const solver = createClient(
  SolverService,
  createGrpcWebTransport({ baseUrl: window.location.origin }),
);

/** A failed call as one line for a person: the gRPC code and the server's message. */
export function describeError(error: unknown): string {
  const failure = ConnectError.from(error);
  return `${Code[failure.code] ?? failure.code}: ${failure.rawMessage}`;
}

/** A protobuf duration as milliseconds. */
export function millis(duration: Duration | undefined): number {
  if (duration === undefined) {
    return 0;
  }
  return Number(duration.seconds) * 1000 + duration.nanos / 1e6;
}

/** A random 64-bit seed for Scramble. */
export function randomSeed(): bigint {
  const words = crypto.getRandomValues(new Uint32Array(2));
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/** Whether a call failed because the page aborted it (Cancel). */
export function isCancel(error: unknown): boolean {
  return ConnectError.from(error).code === Code.Canceled;
}

/** Whether a call failed because its deadline (`timeoutMs`) passed. */
export function isDeadline(error: unknown): boolean {
  return ConnectError.from(error).code === Code.DeadlineExceeded;
}

/** The failure of a stream that ended with OK but before its answer. */
export function endedWithoutAnswer(): ConnectError {
  return new ConnectError("the stream ended without an answer", Code.Unknown);
}
