import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv) => void;

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema?: Json;
}

/** One operation of the description, with its path template and where its parts live. */
export interface Operation {
  operationId: string;
  method: string;
  template: string;
  pointer: string;
  parameters: { parameter: Parameter; pointer: string }[];
  definition: Json;
}

/** A request or response that does not match GitHub's OpenAPI description. */
export interface Violation {
  where: string;
  problem: string;
}

const require = createRequire(import.meta.url);

function escapePointer(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, "~0").replace(/\//g, "~1"));
}

/**
 * GitHub's published OpenAPI description (`@octokit/openapi`, api.github.com) compiled with
 * Ajv 8: finds the operation of a request and validates path parameters, query, request body
 * and response body against it.
 */
export class OpenApiValidator {
  readonly spec: Json & {
    paths: Record<string, Record<string, Json>>;
    components: Record<string, Record<string, Json>>;
  };
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: { regex: RegExp; names: string[]; template: string }[];

  constructor() {
    const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
    this.spec = JSON.parse(readFileSync(file, "utf8"));
    this.ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, logger: false });
    addFormats(this.ajv);
    this.ajv.addSchema(this.spec, "gh");
    this.routes = Object.keys(this.spec.paths).map((template) => {
      const names: string[] = [];
      const source = template
        .replace(/[.*+?^$()|[\]\\]/g, "\\$&")
        .replace(/\{([^}]+)\}/g, (_, name: string) => {
          names.push(name);
          return "([^/]+)";
        });
      return { regex: new RegExp(`^${source}$`), names, template };
    });
  }

  /** The operation for a method and concrete path, with decoded path parameters. */
  match(
    method: string,
    path: string,
  ): { operation: Operation; pathParams: Record<string, string> } | undefined {
    const lower = method.toLowerCase();
    // Literal segments beat parameters (e.g. `/issues/comments/{id}` over `/issues/{number}/…`).
    const candidates = this.routes
      .filter((route) => route.regex.test(path) && this.spec.paths[route.template][lower])
      .sort((a, b) => a.names.length - b.names.length);
    const route = candidates[0];
    if (!route) return undefined;
    const values = route.regex.exec(path)!.slice(1).map(decodeURIComponent);
    const pathParams = Object.fromEntries(route.names.map((name, index) => [name, values[index]]));
    const pointer = `gh#/paths/${escapePointer(route.template)}/${lower}`;
    const definition = this.spec.paths[route.template][lower] as Json;
    const parameters = ((definition.parameters as Json[] | undefined) ?? []).map((entry, index) => {
      if (typeof entry.$ref === "string") {
        const name = entry.$ref.split("/").pop()!;
        return {
          parameter: this.spec.components.parameters[name] as unknown as Parameter,
          pointer: `gh#/components/parameters/${escapePointer(name)}`,
        };
      }
      return {
        parameter: entry as unknown as Parameter,
        pointer: `${pointer}/parameters/${index}`,
      };
    });
    return {
      operation: {
        operationId: String(definition.operationId),
        method: lower,
        template: route.template,
        pointer,
        parameters,
        definition,
      },
      pathParams,
    };
  }

  private check(pointer: string, value: unknown): string | undefined {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(pointer);
      if (!validate) return `no schema at ${pointer}`;
      this.compiled.set(pointer, validate);
    }
    if (validate(value)) return undefined;
    const error = validate.errors?.[0];
    return `${error?.instancePath || "(root)"} ${error?.message ?? "invalid"} ${error?.params ? JSON.stringify(error.params) : ""}`.trim();
  }

  private coerce(schema: Json | undefined, raw: string): unknown {
    const type = schema?.type;
    if ((type === "integer" || type === "number") && /^-?\d+(\.\d+)?$/.test(raw))
      return Number(raw);
    if (type === "boolean" && (raw === "true" || raw === "false")) return raw === "true";
    return raw;
  }

  /** Every way a request breaks the description (empty when valid). */
  validateRequest(options: {
    operation: Operation;
    pathParams: Record<string, string>;
    query: URLSearchParams;
    body: unknown;
  }): Violation[] {
    const { operation } = options;
    const where = `${operation.method.toUpperCase()} ${operation.template} (${operation.operationId}) request`;
    const violations: Violation[] = [];
    const known = new Set<string>();
    for (const { parameter, pointer } of operation.parameters) {
      if (parameter.in !== "path" && parameter.in !== "query") continue;
      known.add(`${parameter.in}:${parameter.name}`);
      const raw =
        parameter.in === "path"
          ? options.pathParams[parameter.name]
          : (options.query.get(parameter.name) ?? undefined);
      if (raw === undefined) {
        if (parameter.required)
          violations.push({
            where,
            problem: `missing required ${parameter.in} parameter '${parameter.name}'`,
          });
        continue;
      }
      const problem = this.check(`${pointer}/schema`, this.coerce(parameter.schema, raw));
      if (problem)
        violations.push({
          where,
          problem: `${parameter.in} parameter '${parameter.name}'=${JSON.stringify(raw)}: ${problem}`,
        });
    }
    for (const name of options.query.keys()) {
      if (!known.has(`query:${name}`))
        violations.push({ where, problem: `unknown query parameter '${name}'` });
    }
    const requestBody = operation.definition.requestBody as
      | { required?: boolean; content?: Record<string, unknown> }
      | undefined;
    if (options.body === undefined) {
      if (requestBody?.required)
        violations.push({ where, problem: "missing required request body" });
    } else if (!requestBody?.content?.["application/json"]) {
      violations.push({ where, problem: "a body was sent to an operation that takes none" });
    } else {
      const problem = this.check(
        `${operation.pointer}/requestBody/content/application~1json/schema`,
        options.body,
      );
      if (problem) violations.push({ where, problem: `body ${problem}` });
    }
    return violations;
  }

  /** Every way a response breaks the description (empty when valid). */
  validateResponse(options: { operation: Operation; status: number; body: unknown }): Violation[] {
    const { operation, status } = options;
    const where = `${operation.method.toUpperCase()} ${operation.template} (${operation.operationId}) response ${status}`;
    const responses = operation.definition.responses as Record<string, Json>;
    let entry = responses[String(status)];
    let pointer = `${operation.pointer}/responses/${status}`;
    if (!entry) {
      // GitHub answers these on any operation (missing permission, gateway failures) though the
      // description lists them only where they are common; their body is then GitHub's generic one.
      const generic = status === 422 ? "validation-error" : "basic-error";
      if (![401, 403, 404, 422, 500, 502, 503, 504].includes(status))
        return [{ where, problem: `status ${status} is not documented for this operation` }];
      const problem = this.check(`gh#/components/schemas/${generic}`, options.body);
      return problem ? [{ where, problem: `body ${problem}` }] : [];
    }
    if (typeof entry.$ref === "string") {
      const name = entry.$ref.split("/").pop()!;
      entry = this.spec.components.responses[name];
      pointer = `gh#/components/responses/${escapePointer(name)}`;
    }
    const content = entry.content as Record<string, unknown> | undefined;
    if (!content?.["application/json"]) {
      if (options.body === undefined) return [];
      // Errors documented without a body still carry GitHub's generic one in reality.
      if (status >= 400) {
        const generic = status === 422 ? "validation-error" : "basic-error";
        const problem = this.check(`gh#/components/schemas/${generic}`, options.body);
        return problem ? [{ where, problem: `body ${problem}` }] : [];
      }
      return [{ where, problem: "a body was sent for a response documented without one" }];
    }
    const problem = this.check(`${pointer}/content/application~1json/schema`, options.body);
    return problem ? [{ where, problem: `body ${problem}` }] : [];
  }

  /** A deep copy of a component example (`components.examples[name].value`). */
  example<T = Json>(name: string): T {
    const example = this.spec.components.examples[name];
    if (!example) throw new Error(`no example named '${name}' in the OpenAPI description`);
    return structuredClone(example.value) as T;
  }
}
