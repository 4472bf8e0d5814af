// The sign-in pages' one entry (`handleSignInRequest`): it only routes. Each page loads, runs its commands and
// presents (sign-in.pages.ts, sso-sign-in.pages.ts); a refusal thrown on the way is answered with its page here.
import { sessionToucher } from '../../commands/session-starter.ts';
import type { OrgAdminContext } from '../../trpc.ts';
import { same } from '../sessions/sessions.ts';
import {
  accountShow,
  inviteAccept,
  inviteShow,
  invitationJoin,
  linkRequest,
  linkVerify,
  loginShow,
  sessionRevoke,
  sessionsRevokeOthers,
  signOut,
  tokenCreate,
  tokenRevoke,
  verifyShow,
} from './sign-in.pages.ts';
import { loadSignInRequest } from './sign-in.loader.ts';
import { presentRedirect, presentRefusal } from './sign-in.presenter.ts';
import {
  REFUSED,
  refuseUnless,
  SignInRefusal,
  type SignedInRequest,
  type SignInInput,
  type SignInOutput,
  type SignInRequest,
} from './sign-in-request.ts';
import { samlAcs, samlMetadataShow, samlStart, ssoFinish, ssoLinkConfirm, ssoLinkShow } from './sso-sign-in.pages.ts';
import type { SsoPrepared } from './sso.ts';

/** A page: the request, and the id in its path (a SAML provider's). */
type Page = (r: SignInRequest, id: string) => Promise<SignInOutput>;

/** The request's path without its trailing slashes. */
const pathOf = (input: SignInInput) => input.path.replace(/\/+$/, '') || '/';

/** A page for a signed-in person; without a session, the sign-in page (coming back here after). */
const signedIn =
  (page: (r: SignedInRequest) => Promise<SignInOutput>): Page =>
  async (r) =>
    r.session
      ? page({ ...r, session: r.session })
      : presentRedirect(r, `/login?next=${encodeURIComponent(pathOf(r.input))}`);

/** The pages, by method and path (`:id`: a SAML provider's id). Every POST carries the form's CSRF token but SAML's. */
const PAGES = new Map<string, Page>([
  ['GET /login', loginShow],
  ['POST /login', linkRequest],
  ['GET /login/verify', verifyShow],
  ['POST /login/verify', linkVerify],
  ['GET /invites/accept', inviteShow],
  ['POST /invites/accept', inviteAccept],
  ['GET /sso/link', ssoLinkShow],
  ['POST /sso/link', signedIn(ssoLinkConfirm)],
  ['GET /account', signedIn(accountShow)],
  ['POST /account/tokens', signedIn(tokenCreate)],
  ['POST /account/tokens/revoke', signedIn(tokenRevoke)],
  ['POST /account/sessions/revoke', signedIn(sessionRevoke)],
  ['POST /account/sessions/revoke-others', signedIn(sessionsRevokeOthers)],
  ['POST /account/invites/accept', signedIn(invitationJoin)],
  ['POST /logout', signedIn(signOut)],
  ['GET /saml/:id/metadata', samlMetadataShow],
  ['GET /saml/:id/start', samlStart],
  ['POST /saml/:id/acs', samlAcs],
]);

/** The identity provider's POST carries no CSRF token of ours: its signed assertion stands for it. */
const WITHOUT_CSRF = new Set(['POST /saml/:id/acs']);
const SAML_PATH = /^\/saml\/([A-Za-z0-9_-]{1,100})\/(metadata|start|acs)$/;

/** The route of a request (`POST /login`, `GET /saml/:id/start`) and the id in its path. */
function routeOf(input: SignInInput): { route: string; id: string } {
  const path = pathOf(input);
  const saml = SAML_PATH.exec(path);
  return saml
    ? { route: `${input.method} /saml/:id/${saml[2]}`, id: saml[1]! }
    : { route: `${input.method} ${path}`, id: '' };
}

/** One request to the sign-in pages: GET pages, POST forms (each checked for its CSRF token). */
export async function handleSignIn(
  ctx: OrgAdminContext,
  input: SignInInput,
  prepared: SsoPrepared | null = null,
): Promise<SignInOutput> {
  const r = await loadSignInRequest(ctx, input);
  sessionToucher(ctx.em, { session: r.session });
  try {
    if (prepared) return await ssoFinish(r, prepared);
    const { route, id } = routeOf(input);
    const page = PAGES.get(route);
    refuseUnless(page, REFUSED.pageNotFound);
    refuseUnless(
      input.method === 'GET' || WITHOUT_CSRF.has(route) || same(input.form._csrf ?? '', r.csrf),
      REFUSED.formExpired,
    );
    return await page(r, id);
  } catch (err) {
    if (err instanceof SignInRefusal) return presentRefusal(r, err);
    throw err;
  }
}
