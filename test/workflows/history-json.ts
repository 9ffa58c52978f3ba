/**
 * Reads a history JSON file (canonical proto JSON, as written by `temporal workflow show --output
 * json`) into a History for `Worker.runReplayHistories`.
 *
 * Why not `historyFromJSON` of @temporalio/common: the installed tree holds two copies of
 * protobufjs 8 (under @temporalio/common and @temporalio/proto), and that helper checks the
 * History type of one copy against the other (`TypeError: type must be a Type`). Using the copy
 * that @temporalio/proto's types were built with avoids it.
 */
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as proto from '@temporalio/proto';
import type { temporal } from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

type History = temporal.api.history.v1.IHistory;

interface ProtoJson {
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): History | null;
}

let historyType: unknown;
let protojson: ProtoJson | undefined;

function load(): { type: unknown; json: ProtoJson } {
  if (protojson === undefined) {
    // Load protobufjs as @temporalio/proto resolves it.
    const fromProto = createRequire(require.resolve('@temporalio/proto/package.json'));
    protojson = fromProto('protobufjs/ext/protojson') as ProtoJson;
    const patched = patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown };
    historyType = patched.lookupType('temporal.api.history.v1.History');
  }
  return { type: historyType, json: protojson };
}

/** The History stored in `file`. */
export function readHistoryFile(file: string): History {
  const { type, json } = load();
  const history = json.fromJson(type, JSON.parse(fs.readFileSync(file, 'utf8')), { ignoreUnknownFields: true });
  if (history === null) throw new Error(`${file}: not a history`);
  return history;
}

/** The History in a JSON string. */
export function historyFromJsonText(text: string): History {
  const { type, json } = load();
  const history = json.fromJson(type, JSON.parse(text), { ignoreUnknownFields: true });
  if (history === null) throw new Error('not a history');
  return history;
}
