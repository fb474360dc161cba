import { listSalesRequests, markSalesRequestHandled } from '../../accounts/sales.js';
import { parseOptions, required } from '../args.js';
import type { Command } from '../io.js';

const list: Command = {
  name: 'sales list',
  usage: 'sales list [--all]   (Enterprise "contact sales" requests, newest first; --all includes handled ones)',
  async run(args, ctx) {
    const { values } = parseOptions(args, { all: { type: 'boolean' } });
    const { prisma } = await ctx.db();
    const requests = await listSalesRequests(prisma, { includeHandled: values.all === true });
    const lines = requests.map((r) =>
      [
        `${r.id}  ${r.created_at.slice(0, 16).replace('T', ' ')} UTC  ${r.handled_at ? 'handled' : 'open   '}  ${r.company} — ${r.contact_name} <${r.email}>${r.phone ? ` ${r.phone}` : ''}${r.account_id ? `  (account ${r.account_id})` : ''}`,
        ...r.message.split('\n').map((l) => `    ${l}`),
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
    ctx.print({ request }, `sales request ${request.id} (${request.company}) marked handled`);
  },
};

export const commands: Command[] = [list, done];
