import { createKey, listKeys, revokeKey } from '../../accounts/keys.js';
import { accountOption, parseOptions, required } from '../args.js';
import type { Command } from '../io.js';
import { escapeForTerminal } from '../../platform/text.js';
import { operatorMail } from '../mail.js';

const create: Command = {
  name: 'keys create',
  usage: 'keys create --email E [--name N] [--test]   (--test: a mboa_test_ key, fixed sample data, never counted)',
  async run(args, ctx) {
    const { values } = parseOptions(args, { email: { type: 'string' }, name: { type: 'string' }, test: { type: 'boolean' } });
    const { prisma, account } = await accountOption(ctx, values.email);
    const kind = values.test ? 'test' : 'live';
    const result = await createKey(prisma, account.id, values.name ?? (kind === 'test' ? 'Test key' : 'API key'), new Date(), {
      by: 'operator',
      kind,
    });
    const { mail, close } = operatorMail();
    await mail.keyCreated(account, result.keyInfo);
    close();
    ctx.print(
      { key: result.key, key_info: result.keyInfo },
      `${kind === 'test' ? 'Test key' : 'API key'} "${result.keyInfo.name}" (shown once, store it now): ${result.key}`,
    );
  },
};

const list: Command = {
  name: 'keys list',
  usage: 'keys list --email E',
  async run(args, ctx) {
    const { values } = parseOptions(args, { email: { type: 'string' } });
    const { prisma, account } = await accountOption(ctx, values.email);
    const keys = await listKeys(prisma, account.id);
    const lines = keys.map(
      (k) =>
        `${k.prefix}…  ${k.kind}  ${k.active ? 'active ' : 'revoked'}  created ${k.created_at.slice(0, 10)}  last used ${k.last_used_at?.slice(0, 16) ?? 'never'}  "${escapeForTerminal(k.name)}"`,
    );
    ctx.print({ keys }, lines.length ? lines.join('\n') : 'no keys');
  },
};

const revoke: Command = {
  name: 'keys revoke',
  usage: 'keys revoke --email E --prefix P',
  async run(args, ctx) {
    const { values } = parseOptions(args, { email: { type: 'string' }, prefix: { type: 'string' } });
    const prefix = required(values.prefix, 'prefix');
    const { prisma, account } = await accountOption(ctx, values.email);
    const key = await revokeKey(prisma, account.id, prefix);
    const { mail, close } = operatorMail();
    await mail.keyRevoked(account, key);
    close();
    ctx.print({ key_info: key }, `revoked ${key.prefix}… "${escapeForTerminal(key.name)}"`);
  },
};

export const commands: Command[] = [create, list, revoke];
