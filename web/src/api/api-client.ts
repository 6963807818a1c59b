/** Calls of the API client and the gRPC client (dashboard operations). */
import { dashboardOp } from './projects';
import type { HistoryEntry, KeyValue } from '../features/api-client/request-model';

/** A saved item: a request of a collection, or an environment with its variables. */
export interface SavedItem<T> {
  id: string;
  collection: string;
  name: string;
  data: T;
}
/** An answer the server fetched; `body` is base64 when `binary`. */
export interface SentResponse { status: number; statusText: string; headers: [string, string][]; body: string; binary?: boolean; size: number; truncated: boolean; timeMs: number }
export interface GrpcMethod { name: string; requestType: string; responseType: string; clientStreaming: boolean; serverStreaming: boolean; template: unknown }
export interface GrpcCallResult { messages: unknown[]; status: { code: number; name: string; details: string }; headers: Record<string, string>; trailers: Record<string, string>; timeMs: number; truncated: boolean }

export const apiClientApi = {
  send: (projectId: string, args: { method: string; url: string; headers: Record<string, string>; body?: string }) => dashboardOp<SentResponse>('apiClientSend', { projectId, args }),
  items: async <T>(projectId: string, kind: 'request' | 'environment') => (await dashboardOp<{ data: { list: SavedItem<T>[] } }>('apiClientItemList', { projectId, args: { kind } })).data.list,
  save: (projectId: string, item: { id?: string; kind: 'request' | 'environment'; collection?: string; name: string; data: unknown }) => dashboardOp<{ id: string }>('apiClientItemSave', { projectId, args: item }),
  remove: (projectId: string, id: string) => dashboardOp('apiClientItemDelete', { projectId, args: { id } }),
  history: async (projectId: string) => (await dashboardOp<{ data: { list: HistoryEntry[] } }>('apiClientHistoryList', { projectId })).data.list,
  addHistory: (projectId: string, entry: HistoryEntry) => dashboardOp<{ id: string }>('apiClientHistoryAdd', { projectId, args: { entry } }),
  clearHistory: (projectId: string) => dashboardOp('apiClientHistoryClear', { projectId }),
  grpcServices: (projectId: string, address: string, tls: boolean) => dashboardOp<{ services: { name: string; methods: GrpcMethod[] }[] }>('grpcServices', { projectId, args: { address, tls } }),
  grpcCall: (projectId: string, args: { address: string; tls: boolean; service: string; method: string; request: unknown; metadata: Record<string, string> }) => dashboardOp<GrpcCallResult>('grpcCall', { projectId, args }),
};

export type EnvironmentData = { variables: KeyValue[] };
