/**
 * Turns an identity vouched for by a provider into a Tablo user: the linked identity first, then a
 * user with the same (verified) e-mail, whom it links; else a new user by the sign-up rules (first
 * user = Super Admin; later ones need an invite unless sign-up is open).
 */
import type { MetaStore } from '../../meta/store';
import { usersRepo, type UserRow } from '../../meta/users-repo';
import { identitiesRepo } from '../../meta/identities-repo';
import { badRequest, conflict, forbidden } from '../../lib/errors';
import { nowIso } from '../../lib/ids';
import { MSG_INVITE_REQUIRED } from '../accounts';
import type { OAuthProvider, ProviderIdentity } from './provider';

export interface ProviderSignin {
  user: UserRow;
  /** What happened, for the audit log. */
  outcome: 'signed in' | 'linked' | 'signed up' | 'signed up as Super Admin';
}

const splitName = (name: string | null) => {
  if (!name) return { firstname: undefined, lastname: undefined };
  const [first, ...rest] = name.trim().split(/\s+/);
  return { firstname: first?.slice(0, 100), lastname: rest.join(' ').slice(0, 100) || undefined };
};

/** Finds, links or creates the user of a provider identity; `linkUserId` links it to that user. */
export async function signinWithIdentity(
  meta: MetaStore,
  opts: { allowSignup: boolean },
  provider: OAuthProvider,
  ident: ProviderIdentity,
  linkUserId: string | null,
): Promise<ProviderSignin> {
  return meta.transaction(async (tx) => {
    const users = usersRepo(tx);
    const ids = identitiesRepo(tx);
    const known = await ids.find(provider.id, ident.subject);
    if (linkUserId) {
      if (known && known.user_id !== linkUserId) throw conflict(`This ${provider.name} account is already linked to another user`);
      if (!known) {
        if ((await ids.ofUser(linkUserId)).some((i) => i.provider === provider.id)) throw conflict(`Another ${provider.name} account is already linked to yours: unlink it first`);
        await ids.link(provider.id, ident.subject, linkUserId, ident.email);
      }
      return { user: (await users.byId(linkUserId))!, outcome: 'linked' };
    }
    if (known) {
      const user = (await users.byId(known.user_id))!;
      if (user.disabled) throw forbidden('This account is disabled');
      return { user, outcome: 'signed in' };
    }
    if (!ident.email) throw badRequest(`${provider.name} did not share an e-mail address with Tablo`);
    if (ident.emailVerified === false) throw badRequest(`Your e-mail address at ${provider.name} is not verified`);
    const { firstname, lastname } = splitName(ident.name);
    if ((await users.count()) === 0) {
      const user = await users.create({ email: ident.email, passwordHash: null, roles: 'super,user', firstname, lastname });
      await ids.link(provider.id, ident.subject, user.id, ident.email);
      return { user, outcome: 'signed up as Super Admin' };
    }
    const existing = await users.byEmail(ident.email);
    if (existing) {
      if (existing.disabled) throw forbidden('This account is disabled');
      // Taking over an account by e-mail needs the provider's word that the address is verified.
      if (ident.emailVerified !== true) throw badRequest(`${provider.name} did not confirm that your e-mail address is verified`);
      const invited = !existing.password_hash && existing.invite_token_hash;
      if (invited && existing.invite_expires_at && existing.invite_expires_at < nowIso()) throw badRequest('This invite link is invalid or has expired');
      await ids.link(provider.id, ident.subject, existing.id, ident.email);
      if (invited) {
        await tx.run('UPDATE nc_users SET invite_token_hash = NULL, invite_expires_at = NULL, updated_at = ? WHERE id = ?', [nowIso(), existing.id]);
        await tx.run('DELETE FROM nc_invite_links WHERE user_id = ?', [existing.id]);
        await users.update(existing.id, { firstname, lastname });
        users.forget(existing.id);
        return { user: (await users.byId(existing.id))!, outcome: 'signed up' };
      }
      return { user: existing, outcome: 'linked' };
    }
    if (!opts.allowSignup) throw forbidden(MSG_INVITE_REQUIRED);
    const user = await users.create({ email: ident.email, passwordHash: null, roles: 'user', firstname, lastname });
    await ids.link(provider.id, ident.subject, user.id, ident.email);
    return { user, outcome: 'signed up' };
  });
}
