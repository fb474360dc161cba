/**
 * "Contact sales" requests: Enterprise is sold by contract, so the dashboard records who
 * asked and what for, and operators list them with the CLI (`sales list`).
 */
import type { Prisma } from '../platform/db.js';
import { randomId } from '../platform/ids.js';
import { normalizeEmail } from './accounts.js';
import { AccountRuleError } from './errors.js';

export interface SalesRequestInput {
  company: string;
  contactName: string;
  email: string;
  phone?: string | null;
  message: string;
  /** The customer's account, when sent from a session. */
  accountId?: string | null;
}

export interface SalesRequestView {
  id: string;
  company: string;
  contact_name: string;
  email: string;
  phone: string | null;
  message: string;
  account_id: string | null;
  created_at: string;
  handled_at: string | null;
}

export const SALES_LIMITS = { company: 120, contactName: 120, phone: 40, message: 2000 } as const;

/** Which field is wrong, for the form to say so. */
export type SalesField = 'company' | 'contactName' | 'email' | 'phone' | 'message';

export class SalesRequestError extends AccountRuleError {
  constructor(readonly fields: SalesField[]) {
    super('invalid_input', `check: ${fields.join(', ')}`, { fields });
  }
}

const PHONE = /^\+?[0-9 ().-]{6,40}$/;

type Row = Awaited<ReturnType<Prisma['salesRequest']['findUniqueOrThrow']>>;

function view(r: Row): SalesRequestView {
  return {
    id: r.id,
    company: r.company,
    contact_name: r.contactName,
    email: r.email,
    phone: r.phone,
    message: r.message,
    account_id: r.accountId,
    created_at: r.createdAt.toISOString(),
    handled_at: r.handledAt?.toISOString() ?? null,
  };
}

/** Checks every field at once (the form lists each problem), then records the request. */
export async function createSalesRequest(prisma: Prisma, input: SalesRequestInput): Promise<SalesRequestView> {
  const bad: SalesField[] = [];
  const company = input.company.trim();
  const contactName = input.contactName.trim();
  const message = input.message.trim();
  const phone = input.phone?.trim() || null;
  let email = '';
  if (!company || company.length > SALES_LIMITS.company) bad.push('company');
  if (!contactName || contactName.length > SALES_LIMITS.contactName) bad.push('contactName');
  try {
    email = normalizeEmail(input.email);
  } catch {
    bad.push('email');
  }
  if (phone !== null && !PHONE.test(phone)) bad.push('phone');
  if (!message || message.length > SALES_LIMITS.message) bad.push('message');
  if (bad.length) throw new SalesRequestError(bad);
  const row = await prisma.salesRequest.create({
    data: { id: randomId('sal'), company, contactName, email, phone, message, accountId: input.accountId ?? null },
  });
  return view(row);
}

export async function listSalesRequests(prisma: Prisma, options: { includeHandled?: boolean } = {}): Promise<SalesRequestView[]> {
  const rows = await prisma.salesRequest.findMany({
    where: options.includeHandled ? {} : { handledAt: null },
    orderBy: { createdAt: 'desc' },
  });
  return rows.map(view);
}

export async function markSalesRequestHandled(prisma: Prisma, id: string, now = new Date()): Promise<SalesRequestView> {
  const row = await prisma.salesRequest.findUnique({ where: { id } });
  if (!row) throw new AccountRuleError('invalid_input', `no sales request ${id}`);
  return view(row.handledAt ? row : await prisma.salesRequest.update({ where: { id }, data: { handledAt: now } }));
}
