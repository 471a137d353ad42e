import { isSigned, signed } from "./secret";

// An e-mailed sign-in link signs in only once its reader, on this service's own page, has
// confirmed the account it names. The link itself is a plain GET that anyone holding it can
// send any browser to: someone who asked for a link to their own account could otherwise sign
// a visitor in as themselves (login CSRF), and whatever the visitor then connected or wrote
// would land in their account. Opening the link shows the page; its button, a same-origin
// POST, leaves a cookie bound to the link's token, which next-auth's callback then requires.

export const LINK_CALLBACK = "/api/auth/callback/nodemailer";
export const LINK_PAGE = "/signin/link";
export const LINK_COOKIE = "contentio-link";

export const linkProof = (token: string) => signed("email-link", token);

/** Whether the browser confirmed, on the link page, the link with this token. */
export const linkConfirmed = (token: string, cookie: string | undefined): boolean => Boolean(token && cookie && isSigned(cookie, "email-link", token));
