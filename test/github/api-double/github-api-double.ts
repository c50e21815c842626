import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { combinedState, emptyRepoState, type RepoState } from "./github-state.js";
import { OpenApiValidator, type Operation, type Violation } from "./openapi-validator.js";
import {
  renderCombinedStatus,
  renderComment,
  renderLabels,
  renderPull,
  renderPullSimple,
  renderRepository,
  renderStatus,
} from "./render-responses.js";

/** A canned failure the next matching request gets instead of the normal answer. */
export interface Fault {
  operationId: string;
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** How many requests it answers (default 1). */
  times?: number;
  /** Only requests whose query has these values (e.g. `{ state: "open" }`). */
  query?: Record<string, string>;
  /**
   * Do the request first, then answer with the fault: GitHub sometimes finishes a write and
   * still answers 5xx (a gateway timeout), which is what makes blind retries post twice.
   */
  afterHandling?: boolean;
}

/** One request the double saw. */
export interface RecordedRequest {
  method: string;
  path: string;
  operationId?: string;
  body: unknown;
  status: number;
}

type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
type Handler = (request: {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
}) => Reply;

let validator: OpenApiValidator | undefined;
function sharedValidator(): OpenApiValidator {
  validator ??= new OpenApiValidator();
  return validator;
}

const documentation = "https://docs.github.com/rest";

/**
 * A stateful GitHub REST API on 127.0.0.1 for the endpoints the Action uses (pulls, issue
 * comments, labels, review requests, commit statuses, repository). Every request and every
 * response is validated against GitHub's OpenAPI description; the first violation is kept and
 * `assertValid()` throws it, and an invalid request is answered 400 so the caller fails too.
 */
export class GitHubApiDouble {
  readonly state: RepoState;
  readonly token: string;
  readonly violations: Violation[] = [];
  readonly requests: RecordedRequest[] = [];
  private readonly faults: Fault[] = [];
  private readonly validator = sharedValidator();
  private server?: Server;
  private clock = Date.parse("2026-01-05T10:00:00Z");
  private nextId = 1000;
  /** Resolves a branch to its head sha (the bare remote); undefined when it does not exist. */
  branchSha: (branch: string) => string | undefined = () =>
    "0000000000000000000000000000000000000000";

  constructor(
    options: { owner?: string; repo?: string; defaultBranch?: string; token?: string } = {},
  ) {
    this.state = emptyRepoState({
      owner: options.owner ?? "octo-org",
      repo: options.repo ?? "agent",
      defaultBranch: options.defaultBranch,
    });
    this.token = options.token ?? "ghs_doubletoken0123456789";
  }

