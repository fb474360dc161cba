/**
 * Checks a real answer against the OpenAPI document with an independent validator (Ajv,
 * with ajv-formats), not with the contract's zod schemas the server itself uses:
 * the status is documented for the operation, the media type is the documented one, the
 * body validates (and carries no field the document does not describe), every required
 * header is there and every header the API sends is documented, with a valid value.
 */
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

type Json = Record<string, any>;

/** The headers the API itself sets (what the document must describe wherever they appear). */
export const API_HEADERS = [
  'x-request-id',
  'ratelimit-policy',
  'ratelimit',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-quota-limit',
  'x-quota-remaining',
  'x-quota-reset',
  'retry-after',
  'x-should-retry',
  'allow',
];

/** A copy of the document where every described object is closed: an undocumented field fails. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : closed(v);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface Answer {
  method: string;
  /** Path and query as requested. */
  url: string;
  status: number;
  headers: Headers;
  body: unknown;
}

export class OpenApiValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  private readonly doc: Json;

  constructor(document: Json) {
    addFormats(this.ajv);
    this.doc = closed(document) as Json;
    this.ajv.addSchema(this.doc, 'openapi');
  }

  /** The documented path template for a concrete path, if any. */
  operationPath(path: string): string | undefined {
    return Object.keys(this.doc.paths).find((template) => {
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return pattern.test(path);
    });
  }

  /** Every disagreement between the answer and the document (empty when it conforms). */
  check(answer: Answer): string[] {
    const problems: string[] = [];
    const path = new URL(answer.url, 'http://x').pathname;
    const template = this.operationPath(path);
    const contentType = (answer.headers.get('content-type') ?? '').split(';')[0].trim();

    let response: Json;
    let responsePointer: string;
    if (template === undefined) {
      // No operation at this path (an unknown path): the answer must still be a documented problem.
      if (answer.status !== 404) problems.push(`status ${answer.status} for a path the document does not have`);
      responsePointer = pointer('components', 'responses', 'NotFound');
      response = this.doc.components.responses.NotFound;
    } else {
      // HEAD is answered as GET; a method the path does not answer (405) is documented on each of its operations.
      const item = this.doc.paths[template] as Json;
      const wanted = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
      const method = wanted in item ? wanted : Object.keys(item)[0];
      if (method !== wanted && answer.status !== 405) return [`${answer.method} ${path}: the method is not documented`];
      const documented = item[method].responses[String(answer.status)];
      if (!documented) return [`${answer.method} ${path}: status ${answer.status} is not documented`];
      if (documented.$ref) {
        const name = String(documented.$ref).split('/').pop()!;
        responsePointer = pointer('components', 'responses', name);
        response = this.doc.components.responses[name];
      } else {
        responsePointer = pointer('paths', template, method, 'responses', String(answer.status));
        response = documented;
      }
    }

    const media = response.content?.[contentType];
    if (!media)
      problems.push(
        `content type ${contentType || '(none)'} is not documented for ${answer.status} (${Object.keys(response.content ?? {}).join(', ')})`,
      );
    else {
      const validate = this.ajv.getSchema(`openapi#/${responsePointer}/${pointer('content', contentType, 'schema')}`);
      // NDJSON: the schema describes each line.
      const bodies =
        contentType === 'application/x-ndjson' && typeof answer.body === 'string'
          ? answer.body
              .split('\n')
              .filter(Boolean)
              .map((line) => JSON.parse(line) as unknown)
          : [answer.body];
      if (!validate) problems.push('no schema');
      else {
        for (const [i, body] of bodies.entries()) {
          if (!validate(body)) {
            const where = bodies.length > 1 ? `line ${i + 1}` : 'body';
            problems.push(...(validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`));
          }
        }
      }
    }

    const documentedHeaders = new Map<string, Json>();
    for (const [name, h] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const header = h.$ref ? this.doc.components.headers[String(h.$ref).split('/').pop()!] : h;
      documentedHeaders.set(name.toLowerCase(), header);
    }
    for (const [name, header] of documentedHeaders) {
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      const typed =
        header.schema.type === 'integer' || header.schema.type === 'number'
          ? /^-?\d+(\.\d+)?$/.test(value)
            ? Number(value)
            : value
          : value;
      const validate = this.ajv.compile(header.schema);
      if (!validate(typed)) problems.push(`header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    }
    for (const name of API_HEADERS) {
      if (answer.headers.get(name) !== null && !documentedHeaders.has(name))
        problems.push(`header ${name} is sent but not documented for ${answer.status}`);
    }
    return problems;
  }

  /** Every disagreement between a request body and the schema the document gives it (`body` is one line for NDJSON). */
  checkRequestBody(template: string, method: string, mediaType: string, body: unknown): string[] {
    const at = pointer('paths', template, method.toLowerCase(), 'requestBody', 'content', mediaType, 'schema');
    const validate = this.ajv.getSchema(`openapi#/${at}`);
    if (!validate) return [`no request body schema for ${method} ${template} (${mediaType})`];
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `body${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
  }
}
