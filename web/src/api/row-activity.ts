/** Comments and history of one row (dashboard operations). */
import { dashboardOp } from './projects';

/** A comment as the server answers it, with what the caller may do with it. */
export interface RowComment { id: string; body: string; user: string | null; createdAt: string; updatedAt: string | null; canEdit: boolean; canDelete: boolean }
export interface RowChange { id: number; op: string; column: string | null; value: string | null; prevValue: string | null; user: string | null; createdAt: string }

export const rowActivityApi = {
  comments: async (projectId: string, dbAlias: string, tn: string, pk: string) => (await dashboardOp<{ data: { list: RowComment[] } }>('commentList', { projectId, dbAlias, args: { tn, pk } })).data.list,
  comment: (projectId: string, dbAlias: string, tn: string, pk: string, body: string) => dashboardOp<RowComment>('commentCreate', { projectId, dbAlias, args: { tn, pk, body } }),
  /** The author changes the text (the creation time stays). */
  editComment: (projectId: string, dbAlias: string, tn: string, pk: string, id: string, body: string) => dashboardOp<RowComment>('commentUpdate', { projectId, dbAlias, args: { tn, pk, id, body } }),
  /** The author, an owner or a creator removes a comment. */
  deleteComment: (projectId: string, dbAlias: string, tn: string, pk: string, id: string) => dashboardOp<{ id: string; deleted: boolean }>('commentDelete', { projectId, dbAlias, args: { tn, pk, id } }),
  counts: async (projectId: string, dbAlias: string, tn: string, pks: string[]) => (await dashboardOp<{ counts: Record<string, number> }>('commentCounts', { projectId, dbAlias, args: { tn, pks } })).counts,
  history: async (projectId: string, dbAlias: string, tn: string, pk: string) => (await dashboardOp<{ data: { list: RowChange[] } }>('rowHistory', { projectId, dbAlias, args: { tn, pk } })).data.list,
};
