/**
 * The key a sign-up with a taken address is shown. It opens nothing, yet the API answers it
 * as it answers the first key of a new account whose address is not confirmed yet (403
 * `email_unverified`, with the quota of the plan chosen), for as long as it is tried: whoever
 * signs up with someone else's address learns nothing from the page nor from the key. The
 * real owner of a new account confirms through the mailbox, which the other cannot do.
 */
import type { PlanName } from '../../contract/plans.js';
import { randomId } from '../platform/ids.js';
import { generateApiKey } from './api-keys.js';
import type { Prisma } from '../platform/db.js';

export async function createSignupDecoy(prisma: Prisma, plan: PlanName): Promise<string> {
  const generated = generateApiKey();
  await prisma.signupDecoyKey.create({
    data: { hash: generated.hash, keyId: randomId('key'), accountId: randomId('acc'), plan },
  });
  return generated.key;
}