  /** Base URL to put in GITHUB_API_URL. */
  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error("double not started");
    return `http://127.0.0.1:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: Error) => {
        this.violations.push({ where: "double", problem: `handler crashed: ${error.stack}` });
        response.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  /** Answer the next `times` requests of an operation with a fault. */
  inject(fault: Fault): void {
    this.faults.push({ ...fault, times: fault.times ?? 1 });
  }

  /** Throw the first OpenAPI violation seen, if any. */
  assertValid(): void {
    if (this.violations.length > 0) {
      const first = this.violations[0];
      throw new Error(
        `GitHub API double: ${first.where}: ${first.problem} (${this.violations.length} violation(s))`,
      );
    }
  }

  /** Requests of one operation. */
  calls(operationId: string): RecordedRequest[] {
    return this.requests.filter((request) => request.operationId === operationId);
  }

  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = request.method ?? "GET";
    const record: RecordedRequest = { method, path: url.pathname, body: undefined, status: 0 };
    this.requests.push(record);
    const send = (reply: Reply, operation?: Operation) => {
      record.status = reply.status;
      if (operation)
        this.violations.push(
          ...this.validator.validateResponse({ operation, status: reply.status, body: reply.body }),
        );
      response.writeHead(reply.status, {
        "content-type": "application/json; charset=utf-8",
        ...reply.headers,
      });
      response.end(reply.body === undefined ? undefined : JSON.stringify(reply.body));
    };
    let body: unknown;
    if (text !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        this.violations.push({
          where: `${method} ${url.pathname}`,
          problem: "request body is not JSON",
        });
        return send({ status: 400, body: { message: "Problems parsing JSON" } });
      }
    }
    record.body = body;
    const matched = this.validator.match(method, url.pathname);
    if (!matched) {
      this.violations.push({
        where: `${method} ${url.pathname}`,
        problem: "no such operation in the OpenAPI description",
      });
      return send({ status: 404, body: { message: "Not Found" } });
    }
    const { operation, pathParams } = matched;
    record.operationId = operation.operationId;
    const requestViolations = this.validator.validateRequest({
      operation,
      pathParams,
      query: url.searchParams,
      body,
    });
    if (requestViolations.length > 0) {
      this.violations.push(...requestViolations);
      return send({
        status: 400,
        body: { message: `invalid request: ${requestViolations[0].problem}` },
      });
    }
    if (
      request.headers.authorization !== `token ${this.token}` &&
      request.headers.authorization !== `Bearer ${this.token}`
    ) {
      return send({
        status: 401,
        body: { message: "Bad credentials", documentation_url: documentation },
      });
    }
    if (pathParams.owner !== this.state.owner || pathParams.repo !== this.state.repo) {
      this.violations.push({
        where: operation.operationId,
        problem: `request for another repository ${pathParams.owner}/${pathParams.repo}`,
      });
      return send({
        status: 404,
        body: { message: "Not Found", documentation_url: documentation },
      });
    }
    const fault = this.faults.find(
      (candidate) =>
        candidate.operationId === operation.operationId &&
        (candidate.times ?? 0) > 0 &&
        Object.entries(candidate.query ?? {}).every(
          ([name, value]) => url.searchParams.get(name) === value,
        ),
    );
    const handler = this.handlers[operation.operationId];
    if (fault) {
      fault.times = (fault.times ?? 1) - 1;
      if (fault.afterHandling && handler)
        handler({
          params: pathParams,
          query: url.searchParams,
          body: (body ?? {}) as Record<string, unknown>,
        });
      return send({ status: fault.status, body: fault.body, headers: fault.headers }, operation);
    }
    if (!handler) {
      this.violations.push({
        where: operation.operationId,
        problem: "the double does not implement this operation",
      });
      return send({ status: 501, body: { message: "not implemented by the double" } });
    }
    send(
      handler({
        params: pathParams,
        query: url.searchParams,
        body: (body ?? {}) as Record<string, unknown>,
      }),
      operation,
    );
  }

  private notFound(): Reply {
    return { status: 404, body: { message: "Not Found", documentation_url: documentation } };
  }

  private pull(number: string) {
    return this.state.pulls.find((pull) => pull.number === Number(number));
  }

  private readonly handlers: Record<string, Handler> = {
    "repos/get": () => ({ status: 200, body: renderRepository(this.validator, this.state) }),
    "pulls/list": ({ query }) => {
      const state = query.get("state") ?? "open";
      const head = query.get("head");
      const base = query.get("base");
      const pulls = this.state.pulls.filter(
        (pull) =>
          (state === "all" || pull.state === state) &&
          (!head || head === `${this.state.owner}:${pull.head}`) &&
          (!base || base === pull.base),
      );
      return {
        status: 200,
        body: pulls.map((pull) =>
          renderPullSimple(this.validator, this.state, pull, this.branchSha(pull.head)),
        ),
      };
    },
    "pulls/create": ({ body }) => {
      const head = String(body.head ?? "").replace(`${this.state.owner}:`, "");
      if (this.state.pulls.some((pull) => pull.state === "open" && pull.head === head)) {
        return {
          status: 422,
          body: {
            message: "Validation Failed",
            errors: [
              {
                resource: "PullRequest",
                code: "custom",
                message: `A pull request already exists for ${this.state.owner}:${head}.`,
              },
            ],
            documentation_url: documentation,
          },
        };
      }
      if (!this.branchSha(head)) {
        return {
          status: 422,
          body: {
            message: "Validation Failed",
            errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
            documentation_url: documentation,
          },
        };
      }
      const now = this.now();
      const pull = {
        number: this.state.pulls.length + 1,
        state: "open" as const,
        title: String(body.title),
        body: String(body.body ?? ""),
        head,
        base: String(body.base),
        draft: body.draft === true,
        labels: [],
        reviewers: [],
        teamReviewers: [],
        createdAt: now,
        updatedAt: now,
      };
      this.state.pulls.push(pull);
      return {
        status: 201,
        body: renderPull(this.validator, this.state, pull, this.branchSha(head)),
      };
    },
    "pulls/get": ({ params }) => {
      const pull = this.pull(params.pull_number);
      return pull
        ? {
            status: 200,
            body: renderPull(this.validator, this.state, pull, this.branchSha(pull.head)),
          }
        : this.notFound();
    },
    "pulls/update": ({ params, body }) => {
      const pull = this.pull(params.pull_number);
      if (!pull) return this.notFound();
      if (typeof body.title === "string") pull.title = body.title;
      if (typeof body.body === "string") pull.body = body.body;
      if (body.state === "open" || body.state === "closed") pull.state = body.state;
      if (typeof body.base === "string") pull.base = body.base;
      pull.updatedAt = this.now();
      return {
        status: 200,
        body: renderPull(this.validator, this.state, pull, this.branchSha(pull.head)),
      };
    },
    "pulls/request-reviewers": ({ params, body }) => {
      const pull = this.pull(params.pull_number);
      if (!pull) return this.notFound();
      for (const login of (body.reviewers as string[] | undefined) ?? [])
        if (!pull.reviewers.includes(login)) pull.reviewers.push(login);
      for (const slug of (body.team_reviewers as string[] | undefined) ?? [])
        if (!pull.teamReviewers.includes(slug)) pull.teamReviewers.push(slug);
      return {
        status: 201,
        body: renderPullSimple(this.validator, this.state, pull, this.branchSha(pull.head)),
      };
    },
    "issues/add-labels": ({ params, body }) => {
      const pull = this.pull(params.issue_number);
      if (!pull) return this.notFound();
      const labels = Array.isArray(body) ? body : ((body.labels as unknown[]) ?? []);
      for (const label of labels) {
        const name = typeof label === "string" ? label : String((label as { name: string }).name);
        if (!pull.labels.includes(name)) pull.labels.push(name);
      }
      return { status: 200, body: renderLabels(this.validator, this.state, pull.labels) };
    },
    "issues/list-comments": ({ params, query }) => {
      if (!this.pull(params.issue_number)) return this.notFound();
      const perPage = Number(query.get("per_page") ?? 30);
      const page = Number(query.get("page") ?? 1);
      const all = this.state.comments.filter(
        (comment) => comment.issueNumber === Number(params.issue_number),
      );
      const slice = all.slice((page - 1) * perPage, page * perPage);
      return {
        status: 200,
        body: slice.map((comment) => renderComment(this.validator, this.state, comment)),
      };
    },
    "issues/create-comment": ({ params, body }) => {
      if (!this.pull(params.issue_number)) return this.notFound();
      const now = this.now();
      const comment = {
        id: this.nextId++,
        issueNumber: Number(params.issue_number),
        body: String(body.body),
        createdAt: now,
        updatedAt: now,
      };
      this.state.comments.push(comment);
      return { status: 201, body: renderComment(this.validator, this.state, comment) };
    },
    "issues/update-comment": ({ params, body }) => {
      const comment = this.state.comments.find(
        (candidate) => candidate.id === Number(params.comment_id),
      );
      if (!comment)
        return {
          status: 422,
          body: { message: "Validation Failed", documentation_url: documentation },
        };
      comment.body = String(body.body);
      comment.updatedAt = this.now();
      return { status: 200, body: renderComment(this.validator, this.state, comment) };
    },
    "repos/get-combined-status-for-ref": ({ params }) => {
      const sha = this.branchSha(params.ref) ?? params.ref;
      const combined = combinedState(this.state.statuses, sha);
      return {
        status: 200,
        body: renderCombinedStatus(this.validator, this.state, combined, sha),
      };
    },
    "repos/create-commit-status": ({ params, body }) => {
      const status = {
        id: this.nextId++,
        sha: params.sha,
        state: body.state as "success",
        context: typeof body.context === "string" ? body.context : "default",
        description: typeof body.description === "string" ? body.description : null,
        targetUrl: typeof body.target_url === "string" ? body.target_url : null,
      };
      this.state.statuses.push(status);
      return { status: 201, body: renderStatus(this.validator, this.state, status) };
    },
  };
}
