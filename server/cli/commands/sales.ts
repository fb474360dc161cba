import { listSalesRequests, markSalesRequestHandled } from '../../accounts/sales.js';
import { parseOptions, required } from '../args.js';
import type { Command } from '../io.js';
import { escapeForTerminal as e } from '../../platform/text.js';

const list: Command = {
  name: 'sales list',
  usage: 'sales list [--all]   (Enterprise "contact sales" requests, newest first; --all includes handled ones)',
  async run(args, ctx) {
    const { values } = parseOptions(args, { all: { type: 'boolean' } });
    const { prisma } = await ctx.db();
    const requests = await listSalesRequests(prisma, { includeHandled: values.all === true });
    // What the requester typed is printed escaped, one line per field: a line break or a
    // control character in it shows as `\n`, `\u{001b}`..., never as a line of its own.
    const lines = requests.map((r) =>
      [
        `${r.id}  ${r.created_at.slice(0, 16).replace('T', ' ')} UTC  ${r.handled_at ? 'handled' : 'open   '}  ${e(r.company)} — ${e(r.contact_name)} <${e(r.email)}>${r.phone ? ` ${e(r.phone)}` : ''}${r.account_id ? `  (account ${r.account_id})` : ''}`,
        `    message: ${e(r.message)}`,
      ].join('\n'),
    );
    ctx.print({ requests }, lines.length ? lines.join('\n') : 'no sales requests');
  },
};

const done: Command = {
  name: 'sales done',
  usage: 'sales done --id ID   (mark a request answered)',
  async run(args, ctx) {
    const { values } = parseOptions(args, { id: { type: 'string' } });
    const id = required(values.id, 'id');
    const { prisma } = await ctx.db();
    const request = await markSalesRequestHandled(prisma, id);
    ctx.print({ request }, `sales request ${request.id} (${e(request.company)}) marked handled`);
  },
};

export const commands: Command[] = [list, done];
