/**
 * Profile settings of the signed-in user: `PUT /user/profile` { firstname, lastname } (the display
 * name); the picture as an upload (`POST /user/picture`, multipart field `file`: PNG, JPEG, GIF or
 * WebP up to 1 MB) or a URL (`PUT /user/picture` { url }), removed with `DELETE /user/picture`;
 * uploaded pictures are served at `GET /user/picture/{userId}`.
 */
import { Elysia } from 'elysia';
import { z } from 'zod';
import type { BaseContext } from '../../context';
import { LIMITS } from '../../config/limits';
import { badRequest, notFound, AppError } from '../../lib/errors';
import { nowIso } from '../../lib/ids';
import { parseBody } from '../../auth/passwords';
import type { MetaStore } from '../../meta/store';
import { usersRepo, type UserRow } from '../../meta/users-repo';
import { requireUser } from '../../http/principal';

const name = z.string().trim().max(100, 'Names are at most 100 characters');
const ProfileBody = z.object({ firstname: name.optional(), lastname: name.optional() });
const PictureUrlBody = z.object({
  url: z
    .string({ error: 'A picture URL is required' })
    .trim()
    .max(LIMITS.pictureUrlMaxLength, `The picture URL is at most ${LIMITS.pictureUrlMaxLength} characters`)
    .pipe(z.url({ protocol: /^https?$/, error: 'The picture URL must be an http or https URL' })),
});

/** Image types accepted for upload, told apart by their first bytes (not by the name or header). */
const SIGNATURES: Array<[string, (b: Uint8Array) => boolean]> = [
  ['image/png', (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47],
  ['image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['image/gif', (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46],
  ['image/webp', (b) => String.fromCharCode(...b.slice(0, 4)) === 'RIFF' && String.fromCharCode(...b.slice(8, 12)) === 'WEBP'],
];

/** The picture to show for a user: their URL, the path of their upload, or null. */
export async function pictureOf(meta: MetaStore, user: Pick<UserRow, 'id'> & { picture_url?: string | null }): Promise<string | null> {
  if (user.picture_url) return user.picture_url;
  const up = await meta.get<{ updated_at: string }>('SELECT updated_at FROM nc_user_pictures WHERE user_id = ?', [user.id]);
  return up ? `/user/picture/${user.id}?v=${encodeURIComponent(up.updated_at)}` : null;
}

/** The profile and picture routes of the signed-in user. */
export function profileRoutes(ctx: BaseContext) {
  const users = usersRepo(ctx.meta);
  const me = async (request: Request) => {
    const actor = await requireUser(ctx, request);
    if (!actor.userId) throw badRequest('Only a user account has a profile');
    return (await users.byId(actor.userId))!;
  };
  const view = async (id: string) => {
    const u = (await users.byId(id))!;
    return { id: u.id, email: u.email, firstname: u.firstname, lastname: u.lastname, picture: await pictureOf(ctx.meta, u) };
  };

  return new Elysia({ name: 'profile' })
    .put('/user/profile', async ({ request, body }) => {
      const user = await me(request);
      const input = parseBody(ProfileBody, body);
      // Empty strings clear a name; absent fields keep it.
      await ctx.meta.run('UPDATE nc_users SET firstname = ?, lastname = ?, updated_at = ? WHERE id = ?', [
        input.firstname === undefined ? user.firstname : input.firstname || null,
        input.lastname === undefined ? user.lastname : input.lastname || null,
        nowIso(),
        user.id,
      ]);
      users.forget(user.id);
      return { msg: 'Profile updated', ...(await view(user.id)) };
    })
    .put('/user/picture', async ({ request, body }) => {
      const user = await me(request);
      const { url } = parseBody(PictureUrlBody, body);
      await ctx.meta.transaction(async (tx) => {
        await tx.run('DELETE FROM nc_user_pictures WHERE user_id = ?', [user.id]);
        await tx.run('UPDATE nc_users SET picture_url = ?, updated_at = ? WHERE id = ?', [url, nowIso(), user.id]);
      });
      users.forget(user.id);
      return { msg: 'Picture updated', ...(await view(user.id)) };
    })
    .post('/user/picture', async ({ request }) => {
      const user = await me(request);
      let file: unknown;
      try {
        file = (await request.formData()).get('file');
      } catch {
        throw badRequest('Send the picture as multipart form data in the field file');
      }
      if (!(file instanceof Blob)) throw badRequest('Send the picture as multipart form data in the field file');
      if (file.size > LIMITS.pictureMaxBytes) throw new AppError('PAYLOAD_TOO_LARGE', `The picture is larger than ${LIMITS.pictureMaxBytes / 1024 / 1024} MB`);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const mime = SIGNATURES.find(([, test]) => bytes.length >= 12 && test(bytes))?.[0];
      if (!mime) throw badRequest('The picture must be a PNG, JPEG, GIF or WebP image');
      const now = nowIso();
      await ctx.meta.transaction(async (tx) => {
        await tx.run('DELETE FROM nc_user_pictures WHERE user_id = ?', [user.id]);
        await tx.run('INSERT INTO nc_user_pictures (user_id, mime, data, updated_at) VALUES (?, ?, ?, ?)', [user.id, mime, Buffer.from(bytes).toString('base64'), now]);
        await tx.run('UPDATE nc_users SET picture_url = NULL, updated_at = ? WHERE id = ?', [now, user.id]);
      });
      users.forget(user.id);
      return { msg: 'Picture updated', ...(await view(user.id)) };
    })
    .delete('/user/picture', async ({ request }) => {
      const user = await me(request);
      await ctx.meta.transaction(async (tx) => {
        await tx.run('DELETE FROM nc_user_pictures WHERE user_id = ?', [user.id]);
        await tx.run('UPDATE nc_users SET picture_url = NULL, updated_at = ? WHERE id = ?', [nowIso(), user.id]);
      });
      users.forget(user.id);
      return { msg: 'Picture removed', ...(await view(user.id)) };
    })
    .get('/user/picture/:userId', async ({ params }) => {
      const row = await ctx.meta.get<{ mime: string; data: string }>('SELECT mime, data FROM nc_user_pictures WHERE user_id = ?', [params.userId]);
      if (!row) throw notFound('No picture');
      return new Response(Buffer.from(row.data, 'base64'), {
        headers: {
          'content-type': row.mime,
          'cache-control': 'private, max-age=86400',
          'x-content-type-options': 'nosniff',
          'content-security-policy': "default-src 'none'",
        },
      });
    });
}
