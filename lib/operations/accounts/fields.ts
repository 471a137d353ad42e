import { Uuid } from "../schemas";

// The account a draft goes to, which create_draft, update_draft and the generators take.

const DESCRIBED =
  "The account it goes to, from get_profile_context's accounts (of the draft's network); without it, the network's default " +
  "account, chosen when it is scheduled or published";

export const createAccountField = { account_id: Uuid.optional().describe(DESCRIBED) };
export const updateAccountField = { account_id: Uuid.nullable().optional().describe(`${DESCRIBED}; null goes back to the default`) };
